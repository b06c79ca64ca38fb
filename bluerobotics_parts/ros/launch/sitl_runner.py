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
``python -m bluerobotics_parts.ros.launch.sitl_runner SITL-COMMAND...``: SITL under launch.

launch stops a process with SIGINT, then SIGTERM (ros2/launch 3.4.3,
launch/actions/execute_local.py); ArduPilot SITL exits on SIGTERM only (ArduSub-4.5.3
libraries/AP_HAL_SITL/HAL_SITL_Class.cpp, setup_signal_handlers: SIGINT is handled only in
coverage builds), and dies of a SIGINT. This runs SITL as its child, in a process group of
its own (a terminal's Ctrl-C goes to the launch's group), and turns either signal into a
SIGTERM for it, so a Ctrl-C stops it cleanly; its exit status is SITL's, or 0 once it stopped
on request.

SITL may not stop: without its physics peer (Gazebo gone first) it loops on "No JSON sensor
message received, resending servos" and never reaches the check of its SIGTERM flag. So it is
killed ``GRACE`` seconds after the first stop, or at once on a second one, before launch's
own escalation reaches the runner (SIGTERM 5 s after its SIGINT, SIGKILL 5 s after that:
ros2/launch 3.4.3, launch/actions/execute_local.py, sigterm_timeout and sigkill_timeout). And
it cannot outlive the runner: it gets SIGKILL when the runner dies (tether.parent_death_signal).
"""

import signal
import subprocess
import sys
import time

from .tether import parent_death_signal

GRACE = 3.0  # s: well inside launch's 5 s to its SIGTERM


def main(argv=None) -> int:
    command = list(sys.argv[1:] if argv is None else argv)
    if not command:
        print('usage: python -m bluerobotics_parts.ros.launch.sitl_runner SITL-COMMAND...',
              file=sys.stderr)
        return 2
    # its own process group: a terminal's Ctrl-C reaches the runner, which passes it on
    child = subprocess.Popen(command, start_new_session=True,
                             preexec_fn=lambda: parent_death_signal(signal.SIGKILL))
    stopped = []  # when each stop arrived

    def stop(number, frame):
        stopped.append(time.monotonic())
        try:
            child.send_signal(signal.SIGTERM if len(stopped) == 1 else signal.SIGKILL)
        except ProcessLookupError:
            pass

    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, stop)
    while True:
        try:
            code = child.wait(timeout=0.2)
            break
        except subprocess.TimeoutExpired:
            if stopped and time.monotonic() - stopped[0] > GRACE:
                child.kill()
    if stopped:
        return 0
    return code if code >= 0 else 128 - code


if __name__ == '__main__':
    sys.exit(main())
