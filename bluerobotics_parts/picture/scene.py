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
What the picture of a vehicle shows, in its root link's frame (render.py draws it).

From a resolved URDF and its record, nothing else: every link's ``<visual>`` geometry placed
with every joint at zero (model/kinematics.py), coloured by its material; every slot frame
(filled or empty) and every named part frame (``ping_beam``) as a marker with its pose; and,
for a vessel (a base part that spawns at the surface), the water plane where ``info`` finds
the vehicle at rest (physics/stability.py, exact hydrostatics).

A scene holds at most ``budget`` triangles (each view draws them all: render.py gives each
view its part of TRIANGLE_BUDGET). Where the visuals have more, the meshes are simplified by
vertex clustering (mesh.py) on one grid size for all of them, the finest that fits the budget:
triangles smaller than a cell merge, wherever they are, so a mesh with detail finer than the
picture shows loses it and a coarse one (the shipped parts) keeps every triangle; a note says
which meshes were simplified. Meshes are read a chunk at a time, and no more than
MESH_READ_LIMIT bytes of them for one picture: reading is the time the budget does not bound.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
import math

import numpy

from . import mesh
from .views import VIEW_NAMES
from .. import paths
from ..errors import BlueRoboticsPartsError, ConfigError, InputError, SceneError
from ..files.inputs import MESH_LIMIT
from ..files.stl import NotStl, read_stl, StlFile
from ..model import kinematics
from ..model.kinematics import Pose
from ..model.urdf_tree import floats
from ..model.vehicle import Vehicle
from ..physics import stability

#: The colour of a visual without a material (URDF's own has none; RViz draws it white-grey).
NO_MATERIAL = (0.7, 0.7, 0.7, 1.0)
ROUND_SEGMENTS = 24
#: The most triangles one picture draws, all its views together (benchmarks/render.py): 0.4
#: million take about 3 s as PNG and 1.2 s and 46 MB as SVG, and under 200 MB; the shipped
#: vehicles draw at most 75,000 (four views of 18,616), and 1,000 placed flags 350,000.
TRIANGLE_BUDGET = 400_000
#: A vessel of more collision shapes is drawn without its water line: finding the rest cuts
#: every shape by the water some 40 times (a thousand flags took 7 s of a 10 s picture).
WATER_LINE_SHAPES = 200
#: A scene's budget when its views are not known: its part of four views.
SCENE_BUDGET = TRIANGLE_BUDGET // len(VIEW_NAMES)
#: Bytes of mesh files one picture reads, all together: reading is linear in them (about 2 s
#: per 100 MB, a pass to measure and one or two to simplify) while drawing is bounded by the
#: budget. Twice the largest mesh file allowed (files/inputs.py), so any one mesh is drawn.
MESH_READ_LIMIT = 2 * MESH_LIMIT
#: A part frame this close to its part's origin or to one of the part's frames marked before
#: it is inner (a rotor at its thruster's origin, an optical frame on its lens): its label
#: would sit on the other's and tell nothing more. ``--frames all`` marks them.
INNER_FRAME_DISTANCE = 0.005  # m
#: Triangles vertex clustering leaves of a surface of area A on a grid of cell c: about
#: ESTIMATE * A / c**2 (measured on tessellated spheres: 2.7 to 2.9); only the first guess.
ESTIMATE = 3.0


@dataclass(frozen=True)
class Solid:
    """One visual: its triangles in the root frame (n, 3, 3) and colour (r, g, b, a)."""

    instance: str
    link: str
    triangles: numpy.ndarray
    rgba: tuple


@dataclass(frozen=True)
class Marker:
    """A frame to draw: ``slot`` (filled), ``empty`` (an empty slot) or ``frame``."""

    kind: str
    label: str
    link: str
    pose: Pose  # in the root frame


@dataclass
class Scene:
    name: str
    root_link: str
    solids: list
    markers: list
    parts: list  # (instance, type, rgba of its first visual or None), record order
    mass: float  # kg, every link
    rest: stability.Rest | None = None  # where a vessel floats; None for an ROV or none found
    notes: list = field(default_factory=list)
    inner_frames: int = 0  # part frames left unmarked (scene.INNER_FRAME_DISTANCE)

    def points(self) -> numpy.ndarray:
        """Return every point the picture must hold (vertices and marker origins), (n, 3)."""
        chunks = [solid.triangles.reshape(-1, 3) for solid in self.solids]
        chunks.append(numpy.array([m.pose.translation for m in self.markers] or
                                  [(0.0, 0.0, 0.0)]))
        return numpy.concatenate(chunks)

    def water_height(self, x: float, y: float) -> float | None:
        """Return the root-frame z of the water surface above (x, y), None without water."""
        if self.rest is None:
            return None
        rotation = self.rest.pose.rotation  # root frame -> world; the water is world z = 0
        row = rotation[2]
        return -(self.rest.pose.translation[2] + row[0] * x + row[1] * y) / row[2]


