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
The manoeuvres ``validate`` flies in a headless Gazebo, and the figures read off them.

Each manoeuvre holds one set of thrusts from rest, the same ``info`` predicts with
(figures/predicted.py, physics/manoeuvring.py): at rest (a boat only: a diving vehicle is
flown under water), every propeller that pushes in the plane at its installed limit ahead,
then astern, and a turn: a boat's as ``info`` predicts it (its first propeller alone full
ahead), a diving vehicle's as a pilot turns it (the thrusts the allocator gives for its
largest yaw moment, the vehicle spinning in place). A diving vehicle starts DEPTH under the
surface. The runs go through gazebo/scenario.py (a process of
its own, stopped with Ctrl-C).
"""

from __future__ import annotations

from dataclasses import dataclass
import math
from pathlib import Path
import tempfile

from ..gazebo import scenario, worlds
from ..paths import default_world
from ..physics import manoeuvring

DEPTH = 5.0  # m: a diving vehicle's runs start this far under the surface
SETTLE = 3.0  # s: a steady figure is the mean over the run's last SETTLE s
PLANAR = 1e-9  # N per N: a propeller whose surge and sway effects are below it is not planar


@dataclass(frozen=True)
class Manoeuvre:
    key: str  # rest, ahead, astern, turn
    label: str
    seconds: float
    thrusts: dict  # instance -> N, held from the start


def manoeuvres(info) -> list:
    """Return the manoeuvres of a vehicle (none without propellers or Hydrodynamics)."""
    found = [] if info.trim.dives else [Manoeuvre('rest', 'at rest', 20.0, {})]
    if info.allocator is None or info.body is None:
        return found
    found += [Manoeuvre('ahead', 'full ahead from rest', 30.0, planar_thrusts(info, True)),
              Manoeuvre('astern', 'full astern from rest', 30.0, planar_thrusts(info, False))]
    thrusts = turn_thrusts(info)
    if thrusts:
        label = 'full yaw from rest' if info.trim.dives else \
            f'{next(iter(thrusts))} alone full ahead from rest'
        found.append(Manoeuvre('turn', label, 20.0, thrusts))
    return found


def planar_thrusts(info, ahead: bool) -> dict:
    """Return each propeller that pushes in the plane at the limit driving it ahead (astern)."""
    allocator, thrusts = info.allocator, {}
    for i, name in enumerate(allocator.names):
        surge, sway = allocator.matrix[0][i], allocator.matrix[1][i]
        if math.hypot(surge, sway) <= PLANAR:
            continue
        limit = info.limits[name]
        thrusts[name] = limit.maximum if (surge >= 0) == ahead else limit.minimum
    return thrusts


def turn_thrusts(info) -> dict:
    """
    Return the thrusts of a turn.

    A diving vehicle's: its largest yaw moment (to port, REP 103); a boat's: its first
    propeller alone at its full ahead (propulsion.Performance.turn_instance).
    """
    if info.trim.dives:
        if 5 not in info.allocator.axes:
            return {}
        largest = info.allocator.largest(5, 1.0)
        return dict(info.allocator.allocate([0, 0, 0, 0, 0, largest]).thrusts)
    first = info.performance.turn_instance if info.performance else None
    return {first: info.limits[first].maximum} if first else {}


def predicted_turn(info, seconds: float = 20.0):
    """Return the planar model's run under ``turn_thrusts`` (manoeuvring.run, their wrench)."""
    wrench = info.allocator.wrench_of(turn_thrusts(info))
    return manoeuvring.run(info.body, True, seconds, wrench=(wrench[0], wrench[1], wrench[5]))


def fly(build, info, chosen: list, progress=None) -> dict:
    """
    Fly ``chosen`` manoeuvres in Gazebo; return key -> scenario.Trace.

    ``progress(manoeuvre, simulated_seconds)`` is called as each goes. The world is the
    shipped one, with the vehicle's water when it is another.
    """
    topics = {t.instance: t.gz_topic for t in build.topics.thrusters}
    spawn = (0, 0, -DEPTH if info.trim.dives else 0.0, 0, 0, 0)
    traces = {}
    with tempfile.TemporaryDirectory(prefix='bluerobotics_parts_validate_') as temporary:
        urdf = Path(temporary) / 'robot_description.urdf'
        urdf.write_text(build.urdf, encoding='utf-8')
        world = default_world()
        text = world.read_text(encoding='utf-8')
        if worlds.world_water(text) != info.water:
            world = Path(temporary) / worlds.WORLD_FILE
            world.write_text(worlds.with_water(text, info.water), encoding='utf-8')
        for manoeuvre in chosen:
            events = [{'t': 0.0, 'thrust': {topics[n]: f for n, f in manoeuvre.thrusts.items()}}] \
                if manoeuvre.thrusts else []
            traces[manoeuvre.key] = scenario.simulate(
                urdf, manoeuvre.seconds, events, spawn=spawn, sample=0.1, world=world,
                progress=(lambda t, m=manoeuvre: progress(m, t)) if progress else None)
    return traces


# -- figures read off a trace --------------------------------------------------------------------

def steady(trace, values) -> float:
    """Return the mean of ``values`` (one per sample) over the run's last SETTLE s."""
    window = list(trace.window(trace.time[-1] - SETTLE, trace.time[-1]))
    return sum(values[i] for i in window) / len(window)


def surge_speed(trace) -> float:
    return steady(trace, [trace.surge(i) for i in range(len(trace.time))])


def rise_time(trace) -> float | None:
    """Return when the surge first reaches 63% of its final value (s), None if never."""
    final = surge_speed(trace)
    level = manoeuvring.RISE * final
    for i in range(len(trace.time)):
        if (trace.surge(i) >= level) if final > 0 else (trace.surge(i) <= level):
            return trace.time[i]
    return None


def yaw_rate(trace) -> float:
    """Return the steady yaw rate, deg/s (+: to port)."""
    return math.degrees(steady(trace, [a[2] if a else 0.0 for a in trace.angular]))


def headings(trace) -> list:
    """Return the heading of each sample less the start's, deg, unwrapped (+: to port)."""
    total, previous, found = 0.0, trace.pose[0][5], []
    for pose in trace.pose:
        total += (pose[5] - previous + 180.0) % 360.0 - 180.0
        previous = pose[5]
        found.append(total)
    return found


def heading_change(trace) -> float:
    """Return the heading at the end less the start's, deg, unwrapped (+: to port)."""
    return headings(trace)[-1]


def worst_pitch(trace) -> float:
    """Return the largest pitch either way (deg, +: bow down), signed."""
    return max((p[4] for p in trace.pose), key=abs)


def depth_change(trace) -> float:
    """Return the largest change of height from the start (m, signed)."""
    return max((p[2] - trace.pose[0][2] for p in trace.pose), key=abs)


def rest_pose(trace) -> tuple:
    """Return the base link's height (m), roll and pitch (deg) at rest: the last SETTLE s."""
    return tuple(steady(trace, [p[k] for p in trace.pose]) for k in (2, 3, 4))
