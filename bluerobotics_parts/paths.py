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
Where the package's data (urdf/, meshes/, config/) lives, whichever way it was installed.

A colcon build installs the data under ``<prefix>/share/bluerobotics_parts``; ``pip install .``
puts the same ``data_files`` under ``<sys.prefix>/share/bluerobotics_parts``; a source checkout
has them beside this package. One lookup serves all three, so nothing else cares.
"""

from __future__ import annotations

from functools import lru_cache
import os
from pathlib import Path

PACKAGE = 'bluerobotics_parts'
PACKAGE_URI = f'package://{PACKAGE}/'

#: The files a build writes (``build --output``, a launch's artefact folder).
URDF_FILE = 'robot_description.urdf'
GAZEBO_MODEL_FILE = 'gazebo_model.sdf'  # what a launch spawns when there is added mass
BRIDGE_FILE = 'bridge.yaml'
ARDUPILOT_FILE = 'ardupilot.parm'

#: Set this to a share directory to override the lookup (e.g. a development copy).
SHARE_ENV = 'BLUEROBOTICS_PARTS_SHARE'


def _is_share(path: Path) -> bool:
    return (path / 'urdf' / 'assembly.xacro').is_file()


@lru_cache(maxsize=None)
def share_dir() -> Path:
    """Return the folder holding urdf/, meshes/ and config/."""
    override = os.environ.get(SHARE_ENV)
    if override:
        path = Path(override)
        if not _is_share(path):
            raise FileNotFoundError(f'{SHARE_ENV}={override} has no urdf/assembly.xacro')
        return path.resolve()
    here = Path(__file__).resolve().parent
    candidates = [here.parent]  # source checkout or editable install
    # <prefix>/lib/pythonX.Y/site-packages/bluerobotics_parts -> <prefix>/share/bluerobotics_parts
    candidates += [parent / 'share' / PACKAGE for parent in here.parents[1:5]]
    for path in candidates:
        if _is_share(path):
            return path.resolve()
    try:  # a ROS workspace: ament knows the prefix (asked last: importing it costs)
        from ament_index_python.packages import get_package_share_directory

        candidates.append(Path(get_package_share_directory(PACKAGE)))
    except Exception:  # not in ROS, or not registered in the ament index: fine
        pass
    if _is_share(candidates[-1]):
        return candidates[-1].resolve()
    searched = ', '.join(str(p) for p in candidates)
    raise FileNotFoundError(
        f'cannot find the {PACKAGE} data (urdf/assembly.xacro); searched {searched}; '
        f'set {SHARE_ENV} to the folder that holds urdf/, meshes/ and config/'
    )


def code_dir() -> Path:
    """Return the folder of the package's Python code (this package)."""
    return Path(__file__).resolve().parent


def parts_dir() -> Path:
    return share_dir() / 'urdf' / 'parts'


def config_dir() -> Path:
    return share_dir() / 'config'


def default_config() -> Path:
    """Return the shipped BlueBoat config (configures nothing: every slot keeps its default)."""
    return config_dir() / 'blueboat.yaml'


def default_world() -> Path:
    return config_dir() / 'worlds' / 'water.sdf'


def resolve_uri(uri: str, base: Path | None = None) -> Path | None:
    """
    Return the local file behind a mesh URI, or None for a URI this package cannot map.

    ``package://bluerobotics_parts/...`` maps into the share directory, ``file://`` to its path,
    a plain relative path to ``base`` (the folder of the file that named it).
    """
    if uri.startswith(PACKAGE_URI):
        return share_dir() / uri[len(PACKAGE_URI):]
    if uri.startswith('file://'):
        return Path(uri[len('file://'):])
    if '://' in uri:
        return None
    return (base or Path.cwd()) / uri
