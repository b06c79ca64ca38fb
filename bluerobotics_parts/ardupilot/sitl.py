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
Finding and starting ArduPilot SITL for a wired vehicle: the program, its defaults, its options.

SITL's options are ArduPilot's (ArduPilot/ardupilot Rover-4.6.2 and ArduSub-4.5.3,
libraries/AP_HAL_SITL/SITL_cmdline.cpp): ``--model JSON`` (the JSON backend, which the Gazebo
plugin talks to), ``--defaults`` (comma-separated parameter files, later ones win), ``-I N``
(instance: every port + 10 N), ``--home lat,lon,alt,heading``, ``--sim-address``, and
``--serial0 tcp:0`` (MAVLink on TCP 5760 + 10 N without waiting for a client: the default is
``tcp:0:wait``, SITL_State.h). ``-w`` wipes the stored parameters, so every start takes its
defaults files as they are.
"""

from __future__ import annotations

import os
from pathlib import Path
import shutil

from .plugin import mavlink_port
from ..errors import AutopilotError

#: Where ArduPilot keeps its SITL defaults, relative to the top of a checkout.
DEFAULTS_FOLDER = Path('Tools') / 'autotest' / 'default_params'
GET_SITL = ("build it from ArduPilot's source (./waf configure --board sitl && ./waf {target}; "
            'https://ardupilot.org/dev/docs/building-setup-linux.html) and put its '
            'build/sitl/bin on PATH, or name it with ardupilot_bin:=/path/to/{firmware}')


def find_binary(firmware: str, given: str | None = None) -> Path:
    """Return SITL's program for a firmware (ardusub, ardurover): ``given``, else on PATH."""
    target = {'ardusub': 'sub', 'ardurover': 'rover'}[firmware]
    if given:
        path = Path(given).expanduser()
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise AutopilotError(f'ardupilot_bin:={given}: not an executable file; '
                                 + GET_SITL.format(target=target, firmware=firmware))
        return path.absolute()
    found = shutil.which(firmware)
    if found is None:
        raise AutopilotError(f"autopilot:=ardupilot needs ArduPilot SITL's {firmware}, which "
                             'is not on PATH; ' + GET_SITL.format(target=target,
                                                                  firmware=firmware))
    return Path(found)


def find_defaults(binary: Path, defaults: str, given: str | None = None) -> Path:
    """
    Return ArduPilot's SITL defaults file ``defaults`` (sub.parm, rover.parm).

    From the folder ``given``, else from the checkout the program was built in: the first
    folder above it holding Tools/autotest/default_params/ (a build/sitl/bin/ in a checkout).
    """
    if given:
        found = Path(given).expanduser() / defaults
        if not found.is_file():
            raise AutopilotError(f'ardupilot_defaults:={given}: has no {defaults}; give '
                                 f"ArduPilot's {DEFAULTS_FOLDER} folder")
        return found.absolute()
    for folder in Path(os.path.realpath(binary)).parents:
        found = folder / DEFAULTS_FOLDER / defaults
        if found.is_file():
            return found
    raise AutopilotError(f'no {DEFAULTS_FOLDER / defaults} in a folder above {binary} (an '
                         "ArduPilot checkout's build/sitl/bin has one); name the folder with "
                         f'ardupilot_defaults:=<ardupilot>/{DEFAULTS_FOLDER}')


def command(binary: Path, defaults: Path, parm: Path, instance: int, home=None) -> list:
    """Return SITL's command line for a vehicle: its defaults, then its own parameters."""
    line = [str(binary), '--model', 'JSON', '--defaults', f'{defaults},{parm}', '-I',
            str(instance), '-w', '--sim-address', '127.0.0.1', '--serial0', 'tcp:0']
    if home is not None:
        line += ['--home', ','.join(repr(float(v)) for v in home)]
    return line


def endpoint(instance: int) -> str:
    """Return where a ground station reaches SITL's MAVLink."""
    return f'tcp:127.0.0.1:{mavlink_port(instance)}'
