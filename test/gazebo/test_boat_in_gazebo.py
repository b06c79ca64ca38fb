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
The vehicles in the real Gazebo, a headless gz-sim 8.14 running the shipped water world.

For the default BlueBoat, the T200 config and mast_and_payload, one scripted run each (60 s
simulated, about 10 s here): it settles to the trim ``bluerobotics-parts info`` predicts for
Gazebo's buoyancy, 10 deg pitch and roll disturbances die out within 10 s, full thrust ahead
gives the published 3.0 m/s (within 5%), astern backs it, one propeller turns it; then the
propeller spin at a 10 ms step, and a water current. The server has dartsim and the Buoyancy,
Hydrodynamics and Thruster systems (support/gz_support.py); without Gazebo Harmonic these skip
with the reason (gz_support.require).
"""

from __future__ import annotations

import math
from xml.etree import ElementTree

from bluerobotics_parts.build import build_gazebo
from bluerobotics_parts.cli.info import vehicle_info
from bluerobotics_parts.physics import propulsion
from conftest import CONFIG_DIR
import gz_support
import pytest

CONFIGS = {'default': CONFIG_DIR / 'blueboat.yaml', 't200': CONFIG_DIR / 'examples' / 't200.yaml',
           'mast_and_payload': CONFIG_DIR / 'examples' / 'mast_and_payload.yaml'}
PUBLISHED_TOP_SPEED = 3.0  # m/s, Blue Robotics (PART_FACTS.md: hull-speed limited)

# The script (s): rest, pitch kick, roll kick, full ahead, full astern, one propeller.
PITCH_KICK, ROLL_KICK, AHEAD, ASTERN, ONE, END = 8.0, 18.0, 28.0, 40.0, 52.0, 60.0


def thrust(topics, limits, which):
    return {t.gz_topic: getattr(limits[t.instance], which) for t in topics}


@pytest.fixture(scope='module', params=list(CONFIGS))
def run(request, tmp_path_factory):
    """One scripted run of a config: (its info, its composed build, the trace)."""
    gz_support.require()
    config = CONFIGS[request.param]
    result = build_gazebo(config)
    path = tmp_path_factory.mktemp('gz') / 'robot_description.urdf'
    path.write_text(result.urdf, encoding='utf-8')
    info = vehicle_info(config)
    from bluerobotics_parts.model.topics import vehicle_topics

    names = vehicle_topics(result.resolved.record, result.catalogue, result.name)
    first = names.thrusters[0]
    events = [
        {'t': PITCH_KICK, 'tilt': [0.0, 10.0]},
        {'t': ROLL_KICK, 'tilt': [10.0, 0.0]},
        {'t': AHEAD, 'thrust': thrust(names.thrusters, info.limits, 'maximum')},
        {'t': ASTERN, 'thrust': thrust(names.thrusters, info.limits, 'minimum')},
        {'t': ONE, 'thrust': {t.gz_topic: (info.limits[t.instance].maximum if t is first else 0.0)
                              for t in names.thrusters}},
    ]
    trace = gz_support.simulate(path, END, events,
                                joints=[t.joint for t in names.thrusters])
    print(f'\n{request.param}: {END} s simulated in {trace.wall:.1f} s')
    return request.param, info, result, trace


def deviation(trace, window, axis, target):
    return max(abs(trace.angle(i, axis) - target) for i in window)


def test_it_settles_at_the_predicted_trim_and_stays(run):
    name, info, _, trace = run
    rest = info.rests['harmonic']  # what gz-sim 8's buoyancy gives (info's second column)
    trim, heel = math.degrees(rest.pitch), math.degrees(rest.roll)
    window = trace.window(4.0, PITCH_KICK)
    print(f'{name}: pitch {trace.angle(window[-1], "p"):.3f} deg (info {trim:.3f}), roll '
          f'{trace.angle(window[-1], "r"):.3f} deg (info {heel:.3f}), height '
          f'{trace.pose[window[-1]][2]:.4f} m (info {rest.z:.4f})')
    assert deviation(trace, window, 'p', trim) < 1.0
    assert deviation(trace, window, 'r', heel) < 1.0
    # in fact much closer, and at the predicted height
    assert deviation(trace, window, 'p', trim) < 0.05
    assert all(abs(trace.pose[i][2] - rest.z) < 0.002 for i in window)
    # and close to exact hydrostatics' trim too (the hull boxes' purpose)
    assert abs(trim - math.degrees(info.rests['exact'].pitch)) < 0.1


@pytest.mark.parametrize('kick, axis, label', [(PITCH_KICK, 'p', 'pitch'),
                                               (ROLL_KICK, 'r', 'roll')])
def test_a_10_degree_disturbance_dies_out_within_10_s(run, kick, axis, label):
    name, info, _, trace = run
    rest = info.rests['harmonic']
    level = math.degrees(rest.pitch if axis == 'p' else rest.roll)
    assert deviation(trace, trace.window(kick, kick + 0.5), axis, level) > 8.0, \
        'the disturbance was not applied'
    settled = trace.window(kick + 9.0, kick + 10.0)
    print(f'{name}: {label} 10 s after a 10 deg kick: {trace.angle(settled[-1], axis):.3f} deg '
          f'(rest {level:.3f})')
    assert deviation(trace, settled, axis, level) < 1.0


def test_full_thrust_ahead_gives_the_published_top_speed(run):
    name, info, _, trace = run
    window = trace.window(AHEAD + 8.0, ASTERN)
    speeds = [trace.surge(i) for i in window]
    mean = sum(speeds) / len(speeds)
    print(f'{name}: steady surge {mean:.3f} m/s at full thrust (info '
          f'{info.performance.forward_speed:.3f}, published {PUBLISHED_TOP_SPEED})')
    assert max(speeds) - min(speeds) < 0.01  # steady
    assert mean == pytest.approx(PUBLISHED_TOP_SPEED, rel=0.05)
    assert mean == pytest.approx(info.performance.forward_speed, rel=0.02)


def test_full_astern_slows_it_and_backs_it(run):
    name, info, _, trace = run
    ahead = trace.surge(trace.at(ASTERN) - 1)
    slowing = [trace.surge(i) for i in trace.window(ASTERN, ASTERN + 1.0)]
    assert slowing[-1] < slowing[0] <= ahead + 1e-3
    backing = [trace.surge(i) for i in trace.window(ONE - 2.0, ONE)]
    mean = sum(backing) / len(backing)
    print(f'{name}: full astern: {ahead:.3f} -> {mean:.3f} m/s (info '
          f'{info.performance.reverse_speed:.3f})')
    assert mean < -1.0
    assert mean == pytest.approx(info.performance.reverse_speed, rel=0.05)


def test_one_propeller_alone_turns_it(run):
    """
    The first propeller (port) pushing alone turns the boat to starboard.

    clockwise seen from above, a negative yaw rate (REP 103, z up).
    """
    name, info, _, trace = run
    rates = [trace.angular[i][2] for i in trace.window(ONE + 4.0, END)]
    mean = sum(rates) / len(rates)
    print(f'{name}: {info.performance.turn_instance} alone: yaw rate {mean:.3f} rad/s (info, '
          f'coupling ignored: {info.performance.turn_yaw_rate:.3f})')
    assert info.performance.turn_instance == 'motor_port'
    assert mean < -0.2
    assert math.copysign(1, mean) == math.copysign(1, info.performance.turn_yaw_rate)


def test_the_propellers_spin_at_the_commanded_thrusts_speed(run):
    """
    velocity_control.

    the joint turns at w = sqrt(|T| / (rho Kt D^4)), signed by T Kt (the Thruster's
    ThrustToAngularVec), steady while the command is.
    """
    _, info, result, trace = run
    instances = {t.joint: t.instance for t in result.topics.thrusters}
    for joint, speeds in trace.joints.items():
        instance = instances[joint]
        propeller = result.catalogue[info.limits[instance].part_type].propeller
        limit = info.limits[instance].maximum
        expected = math.sqrt(limit / (1025.0 * propeller.thrust_coefficient
                                      * propeller.diameter ** 4))
        sign = 1 if propeller.rotation == 'cw' else -1
        # from 1 s on: a command reaches the Thruster through gz-transport, a few steps late
        ahead = [speeds[i] for i in trace.window(AHEAD + 1.0, ASTERN)]
        assert all(s == pytest.approx(sign * expected, rel=1e-6) for s in ahead), joint


# -- propeller spin at a 10 ms step, a water current, the test world ------------------------

@pytest.mark.parametrize('config', ['default', 't200'])
def test_propeller_spin_is_steady_at_a_10_ms_step(config, tmp_path):
    """
    Hold the propeller spin at a 10 ms step.

    Without velocity_control the Thruster's PID (p 0.1) diverges above about 4.7 ms for the
    M200 (8.6 ms for the T200); with it the spin holds at any step up to 10 ms.
    """
    result = build_gazebo(CONFIGS[config])
    path = tmp_path / 'robot_description.urdf'
    path.write_text(result.urdf, encoding='utf-8')
    limits = propulsion.thrust_limits(result.resolved.record, result.catalogue)
    from bluerobotics_parts.model.topics import vehicle_topics

    names = vehicle_topics(result.resolved.record, result.catalogue, result.name)
    full = [{'t': 0.0, 'thrust': thrust(names.thrusters, limits, 'maximum')}]
    trace = gz_support.simulate(path, 6.0, full, step=0.01,
                                joints=[t.joint for t in names.thrusters])
    for joint, speeds in trace.joints.items():
        steady = speeds[trace.at(1.0):]
        assert all(math.isfinite(s) for s in steady)
        assert max(steady) - min(steady) < 1e-6 * max(abs(s) for s in steady), joint
        assert abs(steady[-1]) > 100  # rad/s: a propeller turning, not a stalled one
    assert trace.surge(len(trace.time) - 1) > 2.5  # and the boat under way, upright
    assert all(abs(p[3]) < 15 and abs(p[4]) < 15 for p in trace.pose)
    print(f'{config} at 10 ms: propellers steady at '
          + ', '.join(f'{j} {s[-1]:.1f} rad/s' for j, s in trace.joints.items())
          + f'; largest pitch {max(abs(p[4]) for p in trace.pose):.1f} deg on the start')


def test_a_water_current_carries_the_boat(tmp_path):
    """
    current:="0.5 0 0" reaches Hydrodynamics' <default_current>.

    with no thrust, the drag (on the velocity relative to the water) pushes the boat downstream
    toward 0.5 m/s.
    """
    result = build_gazebo(CONFIGS['default'], current='0.5 0 0')
    path = tmp_path / 'robot_description.urdf'
    path.write_text(result.urdf, encoding='utf-8')
    trace = gz_support.simulate(path, 30.0, sample=0.5)
    vx = [v[0] for v in trace.velocity]
    print(f'drift in a 0.5 m/s current: {vx[trace.at(10.0)]:.3f} m/s at 10 s, {vx[-1]:.3f} m/s '
          'at 30 s')
    assert 0.3 < vx[-1] < 0.5
    assert vx[trace.at(10.0)] < vx[-1]
    assert all(abs(v[1]) < 0.05 for v in trace.velocity)


def test_the_test_world_is_the_shipped_world_without_the_sensor_systems():
    """
    Read from config/worlds/water.sdf each time (no copy to drift).

    Only the sensor systems go (the headless build has none of them), the step and the
    real-time factor are the test's.
    """
    shipped = ElementTree.parse(gz_support.WORLD).getroot()
    world = shipped.find('world')
    sensors = [p for p in world.findall('plugin')
               if p.get('name') not in gz_support.HEADLESS_SYSTEMS]
    systems = ('Sensors', 'Imu', 'Magnetometer', 'NavSat', 'DopplerVelocityLogSystem')
    assert sorted(p.get('name') for p in sensors) == sorted(
        f'gz::sim::systems::{name}' for name in systems)
    for plugin in sensors:
        world.remove(plugin)
    world.find('physics/max_step_size').text = '0.01'
    world.find('physics/real_time_factor').text = '0'
    model = ElementTree.fromstring('<model name="m"/>')
    derived = gz_support.derived_world(str(gz_support.WORLD), model, 0.01)
    assert derived.find('world/model[@name="m"]') is model
    derived.find('world').remove(model)
    assert ElementTree.tostring(derived) == ElementTree.tostring(shipped)
