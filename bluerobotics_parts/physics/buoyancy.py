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
The buoyant force on a vehicle's collision shapes at a pose, computed two ways.

``exact``: the water surface (the world plane z = 0) cuts every shape as it lies, as it would
a real hull. ``harmonic``: what gz-sim 8's graded Buoyancy system computes, cutting each shape
in its own frame, which is where the simulated vehicle settles (its source: ``harmonic``).
Both return the vertical force (N, up positive) and the moment (N m) about a given point, in
the world frame: sea water below z = 0, air above, the densities of the shipped world
(config/worlds/water.sdf).
"""

from __future__ import annotations

import math

from .hydrostatics import Box, Cylinder, extent, full_volume, Sphere
from .water import AIR_DENSITY, GRAVITY, SEA_WATER_DENSITY
from ..model.kinematics import Pose


# A cylinder's exact cut uses a prism of this many sides: its volume is pi r^2 L times
# sin(2 pi / n) n / (2 pi), 0.1% low at 128 sides.
CYLINDER_SIDES = 128


class Wrench:
    """A vertical force (N, up positive) and a moment (N m, world axes) about a point."""

    __slots__ = ('force', 'moment')

    def __init__(self, force: float = 0.0, moment=(0.0, 0.0, 0.0)):
        self.force = force
        self.moment = tuple(moment)

    def add(self, force: float, point, about) -> None:
        """Add a vertical force acting at ``point`` (world), its moment taken about ``about``."""
        arm = (point[0] - about[0], point[1] - about[1])
        # (arm x (0, 0, F)) = (arm_y F, -arm_x F, 0)
        self.force += force
        self.moment = (self.moment[0] + arm[1] * force, self.moment[1] - arm[0] * force,
                       self.moment[2])


def exact(shapes, body: Pose, about, water=SEA_WATER_DENSITY, air=AIR_DENSITY) -> Wrench:
    """
    Return the buoyancy when the plane z = 0 cuts each shape as it lies in the world.

    A box or sphere that the plane cannot reach (its centre farther from it than its corners)
    counts whole, at its centre, without being cut: the same figures, and the many small parts
    far above the water (a thousand flags) cost a pose each instead of a clipping.
    """
    wrench = Wrench()
    for shape in shapes:
        if not isinstance(shape, Cylinder):
            middle = body.apply(shape.pose.translation)
            reach = _reach(shape)
            if abs(middle[2]) >= reach:
                density = air if middle[2] > 0 else water
                wrench.add(density * GRAVITY * full_volume(shape), middle, about)
                continue
        add_cut(wrench, shape, body.compose(shape.pose), about, water, air)
    return wrench


def add_cut(wrench: Wrench, shape, placed: Pose, about, water=SEA_WATER_DENSITY,
            air=AIR_DENSITY) -> None:
    """Add the buoyancy of one placed shape, cut by the plane z = 0: water below, air above."""
    total, centre = _whole(shape, placed)
    below, below_centre = _below(shape, placed)
    wrench.add(water * GRAVITY * below, below_centre or centre, about)
    above = total - below
    if above > 1e-15:
        above_centre = tuple((centre[i] * total - (below_centre[i] * below if below_centre
                                                   else 0.0)) / above for i in range(3))
        wrench.add(air * GRAVITY * above, above_centre, about)


def _reach(shape) -> float:
    """Return how far a box's corners or a sphere's surface lie from its centre, at most."""
    if isinstance(shape, Sphere):
        return shape.radius
    return 0.5 * math.sqrt(sum(v * v for v in shape.size))


def harmonic(shapes, body: Pose, about, water=SEA_WATER_DENSITY, air=AIR_DENSITY,
             cylinders: bool = True) -> Wrench:
    """
    Return the buoyancy as gz-sim 8.14's graded Buoyancy computes it.

    gazebosim/gz-sim, tag gz-sim8_8.14.0, src/systems/buoyancy/Buoyancy.cc,
    ``BuoyancyPrivate::GradedFluidDensity``: for each collision shape it builds the plane
    ``Planed{(0, 0, 1), height - pose.Pos().Z()}`` in the shape's OWN frame (the source marks it
    "TODO(arjo): Transform plane and slice the shape"), takes ``shape.VolumeBelow(plane)`` and
    ``shape.CenterOfVolumeBelow(plane)`` in that frame, and applies the vertical force of that
    volume at that centre transformed back to the world (``ResolveForces``). A tilted shape
    therefore keeps the volume it has level at the same centre height, and its centre of
    buoyancy moves with the shape instead of toward the low side. Above the density change the
    rest of the shape gets the air density. Shapes it reads: box, sphere, cylinder, capsule,
    ellipsoid, cone; from 8.0 to 8.11 only box and sphere
    (``GradedFluidDensity<math::Cylinderd>`` first appears at gz-sim8_8.12.0); meshes get no
    graded buoyancy at all (the ``default:`` branch warns once).

    ``cylinders=False`` leaves cylinders out, as gz-sim 8.0 to 8.11 do.
    """
    wrench = Wrench()
    for shape in shapes:
        if isinstance(shape, Cylinder) and not cylinders:
            continue
        placed = body.compose(shape.pose)
        depth = -placed.translation[2]  # the plane's offset in the shape frame
        below, local_z = _harmonic_below(shape, depth)
        total = full_volume(shape)
        if below > 0:
            wrench.add(water * GRAVITY * below, placed.apply((0.0, 0.0, local_z)), about)
        if total - below > 1e-15:
            # The layers above: the rest of the volume, its centre so that the two centres
            # average to the shape's centre (GradedFluidDensity's last block).
            rest_z = -local_z * below / (total - below)
            wrench.add(air * GRAVITY * (total - below), placed.apply((0.0, 0.0, rest_z)), about)
    return wrench


# -- gz-sim 8.14's cut: along the shape's own z ------------------------------------------------

def _harmonic_below(shape, depth: float) -> tuple:
    """
    (volume, centre z in the shape frame) of the part below the local plane z = depth.

    gz-math7 (tag gz-math7_7.6.0, include/gz/math/detail/Box.hh ``VolumeBelow`` /
    ``CenterOfVolumeBelow``) cuts a box by a plane normal to its own z: a slab of the box's
    footprint. A cylinder's own z is its axis, so the cut is across the axis (a shorter
    cylinder), whichever way the cylinder lies. A sphere's cut is a cap.
    """
    if isinstance(shape, Sphere):
        r = shape.radius
        cap = min(max(depth + r, 0.0), 2 * r)
        if cap <= 0:
            return 0.0, 0.0
        volume = math.pi * cap * cap * (3 * r - cap) / 3
        if cap >= 2 * r:
            return volume, 0.0
        # centroid of a cap of height h measured from the sphere's centre, below the plane
        centre = -(3 * (2 * r - cap) ** 2) / (4 * (3 * r - cap)) if cap < 2 * r else 0.0
        return volume, centre
    if isinstance(shape, Box):
        footprint, height = shape.size[0] * shape.size[1], shape.size[2]
    else:
        footprint, height = math.pi * shape.radius ** 2, shape.length
    wet = min(max(depth + height / 2, 0.0), height)
    if wet <= 0:
        return 0.0, 0.0
    return footprint * wet, (-height / 2 + wet / 2) if wet < height else 0.0


# -- the exact cut: convex polyhedra clipped by the world plane ---------------------------------

def _whole(shape, placed: Pose) -> tuple:
    """(volume, centre) of the whole shape, centre in the world."""
    if isinstance(shape, Cylinder):
        vertices, faces = _prism(shape, placed)
        return _polyhedron_volume(vertices, faces)
    return full_volume(shape), placed.translation


def _below(shape, placed: Pose) -> tuple:
    """(volume, centroid or None) of the part of a placed shape below z = 0."""
    if isinstance(shape, Sphere):
        return _sphere_below(shape.radius, placed.translation)
    low, high = extent(_moved(shape, placed))
    if low >= 0.0:
        return 0.0, None
    vertices, faces = _box_faces(shape, placed) if isinstance(shape, Box) else \
        _prism(shape, placed)
    if high <= 0.0:
        return _polyhedron_volume(vertices, faces)
    clipped = _clip(vertices, faces)
    if not clipped:
        return 0.0, None
    volume, centre = _polyhedron_volume(*clipped)
    return (volume, centre) if volume > 0 else (0.0, None)


def _moved(shape, placed: Pose):
    if isinstance(shape, Box):
        return Box(shape.size, placed, shape.link)
    return Cylinder(shape.radius, shape.length, placed, shape.link)


def _sphere_below(radius: float, centre) -> tuple:
    cap = min(max(-centre[2] + radius, 0.0), 2 * radius)
    if cap <= 0:
        return 0.0, None
    volume = math.pi * cap * cap * (3 * radius - cap) / 3
    offset = -(3 * (2 * radius - cap) ** 2) / (4 * (3 * radius - cap))
    return volume, (centre[0], centre[1], centre[2] + offset)


# The unit cube's corners and its faces, counter-clockwise seen from outside.
_CORNERS = [(sx, sy, sz) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
_CUBE_FACES = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4),
               (1, 5, 7, 3)]


def _box_faces(box: Box, placed: Pose) -> tuple:
    half = [v / 2 for v in box.size]
    vertices = [placed.apply((c[0] * half[0], c[1] * half[1], c[2] * half[2]))
                for c in _CORNERS]
    return vertices, [list(face) for face in _CUBE_FACES]


def _prism(cylinder: Cylinder, placed: Pose) -> tuple:
    """Return a cylinder as a prism of ``CYLINDER_SIDES`` sides about its own z axis."""
    n, half = CYLINDER_SIDES, cylinder.length / 2
    ring = [(cylinder.radius * math.cos(2 * math.pi * k / n),
             cylinder.radius * math.sin(2 * math.pi * k / n)) for k in range(n)]
    vertices = [placed.apply((x, y, -half)) for x, y in ring] + \
        [placed.apply((x, y, half)) for x, y in ring]
    faces = [list(reversed(range(n))), list(range(n, 2 * n))]
    faces += [[k, (k + 1) % n, n + (k + 1) % n, n + k] for k in range(n)]
    return vertices, faces


def _clip(vertices, faces):
    """Return the polyhedron's part below z = 0: its faces clipped, plus the cap on the plane."""
    polygons, cut = [], []
    for face in faces:
        points = [vertices[i] for i in face]
        kept = []
        for a, b in zip(points, points[1:] + points[:1]):
            if a[2] <= 0.0:
                kept.append(a)
            if (a[2] < 0.0 < b[2]) or (b[2] < 0.0 < a[2]):
                t = a[2] / (a[2] - b[2])
                crossing = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), 0.0)
                kept.append(crossing)
                cut.append(crossing)
            elif a[2] == 0.0:
                cut.append(a)
        if len(kept) >= 3:
            polygons.append(kept)
    if not polygons:
        return None
    cap = _ccw_polygon(cut)
    if len(cap) >= 3:
        polygons.append(cap)
    points, indexed = [], []
    for polygon in polygons:
        indexed.append(list(range(len(points), len(points) + len(polygon))))
        points += polygon
    return points, indexed


