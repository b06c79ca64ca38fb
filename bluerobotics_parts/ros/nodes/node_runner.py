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
Running a converter node (scan_to_range, pose_to_pressure): parameters, signals, the spin.

Both nodes declare every parameter the launch plan sets with its default (``parameters``), and
run until SIGINT or SIGTERM, however many arrive and whenever, ending with exit status 0
(``run``): a terminal's Ctrl-C reaches every process of ``ros2 launch`` and launch then sends
its own SIGINT, so a second one during the shutdown is the normal case. Every rclpy import is
inside a function: the nodes' modules import (and explain themselves) without ROS.
"""

from __future__ import annotations

import signal
import sys


def parameters(node, defaults: dict):
    """Declare every parameter of ``defaults`` (name -> default) on ``node``; return a getter."""
    for name, default in defaults.items():
        node.declare_parameter(name, default)
    return lambda name: node.get_parameter(name).value


class StopRequest:
    """
    Records SIGINT / SIGTERM instead of raising KeyboardInterrupt.

    rclpy's own handlers are not installed (``SignalHandlerOptions.NO``): they raise
    KeyboardInterrupt wherever the signal lands, also inside ``destroy_node``, and the node then
    dies with exit code -2. Here a signal only sets a flag; the spin loop sees it within
    ``SPIN_PERIOD`` seconds and shuts down once. From the first signal on, further ones are
    ignored: Python resets a handler it installed to the default (die) while the interpreter
    finalizes (CPython 3.11, Modules/signalmodule.c, _PySignal_Fini), and a late second
    SIGINT would otherwise kill the exiting process.
    """

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self):
        self.requested = False
        for number in self.SIGNALS:
            signal.signal(number, self._handle)

    def _handle(self, number, frame) -> None:
        self.request()

    def request(self) -> None:
        """Stop, and ignore every later SIGINT / SIGTERM (the process is on its way out)."""
        self.requested = True
        for number in self.SIGNALS:
            signal.signal(number, signal.SIG_IGN)


SPIN_PERIOD = 0.1  # s: the longest a stop request waits for the spin loop


def run(program: str, make, errors, argv=None, needs: str = 'rclpy') -> int:
    """
    Run a converter node until SIGINT / SIGTERM (StopRequest); return its exit status.

    ``make`` builds the node (rclpy initialised); ``errors``: the exception type its bad
    parameters raise (exit 1 with the message). Without rclpy: exit 1, saying what it needs.
    """
    stop = StopRequest()  # first: a signal during start-up must not raise either
    try:
        import rclpy
        from rclpy.executors import SingleThreadedExecutor
        from rclpy.signals import SignalHandlerOptions
    except ImportError as error:
        print(f'{program} needs ROS 2 ({needs}): {error}. Source your ROS 2 '
              "setup (e.g. /opt/ros/jazzy/setup.bash) and the workspace's install/setup.bash, "
              f'then run it with ros2 run bluerobotics_parts {program}.', file=sys.stderr)
        return 1
    rclpy.init(args=sys.argv if argv is None else argv,
               signal_handler_options=SignalHandlerOptions.NO)
    try:
        node = make()
    except errors as error:
        print(f'{program}: {error}', file=sys.stderr)
        rclpy.try_shutdown()
        return 1
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    try:
        while not stop.requested and rclpy.ok():
            executor.spin_once(timeout_sec=SPIN_PERIOD)
    finally:
        stop.request()  # however it ends, signals from now on find nothing to interrupt
        executor.shutdown()
        node.destroy_node()
        rclpy.try_shutdown()
    return 0
