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
Net buoyancy, and what trims a vehicle that sinks or floats too high.

The net buoyancy is what Gazebo's Buoyancy lifts with the vehicle wholly under water (its
collision geometry's volume times the water's density) less the vehicle's mass, in kg. A
vehicle that dives (its base spawns below the surface: the BlueROV2s) is trimmed to a small
positive figure, as Blue Robotics trim the BlueROV2 (+0.2 kg with its ballast): below zero it
sinks, above TOO_BUOYANT it floats too high to dive and hover on its vertical thrusters. A boat
only has to float. The fix counts the shipped trim parts: Blue Robotics' subsea buoyancy foam
block and the BlueROV2's 200 g ballast weight (urdf/parts), in the water given.
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from . import hydrostatics
from .water import water_label

#: kg: a diving vehicle more buoyant than this floats too high. The unballasted BlueROV2 has
#: +1.4 kg (PART_FACTS.md), which its seven ballast weights bring to the published +0.2 kg.
TOO_BUOYANT = 1.0
#: kg: what a diving vehicle is trimmed to when its base publishes no net buoyancy.
DEFAULT_TARGET = 0.2
#: The shipped parts that trim a vehicle (docs/PARTS.md, "Trim").
FOAM_TYPE = 'subsea_buoyancy_foam'
BALLAST_TYPE = 'bluerov2_ballast_weight'
SINKS, TOO_LIGHT = 'sinks', 'floats too high'


@dataclass(frozen=True)
class Trim:
    """How a vehicle floats wholly under water, and what it is trimmed to."""

    mass: float  # kg
    volume: float  # m^3 of collision geometry (what Gazebo's Buoyancy lifts)
    water: float  # kg/m^3
    dives: bool  # its base spawns below the surface
    target: float  # kg of net buoyancy a diving vehicle is trimmed to
    foam: float | None = None  # kg one foam block lifts in this water (None: not shipped)
    ballast: float | None = None  # kg one ballast weight sinks in this water

    @property
    def net(self) -> float:
        """Return the net buoyancy wholly submerged, kg (negative: it sinks)."""
        return self.volume * self.water - self.mass

    @property
    def verdict(self) -> str:
        """Return SINKS, TOO_LIGHT (a diving vehicle too buoyant) or '' (it is trimmed)."""
        if self.net < 0:
            return SINKS
        return TOO_LIGHT if self.dives and self.net > TOO_BUOYANT else ''

    def line(self) -> str:
        """Return the net buoyancy as ``info`` prints it."""
        what = 'net buoyancy under water' if self.dives else 'reserve buoyancy (wholly ' \
            'submerged)'
        return (f'{what}: {self.net:+.2f} kg in {water_label(self.water)}: '
                f'{self.volume * self.water:.2f} kg of water displaced, {self.mass:.2f} kg of '
                'vehicle')

    def warning(self) -> str:
        """Return the one-line warning ``build`` prints, or '' when it is trimmed."""
        if not self.verdict:
            return ''
        return (f'warning: the vehicle {self.verdict} in {water_label(self.water)}: net buoyancy '
                f'{self.net:+.2f} kg under water; bluerobotics-parts info says how to trim it')

    def advice(self) -> str:
        """Return what trims it, or how far it is trimmed; '' for a boat that floats."""
        if not self.verdict:
            if not self.dives:
                return ''
            return (f'trimmed: it rises slowly when left alone (Blue Robotics trim the BlueROV2 '
                    f'to +0.2 kg); {self.net:.2f} kg more on it would sink it')
        if not self.dives:  # a boat that sinks
            return (f'to float it needs {-self.net:.2f} kg less mass or '
                    f'{-self.net / self.water:.4f} m^3 more displacement')
        if self.verdict == SINKS:
            need = self.target - self.net
            fix = [f'add {_count(need, self.foam)} x {FOAM_TYPE} ({self.foam:+.2f} kg each '
                   'here), high on the frame'] if self.foam else []
            if self.ballast:
                fix.append(f'take off {_count(need, self.ballast)} x {BALLAST_TYPE} '
                           f'({-self.ballast:+.2f} kg each) if fitted')
        else:
            need = self.net - self.target
            fix = [f'add {_count(need, self.ballast)} x {BALLAST_TYPE} ({-self.ballast:+.2f} '
                   'kg each here), low on the frame'] if self.ballast else []
            if self.foam:
                fix.append(f'take off {_count(need, self.foam)} x {FOAM_TYPE} if fitted')
        fix = fix or [f'change its net buoyancy by {self.target - self.net:+.2f} kg']
        return (f'to trim it to {self.target:+.2f} kg: ' + ', or '.join(fix)
                + ' (free placements: docs/PARTS.md, "Trim")')


def trim(vehicle, shapes, catalogue, base_type: str, water: float) -> Trim:
    """
    Return the trim of a vehicle: its collision ``shapes`` (hydrostatics.collision_shapes).

    ``catalogue``: the parts (the base's published net buoyancy and spawn depth, and the trim
    parts); ``water``: the density, kg/m^3.
    """
    base = catalogue[base_type]
    published = (base.data.get('hydrostatics') or {}).get('net_buoyancy')
    return Trim(vehicle.total_mass, sum(hydrostatics.full_volume(s) for s in shapes), water,
                base.spawn_depth > 0,
                DEFAULT_TARGET if published is None else float(published),
                _part_net(catalogue, FOAM_TYPE, water),
                _sinks(_part_net(catalogue, BALLAST_TYPE, water)))


def part_net(part, water: float) -> float:
    """Return a part's own net buoyancy in ``water``, kg: its collision volume less its mass."""
    return part_volume(part) * water - part.mass


def part_volume(part) -> float:
    """Return the volume of a part's collision geometry (boxes, cylinders, spheres), m^3."""
    volume = 0.0
    for item in part.data.get('collision') or []:
        if 'box' in item:
            volume += math.prod(float(v) for v in item['box'])
        elif 'cylinder' in item:
            volume += math.pi * float(item['cylinder']['radius']) ** 2 * \
                float(item['cylinder']['length'])
        elif 'sphere' in item:
            volume += 4.0 / 3.0 * math.pi * float(item['sphere']['radius']) ** 3
    return volume


def _part_net(catalogue, type_name: str, water: float) -> float | None:
    return part_net(catalogue[type_name], water) if type_name in catalogue else None


def _sinks(net: float | None) -> float | None:
    """Return how much a ballast part sinks (positive kg), None if it does not."""
    return -net if net is not None and net < 0 else None


def _count(kilograms: float, each: float | None) -> int:
    """Return how many parts of ``each`` kg make up at least ``kilograms``."""
    return max(1, math.ceil(kilograms / each - 1e-9))
