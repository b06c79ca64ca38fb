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
What the fitted propellers can do: their thrust limits and the steady speeds they reach.

A propeller part states its bench thrust, a base part the fraction its propulsors deliver
installed on it (``installed_fraction``); the Gazebo Thruster system gets the installed limits.
The steady speeds balance them against gz-sim's Hydrodynamics damping (``steady_speed``).
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from ..errors import BlueRoboticsPartsError
from ..model import kinematics


@dataclass(frozen=True)
class ThrustLimits:
    """One propeller's thrust command range in newtons, bench and installed."""

    instance: str
    part_type: str
    bench_max: float
    bench_min: float
    fraction: float  # of the bench figures, installed on the base

    @property
    def maximum(self) -> float:
        return self.bench_max * self.fraction

    @property
    def minimum(self) -> float:
        return self.bench_min * self.fraction


def installed_fraction(base_part) -> float:
    """
    Return the base part's ``installed_thrust: fraction`` (1 when it states none).

    A propeller part states its bench figures (``propeller: max_thrust / min_thrust``, from the
    maker's chart); this is the fraction of them its propulsors deliver installed on the base:
    the BlueBoat's published maximum static thrust, 8.2 kgf for the boat, is 73% of the two
    M200s' bench 2 x 5.63 kgf. The Gazebo Thruster system gets the installed limits
    (``max_thrust_cmd`` / ``min_thrust_cmd``), so a full command gives the force the boat
    delivers, and the surge drag is fitted to the same figure.
    """
    section = base_part.data.get('installed_thrust') or {}
    return float(section.get('fraction', 1.0))


def thrust_limits(record, catalogue) -> dict:
    """Return the ThrustLimits of every fitted propeller, by instance, in record order."""
    fraction = installed_fraction(catalogue[record.base.type])
    limits = {}
    for part in record.parts:
        propeller = catalogue[part.type].propeller
        if propeller is not None:
            limits[part.name] = ThrustLimits(part.name, part.type, propeller.max_thrust,
                                             propeller.min_thrust, fraction)
    return limits


def steady_speed(thrust: float, linear: float, quadratic: float) -> float:
    """
    Return the speed where a constant thrust (or moment) balances ``lin u + quad |u| u``.

    The coefficients are gz-sim Hydrodynamics' (negative: resisting); the result has the
    sign of the thrust. The system applies, per axis, the force ``X = xU u + xUabsU |u| u``
    (gazebosim/gz-sim, tag gz-sim8_8.14.0, src/systems/hydrodynamics/HydrodynamicsUtils.hh
    ``buildDampingMatrix``: D = -xU - xUabsU |u|, force -D u), so a constant thrust T settles
    where -X = T:

        u = (-b + sqrt(b^2 + 4 a T)) / (2 a),   a = -xUabsU, b = -xU
    """
    a, b = -quadratic, -linear
    if a < 0 or b < 0 or (a == 0 and b == 0):
        raise BlueRoboticsPartsError(
            f'damping coefficients linear {linear} and quadratic {quadratic} do not resist '
            'motion (both must be <= 0, one < 0): no steady speed')
    size = abs(thrust)
    speed = size / b if a == 0 else (-b + math.sqrt(b * b + 4 * a * size)) / (2 * a)
    return math.copysign(speed, thrust)


@dataclass(frozen=True)
class Performance:
    """Steady states the hydrodynamic coefficients predict (m/s, rad/s; N, N m)."""

    forward_thrust: float
    forward_speed: float | None
    reverse_thrust: float
    reverse_speed: float | None
    turn_instance: str | None  # the one propeller at full thrust in the turn
    turn_moment: float
    turn_yaw_rate: float | None


def performance(vehicle, limits: dict, coefficients: dict) -> Performance:
    """
    Return the steady states the Hydrodynamics coefficients predict.

    Full ahead (every propeller at the limit that pushes the vehicle ahead: its maximum when
    it points forward, its minimum when it points aft, as an ROV's vectored front thrusters
    do), full astern (the other limits), and one propeller (the first) full ahead alone. The
    turn uses ``nR`` / ``nRabsR`` and the propeller's moment about the base link origin (where
    the system applies its wrench); it ignores the sway and Coriolis coupling.
    """
    poses = kinematics.link_poses(vehicle)
    forces = {}
    for name, limit in limits.items():
        joint = vehicle.actuators[name].joint
        origin, axis = kinematics.joint_frame(vehicle, poses, joint)
        forces[name] = (origin, axis, limit)

    def surge(ahead: bool):
        return sum(axis[0] * (limit.maximum if (axis[0] >= 0) == ahead else limit.minimum)
                   for _, axis, limit in forces.values())

    def speed(thrust, linear, quadratic):
        if abs(thrust) < 1e-9 or (linear == 0 and quadratic == 0):  # rounding of a cos(90 deg)
            return None
        return steady_speed(thrust, linear, quadratic)

    xu, xuu = coefficients.get('xU', 0.0), coefficients.get('xUabsU', 0.0)
    nr, nrr = coefficients.get('nR', 0.0), coefficients.get('nRabsR', 0.0)
    ahead, astern = surge(True), surge(False)
    first = next(iter(forces), None)
    moment = 0.0
    if first is not None:
        origin, axis, limit = forces[first]
        force = [a * limit.maximum for a in axis]
        moment = origin[0] * force[1] - origin[1] * force[0]
    return Performance(ahead, speed(ahead, xu, xuu), astern, speed(astern, xu, xuu), first,
                       moment, speed(moment, nr, nrr))
