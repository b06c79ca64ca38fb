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
What the ROS tests need: the ROS pieces, the programs a launch starts, a launch runner.

Found as a sourced ROS 2 Jazzy install provides them, nothing project-specific to set: rclpy
and the messages importable (a Jazzy install, or PyPI's ros-jazzy-* wheels that
tools/setup_ros.sh installs), the launch stack (launch, launch_ros, ros2launch) importable,
``ros2`` on PATH, ros_gz_sim's gz_sim.launch.py through the ament index. A missing piece skips
the test with a reason naming it and how to get it; a piece PyPI provides (rclpy, the
messages, the ament linters) fails the test where it is missing: the set-up installs it.

The programs a launch starts (robot_state_publisher, parameter_bridge, create, rviz2,
joint_state_publisher_gui, gz) are each fronted by a recorder in the test's ament prefix
(test/support/ros_doubles/): it records how launch started the program, then runs the real one
where the ament index (PATH for gz) has it, or stands in for it where it is absent. The
composition_interfaces module launch_ros imports is a double only where the real one is absent.
"""

from __future__ import annotations

import collections
import functools
import json
import os
from pathlib import Path
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

import pytest

REPO = Path(__file__).resolve().parents[2]
DOUBLES = Path(__file__).resolve().parent / 'ros_doubles'
RECORDS_ENV = 'BLUEROBOTICS_PARTS_TEST_RECORDS'
REAL_GZ_ENV = 'BLUEROBOTICS_PARTS_TEST_REAL_GZ'  # the gz recorder forwards to this gz
# (package, executable) of every program a recorder fronts
DOUBLE_PROGRAMS = (
    ('robot_state_publisher', 'robot_state_publisher'),
    ('ros_gz_bridge', 'parameter_bridge'),
    ('ros_gz_sim', 'create'),
    ('rviz2', 'rviz2'),
    ('joint_state_publisher_gui', 'joint_state_publisher_gui'),
)
GUI_PROGRAMS = frozenset({'rviz2', 'joint_state_publisher_gui'})  # need a display to run
PACKAGE = 'bluerobotics_parts'
PACKAGE_DATA = ('package.xml', 'urdf', 'meshes', 'config')
GET_ROS = ('install ROS 2 Jazzy (https://docs.ros.org/en/jazzy/Installation.html) and run the '
           'tests in a shell that sourced /opt/ros/jazzy/setup.bash')
GET_ROS_GZ = ('install ros-jazzy-ros-gz (with Gazebo Harmonic) and source '
              '/opt/ros/jazzy/setup.bash')


def unavailable(reason: str):
    """Skip the test: a piece it needs is not installed here (the reason says which)."""
    pytest.skip(reason)


def unavailable_module(reason: str):
    """Skip the whole module, at import, with the reason."""
    pytest.skip(reason, allow_module_level=True)


def installable(reason: str):
    """Fail the test: a piece PyPI provides is missing, so the set-up did not run or broke."""
    pytest.fail(f'{reason}: tools/setup.sh test installs it from PyPI (or {GET_ROS})',
                pytrace=False)


def require_rclpy():
    """Return rclpy; fail when it or sensor_msgs is missing (PyPI has both)."""
    try:
        import rclpy
        import sensor_msgs.msg  # noqa: F401
    except ImportError as error:
        installable(f'needs ROS 2 rclpy and sensor_msgs ({error})')
    return rclpy


@functools.lru_cache(maxsize=None)
def launch_stack_missing() -> str | None:
    """Why the launch stack cannot be imported here (None when it can)."""
    if str(DOUBLES) not in sys.path:  # composition_interfaces, after any real one
        sys.path.append(str(DOUBLES))
    try:
        import launch
        import launch_ros.actions  # noqa: F401
        import ros2launch  # noqa: F401
    except ImportError as error:
        return (f'needs the ROS 2 launch stack (launch, launch_ros, ros2launch), not importable '
                f'by {sys.executable} ({error}); it is not on PyPI: {GET_ROS}')
    if not hasattr(launch, 'LaunchDescription'):  # PyPI's "launch" is another project
        return (f'needs the ROS 2 launch stack, but the "launch" module at {launch.__file__} is '
                f"another project (PyPI's launch): uninstall it and {GET_ROS}")
    return None


def gz_sim_launch_file() -> Path | None:
    """Return ros_gz_sim's gz_sim.launch.py as the ament index finds it, else None."""
    try:
        from ament_index_python.packages import get_package_share_directory
        share = Path(get_package_share_directory('ros_gz_sim'))
    except (ImportError, LookupError, ValueError):
        return None
    found = share / 'launch' / 'gz_sim.launch.py'
    return found if found.is_file() else None