def build_scene(resolved, budget: int = SCENE_BUDGET, positions: dict | None = None,
                frames: str = 'default') -> Scene:
    """
    Return the scene of a resolved config (pipeline.Resolved).

    ``budget``: the most triangles the scene holds (module doc); meshes beyond it are
    simplified, and a note says which. ``positions``: joint -> rad or m, each a moving joint
    of the vehicle within its limits (a ConfigError names the joints it may be). The water line
    is found with every joint at 0. ``frames``: which frames get a marker (views.FRAME_CHOICES).
    """
    record = resolved.record
    catalogue = resolved.catalogue()
    vehicle = Vehicle.from_tree(resolved.tree, record, catalogue)
    poses = kinematics.link_poses(vehicle, _checked_positions(vehicle, positions or {}))
    materials = {m.get('name'): _rgba(m) for m in resolved.tree.findall('material')}
    files = _MeshFiles(record, catalogue, vehicle)
    visuals = []
    try:
        for link in resolved.tree.findall('link'):
            name = link.get('name')
            for index, visual in enumerate(link.findall('visual')):
                where = f'link {name}, visual #{index + 1}'
                geometry = _geometry(visual.find('geometry'), where, files, name)
                local = _origin(visual.find('origin'), where)
                material = visual.find('material')
                rgba = NO_MATERIAL if material is None else (
                    _rgba(material) or materials.get(material.get('name')) or NO_MATERIAL)
                visuals.append((name, poses[name].compose(local), rgba, geometry))
        notes = []
        meshes = _mesh_triangles([g for _, _, _, g in visuals], files, budget, notes)
    finally:
        files.close()
    solids = [Solid(vehicle.link(name).part, name,
                    _placed(meshes[geometry] if isinstance(geometry, tuple) else geometry, pose),
                    rgba) for name, pose, rgba, geometry in visuals]
    # a filled slot is labelled by its occupant, an empty one by its name (its link's name
    # where another slot has the same name): each label names one thing
    names = [slot.name for slot in vehicle.slots.values() if not slot.occupant]
    markers = [Marker('slot', slot.occupant, slot.link, poses[slot.link]) if slot.occupant
               else Marker('empty', slot.name if names.count(slot.name) == 1 else slot.link,
                           slot.link, poses[slot.link])
               for slot in vehicle.slots.values()]
    shown, inner = _part_frames(record, poses, frames)
    markers += [Marker('frame', frame.link, frame.link, poses[frame.link]) for frame in shown]
    colour = {}
    for solid in solids:
        colour.setdefault(solid.instance, solid.rgba)
    parts = [(part.name, part.type, colour.get(part.name)) for part in record.parts]
    scene = Scene(vehicle.name, vehicle.root_link, solids, markers, parts, vehicle.total_mass,
                  notes=notes)
    scene.inner_frames = inner
    shapes = sum(1 for _ in resolved.tree.iter('collision'))
    if catalogue[record.base.type].spawn_depth == 0 and shapes > WATER_LINE_SHAPES:
        scene.notes.append(f'no water line: {shapes} collision shapes, more than the '
                           f'{WATER_LINE_SHAPES} a picture finds the rest of (bluerobotics-parts '
                           'info finds it for any vehicle)')
    elif catalogue[record.base.type].spawn_depth == 0:
        try:
            scene.rest = stability.rest(resolved.urdf, 'exact')
        except stability.StabilityError as error:
            scene.notes.append(f'no water line: {error}')
        except BlueRoboticsPartsError as error:  # e.g. a collision mesh it cannot measure
            scene.notes.append(f'no water line: {error}')
    return scene


def _part_frames(record, poses: dict, frames: str) -> tuple:
    """
    Return the part frames to mark, and how many inner ones were left out.

    ``frames``: views.FRAME_CHOICES; ``slots`` leaves every part frame out without counting
    them: it was asked for.
    """
    if frames == 'slots':
        return [], 0
    if frames == 'all':
        return list(record.frames), 0
    shown, inner = [], 0
    taken: dict = {}  # part instance -> the points marked on it so far
    for frame in record.frames:
        points = taken.setdefault(frame.of, [poses[frame.of].translation]
                                  if frame.of in poses else [])
        here = poses[frame.link].translation
        if any(math.dist(here, point) < INNER_FRAME_DISTANCE for point in points):
            inner += 1
            continue
        points.append(here)
        shown.append(frame)
    return shown, inner


