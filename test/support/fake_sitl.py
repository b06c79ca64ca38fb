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


"""An ArduPilot-like checkout with a stand-in SITL program, for the launch tests."""

from pathlib import Path

#: Stands in for ardusub / ardurover: records its arguments, exits 0 on SIGTERM as SITL does.
FAKE_SITL = """#!/bin/sh
trap 'echo stopped-by-term >> "$0.out"; exit 0' TERM
echo started "$@" > "$0.out"
while :; do sleep 0.1; done
"""


def checkout(folder: Path, firmware: str = 'ardusub') -> Path:
    """Lay out <folder>/ardupilot/build/sitl/bin/<firmware> and its default_params folder."""
    binary = folder / 'ardupilot' / 'build' / 'sitl' / 'bin' / firmware
    binary.parent.mkdir(parents=True, exist_ok=True)
    binary.write_text(FAKE_SITL, encoding='utf-8')
    binary.chmod(0o755)
    defaults = folder / 'ardupilot' / 'Tools' / 'autotest' / 'default_params'
    defaults.mkdir(parents=True, exist_ok=True)
    for name in ('sub.parm', 'rover.parm'):
        (defaults / name).write_text('# stand-in\n', encoding='utf-8')
    return binary