def require_launch() -> Path:
    """Skip unless the launch stack, ros2 and ros_gz_sim are here; return gz_sim.launch.py."""
    require_rclpy()
    reason = launch_stack_missing()
    if reason:
        unavailable(reason)
    if not executable('ros2'):
        unavailable(f'needs the ros2 command (ros2cli) on PATH: {GET_ROS}')
    gz_sim_launch = gz_sim_launch_file()
    if gz_sim_launch is None:
        unavailable(f"needs ros_gz_sim's gz_sim.launch.py on the ament index: {GET_ROS_GZ}")
    if not executable('ruby'):
        from conftest import skip_if_set_up_without

        skip_if_set_up_without('ruby')  # the set-up could not install it, and said why
        pytest.fail('needs ruby for the gz recorder (test/support/ros_doubles/gz): tools/setup.sh '
                    'test installs it from Debian (apt install ruby)', pytrace=False)
    return gz_sim_launch


def executable(name: str) -> str | None:
    """Return a program beside this Python (the venv) or on PATH."""
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name)


def _script(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding='utf-8')
    path.chmod(0o755)


def _register(prefix: Path, package: str) -> None:
    marker = prefix / 'share' / 'ament_index' / 'resource_index' / 'packages' / package
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text('', encoding='utf-8')


def installed_prefix() -> Path | None:
    """
    Return the ament prefix of an installed bluerobotics_parts (under colcon test), else None.

    There the launch tests run the installed package: its share folder (launch files, data,
    package.xml) and its scan_to_range entry point.
    """
    for entry in os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep):
        entry = Path(entry) if entry else None
        if entry and (entry / 'share' / 'ament_index' / 'resource_index' / 'packages' /
                      PACKAGE).is_file() and (entry / 'lib' / PACKAGE / 'scan_to_range').exists():
            return entry
    return None


def package_share() -> Path:
    """Return the share folder the launched package reads its data from."""
    installed = installed_prefix()
    return installed / 'share' / PACKAGE if installed else REPO


def headless_world(folder: Path) -> Path:
    """
    Return the shipped water world without its Sensors system, written into ``folder``.

    Without a render engine (a headless Gazebo build) that system takes the server down with
    it (a segmentation fault in RenderUtil::Init, gz-sim 8.14): launches with the real gz pass
    this as ``world:=`` so the rest of the world is as shipped.
    """
    from xml.etree import ElementTree

    tree = ElementTree.parse(REPO / 'config' / 'worlds' / 'water.sdf')
    world = tree.getroot().find('world')
    for plugin in world.findall('plugin'):
        if plugin.get('name') == 'gz::sim::systems::Sensors':
            world.remove(plugin)
    path = folder / 'water_headless.sdf'
    tree.write(path, encoding='unicode')
    return path


def real_program(package: str, program: str) -> Path | None:
    """Return the real executable of a ROS package as the ament index finds it, else None."""
    for entry in os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep):
        candidate = Path(entry) / 'lib' / package / program if entry else None
        if candidate and candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def has_display() -> bool:
    """Return whether a GUI program could open a window here."""
    return bool(os.environ.get('DISPLAY') or os.environ.get('WAYLAND_DISPLAY'))


def programs_to_run() -> dict:
    """
    Return what each recorder runs after recording: program -> the real path, or None.

    The real program where the ament index has it (a GUI program only with a display); gz:
    a Harmonic ``gz`` on PATH when the real ``create`` runs (a real spawn needs a real world).
    """
    chosen = {}
    for package, program in DOUBLE_PROGRAMS:
        real = real_program(package, program)
        if real and program in GUI_PROGRAMS and not has_display():
            real = None
        chosen[program] = str(real) if real else None
    import gz_support

    chosen['gz'] = gz_support.harmonic_gz() if chosen['create'] else None
    return chosen


