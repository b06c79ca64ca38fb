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
``check_assembly CONFIG URDF``: the assembly check as a command.

Also ``ros2 run bluerobotics_parts check_assembly``. Exit 0 with one OK line, or 1 with one
line per problem on stderr (2 with a traceback for a fault of the program).
"""

from __future__ import annotations

from pathlib import Path
import sys

from .main import ArgumentParser, cmd_check, config_arg, run


def main(argv=None) -> int:
    parser = ArgumentParser(
        prog='check_assembly',
        description='Check a config against the URDF resolved from it (its assembly record).')
    parser.add_argument('config', type=config_arg,
                        help="the config YAML ('' = the shipped BlueBoat)")
    parser.add_argument('urdf', type=Path, help='the URDF resolved from it')
    return run(cmd_check, parser.parse_args(argv))


if __name__ == '__main__':
    sys.exit(main())
