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
How a vehicle floats at rest: its heave, heel and trim, and its metacentric heights.

One rigid body (every joint at zero, as Gazebo lumps it) and a buoyancy model of buoyancy.py:
Newton's method finds the root link's height, roll and pitch at which the buoyant force
carries the weight with no moment about the centre of gravity. The roll and pitch stiffnesses
there (free to heave) give GM_T = K_roll / (m g) and GM_L = K_pitch / (m g) (the righting
moment m g GM sin(theta) for small theta); a negative one means it capsizes about that axis.
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from . import buoyancy, hydrostatics, water
from ..errors import StabilityError
from ..model import kinematics
from ..model.kinematics import Pose
from ..model.vehicle import Vehicle

MODELS = {'exact': buoyancy.exact, 'harmonic': buoyancy.harmonic}
_STEP = 1e-6  # finite-difference step for the Jacobian (m, rad)
_TILT = 1e-3  # rad, the tilt the stiffnesses are measured over
_ITERATIONS = 60


@dataclass(frozen=True)
class MassProperties:
    mass: float  # kg
    centre: tuple  # centre of gravity in the root link frame, m


@dataclass(frozen=True)
class Rest:
    """The upright rest of a vehicle under one buoyancy model, and its stiffness there."""

    model: str
    mass: float  # kg
    centre_of_gravity: tuple  # root link frame, m
    z: float  # height of the root link origin above the water surface, m
    roll: float  # rad, heel (positive: starboard side down, REP 103)
    pitch: float  # rad, trim (positive: bow down, REP 103)
    displaced_volume: float  # m^3 of water below the surface at rest
    roll_stiffness: float  # N m / rad
    pitch_stiffness: float  # N m / rad
    lowest_point: float  # m below the surface of the deepest collision point (and propeller)
    hull_draft: float  # m below the surface of the root link's own deepest collision point
    freeboard: float  # m above the surface of the root link's own highest collision point

    @property
    def gm_t(self) -> float:
        return self.roll_stiffness / (self.mass * water.GRAVITY)

    @property
    def gm_l(self) -> float:
        return self.pitch_stiffness / (self.mass * water.GRAVITY)

    @property
    def pose(self) -> Pose:
        return Pose.from_xyz_rpy((0.0, 0.0, self.z), (self.roll, self.pitch, 0.0))


def mass_properties(vehicle: Vehicle, poses: dict | None = None) -> MassProperties:
    """Total mass and centre of gravity (root link frame) with every joint at zero."""
    poses = poses or kinematics.link_poses(vehicle)
    mass, moment = 0.0, [0.0, 0.0, 0.0]
    for name, link in vehicle.links.items():
        if link.mass <= 0:
            continue
        centre = poses[name].apply(link.com)
        mass += link.mass
        for k in range(3):
            moment[k] += link.mass * centre[k]
    if mass <= 0:
        raise StabilityError('the vehicle has no mass: nothing to float')
    return MassProperties(mass, tuple(m / mass for m in moment))


def rest(urdf: str, model: str = 'exact', **options) -> Rest:
    """
    Return the upright rest of the vehicle of a resolved URDF under ``model`` (module doc).

    ``options`` go to the buoyancy model (``water``, ``air``, ``cylinders``).
    """
    vehicle = Vehicle.from_urdf(urdf)
    poses = kinematics.link_poses(vehicle)
    shapes = hydrostatics.collision_shapes(urdf, poses)
    level = hydrostatics.flotation(  # level waterline: the first guess, and sinks loudly
        urdf, water_density=options.get('water', water.SEA_WATER_DENSITY))
    properties = mass_properties(vehicle, poses)
    return _Solver(vehicle, poses, shapes, properties, MODELS[model], options,
                   model).solve(-level.waterline)


