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
The folder a launch writes its files to: ``$ROS_HOME/bluerobotics_parts/<name>/``.

One folder per vehicle name, so two vehicles launched side by side never share a file; written
all or nothing, so a failed launch leaves the previous artefacts as they were. The launch's
build cache beside them is ``.cache`` (description/cache.py), which no vehicle name can be.
"""

from __future__ import annotations

import os
from pathlib import Path

from ...errors import ArtefactError, OutputError
from ...files.atomic import write_files_atomically
from ...formats.config import check_vehicle_name

ARTEFACT_FOLDER = 'bluerobotics_parts'  # under ROS_HOME


def artefact_dir(name: str, environ=None) -> Path:
    """
    Return ``$ROS_HOME/bluerobotics_parts/<name>`` (ROS_HOME defaults to ``~/.ros``).

    ``name`` must be a vehicle name (ConfigError otherwise), so it is never the cache's folder
    nor a path.
    """
    check_vehicle_name(name)
    environ = os.environ if environ is None else environ
    home = Path(environ.get('HOME') or Path.home())
    ros_home = environ.get('ROS_HOME') or str(home / '.ros')
    if ros_home == '~' or ros_home.startswith('~/'):
        ros_home = str(home) + ros_home[1:]
    return Path(ros_home) / ARTEFACT_FOLDER / name


def write_artefacts(folder: Path, files: dict) -> None:
    """Write ``files`` (name -> bytes) into ``folder``, all or nothing."""
    try:
        write_files_atomically(folder, files)
    except OutputError as error:
        raise ArtefactError(f'launch artefacts: {error}; set ROS_HOME to a folder you can '
                            'write') from None
