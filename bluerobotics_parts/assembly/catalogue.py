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
The part library as Python sees it: the same YAML files the xacro resolver reads.

Shipped parts live in ``urdf/parts/<type>.yaml`` (listed in ``index.yaml``); a user's parts
come from the files a config names under ``part_files:`` (recorded in the URDF, so downstream
steps find them without the config). Each file is read once and checked against the part
format (part_format.py) with ``file:line`` messages, every mistake at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
import os
from pathlib import Path
import stat

from .. import paths
from ..errors import AssemblyError, ConfigError, in_line_order, InputError, Problem
from ..files.inputs import file_kind
from ..files.yaml_lines import load_file
from ..formats.part_format import BATTERY_FIELDS, is_annotation, part_problems
from ..formats.sensor_kinds import SECTIONS
from ..formats.value_kinds import CONTROL


@dataclass(frozen=True)
class SlotSpec:
    name: str
    xyz: tuple
    rpy: tuple
    accepts: tuple
    default: str
    joint: str
    collision: bool


@dataclass(frozen=True)
class Propeller:
    """
    Drive data of a propeller part, SI units.

    ``rotation`` is the sense it turns, seen from astern while pushing the vessel forward.
    """

    rotation: str
    diameter: float
    max_thrust: float
    min_thrust: float
    thrust_coefficient: float  # Kt, the magnitude the part data gives
    max_rpm: float | None = None
    rotor: str | None = None  # the part's continuous frame that turns; None: the whole part
    thrust_curve: str | None = None  # its maker's curve (physics/thrust_curves.py), if known

    def joint(self, instance: str) -> str:
        """
        Return the joint the Thruster turns: the rotor frame's, else the part's own.

        The link names of assembly/resolution.py: frame ``<instance>_<name>`` on
        ``<instance>_<name>_joint``, a part on ``<instance>_joint``.
        """
        return f'{instance}_{self.rotor}_joint' if self.rotor else f'{instance}_joint'

    @property
    def signed_thrust_coefficient(self) -> float:
        """
        Return Kt with the sign gz-sim's Thruster takes: cw -> +Kt, ccw -> -Kt.

        Every propeller joint's axis is the part's +x, pointing forward. The Thruster spins
        its joint at w = sign(T * Kt) sqrt(|T| / (rho Kt D^4)) (gz-sim tag gz-sim8_8.14.0,
        src/systems/thruster/Thruster.cc, ThrusterPrivateData::ThrustToAngularVec), so with
        forward thrust (T > 0) a positive Kt turns the propeller positively about +x: by the
        right-hand rule, thumb forward, that is clockwise seen from astern.
        """
        magnitude = abs(self.thrust_coefficient)
        return magnitude if self.rotation == 'cw' else -magnitude