def _checked_positions(vehicle, positions: dict) -> dict:
    """Return the positions, each a moving joint's within its limits; ConfigError if not."""
    moving = {name: joint for name, joint in vehicle.joints.items() if joint.type != 'fixed'}
    for name, value in positions.items():
        joint = moving.get(name)
        if joint is None:
            listed = ', '.join(sorted(moving)) or 'none'
            raise ConfigError(f'--joint {name}: not a moving joint of {vehicle.name}; moving: '
                              f'{listed}')
        limits = joint.limits
        if limits is not None and not limits.lower <= value <= limits.upper:
            raise ConfigError(f'--joint {name}={value:g}: outside its limits, {limits.lower:g} '
                              f'to {limits.upper:g}')
    return positions


class _MeshFiles:
    """The mesh files of a scene, each opened once, at most MESH_READ_LIMIT bytes of them."""

    def __init__(self, record, catalogue, vehicle):
        self.record, self.catalogue, self.vehicle = record, catalogue, vehicle
        self.files: dict = {}
        self.size = 0

    def __getitem__(self, path):
        return self.files[path]

    def add(self, path, link: str) -> None:
        """Open a mesh file (once); refuse it, naming its part file, beyond the read limit."""
        if path in self.files:
            return
        try:
            stl = StlFile(path)
        except NotStl:
            # read_stl says why it is no STL (or reads it after all)
            stl = mesh.Loaded(read_stl(path), path.stat().st_size)
        if self.size + stl.size > MESH_READ_LIMIT:
            stl.close()
            raise self._refusal(path, link, stl.size)
        self.size += stl.size
        self.files[path] = stl

    def close(self) -> None:
        for stl in self.files.values():
            stl.close()

    def _refusal(self, path, link: str, size: int) -> InputError:
        why = (f'its {size:,} bytes bring the meshes of this picture to {self.size + size:,} '
               f'bytes, more than the {MESH_READ_LIMIT:,} render reads for one picture (twice '
               'the limit of one mesh); use a simpler mesh (fewer triangles)')
        part = self.vehicle.link(link).part
        types = {p.name: p.type for p in self.record.parts}
        found = self.catalogue[types[part]] if types.get(part) in self.catalogue else None
        for index, item in enumerate((found.data.get('visual') or []) if found else []):
            written = item.get('mesh') if isinstance(item, dict) else None
            if written and paths.resolve_uri(written if '://' in written else
                                             found.mesh_base + written) == path:
                return InputError(f'mesh {written} ({path}): {why}', file=str(found.file),
                                  line=found.lines.get(('visual', index, 'mesh')))
        return InputError(f'mesh: {why}', file=str(path))


