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
``python -m bluerobotics_parts.ros.launch.tether LAUNCH_PID -- COMMAND...``: no orphans.

launch stops what it started when it is stopped, but a launch that is killed (SIGKILL, the
out-of-memory killer, a crash) leaves every program it started running. The launch files put
this in front of each (launch's ``launch-prefix``, which every ExecuteProcess and launch_ros
Node without a prefix of its own takes: ros2/launch 3.4.3, launch/descriptions/executable.py).

Started by the launch itself (its parent is LAUNCH_PID), it asks Linux for a SIGTERM when its
parent dies (``prctl(PR_SET_PDEATHSIG)``, kept across execve: man 2const PR_SET_PDEATHSIG) and
becomes the program: no process more, and rclcpp and rclpy nodes shut down on SIGTERM.

Started through a shell (ros_gz_sim's gz_sim.launch.py runs gz with ``shell=True``: gazebosim/
ros_gz branch jazzy, ros_gz_sim/launch/gz_sim.launch.py.in), its parent is the shell, which
outlives a killed launch. Then it stays as the program's parent: it passes SIGINT and SIGTERM
on, and when the launch process ends it sends the program SIGINT, and SIGKILL ``GRACE``
seconds later if it is still there; the program gets SIGKILL if the tether itself dies.
"""

from __future__ import annotations

import ctypes
import os
import select
import signal
import subprocess
import sys
import time

PR_SET_PDEATHSIG = 1  # linux/prctl.h
GRACE = 5.0  # s, from the SIGINT to the SIGKILL of a program whose launch has gone
USAGE = 'usage: python -m bluerobotics_parts.ros.launch.tether LAUNCH_PID -- COMMAND...'


def parent_death_signal(number: int) -> bool:
    """Ask for signal ``number`` when this process's parent dies; False where Linux is not."""
    if not sys.platform.startswith('linux'):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    return libc.prctl(PR_SET_PDEATHSIG, number, 0, 0, 0) == 0


def prefix(launch_pid: int | None = None) -> str:
    """Return the ``launch-prefix`` that tethers a launched program to this launch process."""
    return (f'{sys.executable} -m bluerobotics_parts.ros.launch.tether '
            f'{os.getpid() if launch_pid is None else launch_pid} --')


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) < 3 or argv[1] != '--' or not argv[0].isdigit():
        print(USAGE, file=sys.stderr)
        return 2
    launch_pid, command = int(argv[0]), argv[2:]
    if os.getppid() == launch_pid:  # started by the launch itself: become the program
        parent_death_signal(signal.SIGTERM)
        if os.getppid() != launch_pid:  # the launch ended before the request took
            return 143
        try:
            os.execvp(command[0], command)
        except OSError as error:
            print(f'tether: cannot run {command[0]}: {error.strerror}', file=sys.stderr)
            return 127
    return supervise(launch_pid, command)


def supervise(launch_pid: int, command: list) -> int:
    """Run ``command`` as a child until it ends, or stop it once the launch has gone."""
    parent_death_signal(signal.SIGTERM)  # the shell killed by launch's escalation: stop too
    try:
        launch = os.pidfd_open(launch_pid)
    except (AttributeError, OSError):  # before Linux 5.3 / Python 3.9: polled below
        launch = None
    try:
        child = subprocess.Popen(command, preexec_fn=lambda: parent_death_signal(signal.SIGKILL))
    except OSError as error:
        print(f'tether: cannot run {command[0]}: {error.strerror}', file=sys.stderr)
        return 127

    def forward(number, frame):
        try:
            child.send_signal(number)
        except ProcessLookupError:
            pass

    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, forward)
    gone_at = None
    while True:
        try:
            code = child.wait(timeout=0 if gone_at is None else 0.2)
            break
        except subprocess.TimeoutExpired:
            pass
        if gone_at is None:
            if _launch_gone(launch, launch_pid, wait=0.2):
                gone_at = time.monotonic()
                forward(signal.SIGINT, None)
        elif time.monotonic() - gone_at > GRACE:
            child.kill()
    return code if code >= 0 else 128 - code


def _launch_gone(launch, launch_pid: int, wait: float) -> bool:
    """Return whether the launch process has ended, waiting up to ``wait`` seconds."""
    if launch is not None:
        return bool(select.select([launch], [], [], wait)[0])
    time.sleep(wait)
    try:
        os.kill(launch_pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


if __name__ == '__main__':
    sys.exit(main())