def _ccw_polygon(points) -> list:
    """Distinct points on the plane, ordered counter-clockwise seen from above (+z)."""
    unique = sorted({(round(p[0], 12), round(p[1], 12)) for p in points})
    if len(unique) < 3:
        return []
    cx = sum(p[0] for p in unique) / len(unique)
    cy = sum(p[1] for p in unique) / len(unique)
    unique.sort(key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
    return [(x, y, 0.0) for x, y in unique]


def _polyhedron_volume(vertices, faces) -> tuple:
    """(volume, centroid) of a closed polyhedron with outward faces (divergence theorem)."""
    reference = vertices[0]
    volume, moment = 0.0, [0.0, 0.0, 0.0]
    for face in faces:
        a = _minus(vertices[face[0]], reference)
        for i in range(1, len(face) - 1):
            b = _minus(vertices[face[i]], reference)
            c = _minus(vertices[face[i + 1]], reference)
            six = (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                   + a[2] * (b[0] * c[1] - b[1] * c[0]))
            volume += six / 6
            for k in range(3):
                moment[k] += six / 24 * (a[k] + b[k] + c[k])
    if abs(volume) < 1e-18:
        return 0.0, tuple(reference)
    return volume, tuple(reference[k] + moment[k] / volume for k in range(3))


def _minus(a, b) -> tuple:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])