def make_prefix(prefix: Path, doubles: bool = True) -> Path:
    """
    Lay out an ament prefix with this package, ros_gz_sim's launch files and the recorders.

    bluerobotics_parts: its share folder holds links to this checkout's data, so
    ``<share>/..`` (package.xml's gazebo_model_path) has a ``bluerobotics_parts/meshes``;
    scan_to_range is the real node from this checkout. ros_gz_sim: the installed launch files.
    Every program a launch starts is fronted by a recorder (recording_node.py; ``bin/gz`` the
    Ruby one) that, after recording, runs what ``programs_to_run`` chose, or stands in for it;
    the choice is written to ``<prefix>/recorders.json``. Without ``doubles``:
    this package alone. Where the package is installed (installed_prefix), the prefix leaves it
    out and the installed one runs.
    """
    if doubles:
        chosen = programs_to_run()
        for package, program in DOUBLE_PROGRAMS:
            command = [sys.executable, str(DOUBLES / 'recording_node.py'),
                       *(['--real', chosen[program]] if chosen[program] else []), package, program]
            _register(prefix, package)
            _script(prefix / 'lib' / package / program,
                    f'#!/bin/sh\nexec {shlex.join(command)} "$@"\n')
        _ros_gz_sim(prefix, require_launch())
        (prefix / 'bin').mkdir(parents=True, exist_ok=True)
        (prefix / 'bin' / 'gz').symlink_to(DOUBLES / 'gz')
        (prefix / 'recorders.json').write_text(json.dumps(chosen, indent=1), encoding='utf-8')
    if installed_prefix() is None:
        _this_checkout(prefix)
    return prefix


def recorders(prefix: Path) -> dict:
    """Return what each recorder of a prefix runs: program -> the real path, or None."""
    try:
        return json.loads((prefix / 'recorders.json').read_text(encoding='utf-8'))
    except FileNotFoundError:
        return {}


def _this_checkout(prefix: Path) -> None:
    """Register this checkout in the prefix, its data linked, its converter nodes run from it."""
    _register(prefix, PACKAGE)
    share = prefix / 'share' / PACKAGE
    share.mkdir(parents=True, exist_ok=True)
    for name in PACKAGE_DATA:
        (share / name).symlink_to(REPO / name)
    (share / 'launch').mkdir()  # ros2 launch walks the share folder without following links
    for launch_file in (REPO / 'launch').glob('*.launch.py'):
        (share / 'launch' / launch_file.name).symlink_to(launch_file)
    for program, module in _node_scripts():
        _script(prefix / 'lib' / PACKAGE / program,
                f'#!/bin/sh\nexec {sys.executable} -m {module} "$@"\n')


def _node_scripts() -> list:
    """Return (program, module) of each ROS node setup.py installs: the console scripts of ros/."""
    found = re.findall(r"'([\w-]+) = (bluerobotics_parts\.ros\.[\w.]+):main'",
                       (REPO / 'setup.py').read_text(encoding='utf-8'))
    assert found, 'setup.py names no node under bluerobotics_parts.ros'
    return found


def _ros_gz_sim(prefix: Path, gz_sim_launch: Path) -> None:
    """Register ros_gz_sim here (for the create recorder) with the installed launch files."""
    _register(prefix, 'ros_gz_sim')
    launch_dir = prefix / 'share' / 'ros_gz_sim' / 'launch'
    launch_dir.mkdir(parents=True, exist_ok=True)
    for installed in gz_sim_launch.parent.iterdir():
        (launch_dir / installed.name).symlink_to(installed)


#: This test process's ROS domain, shared by every launch it starts (a second vehicle joins the
#: first's graph, as on a user's machine), apart from other test runs on the machine. Within
#: 1 to 101: on Linux higher IDs reach into the ephemeral ports (docs.ros.org, Jazzy, Concepts,
#: "The ROS_DOMAIN_ID": "choose a domain ID between 0 and 101, inclusive").
DOMAIN_ID = random.randint(1, 101)


def ros_environment(prefix: Path, records: Path, ros_home: Path) -> dict:
    """
    Return the environment a launch runs in: the prefix first, the recorders, loopback DDS.

    GZ_SIM_RESOURCE_PATH is removed, so what reaches gz comes from the launch alone. A ROS domain
    (DOMAIN_ID) and a gz partition per test process keep concurrent test runs on this machine
    apart; two launches of one test share both, so the second finds the first's world and
    graph.
    """
    env = {k: v for k, v in os.environ.items() if k != 'GZ_SIM_RESOURCE_PATH'}
    env['AMENT_PREFIX_PATH'] = os.pathsep.join(
        [str(prefix)] + [p for p in env.get('AMENT_PREFIX_PATH', '').split(os.pathsep) if p])
    env['PATH'] = os.pathsep.join([str(prefix / 'bin'), str(Path(sys.executable).parent),
                                   env.get('PATH', '/usr/bin:/bin')])
    own = [] if installed_prefix() else [str(REPO)]  # else colcon's PYTHONPATH has it
    env['PYTHONPATH'] = os.pathsep.join(
        own + [p for p in env.get('PYTHONPATH', '').split(os.pathsep) if p] + [str(DOUBLES)])
    import gz_support  # gz's Python systems (the ESC system) see the tests' packages too

    env['PYTHONPATH'] = gz_support.python_path_for_gz(env['PYTHONPATH'])
    real_gz = recorders(prefix).get('gz')
    if real_gz:
        env[REAL_GZ_ENV] = real_gz
    env.update({RECORDS_ENV: str(records), 'ROS_HOME': str(ros_home),
                'GZ_IP': '127.0.0.1', 'GZ_PARTITION': f'bluerobotics_parts_test_{os.getpid()}',
                'ROS_DOMAIN_ID': str(DOMAIN_ID),
                'ROS_AUTOMATIC_DISCOVERY_RANGE': 'LOCALHOST', 'PYTHONUNBUFFERED': '1',
                'RCUTILS_COLORIZED_OUTPUT': '0'})
    env.pop('ROS_LOCALHOST_ONLY', None)  # deprecated in Jazzy in favour of the range above
    return env