@dataclass
class PartType:
    """One part type's data, where it came from, and the base its mesh paths are under."""

    type: str  # noqa: A003 (the part data's key)
    data: dict
    file: Path
    mesh_base: str
    shipped: bool
    lines: dict = field(default_factory=dict, repr=False)
    file_text: str = ''  # the path as the config's resolution names it (for the record)
    source: str = field(default='', repr=False)  # the part file's text as read (an export's)

    @property
    def description(self) -> str:
        return self.data.get('description', '')

    @property
    def family(self) -> str:
        """
        Return the vehicle family the part is made for (``blueboat``, ``bluerov2``).

        ``common`` for parts several families' slots take; empty when the part file does not
        say.
        """
        return self.data.get('family', '')

    @property
    def spawn_depth(self) -> float:
        """Return how deep a launch puts a vehicle on this base part (m; 0 for a boat)."""
        return float((self.data.get('hydrostatics') or {}).get('spawn_depth') or 0.0)

    @property
    def mass(self) -> float:
        """Return the whole part's mass: its own link's and its frames' (a rotor's), kg."""
        inertials = [self.data.get('inertial')] + [(frame or {}).get('inertial') for frame in
                                                   (self.data.get('frames') or {}).values()]
        return sum(float((inertial or {}).get('mass') or 0.0) for inertial in inertials)

    @property
    def slots(self) -> dict[str, SlotSpec]:
        return {name: _slot_spec(name, spec)
                for name, spec in (self.data.get('slots') or {}).items()}

    @property
    def frames(self) -> dict[str, dict]:
        return dict(self.data.get('frames') or {})

    @property
    def axis(self) -> tuple:
        return tuple(float(v) for v in self.data.get('axis', (1.0, 0.0, 0.0)))

    @property
    def propeller(self) -> Propeller | None:
        data = self.data.get('propeller')
        if not data:
            return None
        return Propeller(rotation=data['rotation'], diameter=float(data['diameter']),
                         max_thrust=float(data['max_thrust']),
                         min_thrust=float(data['min_thrust']),
                         thrust_coefficient=float(data['thrust_coefficient']),
                         max_rpm=float(data['max_rpm']) if 'max_rpm' in data else None,
                         rotor=data.get('rotor'), thrust_curve=data.get('thrust_curve'))

    @property
    def sensor_sections(self) -> dict[str, dict]:
        """
        Return the part's sensor (and light) sections, registry order: section -> its values.

        Provenance notes left out; every section sensors.KINDS names counts.
        """
        return {section: {key: value for key, value in self.data[section].items()
                          if not is_annotation(key)}
                for section in SECTIONS if isinstance(self.data.get(section), dict)}

    @property
    def battery(self) -> dict | None:
        """Return the battery pack the part is or carries (voltage V, capacity Ah), if any."""
        data = self.data.get('battery')
        return {key: float(value) for key, value in data.items() if key in BATTERY_FIELDS} \
            if isinstance(data, dict) else None

    @property
    def autopilot_frame(self) -> str | None:
        """Return the ArduPilot frame the part declares (formats/autopilot_frames.py), if any."""
        return (self.data.get('autopilot') or {}).get('frame')

    @property
    def hydrodynamics(self) -> dict[str, float]:
        """Return the gz Hydrodynamics coefficients by name (xUabsU, zW, ...), notes left out."""
        data = self.data.get('hydrodynamics') or {}
        return {key: float(value) for key, value in data.items() if not is_annotation(key)}


def _slot_spec(name: str, spec: dict) -> SlotSpec:
    return SlotSpec(name=name, xyz=tuple(float(v) for v in spec.get('xyz', (0, 0, 0))),
                    rpy=tuple(float(v) for v in spec.get('rpy', (0, 0, 0))),
                    accepts=tuple(spec.get('accepts') or ()),
                    default=spec.get('default') or 'none', joint=spec.get('joint') or 'fixed',
                    collision=spec.get('collision', True))


class Catalogue:
    """Part types by name: the shipped library plus any user part files."""

    def __init__(self, parts: dict[str, PartType]):
        self.parts = parts

    def __contains__(self, type_name) -> bool:
        return type_name in self.parts

    def __getitem__(self, type_name: str) -> PartType:
        try:
            return self.parts[type_name]
        except KeyError:
            raise KeyError(f'unknown part type {type_name!r}; known types: '
                           f"{', '.join(sorted(self.parts))}") from None

    def __iter__(self):
        return iter(sorted(self.parts))

    def types(self) -> list[str]:
        return sorted(self.parts)

    def with_part_files(self, files) -> 'Catalogue':
        """Return this catalogue plus the user's part files; raise their every problem."""
        loaded = [read_user_part(str(file)) for file in files]
        combined, clashes = self.combine(loaded)
        found = [problem for user in loaded for problem in user.problems]
        found += [Problem('ASSEMBLY ERROR: ' + message, loaded[index].file_text,
                          loaded[index].type_line, stage='expansion', rule='part-file-clash')
                  for index, message in clashes]
        found += combined.reference_problems()
        if found:
            raise AssemblyError(in_line_order(found))
        return combined

    def combine(self, user_parts: list['UserPart']) -> tuple['Catalogue', list]:
        """
        Return the catalogue with the user's parts added, and the clashes.

        A clash is (index of the part file, message): a type the library, an earlier part
        file or the word none already means. A clashing file's type is left out; so is a file
        with problems.
        """
        parts = dict(self.parts)
        clashes = []
        for index, user in enumerate(user_parts):
            if user.part is None:
                continue
            owner = ('is reserved for an empty slot' if user.type == 'none' else
                     'the shipped library already has' if user.type in self.parts else
                     'another part file also defines' if user.type in parts else None)
            if owner:
                clashes.append((index, f'part file {user.file_text} defines type {user.type}, '
                                       f'which {owner}; give your part a type name of its own'))
                continue
            parts[user.type] = user.part
        return Catalogue(parts), clashes

    def reference_problems(self) -> list[Problem]:
        """Return the slots of user parts that accept or default to unknown part types."""
        found = []
        for part in self.parts.values():
            if part.shipped:
                continue
            for name, slot in (part.data.get('slots') or {}).items():
                for key in ('accepts', 'default'):
                    named = slot.get(key) or []
                    for type_name in [named] if isinstance(named, str) else named:
                        if type_name != 'none' and type_name not in self.parts:
                            found.append(Problem(
                                f'slot {name}: {key} names unknown part type {type_name!r}; '
                                f"known types: {', '.join(sorted(self.parts))}",
                                str(part.file), part.lines.get(('slots', name, key)),
                                stage='load', rule='part-file-reference'))
        return found


