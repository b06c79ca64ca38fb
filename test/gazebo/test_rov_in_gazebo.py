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
The BlueROV2 and the BlueROV2 Heavy in Harmonic's own SDFormat 14 and headless gz-sim 8.14.

The simulations run the composed URDF in the shipped water world (test/support/gz_support.py).
Each test prints what it measured (``pytest test/gazebo/test_rov_in_gazebo.py -q -s``) and holds
it against the published figures in docs/PARTS.md ("BlueROV2"), with their sources. Thrust
commands are in newtons on the vehicle's gz thrust topics (model/topics.py), as from ROS.
"""

from __future__ import annotations

import math

from bluerobotics_parts.build import build_gazebo
from bluerobotics_parts.model.topics import vehicle_topics
from bluerobotics_parts.physics import hydrostatics, propulsion
from conftest import CONFIG_DIR
import gz_support
import numpy as np
import pytest
from test_rov_thrusters import AXES, FRAMES

DEPTH = 5.0  # m: deep enough that the surface plays no part for the first seconds
DISTURBANCE = 20.0  # deg
# Maximum forward speed, m/s: Blue Robotics' BlueROV2 specifications (bluerobotics/
# bluerobotics.github.io, brov2/specifications.md: 1 m/s, 2 knots). None found for the Heavy.
PUBLISHED_SURGE = {'bluerov2.yaml': 1.0}


@pytest.fixture(scope='module', params=sorted(FRAMES))
def rov(request, tmp_path_factory):
    gz_support.require()
    result = build_gazebo(CONFIG_DIR / request.param)
    path = tmp_path_factory.mktemp('rov') / 'robot_description.urdf'
    path.write_text(result.urdf, encoding='utf-8')
    names = vehicle_topics(result.resolved.record, result.catalogue, result.name)
    topics = {t.instance: t.gz_topic for t in names.thrusters}
    return request.param, result, path, topics


def rotation(rpy_deg) -> np.ndarray:
    """World-from-body rotation of the trace's roll, pitch, yaw (degrees, URDF convention)."""
    roll, pitch, yaw = (math.radians(a) for a in rpy_deg)
    cr, sr, cp, sp, cy, sy = (f(a) for a in (roll, pitch, yaw) for f in (math.cos, math.sin))
    return np.array([[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                     [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                     [-sp, cp * sr, cp * cr]])


def test_sdformat14_loads_it_with_its_revolute_thruster_joints(rov):
    name, result, path, topics = rov
    sdformat14 = gz_support.sdformat14()
    root = sdformat14.Root()
    errors = root.load(str(path))
    assert not errors, [str(e) for e in errors]
    model = root.model()
    joints = [model.joint_by_index(i) for i in range(model.joint_count())]
    revolute = sorted(j.name() for j in joints if j.type() == sdformat14.JointType.REVOLUTE)
    print(f'\n{name}: SDFormat 14 loads it with 0 errors; revolute joints {revolute}')
    # what turns, and the camera's tilt (limited)
    assert revolute == sorted([f'{instance}_rotor_joint' for instance in topics]
                              + ['hd_camera_joint'])
    assert len(revolute) == len(FRAMES[name]) + 1
    assert all(j.type() in (sdformat14.JointType.REVOLUTE,) for j in joints)


def test_released_at_1_m_it_rises_slowly_and_upright(rov):
    name, _, path, _ = rov
    trace = gz_support.simulate(path, 30.0, spawn=(0, 0, -1.0, 0, 0, 0))  # the launch default
    rising = [trace.velocity[i][2] for i in trace.window(3.0, 8.0)]
    tilt = max(max(abs(trace.angle(i, 'r')), abs(trace.angle(i, 'p')))
               for i in range(len(trace.time)))
    end = len(trace.time) - 1
    print(f'\n{name}: released 1 m down with no thrust: rises at {np.mean(rising):.3f} m/s '
          f'(3-8 s), tilts at most {tilt:.2f} deg; at 30 s its origin is at '
          f'z {trace.pose[end][2]:+.3f} m, roll {trace.angle(end, "r"):+.2f}, '
          f'pitch {trace.angle(end, "p"):+.2f} deg')
    assert 0.02 < min(rising) and max(rising) < 0.2  # slowly: a few cm/s, terminal
    assert tilt < 3.0  # upright all the way, surfaced included
    # Surfaced, it floats where the hydrostatic check says: just awash.
    waterline = hydrostatics.flotation(path.read_text(encoding='utf-8')).waterline
    print(f'  the hydrostatic check floats it with its origin at z {-waterline:+.3f} m')
    assert trace.pose[end][2] == pytest.approx(-waterline, abs=0.005)


@pytest.mark.parametrize('axis', ['r', 'p'], ids=['roll', 'pitch'])
def test_a_20_deg_disturbance_rights_itself_within_5_s(rov, axis):
    name, _, path, _ = rov
    tilt = [DISTURBANCE, 0.0] if axis == 'r' else [0.0, DISTURBANCE]
    trace = gz_support.simulate(path, 9.0, events=[{'t': 1.0, 'tilt': tilt}],
                                spawn=(0, 0, -DEPTH, 0, 0, 0))
    start = max(abs(trace.angle(i, axis)) for i in trace.window(1.0, 1.2))
    after = max(abs(trace.angle(i, axis)) for i in trace.window(6.0, 9.0))
    back = next(trace.time[i] for i in trace.window(1.0, 9.0) if abs(trace.angle(i, axis)) < 2.0)
    print(f'\n{name}: {DISTURBANCE:g} deg {"roll" if axis == "r" else "pitch"} at 1 s: '
          f'{start:.1f} deg, back under 2 deg at {back - 1.0:.2f} s, at most {after:.2f} deg '
          'from 5 s after on')
    assert start > 0.75 * DISTURBANCE
    assert back - 1.0 < 5.0 and after < 0.25 * DISTURBANCE


def test_full_forward_gives_a_steady_surge_near_the_published_speed(rov):
    """
    Drive full forward as ArduSub mixes it.

    Each horizontal thruster runs at its installed limit (the T200's bench figures times the
    frame's installed fraction, as the Thruster systems clamp) in the sense of its forward
    factor. The steady speed is also what propulsion.py predicts from the damping.
    """
    name, result, path, topics = rov
    limits = propulsion.thrust_limits(result.resolved.record, result.catalogue)
    thrust = {}
    for n, factors in FRAMES[name].items():
        forward = dict(zip(AXES, factors))['forward']
        if forward:
            limit = limits[f'thruster_{n}']
            thrust[topics[f'thruster_{n}']] = limit.maximum if forward > 0 else limit.minimum
    trace = gz_support.simulate(path, 15.0, events=[{'t': 0.5, 'thrust': thrust}],
                                spawn=(0, 0, -DEPTH, 0, 0, 0))
    steady = [trace.surge(i) for i in trace.window(10.0, 15.0)]
    speed = float(np.mean(steady))
    commands = ', '.join(f'{value:+.1f} N' for value in thrust.values())
    print(f'\n{name}: full forward (horizontal thrusters at {commands}) '
          f'gives {speed:.3f} m/s (spread {max(steady) - min(steady):.4f} m/s over 10-15 s); '
          f'published: {PUBLISHED_SURGE.get(name, "none found")} m/s')
    base = result.catalogue[result.resolved.record.base.type]
    predicted = propulsion.performance(result.vehicle, limits,
                                       base.hydrodynamics).forward_speed
    print(f'  propulsion.py predicts {predicted:.3f} m/s')
    assert max(steady) - min(steady) < 0.02  # steady
    assert speed == pytest.approx(predicted, rel=0.05)
    if name in PUBLISHED_SURGE:
        assert speed == pytest.approx(PUBLISHED_SURGE[name], rel=0.15)
    else:  # the Heavy: the same horizontal thrust against the wider frame's drag
        assert 0.5 < speed < PUBLISHED_SURGE['bluerov2.yaml']


def test_each_thruster_alone_moves_and_turns_the_vehicle_as_its_ardusub_factors_say(rov):
    """
    Push with 10 N on one thruster at a time, from rest.

    Over the first 0.3 s the change of the body-frame velocity and the body-frame angular
    velocity have the signs of the motor's non-zero ArduSub factors (forward = +x, lateral =
    -y, throttle = +z, roll = +x, pitch = -y, yaw = -z in REP 103 axes).
    """
    name, _, path, topics = rov
    problems = []
    for n, factors in FRAMES[name].items():
        trace = gz_support.simulate(path, 1.3, events=[{'t': 1.0, 'thrust': {
            topics[f'thruster_{n}']: 10.0}}], spawn=(0, 0, -DEPTH, 0, 0, 0), sample=0.02)
        before, after = trace.at(1.0), trace.at(1.3)
        body = rotation(trace.pose[after][3:]).T
        velocity = body @ (np.array(trace.velocity[after]) - np.array(trace.velocity[before]))
        spin = body @ np.array(trace.angular[after])
        effect = dict(zip(AXES, (spin[0], -spin[1], -spin[2], velocity[2], velocity[0],
                                 -velocity[1])))
        print(f'\n{name} thruster_{n}: ' + ', '.join(f'{a} {effect[a]:+.3f}' for a in AXES)
              + f' (factors {factors})')
        for axis, factor in zip(AXES, factors):
            if factor and np.sign(effect[axis]) != np.sign(factor):
                problems.append(f'thruster_{n} {axis}: factor {factor:+d}, '
                                f'moved {effect[axis]:+.4f}')
    assert problems == []
