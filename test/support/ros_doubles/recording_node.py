# Copyright 2026 bluerobotics_parts contributors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""
Recorder for the ROS programs a launch starts: records how launch started it, then runs it.

Fronts robot_state_publisher, ros_gz_bridge's parameter_bridge, ros_gz_sim's create, rviz2
and joint_state_publisher_gui. It is a real rclpy node: it parses the real ``--ros-args``
launch_ros gives (node name and namespace remaps, topic remaps, ``--params-file`` files,
global parameters), and writes what it got to
``$BLUEROBOTICS_PARTS_TEST_RECORDS/<package>.<executable>.<pid>.json``: the command line, the
node's name, namespace, parameters, the names its topics resolve to, the parameter files and
the files named on the command line.

With ``--real PATH`` (the program is installed: test/support/ros_support.py found it on the ament
index) it then replaces itself with the real program, same arguments, same pid. Without, it is
the test double: what the real program would do with its arguments (publish TF, bridge, spawn,
draw) stays unverified (docs/LIMITATIONS.md). Like the real create, the create double exits 0
once it has "spawned"; the others run until SIGINT or SIGTERM and then exit 0. Neither waits on
Fast DDS's own teardown: on a loaded machine destroying the participant has stalled past launch's
5 s SIGINT timeout (seen in CI), which says nothing about the program a double stands in for.
So a double leaves with ``os._exit`` once its record is written (create) or once it is told to
stop, after at most ``TEARDOWN_BUDGET`` seconds of orderly shutdown; a recorder hands over to
the real program after at most that long too.

    recording_node.py [--real PATH] PACKAGE EXECUTABLE [ARGUMENTS...]
"""

import json
import os
from pathlib import Path
import signal
import sys
import threading
import time

# The topics each program subscribes or publishes with a relative name: what they resolve to
# (after the launch's remaps and namespace) is recorded.
TOPICS = {
    'robot_state_publisher': ('joint_states', 'robot_description'),
    'joint_state_publisher_gui': ('joint_states', 'robot_description'),
    'parameter_bridge': (),
    'create': ('robot_description',),
    'rviz2': (),
}
ONE_SHOT = {'create'}  # exits by itself, as the real ros_gz_sim create does after spawning
FILE_OPTIONS = ('-file', '-d')  # options whose value is a file the program reads
TEARDOWN_BUDGET = 1.0  # s of orderly shutdown before leaving anyway (launch waits 5 s)


def files_named(arguments, parameters) -> dict:
    """Return the text of every file the command line or a parameter names."""
    paths = [arguments[i + 1] for i, a in enumerate(arguments[:-1]) if a in FILE_OPTIONS]
    if isinstance(parameters.get('config_file'), str):
        paths.append(parameters['config_file'])
    found = {}
    for path in paths:
        try:
            found[path] = Path(path).read_text(encoding='utf-8')
        except OSError as error:
            found[path] = f'<unreadable: {error}>'
    return found


def params_files(arguments) -> dict:
    """Return the text of every --params-file (launch_ros deletes them when it stops)."""
    found = {}
    for i, argument in enumerate(arguments[:-1]):
        if argument == '--params-file':
            found[arguments[i + 1]] = Path(arguments[i + 1]).read_text(encoding='utf-8')
    return found


def record(folder: Path, data: dict) -> None:
    """Write one record atomically, so a reader never sees half of it."""
    target = folder / f"{data['package']}.{data['executable']}.{data['pid']}.json"
    partial = target.with_suffix('.partial')
    partial.write_text(json.dumps(data, indent=1, sort_keys=True), encoding='utf-8')
    partial.replace(target)


def main(argv) -> None:
    real = None
    if argv[1] == '--real':
        real, argv = argv[2], argv[:1] + argv[3:]
    package, executable, arguments = argv[1], argv[2], argv[3:]
    stop = []  # Python runs signal handlers in the main thread, whichever thread got it

    def stopping(*_):
        stop.append(True)
        for number in (signal.SIGINT, signal.SIGTERM):  # as node_runner.StopRequest does
            signal.signal(number, signal.SIG_IGN)

    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, stopping)
    import rclpy
    from rclpy.node import Node
    from rclpy.signals import SignalHandlerOptions

    raw_params = params_files(arguments)
    rclpy.init(args=[executable, *arguments], signal_handler_options=SignalHandlerOptions.NO)
    node = Node(executable, allow_undeclared_parameters=True,
                automatically_declare_parameters_from_overrides=True)
    parameters = {name: parameter.value for name, parameter in node._parameters.items()}
    data = {
        'package': package, 'executable': executable, 'pid': os.getpid(),
        'arguments': arguments,
        'user_arguments': rclpy.utilities.remove_ros_args([executable, *arguments])[1:],
        'name': node.get_name(), 'namespace': node.get_namespace(),
        'fully_qualified_name': node.get_fully_qualified_name(),
        'parameters': parameters,
        'resolved_topics': {t: node.resolve_topic_name(t) for t in TOPICS.get(executable, ())},
        'params_files': raw_params,
        'files': files_named(arguments, parameters),
    }
    record(Path(os.environ['BLUEROBOTICS_PARTS_TEST_RECORDS']), data)
    if real:
        hand_over = threading.Lock()

        def run_real():
            if hand_over.acquire(blocking=False):
                sys.stdout.flush()
                sys.stderr.flush()
                os.execv(real, [real, *arguments])

        watchdog = threading.Timer(TEARDOWN_BUDGET, run_real)
        watchdog.daemon = True
        watchdog.start()
        node.destroy_node()
        rclpy.try_shutdown()
        for number in (signal.SIGINT, signal.SIGTERM):
            signal.signal(number, signal.SIG_DFL)
        if stop:  # told to stop while recording: the real program never started
            leave()
        run_real()
        watchdog.join()
    if executable in ONE_SHOT:
        leave()
    while not stop:
        time.sleep(0.05)
    stopping()
    watchdog = threading.Timer(TEARDOWN_BUDGET, leave)
    watchdog.daemon = True
    watchdog.start()
    node.destroy_node()
    rclpy.try_shutdown()
    leave()


def leave() -> None:
    """Exit 0 now, without the interpreter's and Fast DDS's teardown (module doc)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == '__main__':
    main(sys.argv)
