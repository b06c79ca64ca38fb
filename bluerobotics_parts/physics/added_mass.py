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
The added mass Gazebo is given: the base part's Fossen terms as SDF's ``<fluid_added_mass>``.

dartsim integrates that matrix with the link's spatial inertia about the link origin
(gazebosim/gz-physics gz-physics7_7.8.0, dartsim/src/AddedMassFeatures.cc SetLinkAddedMass)
and derives its Coriolis forces from it; gazebo/added_mass.py carries it into the model, and
manoeuvring.py predicts with the same numbers.
"""

from __future__ import annotations

import re

#: Fossen's added-mass derivative: force (x y z k m n) over acceleration (U V W P Q R).
FOSSEN_ADDED_MASS = re.compile(r'^([xyzkmn])Dot([UVWPQR])$')
#: SDFormat 1.11's 21 elements of the symmetric 6x6 matrix, axes x y z p q r (sdformat14_14.9.0
#: sdf/1.11/inertial.sdf, fluid_added_mass): kg, kg m, kg m^2; positive.
SDF_AXES = 'xyzpqr'
ELEMENTS = tuple(SDF_AXES[i] + SDF_AXES[j] for i in range(6) for j in range(i, 6))


def added_mass(hydrodynamics: dict) -> dict[str, float]:
    """
    Return a base part's added mass as SDF elements (``xx``: 6.36, ...), none when it has none.

    Fossen's derivatives are negative for a resisting force (``xDotU`` -6.36); SDF's matrix
    holds the positive mass. A term and its transpose (``xDotW``, ``zDotU``) are one element.

    The translations are sent as one isotropic mass, the surge term: dartsim derives the
    Coriolis forces of the whole matrix (DART's bias force of the spatial inertia), so unequal
    translational terms bring potential flow's Munk moments, (Zw' - Xu') u w in pitch. The
    hydrodynamics here are diagonal, without the lift of hulls and frame (Nv, Mw) that holds
    those moments in real water; with them a BlueROV2 at full ahead pitched over within
    seconds in gz-sim 8.14 (docs/LIMITATIONS.md, "Hydrodynamics and added mass"). The
    rotational terms are sent as given.
    """
    values = {}
    for key, value in hydrodynamics.items():
        found = FOSSEN_ADDED_MASS.match(key)
        if found and value:
            row = 'xyzkmn'.index(found.group(1))
            column = 'UVWPQR'.index(found.group(2))
            low, high = sorted((row, column))
            values[SDF_AXES[low] + SDF_AXES[high]] = -float(value)
    translational = [name for name in values if name[0] in 'xyz' and name[1] in 'xyz']
    if translational:
        surge = values.get('xx', 0.0)
        for name in translational:
            del values[name]
        if surge:
            values.update(xx=surge, yy=surge, zz=surge)
    return {name: values[name] for name in ELEMENTS if name in values}
