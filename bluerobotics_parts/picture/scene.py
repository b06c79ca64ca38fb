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
"""

from __future__ import annotations

from dataclasses import dataclass, field
import math

import numpy

from .. import paths
from ..errors import BlueRoboticsPartsError, SceneError
from ..files.stl import read_stl
from ..model import kinematics
from ..model.kinematics import Pose
from ..model.urdf_tree import floats
from ..model.vehicle import Vehicle
from ..physics import stability

#: The colour of a visual without a material (URDF's own has none; RViz draws it white-grey).
NO_MATERIAL = (0.7, 0.7, 0.7, 1.0)
ROUND_SEGMENTS = 24


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


def build_scene(resolved) -> Scene:
    """Return the scene of a resolved config (pipeline.Resolved)."""
    record = resolved.record
    catalogue = resolved.catalogue()
    vehicle = Vehicle.from_tree(resolved.tree, record, catalogue)
    poses = kinematics.link_poses(vehicle)
    materials = {m.get('name'): _rgba(m) for m in resolved.tree.findall('material')}
    meshes: dict = {}
    solids = []
    for link in resolved.tree.findall('link'):
        name = link.get('name')
        for index, visual in enumerate(link.findall('visual')):
            where = f'link {name}, visual #{index + 1}'
            triangles = _geometry(visual.find('geometry'), where, meshes)
            local = _origin(visual.find('origin'), where)
            placed = _placed(triangles, poses[name].compose(local))
            material = visual.find('material')
            rgba = NO_MATERIAL if material is None else (
                _rgba(material) or materials.get(material.get('name')) or NO_MATERIAL)
            solids.append(Solid(vehicle.link(name).part, name, placed, rgba))
    # a filled slot is labelled by its occupant, an empty one by its name (its link's name
    # where another slot has the same name): each label names one thing
    names = [slot.name for slot in vehicle.slots.values() if not slot.occupant]
    markers = [Marker('slot', slot.occupant, slot.link, poses[slot.link]) if slot.occupant
               else Marker('empty', slot.name if names.count(slot.name) == 1 else slot.link,
                           slot.link, poses[slot.link])
               for slot in vehicle.slots.values()]
    markers += [Marker('frame', frame.link, frame.link, poses[frame.link])
                for frame in record.frames]
    colour = {}
    for solid in solids:
        colour.setdefault(solid.instance, solid.rgba)
    parts = [(part.name, part.type, colour.get(part.name)) for part in record.parts]
    scene = Scene(vehicle.name, vehicle.root_link, solids, markers, parts, vehicle.total_mass)
    if catalogue[record.base.type].spawn_depth == 0:
        try:
            scene.rest = stability.rest(resolved.urdf, 'exact')
        except stability.StabilityError as error:
            scene.notes.append(f'no water line: {error}')
        except BlueRoboticsPartsError as error:  # e.g. a collision mesh it cannot measure
            scene.notes.append(f'no water line: {error}')
    return scene


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


def _geometry(geometry, where: str, meshes: dict) -> numpy.ndarray:
    shape = geometry[0] if geometry is not None and len(geometry) else None
    if shape is None:
        raise SceneError(f'{where} has no geometry')
    if shape.tag == 'mesh':
        uri = shape.get('filename', '')
        path = paths.resolve_uri(uri)
        if path is None:
            raise SceneError(f'{where}: cannot find mesh {uri} (only package://bluerobotics_parts'
                             '/... and file paths are drawn)')
        if path not in meshes:
            triangles = read_stl(path)
            meshes[path] = triangles[numpy.isfinite(triangles).all(axis=(1, 2))]
        scale = numpy.array(floats(shape, 'scale', 3, where, default=(1.0, 1.0, 1.0)))
        return meshes[path] * scale
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