def _mesh_triangles(geometries, files, budget: int, notes: list) -> dict:
    """
    Return each mesh's triangles, scaled, by (path, scale).

    As read, or simplified where the scene would hold more than ``budget`` triangles (a note
    says which).
    """
    uses = Counter(g for g in geometries if isinstance(g, tuple))  # (path, scale) -> visuals
    fixed = sum(len(g) for g in geometries if not isinstance(g, tuple))
    if fixed + sum(files[path].counted() * n for (path, _), n in uses.items()) <= budget:
        return {key: mesh.read(files[key[0]], numpy.array(key[1])) for key in uses}
    room = max(budget - fixed, budget // 10)  # primitives are never simplified
    chunks = {key: lambda key=key: (chunk * numpy.array(key[1])
                                    for chunk in files[key[0]].chunks()) for key in uses}
    stats = {key: mesh.measure(chunks[key]()) for key in uses}
    order = sorted(uses, key=lambda key: -stats[key][0] * uses[key])  # the largest first
    cell = _first_cell(uses, stats, room)
    largest = max([float(numpy.max(high - low)) for count, low, high, _ in stats.values()
                   if count], default=0.0)
    while True:
        found, drawn = {}, 0
        for key in order:
            count, low, high, area = stats[key]
            if count * uses[key] <= room and ESTIMATE * area >= count * cell ** 2:
                found[key] = mesh.read(files[key[0]], numpy.array(key[1]))  # coarser than a cell
            else:
                found[key] = mesh.cluster(chunks[key](), low, max(cell, mesh.smallest_cell(
                    low, high)), max(1, (room - drawn) // uses[key]))
            if found[key] is None:
                break
            drawn += len(found[key]) * uses[key]
        else:
            if drawn <= room or cell > 4 * largest:  # no grid leaves fewer
                break
        cell *= 1.5 if found[key] is None else max(1.1, 1.05 * math.sqrt(drawn / room))
    for key in order:
        count, kept = stats[key][0], len(found[key])
        if kept < count:
            notes.append(f'mesh {key[0].name}: {count:,} triangles drawn as {kept:,}, merged on '
                         f'a {cell * 1000:.2g} mm grid (at most {budget:,} triangles a view)')
    return found


def _first_cell(uses, stats, room: int) -> float:
    """Return the grid cell the estimate says leaves ``room`` triangles (bisection)."""
    def left(cell):
        return sum(min(stats[key][0], ESTIMATE * stats[key][3] / cell ** 2) * n
                   for key, n in uses.items())

    low, high = 1e-9, 1e-9
    while left(high) > room and high < 1e6:
        high *= 2
    for _ in range(60):
        middle = math.sqrt(low * high)
        low, high = (middle, high) if left(middle) > room else (low, middle)
    return high


def _origin(element, where: str) -> Pose:
    return Pose.from_xyz_rpy(floats(element, 'xyz', 3, f'{where} origin'),
                             floats(element, 'rpy', 3, f'{where} origin'))


def _placed(triangles: numpy.ndarray, pose: Pose) -> numpy.ndarray:
    rotation = numpy.array(pose.rotation)
    return triangles @ rotation.T + numpy.array(pose.translation)


def _rgba(material) -> tuple | None:
    color = material.find('color')
    if color is None or not color.get('rgba'):
        return None
    values = floats(color, 'rgba', 4, f"material {material.get('name')}")
    return tuple(min(1.0, max(0.0, v)) for v in values)


def _geometry(geometry, where: str, files, link: str):
    """Return a primitive's triangles, or a mesh as (path, scale) (its file opened)."""
    shape = geometry[0] if geometry is not None and len(geometry) else None
    if shape is None:
        raise SceneError(f'{where} has no geometry')
    if shape.tag == 'mesh':
        uri = shape.get('filename', '')
        path = paths.resolve_uri(uri)
        if path is None:
            raise SceneError(f'{where}: cannot find mesh {uri} (only package://bluerobotics_parts'
                             '/... and file paths are drawn)')
        files.add(path, link)
        scale = floats(shape, 'scale', 3, where, default=(1.0, 1.0, 1.0))
        return path, tuple(scale)
    if shape.tag == 'box':
        return box(floats(shape, 'size', 3, where))
    if shape.tag == 'cylinder':
        return cylinder(floats(shape, 'radius', 1, where)[0],
                        floats(shape, 'length', 1, where)[0])
    if shape.tag == 'sphere':
        return sphere(floats(shape, 'radius', 1, where)[0])
    raise SceneError(f'{where} is a <{shape.tag}>: only mesh, box, cylinder and sphere are drawn')


def box(size) -> numpy.ndarray:
    """Return the 12 triangles of a box centred on the origin."""
    half = numpy.array(size, dtype=float) / 2
    corners = numpy.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    quads = numpy.array([[corners[i] for i in face] for face in faces]) * half
    return numpy.concatenate([quads[:, [0, 1, 2]], quads[:, [0, 2, 3]]])


def cylinder(radius: float, length: float) -> numpy.ndarray:
    """Return a cylinder along z centred on the origin (URDF's), as triangles."""
    angles = numpy.linspace(0, 2 * math.pi, ROUND_SEGMENTS + 1)
    ring = numpy.stack([radius * numpy.cos(angles), radius * numpy.sin(angles)], axis=1)
    triangles = []
    for a, b in zip(ring[:-1], ring[1:]):
        low_a, low_b = (*a, -length / 2), (*b, -length / 2)
        high_a, high_b = (*a, length / 2), (*b, length / 2)
        triangles += [(low_a, low_b, high_b), (low_a, high_b, high_a),
                      ((0, 0, length / 2), high_a, high_b), ((0, 0, -length / 2), low_b, low_a)]
    return numpy.array(triangles, dtype=float)


def sphere(radius: float) -> numpy.ndarray:
    """Return a sphere centred on the origin as triangles (latitude-longitude grid)."""
    rows, columns = ROUND_SEGMENTS // 2, ROUND_SEGMENTS
    theta = numpy.linspace(0, math.pi, rows + 1)
    phi = numpy.linspace(0, 2 * math.pi, columns + 1)

    def point(i, j):
        return (radius * math.sin(theta[i]) * math.cos(phi[j]),
                radius * math.sin(theta[i]) * math.sin(phi[j]), radius * math.cos(theta[i]))

    triangles = []
    for i in range(rows):
        for j in range(columns):
            triangles += [(point(i, j), point(i + 1, j), point(i + 1, j + 1)),
                          (point(i, j), point(i + 1, j + 1), point(i, j + 1))]
    return numpy.array(triangles, dtype=float)
