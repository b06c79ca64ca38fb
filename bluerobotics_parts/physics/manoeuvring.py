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

A vehicle that runs submerged gets a second, vertical-plane run (surge and pitch): a thrust
line above or below the centre of gravity tips it while it gathers way, against the moment
of its buoyancy about its centre of gravity, so ``info`` predicts how far the bow dips.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import math

import numpy

from . import hydrostatics, water
from .added_mass import added_mass
from .stability import mass_properties
from ..model import kinematics

STEP = 0.01  # s, classic Runge-Kutta
RISE = 1.0 - math.exp(-1.0)  # the 63% of a first-order rise
SURGE, SWAY, YAW = 'xU', 'yV', 'nR'  # axes of the planar model, Fossen's names
_FORCES, _SPEEDS = 'xyn', 'UVR'
SUBMERGED = 1.1  # a vehicle whose whole displacement lifts at most this x its weight dives
#: A speed (m/s) or rate (rad/s) no vehicle here reaches: past it the model has run away (a
#: coefficient that feeds the motion) and the run stops there.
RUNAWAY = 1000.0
SETTLED = 0.01  # a run is under way when its speed changed by less than this over its last s
SAMPLE = 0.1  # s between the samples a run keeps for plotting (validate)


@dataclass(frozen=True)
class Run:
    """A run from rest, every propeller at the limit that pushes the vehicle one way."""

    ahead: bool
    seconds: float
    thrust: float  # N along the root link's x at the start
    final_speed: float  # m/s along the heading at the end
    rise_time: float | None  # s to 63% of the final speed; None unless it settled there
    heading_change: float  # deg at the end (+: to port, REP 103)
    drift: float  # m sideways from the starting heading at the end (+: to port)
    distance: float  # m travelled along its path
    settled: bool = True  # its speed steady at the end (no: still gathering way)
    runaway: float | None = None  # s at which the model ran away (RUNAWAY), None if it did not
    #: every SAMPLE s: (t s, surge m/s, x m, y m, heading deg), from the start's pose
    samples: tuple = field(default=(), repr=False, compare=False)
    yaw_rate: float = 0.0  # deg/s at the end (+: to port)


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
    rigid = mass_properties(vehicle, poses)
    added = added_mass(coefficients)
    damping = {key: value for key, value in coefficients.items()
               if _planar(key) and value}
    thrusters = tuple((origin[0], origin[1], axis[0], axis[1], maximum, minimum)
                      for _, origin, axis, maximum, minimum in _driving(vehicle, poses, limits))
    return Body(rigid.mass, rigid.centre[:2], _inertia_about_origin(vehicle, poses)[2][2],
                added.get('xx', 0.0), added.get('rr', 0.0), damping, thrusters)


def _inertia_about_origin(vehicle, poses: dict) -> numpy.ndarray:
    """Return the inertia tensor of every link about the root link origin, in its frame."""
    tensor = numpy.zeros((3, 3))
    for name, link in vehicle.links.items():
        if link.mass <= 0:
            continue
        pose = poses[name]
        centre = numpy.array(pose.apply(link.com))
        rotation = numpy.array(pose.rotation)
        ixx, ixy, ixz, iyy, iyz, izz = link.inertia
        local = numpy.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
        tensor += rotation @ local @ rotation.T + link.mass * (
            float(centre @ centre) * numpy.eye(3) - numpy.outer(centre, centre))
    return tensor


def _driving(vehicle, poses: dict, limits: dict) -> list:
    """Return (instance, origin, axis, maximum, minimum) of each propeller pushing in the plane."""
    thrusters = []
    for name, limit in limits.items():
        origin, axis = kinematics.joint_frame(vehicle, poses, vehicle.actuators[name].joint)
        if math.hypot(axis[0], axis[1]) > 1e-9:
            thrusters.append((name, origin, axis, limit.maximum, limit.minimum))
    return thrusters


def _limit(axis_x: float, maximum: float, minimum: float, ahead: bool) -> float:
    """Return the limit at which a propeller pushes the vehicle ahead (or astern)."""
    return maximum if (axis_x >= 0) == ahead else minimum