class _Solver:
    def __init__(self, vehicle, poses, shapes, properties, wrench, options, name):
        self.vehicle, self.poses, self.shapes = vehicle, poses, shapes
        self.mass, self.centre = properties.mass, properties.centre
        self.wrench, self.options, self.name = wrench, options, name
        self.weight = self.mass * water.GRAVITY

    def residual(self, z, roll, pitch) -> tuple:
        """(net upward force, roll moment, pitch moment), scaled by the weight (and 1 m)."""
        body = Pose.from_xyz_rpy((0.0, 0.0, z), (roll, pitch, 0.0))
        about = body.apply(self.centre)
        w = self.wrench(self.shapes, body, about, **self.options)
        return ((w.force - self.weight) / self.weight, w.moment[0] / self.weight,
                w.moment[1] / self.weight)

    def solve(self, z: float) -> Rest:
        state = [z, 0.0, 0.0]
        for _ in range(_ITERATIONS):
            value = self.residual(*state)
            jacobian = []
            for k in range(3):
                moved = list(state)
                moved[k] += _STEP
                jacobian.append([(a - b) / _STEP for a, b in zip(self.residual(*moved), value)])
            step = _solve3([[jacobian[c][r] for c in range(3)] for r in range(3)],
                           [-v for v in value])
            if step is None:
                break
            scale = min(1.0, 0.2 / max(abs(step[1]), abs(step[2]), 1e-12))  # <= 0.2 rad a go
            state = [s + scale * d for s, d in zip(state, step)]
            if max(abs(d) for d in step) < 1e-11:
                break
        value = self.residual(*state)
        if max(abs(v) for v in value) > 1e-7:
            raise StabilityError(
                f'no upright rest under the {self.name} buoyancy model: after {_ITERATIONS} '
                f'steps the force and moments are still off by {max(map(abs, value)):.2g} of '
                'the weight (the vehicle may have no upright equilibrium)')
        z, roll, pitch = state
        hull_low, hull_high = self.hull_extent(state)
        return Rest(self.name, self.mass, self.centre, z, roll, pitch,
                    self.displaced(z, roll, pitch),
                    self.stiffness(state, 1), self.stiffness(state, 2), self.lowest(state),
                    -hull_low, hull_high)

    def heave_balanced(self, z, roll, pitch) -> float:
        """Return the height at which the force balances at this roll and pitch (Newton)."""
        for _ in range(_ITERATIONS):
            f = self.residual(z, roll, pitch)[0]
            slope = (self.residual(z + _STEP, roll, pitch)[0] - f) / _STEP
            if slope == 0:
                break
            z -= f / slope
            if abs(f) < 1e-12:
                break
        return z

    def stiffness(self, state, axis: int) -> float:
        """-dM/dtheta about roll (axis 1) or pitch (axis 2), free to heave."""
        moments = []
        for sign in (1, -1):
            tilted = list(state)
            tilted[axis] += sign * _TILT
            tilted[0] = self.heave_balanced(*tilted)
            moments.append(self.residual(*tilted)[axis] * self.weight)
        return -(moments[0] - moments[1]) / (2 * _TILT)

    def displaced(self, z, roll, pitch) -> float:
        body = Pose.from_xyz_rpy((0.0, 0.0, z), (roll, pitch, 0.0))
        wet = self.wrench(self.shapes, body, (0, 0, 0), **{**self.options, 'air': 0.0})
        return wet.force / (self.options.get('water', water.SEA_WATER_DENSITY)
                            * water.GRAVITY)

    def hull_extent(self, state) -> tuple:
        """(lowest, highest) z in the world of the root link's own collision shapes."""
        body = Pose.from_xyz_rpy((0.0, 0.0, state[0]), (state[1], state[2], 0.0))
        extents = [hydrostatics.extent(_placed(shape, body)) for shape in self.shapes
                   if shape.link == self.vehicle.root_link]
        if not extents:
            return math.nan, math.nan
        return min(e[0] for e in extents), max(e[1] for e in extents)

    def lowest(self, state) -> float:
        body = Pose.from_xyz_rpy((0.0, 0.0, state[0]), (state[1], state[2], 0.0))
        low = math.inf
        for shape in self.shapes:
            low = min(low, hydrostatics.extent(_placed(shape, body))[0])
        for actuator in self.vehicle.actuators.values():
            if actuator.joint is None:
                continue
            origin, axis = kinematics.joint_frame(self.vehicle, self.poses, actuator.joint)
            centre = body.apply(origin)
            world_axis = kinematics.rotate(body.rotation, axis)
            spread = math.sqrt(max(0.0, 1.0 - world_axis[2] ** 2))
            low = min(low, centre[2] - 0.5 * actuator.diameter * spread)
        return -low


def _placed(shape, body: Pose):
    pose = body.compose(shape.pose)
    if isinstance(shape, hydrostatics.Box):
        return hydrostatics.Box(shape.size, pose, shape.link)
    if isinstance(shape, hydrostatics.Cylinder):
        return hydrostatics.Cylinder(shape.radius, shape.length, pose, shape.link)
    return hydrostatics.Sphere(shape.radius, pose, shape.link)


def _solve3(a, b):
    """Solve the 3x3 system a x = b (Cramer's rule); None when singular."""
    def det(m):
        return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))

    d = det(a)
    if abs(d) < 1e-300:
        return None
    out = []
    for k in range(3):
        m = [list(row) for row in a]
        for r in range(3):
            m[r][k] = b[r]
        out.append(det(m) / d)
    return out
