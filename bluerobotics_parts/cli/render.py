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
``bluerobotics-parts render CONFIG -o FILE``: the command around picture/render.py.

The picture needs numpy and Pillow; where they are missing (a workspace built without
rosdep, ``pip install --no-deps``) the command says what to install and exits 1, like any
mistake the user can fix. The output goes through files/atomic.py's writer (regular files
only, all or nothing); its format is the file name's suffix.
"""

from __future__ import annotations

import importlib
import math
from pathlib import Path
import sys

from ..errors import BlueRoboticsPartsError, MissingLibrary, printable

FORMATS = {'.png': 'png', '.svg': 'svg'}
#: import name -> (pip name, Debian / rosdep package)
LIBRARIES = {'numpy': ('numpy', 'python3-numpy'), 'PIL': ('Pillow', 'python3-pil')}


def require_libraries() -> None:
    """Raise MissingLibrary naming what to install unless numpy and Pillow import."""
    missing = []
    for module, names in LIBRARIES.items():
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(names)
    if missing:
        pip = ' '.join(name for name, _ in missing)
        debian = ' '.join(name for _, name in missing)
        raise MissingLibrary(f"render needs {' and '.join(n for n, _ in missing)}, which "
                             f'{"is" if len(missing) == 1 else "are"} not installed: '
                             f'pip install {pip}, or apt install {debian} (rosdep install '
                             'installs them from package.xml)')


def image_format(output: Path) -> str:
    """Return ``png`` or ``svg`` from the output's suffix; raise for any other."""
    found = FORMATS.get(output.suffix.lower())
    if found is None or output.is_dir():
        folder = ' (it is a folder)' if output.is_dir() else ''
        raise BlueRoboticsPartsError(f'cannot write {output}{folder}: name a .png or .svg file '
                                     '(the suffix chooses the format)')
    return found


def joint_positions(items) -> dict:
    """Return joint -> position from ``NAME=VALUE`` texts; raise naming a malformed one."""
    positions = {}
    for item in items:
        name, _, value = item.partition('=')
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        if not name or not math.isfinite(number):
            raise BlueRoboticsPartsError(f'--joint {item!r}: give NAME=VALUE, a joint and a '
                                         'finite number (rad or m), e.g. hd_camera_joint=0.5')
        positions[name] = number
    return positions


def run(args) -> int:
    """Render ``args.config`` into ``args.output``; return the exit status (0)."""
    from ..assembly.pipeline import resolve_config
    from ..files.atomic import check_not_inputs, check_output_folder, write_files_atomically

    output = Path(args.output)
    kind = image_format(output)
    check_output_folder(output.parent, label=output, names=(output.name,))
    require_libraries()
    from ..picture.render import DEFAULT_VIEWS, render_config

    views = args.view or list(DEFAULT_VIEWS)
    positions = joint_positions(args.joint)
    resolved = resolve_config(args.config, name=args.name)
    check_not_inputs([output], resolved.input_files())
    data, notes = render_config(resolved, views=views, image_format=kind, positions=positions,
                                frames=args.frames)
    write_files_atomically(output.parent, {output.name: data}, label=output)
    for note in notes:
        print(f'note: {printable(note)}', file=sys.stderr)
    print(f'wrote {printable(str(output))} ({", ".join(views)})', file=sys.stderr)
    return 0
