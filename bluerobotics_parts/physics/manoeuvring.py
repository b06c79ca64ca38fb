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
Runs from rest at full thrust, in surge, sway and yaw, as Gazebo will play them.

The rigid body about the root link origin (mass, centre of gravity, yaw inertia of every
link), the added mass as Gazebo gets it (added_mass.py), the Hydrodynamics system's
damping among u, v, r (HydrodynamicsUtils.hh buildDampingMatrix: each linear term and each
``abs`` product, applied at the root link origin), each thrust at its installed limit along
its axis. So ``info`` predicts how fast a vehicle gets under way and whether it holds its
heading with equal thrust, which the gz tests compare with the simulation.
"""

from __future__ import annotations

from dataclasses import dataclass
import math

import numpy

from .added_mass import added_mass
from ..model import kinematics

STEP = 0.01  # s, classic Runge-Kutta
RISE = 1.0 - math.exp(-1.0)  # the 63% of a first-order rise
SURGE, SWAY, YAW = 'xU', 'yV', 'nR'  # axes of the planar model, Fossen's names
_FORCES, _SPEEDS = 'xyn', 'UVR'


@dataclass(frozen=True)
class Run:
    """A run from rest, every propeller at the limit that pushes the vehicle one way."""

    ahead: bool
    seconds: float
    thrust: float  # N along the root link's x at the start
    final_speed: float  # m/s along the heading at the end
    rise_time: float | None  # s to 63% of the final speed; None if it never gets there
    heading_change: float  # deg at the end (+: to port, REP 103)
    drift: float  # m sideways from the starting heading at the end (+: to port)
    distance: float  # m travelled


@dataclass(frozen=True)
class Body:
    """The planar rigid body and what acts on it, about the root link origin (SI)."""

    mass: float
    centre: tuple  # x, y of the centre of gravity
    yaw_inertia: float  # about the origin
    added: float  # the isotropic translational added mass Gazebo gets
    added_yaw: float
    damping: dict  # Hydrodynamics coefficient name -> value, planar ones only
    thrusters: tuple  # of (x, y, axis x, axis y, maximum, minimum)


def body(vehicle, limits: dict, coefficients: dict) -> Body:
    """Return the planar body of a vehicle, its thrusters at their installed ``limits``."""
    poses = kinematics.link_poses(vehicle)
    mass, first, second = 0.0, numpy.zeros(2), 0.0
    for name, link in vehicle.links.items():
        if link.mass <= 0:
            continue
        pose = poses[name]
        centre = numpy.array(pose.apply(link.com)[:2])
        rotation = numpy.array(pose.rotation)
        ixx, ixy, ixz, iyy, iyz, izz = link.inertia
        local = numpy.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
        mass += link.mass
        first += link.mass * centre
        second += (rotation @ local @ rotation.T)[2, 2] + link.mass * float(centre @ centre)
    added = added_mass(coefficients)
    damping = {key: value for key, value in coefficients.items()
               if _planar(key) and value}
    thrusters = []
    for name, limit in limits.items():
        origin, axis = kinematics.joint_frame(vehicle, poses, vehicle.actuators[name].joint)
        if math.hypot(axis[0], axis[1]) > 1e-9:
            thrusters.append((origin[0], origin[1], axis[0], axis[1], limit.maximum,
                              limit.minimum))
    return Body(mass, tuple(first / mass), second, added.get('xx', 0.0), added.get('rr', 0.0),
                damping, tuple(thrusters))


def run(body: Body, ahead: bool = True, seconds: float = 30.0) -> Run:
    """Return a run from rest: every propeller at its limit pushing the vehicle ahead or astern."""
    forces = [maximum if (ax >= 0) == ahead else minimum
              for _, _, ax, _, maximum, minimum in body.thrusters]
    tau = numpy.zeros(3)
    for (x, y, ax, ay, _, _), force in zip(body.thrusters, forces):
        tau += force * numpy.array([ax, ay, x * ay - y * ax])
    m, (xg, yg) = body.mass, body.centre
    inverse = numpy.linalg.inv(numpy.array([
        [m + body.added, 0.0, -m * yg],
        [0.0, m + body.added, m * xg],
        [-m * yg, m * xg, body.yaw_inertia + body.added_yaw]]))
    total = m + body.added

    def rates(state):
        u, v, r, _, _, heading = state
        speeds = {'U': u, 'V': v, 'R': r}
        coriolis = numpy.array([-total * v * r - m * xg * r * r,
                                total * u * r - m * yg * r * r,
                                m * xg * u * r + m * yg * v * r])
        damping = numpy.array([_damping(body.damping, f, speeds) for f in _FORCES])
        du, dv, dr = inverse @ (tau + damping - coriolis)
        c, s = math.cos(heading), math.sin(heading)
        return numpy.array([du, dv, dr, u * c - v * s, u * s + v * c, r])

    state = numpy.zeros(6)
    speeds = []
    for _ in range(round(seconds / STEP)):
        k1 = rates(state)
        k2 = rates(state + STEP / 2 * k1)
        k3 = rates(state + STEP / 2 * k2)
        k4 = rates(state + STEP * k3)
        state = state + STEP / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        speeds.append(state[0])
    final = speeds[-1]
    rise = _crossing(speeds, RISE * final) if final else None
    return Run(ahead, seconds, float(tau[0]), float(final), rise,
               math.degrees(state[5]), float(state[4]), float(math.hypot(state[3], state[4])))


def _crossing(speeds: list, level: float) -> float | None:
    """Return when the speed first reaches ``level`` (s, interpolated between steps)."""
    before = 0.0
    for index, speed in enumerate(speeds):
        if abs(speed) >= abs(level):
            return STEP * (index + (level - before) / (speed - before))
        before = speed
    return None


def _planar(key: str) -> bool:
    """Whether a Hydrodynamics damping name acts in the plane on planar speeds only."""
    if 'Dot' in key or key[0] not in _FORCES:
        return False
    return all(speed in _SPEEDS for speed in key[1:].replace('abs', ''))


def _damping(coefficients: dict, force: str, speeds: dict) -> float:
    """Return one damping force: sum over v of (lin + sum over k of quad |k|) v."""
    total = 0.0
    for key, value in coefficients.items():
        if key[0] != force:
            continue
        speed = speeds[key[1]]
        total += value * speed * (abs(speeds[key[5]]) if 'abs' in key else 1.0)
    return total