#: Waits until every node named on its command line answers (LaunchRun._settle): a call to
#: its list_parameters service, which only a live node answers (the recorder that ran under
#: the same name before its exec may linger in the graph a while).
GRAPH_PROBE = """
import sys, time
import rclpy
from rcl_interfaces.srv import ListParameters
seconds, waiting = float(sys.argv[1]), list(sys.argv[2:])
rclpy.init()
node = rclpy.create_node('launch_test_graph_probe', enable_rosout=False,
                         start_parameter_services=False)
deadline = time.monotonic() + max(seconds, 5.0)
while waiting and time.monotonic() < deadline:
    client = node.create_client(ListParameters, waiting[0] + '/list_parameters')
    if client.wait_for_service(timeout_sec=1.0):
        future = client.call_async(ListParameters.Request())
        rclpy.spin_until_future_complete(node, future, timeout_sec=1.0)
        if future.done() and future.result() is not None:
            waiting.pop(0)
    node.destroy_client(client)
print(waiting)
sys.exit(1 if waiting else 0)
"""


class LaunchRun:
    """
    One ``ros2 launch`` as a user runs it, in its own session (a terminal's process group).

    ``interrupt`` sends SIGINT to the whole group, as a terminal's Ctrl-C does: every process
    gets it from the terminal, and launch then sends its own.
    """

    def __init__(self, folder: Path, prefix: Path, *arguments, records: Path | None = None):
        folder.mkdir(parents=True, exist_ok=True)
        self.real = {program for program, path in recorders(prefix).items() if path}
        self.records = records or folder / 'records'
        self.records.mkdir(parents=True, exist_ok=True)
        self.env = ros_environment(prefix, self.records, folder / 'ros_home')
        self.log_path = folder / 'launch.log'
        self.arguments = [str(a) for a in arguments]
        # a terminal as its stdin, as a user's: ros2launch 0.26.6 command/launch.py takes
        # `--noninteractive` to default to `not sys.stdin.isatty()`, and a noninteractive launch
        # sends each process a SIGINT of its own after a Ctrl-C that already reached the group
        # (launch 3.4.3 actions/execute_local.py: `send_sigint=not due_to_sigint or
        # context.noninteractive`), a second signal no terminal user's programs get
        terminal, self._terminal = os.openpty()
        with open(self.log_path, 'w', encoding='utf-8') as log:
            self.process = subprocess.Popen(
                [executable('ros2'), 'launch', *self.arguments], stdout=log,
                stderr=subprocess.STDOUT, stdin=self._terminal, env=self.env,
                cwd=folder, start_new_session=True)
        os.close(self._terminal)
        self._terminal = terminal  # held open (the launch's stdin stays a live terminal)

    @property
    def log(self) -> str:
        return self.log_path.read_text(encoding='utf-8', errors='replace')

    def records_of(self, package=None, executable=None) -> list:
        """Return the records written so far, of one program if named."""
        found = []
        for path in sorted(self.records.glob('*.json')):
            data = json.loads(path.read_text(encoding='utf-8'))
            if package in (None, data['package']) and \
                    executable in (None, data['executable']):
                found.append(data)
        return found

    def wait_for(self, expected, timeout: float = 90.0) -> dict:
        """
        Wait until every (package, executable) in ``expected`` wrote its record.

        Return them by executable (a list each). Fails with the launch's log if the launch
        ends first or the time runs out.
        """
        wanted = collections.Counter(expected)
        deadline = time.monotonic() + timeout
        while True:
            have = collections.Counter((r['package'], r['executable'])
                                       for r in self.records_of())
            if all(have[key] >= count for key, count in wanted.items()):
                found = {}
                for record in self.records_of():
                    found.setdefault(record['executable'], []).append(record)
                self._settle(self.records_of(), deadline)
                return found
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                missing = sorted((wanted - have).elements())
                raise AssertionError(f'no record from {missing} (launch exit code '
                                     f'{self.process.returncode}); log:\n{self.log}')
            time.sleep(0.2)

    def _settle(self, records: list, deadline: float) -> None:
        """
        Wait until the real programs behind these records are up, as a user would.

        A record is written before the real program starts; a Ctrl-C in the next second finds
        it still starting (rclcpp programs then die of the SIGINT or abort, which says nothing
        of this package). So: each real ROS node is in the graph, and the real ``create`` has
        spawned and ended (the world is up then too).
        """
        real = [r for r in records if r['executable'] in self.real]
        for record in real:
            if record['executable'] == 'create':
                while alive(record['pid']) and time.monotonic() < deadline:
                    time.sleep(0.2)
            elif not self._exec_done(record['pid'], record['executable'], deadline):
                return  # it ended (and the launch's log says how)
        names = sorted({r['fully_qualified_name'] for r in real
                        if r.get('fully_qualified_name') and r['executable'] != 'create'})
        if names:
            left = deadline - time.monotonic()
            probe = subprocess.run([sys.executable, '-c', GRAPH_PROBE, str(left), *names],
                                   env=self.env, capture_output=True, text=True,
                                   timeout=max(5.0, left + 30))
            assert probe.returncode == 0, f'not in the ROS graph: {probe.stdout}{probe.stderr}'

    @staticmethod
    def _exec_done(pid: int, executable: str, deadline: float) -> bool:
        """Wait until the recorder ``pid`` has become the real program; False if it ended."""
        while time.monotonic() < deadline:
            try:
                if Path(os.readlink(f'/proc/{pid}/exe')).name == executable:
                    return True
            except OSError:
                return False
            time.sleep(0.1)
        return False

    def interrupt(self, timeout: float = 60.0, group: bool = True) -> int:
        """
        Ctrl-C: SIGINT to the whole process group; return launch's exit code.

        With ``group=False`` only ``ros2 launch`` gets it, as from ``kill -INT`` or a supervisor.
        """
        if group:
            os.killpg(self.process.pid, signal.SIGINT)
        else:
            self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.stop()
            raise AssertionError(f'ros2 launch still running {timeout} s after SIGINT; log:\n'
                                 f'{self.log}') from None

    def wait(self, timeout: float = 90.0) -> int:
        """Wait for a launch that ends by itself; return its exit code."""
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.stop()
            raise AssertionError(f'ros2 launch did not end; log:\n{self.log}') from None

    def stop(self) -> None:
        """End what is left of this launch's process group (clean-up after a failure)."""
        try:  # also once launch has ended: what it left behind is still in its group
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=30)
        if self._terminal is not None:
            os.close(self._terminal)
            self._terminal = None

    def process_report(self) -> dict:
        """Return launch's word on each process it started: pid -> (name, 'clean' | 'died')."""
        started = dict(re.findall(r'\[INFO\] \[([^\]]+)\]: process started with pid \[(\d+)\]',
                                  self.log))
        report = {int(pid): (name, None) for name, pid in started.items()}
        for pid in re.findall(r'process has finished cleanly \[pid (\d+)\]', self.log):
            report[int(pid)] = (report.get(int(pid), ('?', None))[0], 'clean')
        for pid in re.findall(r'process has died \[pid (\d+)', self.log):
            report[int(pid)] = (report.get(int(pid), ('?', None))[0], 'died')
        return report

    def process_report_names(self) -> set:
        """Return the names launch gave the processes it started, without the -N suffix."""
        return {name.rsplit('-', 1)[0] for name, _ in self.process_report().values()}

    def assert_clean_shutdown(self, code: int) -> None:
        """Assert launch exited 0, every process finished cleanly and none is left running."""
        report = self.process_report()
        unclean = {pid: state for pid, state in report.items() if state[1] != 'clean'}
        assert report and not unclean, f'processes not finished cleanly: {unclean}\n{self.log}'
        assert 'Traceback' not in self.log, self.log
        assert code == 0, f'ros2 launch exit code {code}\n{self.log}'
        pids = set(report) | {r['pid'] for r in self.records_of()}
        left = [pid for pid in pids if alive(pid)]
        assert not left, f'still running after the launch ended: {left}'


def alive(pid: int) -> bool:
    """Return whether a process (not a zombie) with this pid exists."""
    try:
        with open(f'/proc/{pid}/stat', encoding='utf-8') as stat:
            return stat.read().rsplit(')', 1)[1].split()[0] != 'Z'
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