@dataclass
class UserPart:
    """One user part file as read: its part (None when it has problems) and its problems."""

    file_text: str
    part: PartType | None
    problems: list
    type: object = None  # noqa: A003 (the part data's key)
    type_line: int | None = None


@lru_cache(maxsize=None)
def shipped() -> Catalogue:
    """Return the library in ``urdf/parts`` (read once: it does not change while we run)."""
    folder = paths.parts_dir()
    index = load_file(folder / 'index.yaml').data or []
    parts = {}
    for name in index:
        part = load_part_file(folder / f'{name}.yaml', shipped=True)
        if part.type != name:
            raise ConfigError(f'declares type {part.type} but index.yaml lists it as {name}',
                              file=str(folder / f'{name}.yaml'))
        parts[name] = part
    return Catalogue(parts)


def catalogue(part_files=()) -> Catalogue:
    """Return the shipped library plus the given user part files."""
    return shipped().with_part_files(part_files) if part_files else shipped()


def load_part_file(path: Path, shipped: bool) -> PartType:
    """Read and check one part file; raise AssemblyError listing its problems."""
    if shipped:
        doc = load_file(path, 'part file')
        found = part_problems(doc)
        if found:
            raise AssemblyError(found)
        return PartType(type=doc.data['type'], data=doc.data, file=Path(path),
                        mesh_base=paths.PACKAGE_URI + 'meshes/', shipped=True, lines=doc.lines,
                        file_text=str(path))
    user = read_user_part(str(path))
    if user.problems:
        raise AssemblyError(user.problems)
    return user.part


def read_user_part(file_text: str) -> UserPart:
    """Read a user's part file (its path as the config's resolution names it)."""
    path = Path(file_text)
    try:
        doc = load_file(path, 'part file')
    except ConfigError as error:  # unreadable, not YAML, a tag: one problem
        return UserPart(file_text, None, [Problem(error.message, error.file, error.line,
                                                  stage='load', rule='part-file')])
    found = part_problems(doc)
    data = doc.data if isinstance(doc.data, dict) else {}
    found += _mesh_problems(doc, path)
    folder = file_text.rsplit('/', 1)[0]
    part = None
    if not found:
        part = PartType(type=data['type'], data=data, file=Path(os.path.normpath(file_text)),
                        mesh_base=f'file://{folder}/', shipped=False, lines=doc.lines,
                        file_text=file_text, source=doc.text)
    return UserPart(file_text, part, found, data.get('type'), doc.lines.get(('type',)))


