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
The surge drag of parts a config adds to its base's vehicle: an estimate, for ``info``.

A base part's hydrodynamics coefficients are the whole vehicle as it ships (the BlueBoat's
are fitted to its published top speed). A part the config adds (a Ping360 under the hull, a
payload skid with a DVL) adds its own drag, which those coefficients do not hold: here it is
a bluff body's, 1/2 rho Cd A u^2 with Cd = DRAG_COEFFICIENT on the frontal area (seen from
ahead, along x) of its collision shapes under water, summed over its shapes. Gazebo's
Hydrodynamics gets the base's coefficients only; ``info`` says so.
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from . import hydrostatics

#: A bluff body's drag coefficient (a flat plate face-on is about 1.2, a cylinder across the
#: flow about 1.0): an estimate for every added part, unverified.
DRAG_COEFFICIENT = 1.0


@dataclass(frozen=True)
class AddedDrag:
    """One added part's frontal area under water (m^2), and its drag coefficient term."""

    instance: str
    type: str  # noqa: A003 (the part type)
    area: float  # m^2 under water, seen from ahead
    shapes: int  # how many collision shapes it has (0: no drag counted)

    def quadratic(self, water: float) -> float:
        """Return its xUabsU term (Fossen's sign: negative), N / (m/s)^2."""
        return -0.5 * water * DRAG_COEFFICIENT * self.area


def added_parts(record, default) -> list:
    """Return the parts of ``record`` that ``default`` (the base's own vehicle) lacks."""
    shipped = {(part.name, part.type) for part in default.parts}
    return [part for part in record.parts if (part.name, part.type) not in shipped]


def added_drag(parts, record, shapes, surface: float | None) -> list[AddedDrag]:
    """
    Return each added part's frontal area under water.

    ``shapes``: the vehicle's collision shapes in its root frame; ``surface``: the water's z in
    that frame (None: the vehicle runs wholly submerged).
    """
    found = []
    for part in parts:
        links = {part.name} | {frame.link for frame in record.frames_of(part.name)}
        own = [shape for shape in shapes if shape.link in links]
        found.append(AddedDrag(part.name, part.type,
                               sum(frontal_area(s, surface) for s in own), len(own)))
    return found


def frontal_area(shape, surface: float | None = None) -> float:
    """
    Return a placed shape's area seen from ahead (projected on the y-z plane), m^2.

    Below ``surface`` only (in proportion of its height under it; None: all of it).
    """
    rotation = shape.pose.rotation
    if isinstance(shape, hydrostatics.Box):
        a, b, c = shape.size
        faces = (b * c, a * c, a * b)
        area = sum(abs(rotation[0][i]) * faces[i] for i in range(3))
    elif isinstance(shape, hydrostatics.Cylinder):
        along = abs(rotation[0][2])  # the axis's share of x
        area = along * math.pi * shape.radius ** 2 + \
            math.sqrt(max(0.0, 1 - along ** 2)) * 2 * shape.radius * shape.length
    else:
        area = math.pi * shape.radius ** 2
    if surface is None:
        return area
    low, high = hydrostatics.extent(shape)
    if high <= low:
        return 0.0
    return area * min(1.0, max(0.0, (surface - low) / (high - low)))