def run(body: Body, ahead: bool = True, seconds: float = 30.0, wrench=None) -> Run:
    """
    Return a run from rest: every propeller at its limit pushing the vehicle ahead or astern.

    ``wrench``: (surge N, sway N, yaw N m) about the origin instead, held from the start (a
    turn: the thrusts an allocation gives for a yaw command, allocation.Allocator.wrench_of).
    """
    if wrench is not None:
        tau = numpy.array([float(w) for w in wrench])
    else:
        forces = [_limit(ax, maximum, minimum, ahead)
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

    states, runaway = _integrate(rates, 6, seconds, speeds=(0, 1, 2))
    state, speeds = states[-1], [s[0] for s in states]
    final = speeds[-1]
    settled = runaway is None and bool(_settled([math.hypot(s[0], s[1]) for s in states]))
    rise = _crossing(speeds, RISE * final) if final and settled else None
    path = sum(math.hypot(b[3] - a[3], b[4] - a[4])
               for a, b in zip([numpy.zeros(6)] + states, states))
    every = round(SAMPLE / STEP)
    samples = ((0.0, 0.0, 0.0, 0.0, 0.0),) + tuple(
        (round((i + 1) * STEP, 6), float(s[0]), float(s[3]), float(s[4]), math.degrees(s[5]))
        for i, s in enumerate(states) if (i + 1) % every == 0)
    return Run(ahead, seconds, float(tau[0]), float(final), rise,
               math.degrees(state[5]), float(state[4]), float(path), settled, runaway,
               samples, math.degrees(state[2]))


@dataclass(frozen=True)
class PitchBody:
    """The vertical plane of a submerged vehicle about the root link origin (SI, z up)."""

    mass: float
    centre: tuple  # x, z of the centre of gravity
    pitch_inertia: float  # about the origin's y axis
    buoyancy: float  # N, the whole displacement's
    buoyancy_centre: tuple  # x, z
    added: float  # the isotropic translational added mass Gazebo gets, at the origin
    added_pitch: float
    damping: dict  # Hydrodynamics coefficient name -> value: xU, xUabsU, mQ, mQabsQ
    thrusters: tuple  # of (x, z, axis x, axis z, maximum, minimum)
    names: tuple = ()  # each thruster's instance, in the order of ``thrusters``

    def pull(self, ahead: bool, shares: dict | None = None) -> tuple:
        """
        Return (surge force, pitch moment about the origin) of every propeller at its limit.

        ``shares``: instance -> (running forward, running in reverse): the fraction of that
        limit each propeller gives instead (an ESC curve's thrust at an autopilot's output,
        power.Throttles.shares); None: all of it.
        """
        surge = moment = 0.0
        for index, (x, z, ax, az, maximum, minimum) in enumerate(self.thrusters):
            force = _limit(ax, maximum, minimum, ahead)
            if shares is not None:
                force *= shares[self.names[index]][0 if force >= 0 else 1]
            surge += force * ax
            moment += force * (z * ax - x * az)
        return surge, moment

    @property
    def thrust_lever(self) -> float:
        """Return how far above the centre of gravity the propellers' pull acts ahead (m)."""
        surge, moment = self.pull(True)
        return moment / surge - self.centre[1] if surge else 0.0


@dataclass(frozen=True)
class Dip:
    """How far a submerged vehicle pitches in a run from rest (deg, +: bow down, REP 103)."""

    ahead: bool
    worst: float  # the largest pitch either way, signed
    final: float  # at the end, under way
    runaway: float | None = None  # s at which the model ran away (RUNAWAY), None if it did not
    #: every SAMPLE s: (t s, pitch deg)
    samples: tuple = field(default=(), repr=False, compare=False)


def pitch_body(vehicle, shapes: list, limits: dict, coefficients: dict,
               water_density: float = water.SEA_WATER_DENSITY) -> PitchBody | None:
    """
    Return the vertical plane of a vehicle that runs submerged, None for one that floats.

    ``shapes``: its collision shapes in the root frame (hydrostatics.collision_shapes). It runs
    submerged when their whole displacement (as Gazebo's Buoyancy counts them) lifts at most
    SUBMERGED times its weight: then it sits where its propellers put it, and its buoyancy
    acts at the shapes' centroid. ``water_density``: kg/m^3 (sea water by default).
    """
    poses = kinematics.link_poses(vehicle)
    volume = sum(hydrostatics.full_volume(shape) for shape in shapes)
    rigid = mass_properties(vehicle, poses)
    if not volume or water_density * volume > SUBMERGED * rigid.mass:
        return None
    centroid = sum(hydrostatics.full_volume(s) * numpy.array(s.pose.translation)
                   for s in shapes) / volume
    added = added_mass(coefficients)
    damping = {key: coefficients[key] for key in ('xU', 'xUabsU', 'mQ', 'mQabsQ')
               if coefficients.get(key)}
    driving = _driving(vehicle, poses, limits)
    thrusters = tuple((origin[0], origin[2], axis[0], axis[2], maximum, minimum)
                      for _, origin, axis, maximum, minimum in driving)
    return PitchBody(rigid.mass, (rigid.centre[0], rigid.centre[2]),
                     _inertia_about_origin(vehicle, poses)[1][1],
                     water_density * volume * water.GRAVITY,
                     (float(centroid[0]), float(centroid[2])), added.get('xx', 0.0),
                     added.get('qq', 0.0), damping, thrusters,
                     tuple(name for name, *_ in driving))


def dip(body: PitchBody, ahead: bool = True, seconds: float = 30.0,
        throttle: float = 1.0, shares: dict | None = None) -> Dip:
    """
    Return the pitch of a run from rest, every propeller at its limit, in surge and pitch.

    ``throttle``: the fraction of that limit each propeller gives (a thrust linear in the
    autopilot's output); ``shares``: each propeller's own fraction (PitchBody.pull).

    About the origin, z up, pitch + bow down: the rigid body couples surge and pitch through
    the height of its centre of gravity (m z_G); the added mass acts at the origin, where
    Gazebo takes it; weight and buoyancy tilt with the body; heave is left out (a submerged
    vehicle's vertical forces balance at its own slow rise or sink).
    """
    surge, moment = (throttle * value for value in body.pull(ahead, shares))
    m, (xg, zg), (xb, zb) = body.mass, body.centre, body.buoyancy_centre
    weight, lift = m * water.GRAVITY, body.buoyancy
    inverse = numpy.linalg.inv(numpy.array([
        [m + body.added, m * zg],
        [m * zg, body.pitch_inertia + body.added_pitch]]))
    c = body.damping

    def rates(state):
        u, q, pitch = state
        sin, cos = math.sin(pitch), math.cos(pitch)
        force = surge + (c.get('xU', 0.0) + c.get('xUabsU', 0.0) * abs(u)) * u \
            + (weight - lift) * sin
        torque = moment + (c.get('mQ', 0.0) + c.get('mQabsQ', 0.0) * abs(q)) * q \
            + weight * (zg * sin + xg * cos) - lift * (zb * sin + xb * cos)
        du, dq = inverse @ numpy.array([force, torque])
        return numpy.array([du, dq, q])

    states, runaway = _integrate(rates, 3, seconds, speeds=(0, 1))
    pitches = [math.degrees(s[2]) for s in states]
    worst = max(pitches, key=abs)
    every = round(SAMPLE / STEP)
    samples = ((0.0, 0.0),) + tuple((round((i + 1) * STEP, 6), p) for i, p in enumerate(pitches)
                                    if (i + 1) % every == 0)
    return Dip(ahead, worst, pitches[-1], runaway, samples)


def _integrate(rates, size: int, seconds: float, speeds: tuple) -> tuple:
    """
    Return (the states of a run from rest, when it ran away or None): RK4 at STEP.

    It stops at the last sound state once one of ``speeds`` (indexes into the state) passes
    RUNAWAY or any value stops being finite: what follows would be noise, or an overflow.
    """
    state, states = numpy.zeros(size), []
    with numpy.errstate(all='ignore'):  # an overflow is caught below, as a runaway
        for step in range(round(seconds / STEP)):
            try:
                k1 = rates(state)
                k2 = rates(state + STEP / 2 * k1)
                k3 = rates(state + STEP / 2 * k2)
                k4 = rates(state + STEP * k3)
            except (ValueError, OverflowError):  # math.sin of an infinite angle
                return states or [state], STEP * (step + 1)
            following = state + STEP / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
            if not numpy.isfinite(following).all() \
                    or max(abs(following[i]) for i in speeds) > RUNAWAY:
                return states or [state], STEP * (step + 1)
            state = following
            states.append(state)
    return states, None


def _settled(speeds: list) -> bool:
    """Whether a run's speed through the water changed by under SETTLED of it in its last s."""
    back = round(1.0 / STEP)
    if len(speeds) <= back:
        return False
    final = speeds[-1]
    return abs(final - speeds[-1 - back]) <= SETTLED * abs(final) and abs(final) > 1e-9


def _crossing(speeds: list, level: float) -> float | None:
    """Return when the speed first reaches ``level`` on its side (s, interpolated)."""
    before = 0.0
    for index, speed in enumerate(speeds):
        if speed * level > 0 and abs(speed) >= abs(level):
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