def _mesh_problems(doc, path: Path) -> list[Problem]:
    """
    Return the problems of a user part's meshes: inside its file's folder, or shipped.

    Relative paths are taken from the part file's folder and must stay inside it once
    symbolic links are resolved; ``package://bluerobotics_parts/meshes/...`` names a shipped
    mesh. Nothing else (``file://``, absolute paths, ``..``, other packages): an export copies
    a part's meshes, so a path out of the folder would carry any local file along, and a
    missing mesh would only show as an empty link in RViz and Gazebo.
    """
    found = []
    folder = path.absolute().parent
    shipped_meshes = Path(os.path.realpath(paths.share_dir() / 'meshes'))
    for section in ('visual', 'collision'):
        items = doc.data.get(section) if isinstance(doc.data, dict) else None
        for index, item in enumerate(items if isinstance(items, list) else []):
            mesh = item.get('mesh') if isinstance(item, dict) else None
            if not isinstance(mesh, str) or not mesh or CONTROL.search(mesh):
                continue  # part_format names it (a NUL byte never reaches the file system)
            where = (section, index, 'mesh')
            if mesh.startswith(paths.PACKAGE_URI):
                target = paths.share_dir() / mesh[len(paths.PACKAGE_URI):]
                inside = shipped_meshes
            elif '://' in mesh or mesh.startswith('/') or '..' in mesh.split('/'):
                found.append(_mesh_problem(doc, where, f"mesh {mesh} is outside the part file's "
                                           "folder; a user part's mesh is a path inside its part "
                                           "file's folder (e.g. meshes/bracket.stl) or a shipped "
                                           f'mesh ({paths.PACKAGE_URI}meshes/<type>/<file>)'))
                continue
            else:
                target, inside = folder / mesh, Path(os.path.realpath(folder))
            if inside not in Path(os.path.realpath(target)).parents:
                found.append(_mesh_problem(doc, where, f'mesh {mesh} leads out of {inside} '
                                           "(symbolic links resolved); a user part's meshes must "
                                           "lie inside its part file's folder, a shipped mesh "
                                           "inside the package's meshes/"))
                continue
            try:
                mode = os.stat(target).st_mode
            except (OSError, ValueError):  # missing, or a name too long for the system
                found.append(_mesh_problem(doc, where, f'mesh {mesh} not found (looked for '
                                           f'{target}); mesh paths are relative to the part '
                                           "file's folder"))
                continue
            if not stat.S_ISREG(mode):
                found.append(_mesh_problem(doc, where, f'mesh {mesh} is {file_kind(mode)} '
                                           f'({target}), not a regular file; name a mesh file'))
                continue
            found += _mesh_content_problems(doc, where, mesh, target)
    return found


def _mesh_content_problems(doc, where, mesh: str, target: Path) -> list[Problem]:
    """
    Return what is wrong with a user mesh file itself: another name, or not a mesh.

    A file with several hard links may be one the folder rule would refuse under another
    name (an export would copy it); an STL must parse and hold triangles, as render and
    Gazebo read it; any mesh must hold something.
    """
    if mesh.startswith(paths.PACKAGE_URI):
        return []
    status = os.stat(target)
    if status.st_nlink > 1:
        return [_mesh_problem(doc, where, f'mesh {mesh} ({target}) has {status.st_nlink} hard '
                              "links: another of its names may lie outside the part's folder; "
                              'use a copy of the mesh of its own')]
    if status.st_size == 0:
        return [_mesh_problem(doc, where, f'mesh {mesh} ({target}) is empty')]
    if mesh.lower().endswith('.stl'):
        from ..files.stl import NotStl, read_stl, StlFile  # numpy: only for a user's STL

        try:  # in chunks, every vertex read: a NaN would reach Gazebo and the picture
            with StlFile(target) as stl:
                triangles = stl.checked()
        except NotStl:
            try:
                triangles = len(read_stl(target))  # it says why it is no STL
            except InputError as error:
                why = error.message.removeprefix('mesh: ')
                return [_mesh_problem(doc, where, f'mesh {mesh} ({target}): {why}')]
        except InputError as error:
            why = error.message.removeprefix('mesh: ')
            return [_mesh_problem(doc, where, f'mesh {mesh} ({target}): {why}')]
        if not triangles:
            return [_mesh_problem(doc, where, f'mesh {mesh} ({target}) has no triangles')]
    return []


def _mesh_problem(doc, where, message) -> Problem:
    return Problem(message, doc.file, doc.line(where), stage='load', rule='part-file-mesh')
