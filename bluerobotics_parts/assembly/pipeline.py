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
Config -> checked URDF with its record: the one path every command and the API take.

The config is read once (formats/config.py), resolved once (resolution.py: the rules of seed
000), every problem reported at once, and, when nothing is wrong, written once as an XML tree
(urdf_writer.py). The result carries the tree, its text and the record, so later steps
(Gazebo composition, bridge, vehicle model, export) need not parse or resolve again. No xacro
runs here: ``xacro urdf/assembly.xacro`` is the standalone resolver, held equal to this by
test/system/test_differential.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import Element

from .catalogue import Catalogue
from .record import AssemblyRecord
from .resolution import Resolution, resolve
from .urdf_writer import urdf_text, urdf_tree
from ..errors import AssemblyError
from ..formats.config import as_config, check_vehicle_name, Config


@dataclass(frozen=True)
class Resolved:
    """
    A checked resolution: the config, the resolution, and the URDF.

    The URDF as a tree and as text: the ROS description with the record, no Gazebo blocks.
    """

    config: Config
    resolution: Resolution
    tree: Element
    urdf: str

    @property
    def record(self) -> AssemblyRecord:
        return self.resolution.record

    @property
    def name(self) -> str:
        return self.resolution.name

    def catalogue(self) -> Catalogue:
        """Return the part data the config was resolved with (user part files included)."""
        return self.resolution.catalogue

    def input_files(self) -> dict:
        """
        Return the user's files this resolution read: path -> what it is (for messages).

        The config, the part files it lists and their meshes: no output may replace one
        (files/atomic.py, check_not_inputs). The package's own files are not listed: its
        folders are refused as outputs whole.
        """
        found = {}
        if self.config.from_file:
            found[Path(self.config.file)] = 'the config'
        for type_name, source in self.record.part_files:
            found.setdefault(Path(source), f'the part file of {type_name}')
        for mesh in self.tree.iter('mesh'):
            uri = mesh.get('filename', '')
            if uri.startswith('file://'):
                found.setdefault(Path(uri[len('file://'):]), "a mesh of the config's parts")
        return found


def resolve_config(config, name: str | None = None) -> Resolved:
    """
    Read (if given a path), resolve and write a config.

    Raise AssemblyError listing every problem, in line order, each with file:line where there
    is a file.

    ``config``: a path, a Config, a dict, or None (the shipped BlueBoat); ``name``
    overrides the vehicle name.
    """
    if name is not None:
        check_vehicle_name(name)
    config = as_config(config)
    resolution = resolve(config, name)
    found = resolution.sorted_problems()
    if found:
        raise AssemblyError(found)
    tree = urdf_tree(resolution)
    return Resolved(config, resolution, tree, urdf_text(tree))


def config_problems(config) -> list:
    """Every problem of a config (a path, a Config, a dict), without writing a URDF."""
    return resolve(as_config(config)).sorted_problems()
