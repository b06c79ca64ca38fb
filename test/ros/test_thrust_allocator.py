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
thrust_allocator with a real rclpy: wrench and twist in, thrusts out.

The allocation itself is checked against an independent computation in
test/physics/test_allocation.py; here the node reads a built URDF, and its messages go where
the bridge takes them to Gazebo.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

from bluerobotics_parts.build import build_gazebo
from conftest import CONFIG_DIR, REPO
import pytest
import ros_support


@pytest.fixture(scope='module')
def built(tmp_path_factory):
    """Return the robot_description.urdf of the shipped BlueBoat and BlueROV2."""
    folder = tmp_path_factory.mktemp('built')
    paths = {}
    for config in ('blueboat.yaml', 'bluerov2.yaml'):
        path = folder / config.replace('.yaml', '.urdf')
        path.write_text(build_gazebo(CONFIG_DIR / config).urdf, encoding='utf-8')
        paths[config] = path
    return paths


def exchange(ros, description, message, topics, parameters=(), to=None):
    """Publish ``message`` (on ``to``) until every topic has answered; return topic -> value."""
    from bluerobotics_parts.ros.nodes import thrust_allocator
    from geometry_msgs.msg import Twist, Wrench
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.parameter import Parameter
    from rclpy.qos import QoSProfile
    from std_msgs.msg import Float64

    node = thrust_allocator.make_node([Parameter('description', value=str(description))]
                                      + [Parameter(k, value=v) for k, v in parameters])
    probe = ros.create_node('allocation_probe')
    received = {}
    for topic in topics:
        probe.create_subscription(Float64, topic,
                                  lambda m, t=topic: received.__setitem__(t, m.data),
                                  QoSProfile(depth=10))
    kind, topic = {Wrench: (Wrench, 'cmd_wrench'), Twist: (Twist, 'cmd_vel'),
                   Float64: (Float64, to)}[type(message)]
    publisher = probe.create_publisher(kind, topic, QoSProfile(depth=10))
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    executor.add_node(probe)
    deadline = time.monotonic() + 10.0
    while len(received) < len(topics) and time.monotonic() < deadline:
        publisher.publish(message)
        executor.spin_once(timeout_sec=0.05)
    executor.shutdown()
    node.destroy_node()
    probe.destroy_node()
    assert len(received) == len(topics), f'answered: {sorted(received)}'
    return received


def wrench(force=(0.0, 0.0, 0.0), torque=(0.0, 0.0, 0.0)):
    from geometry_msgs.msg import Vector3, Wrench

    return Wrench(force=Vector3(x=force[0], y=force[1], z=force[2]),
                  torque=Vector3(x=torque[0], y=torque[1], z=torque[2]))


MOTORS = ['/blueboat/motor_port/thrust', '/blueboat/motor_stbd/thrust']
ROV = [f'/bluerov2/thruster_{n}/thrust' for n in range(1, 7)]


def test_the_boat_shares_a_surge_and_splits_a_yaw(ros, built):
    ahead = exchange(ros, built['blueboat.yaml'], wrench(force=(20.0, 0.0, 0.0)), MOTORS)
    assert ahead == {MOTORS[0]: pytest.approx(10.0), MOTORS[1]: pytest.approx(10.0)}
    turn = exchange(ros, built['blueboat.yaml'], wrench(torque=(0.0, 0.0, 5.0)), MOTORS)
    assert turn[MOTORS[0]] == pytest.approx(-turn[MOTORS[1]]) and turn[MOTORS[1]] > 0


def test_the_rov_pushes_ahead_and_down_as_asked(ros, built):
    from bluerobotics_parts.ros.nodes.thrust_allocator import vehicle_allocation

    allocator, _, _ = vehicle_allocation(str(built['bluerov2.yaml']))
    ahead = exchange(ros, built['bluerov2.yaml'], wrench(force=(20.0, 0.0, 0.0)), ROV)
    made = allocator.wrench_of({f'thruster_{n}': ahead[ROV[n - 1]] for n in range(1, 7)})
    assert made[0] == pytest.approx(20.0) and max(abs(v) for v in made[1:3]) < 1.0
    down = exchange(ros, built['bluerov2.yaml'], wrench(force=(0.0, 0.0, -20.0)), ROV)
    assert down[ROV[4]] == pytest.approx(10.0) and down[ROV[5]] == pytest.approx(10.0)
    assert all(abs(down[topic]) < 1e-9 for topic in ROV[:4])  # the verticals carry it


def test_a_full_twist_gives_the_largest_surge(ros, built):
    from bluerobotics_parts.ros.nodes.thrust_allocator import vehicle_allocation
    from geometry_msgs.msg import Twist, Vector3

    allocator, _, _ = vehicle_allocation(str(built['blueboat.yaml']))
    full = exchange(ros, built['blueboat.yaml'], Twist(linear=Vector3(x=1.0)), MOTORS)
    assert sum(full.values()) == pytest.approx(allocator.largest(0, 1.0))
    assert full[MOTORS[0]] == pytest.approx(40.2, abs=0.05)  # the installed limit


def test_a_throttle_drives_its_thruster_through_the_curve(ros, built):
    from bluerobotics_parts.ros.nodes.thrust_allocator import vehicle_allocation
    from std_msgs.msg import Float64

    _, _, throttles = vehicle_allocation(str(built['blueboat.yaml']))
    assert throttles.voltage == pytest.approx(14.8)  # the two packs' nominal voltage
    for throttle in (0.5, -1.0, 0.05):  # 0.05 is inside the dead band: no thrust
        out = exchange(ros, built['blueboat.yaml'], Float64(data=throttle), MOTORS[:1],
                       to='/blueboat/motor_port/throttle')
        assert out[MOTORS[0]] == pytest.approx(throttles.thrust('motor_port', throttle))
    assert out[MOTORS[0]] == 0.0


def test_its_output_can_be_throttle_for_the_same_curve(ros, built):
    from bluerobotics_parts.ros.nodes.thrust_allocator import vehicle_allocation

    _, _, throttles = vehicle_allocation(str(built['blueboat.yaml']), 16.0)
    topics = [t.replace('/thrust', '/throttle') for t in MOTORS]
    out = exchange(ros, built['blueboat.yaml'], wrench(force=(20.0, 0.0, 0.0)), topics,
                   parameters=[('output', 'throttle'), ('voltage', 16.0)])
    for topic, instance in zip(topics, ('motor_port', 'motor_stbd')):
        assert 0.0 < out[topic] < 1.0
        assert throttles.thrust(instance, out[topic]) == pytest.approx(10.0, rel=1e-3)


def test_throttle_output_plans_within_full_throttle_and_keeps_the_direction(built):
    """
    At the packs' 14.8 V a full throttle gives less than the 16 V limits the thrusts use.

    Planning in newtons to those limits and clipping each throttle turned a full-surge-plus-yaw
    command (yaw lost 37%); in throttle mode the allocator plans within what full throttle
    gives, so the thrusts the throttles make keep the command's direction.
    """
    from bluerobotics_parts.ros.nodes.thrust_allocator import vehicle_allocation

    thrust_mode, _, throttles = vehicle_allocation(str(built['blueboat.yaml']))
    allocator, _, _ = vehicle_allocation(str(built['blueboat.yaml']), output='throttle')
    assert allocator.largest(0, 1.0) == pytest.approx(
        sum(throttles.thrust(name, 1.0) for name in allocator.names))
    assert allocator.largest(0, 1.0) < thrust_mode.largest(0, 1.0)
    command = [80.39, 0.0, 0.0, 0.0, 0.0, 3.0]
    result = allocator.allocate(command)
    made = allocator.wrench_of({name: throttles.thrust(name, throttles.throttle(name, thrust))
                                for name, thrust in result.thrusts.items()})
    assert result.scale < 1.0
    assert made[5] / made[0] == pytest.approx(command[5] / command[0], rel=0.01)


def test_a_dropped_axis_is_warned_once(ros, built):
    """Each axis the propellers cannot act on is named once, whatever else the command asks."""
    from bluerobotics_parts.ros.nodes import thrust_allocator
    from rclpy.parameter import Parameter

    node = thrust_allocator.make_node([Parameter('description',
                                                 value=str(built['blueboat.yaml']))])
    warnings = []

    class Logger:
        def warning(self, text, **_):
            warnings.append(text)

    node.get_logger = Logger
    node.on_wrench(wrench(force=(20.0, 10.0, 5.0)))
    node.on_wrench(wrench(force=(20.0, 0.0, 5.0)))
    node.on_wrench(wrench(force=(20.0, 10.0, 5.0), torque=(1.0, 0.0, 0.0)))
    node.destroy_node()
    dropped = [w for w in warnings if 'cannot act on' in w]
    assert len(dropped) == 2 and 'sway, heave' in dropped[0] and 'on roll apart' in dropped[1]


def test_a_scale_just_under_one_never_reads_100_percent():
    from bluerobotics_parts.ros.nodes.thrust_allocator import _percent_below

    assert _percent_below(0.99996) == '99.9' and _percent_below(0.5) == '50.0'


def test_without_a_description_it_says_what_to_give(ros):
    from bluerobotics_parts.ros.nodes import thrust_allocator

    with pytest.raises(thrust_allocator.AllocatorError, match='-p description:='):
        thrust_allocator.make_node()


def test_sigint_and_sigterm_end_it_cleanly(tmp_path, built):
    ros_support.require_rclpy()
    for stop in (signal.SIGINT, signal.SIGTERM):
        log_path = tmp_path / f'node_{stop}.log'
        env = dict(os.environ, ROS_DOMAIN_ID=str(random.randint(1, 101)),
                   ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST', ROS_HOME=str(tmp_path),
                   PYTHONUNBUFFERED='1')
        with open(log_path, 'w+', encoding='utf-8') as log:
            process = subprocess.Popen(
                [sys.executable, '-m', 'bluerobotics_parts.ros.nodes.thrust_allocator',
                 '--ros-args', '-r', '__ns:=/blueboat', '-p',
                 f"description:={built['blueboat.yaml']}"],
                cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL)
            deadline = time.monotonic() + 30
            while 'wrench and twist ->' not in log_path.read_text(encoding='utf-8'):
                assert process.poll() is None and time.monotonic() < deadline, \
                    log_path.read_text(encoding='utf-8')
                time.sleep(0.05)
            process.send_signal(stop)
            code = process.wait(timeout=30)
        text = log_path.read_text(encoding='utf-8')
        assert code == 0, text
        assert 'Traceback' not in text and '/blueboat/motor_port/thrust' in text


# -- what is not a number never reaches a thruster ----------------------------------------------

def recording(node):
    """Replace the node's publishers and logger by recorders; return (sent, warnings)."""
    sent, warnings = [], []

    class Publisher:
        def __init__(self, topic):
            self.topic = topic

        def publish(self, message):
            sent.append((self.topic, message.data))

    class Logger:
        def warning(self, text, **kwargs):
            warnings.append((text, kwargs))

        def info(self, text, **_):
            pass

    for table in (node.thrust_out, node.throttle_out):
        for name in table:
            table[name] = Publisher(name)
    node.get_logger = Logger
    return sent, warnings


@pytest.mark.parametrize('output', ['thrust', 'throttle'])
def test_a_nan_or_infinite_command_is_dropped_with_a_throttled_warning(ros, built, output):
    """Every such wrench, twist and throttle: nothing published (not 0 N), a warning."""
    import math

    from bluerobotics_parts.ros.nodes import thrust_allocator
    from geometry_msgs.msg import Twist, Vector3
    from rclpy.parameter import Parameter
    from std_msgs.msg import Float64

    node = thrust_allocator.make_node([Parameter('description', value=str(built['bluerov2.yaml'])),
                                       Parameter('output', value=output)])
    sent, warnings = recording(node)
    try:
        for bad in (math.nan, math.inf, -math.inf):
            node.on_wrench(wrench(force=(bad, 0.0, 0.0)))
            node.on_wrench(wrench(torque=(0.0, 0.0, bad)))
            node.on_twist(Twist(linear=Vector3(x=bad)))
            node.on_twist(Twist(angular=Vector3(z=bad)))
            node.on_throttle('thruster_1', Float64(data=bad))
        assert sent == []
        assert len(warnings) == 15
        assert all(w[1] == {'throttle_duration_sec': 2.0} for w in warnings)
        assert warnings[0][0] == ('/cmd_wrench: wrench with surge nan N: every component must '
                                  'be a finite number; message dropped, no thruster commanded')
        assert warnings[2][0].startswith('/cmd_vel: effort with surge nan: ')
        assert warnings[4][0].startswith('/bluerov2/thruster_1/throttle: throttle nan for '
                                         'thruster_1: a throttle is a finite number, -1 to 1')
        node.on_wrench(wrench(force=(1e300, 0.0, -1e300), torque=(1e300, 1e300, 1e300)))
        assert len(sent) == 6 and all(math.isfinite(value) for _, value in sent)
    finally:
        node.destroy_node()


def test_the_allocation_refuses_what_is_not_a_number_and_scales_what_is_huge(built):
    import math

    from bluerobotics_parts.errors import CommandError
    from bluerobotics_parts.ros.nodes.thrust_allocator import vehicle_allocation

    allocator, _, throttles = vehicle_allocation(str(built['bluerov2.yaml']))
    for bad in (math.nan, math.inf, -math.inf):
        with pytest.raises(CommandError, match='every component must be a finite number'):
            allocator.allocate([0.0, 0.0, 0.0, 0.0, 0.0, bad])
        with pytest.raises(CommandError, match='effort with'):
            allocator.effort([bad, 0.0, 0.0, 0.0, 0.0, 0.0])  # inf is no fraction either
        with pytest.raises(CommandError, match='a throttle is a finite number'):
            throttles.thrust('thruster_1', bad)
    huge = allocator.allocate([1e308, -1e308, 1e308, 0.0, 0.0, 1e308])  # overflowed before
    made = allocator.wrench_of(huge.thrusts)
    assert 0.0 < huge.scale < 1e-300
    assert made[0] > 10.0 and made[0] == pytest.approx(-made[1], rel=1e-3)
    assert made[0] == pytest.approx(made[5], rel=1e-3)
    assert made[0] == pytest.approx(made[2], rel=1e-3)


# -- its parameters ---------------------------------------------------------------------------

@pytest.mark.parametrize('name, value, words', [
    ('voltage', float('nan'), 'voltage nan: must be a finite number above 0 V, or 0 (0: the '
                              "battery's nominal, 16 V without one)"),
    ('voltage', -1.0, 'voltage -1.0: must be a finite number above 0 V'),
    ('voltage', -1, 'voltage -1: must be a finite number above 0 V'),
    ('voltage', float('inf'), 'voltage inf: must be a finite number above 0 V'),
    ('voltage', 'high', "voltage 'high': must be a finite number above 0 V"),
    ('voltage', 30.0, 'voltage 30 V is beyond the thrust curves: t200 is tabled from 10 to 20 V'),
    ('wrench_topic', 'cmd wrench', "wrench_topic 'cmd wrench': is not a ROS topic name (topic "
                                   'name must not contain characters other than'),
    ('twist_topic', '', "twist_topic '': is not a ROS topic name (topic name must not be empty "
                        'string); e.g. cmd_vel or /boat/cmd_vel'),
    ('twist_topic', '/a//b', "twist_topic '/a//b': is not a ROS topic name (topic name must not "
                             "contain repeated '/')"),
    ('output', 'newtons', "output 'newtons': must be one of thrust, throttle"),
    ('output', 3, 'output must be a string, e.g. '),
])
@pytest.mark.parametrize('output', ['thrust', 'throttle'])
def test_a_bad_parameter_is_refused_at_start_naming_what_is_valid(ros, built, name, value, words,
                                                                  output):
    from bluerobotics_parts.errors import BlueRoboticsPartsError
    from bluerobotics_parts.ros.nodes import thrust_allocator
    from rclpy.parameter import Parameter

    given = {'description': str(built['bluerov2.yaml']), 'output': output, name: value}
    with pytest.raises(BlueRoboticsPartsError) as refused:
        thrust_allocator.make_node([Parameter(k, value=v) for k, v in given.items()])
    assert words in str(refused.value)


def test_an_integer_voltage_is_taken_as_volts(ros, built):
    from bluerobotics_parts.ros.nodes import thrust_allocator
    from rclpy.parameter import Parameter

    node = thrust_allocator.make_node([Parameter('description', value=str(built['blueboat.yaml'])),
                                       Parameter('voltage', value=16),
                                       Parameter('output', value='throttle')])
    try:
        assert node.throttles.voltage == 16.0
    finally:
        node.destroy_node()


def test_a_param_set_while_it_runs_is_refused_with_the_reason(ros, built):
    from bluerobotics_parts.ros.nodes import thrust_allocator
    from rclpy.parameter import Parameter

    node = thrust_allocator.make_node([Parameter('description',
                                                 value=str(built['blueboat.yaml']))])
    try:
        results = {key: node.set_parameters([Parameter(key, value=value)])[0]
                   for key, value in (('voltage', float('nan')), ('wrench_topic', 'a b'),
                                      ('output', 'newtons'))}
        assert not any(r.successful for r in results.values())
        assert results['voltage'].reason.startswith('voltage nan: must be a finite number')
        assert 'is not a ROS topic name' in results['wrench_topic'].reason
        assert 'must be one of thrust, throttle' in results['output'].reason
        (valid,) = node.set_parameters([Parameter('voltage', value=12.0)])
        assert not valid.successful and valid.reason.startswith('voltage: set at start only')
        assert node.get_parameter('voltage').value == 0.0
        assert node.set_parameters([Parameter('use_sim_time', value=True)])[0].successful
    finally:
        node.destroy_node()


def test_as_a_program_a_bad_parameter_is_a_message_and_exit_1(tmp_path, built):
    """voltage:=nan once raised a traceback at start (throttle) or on the first throttle."""
    ros_support.require_rclpy()
    env = dict(os.environ, ROS_DOMAIN_ID=str(random.randint(1, 101)),
               ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST', ROS_HOME=str(tmp_path))
    for extra, words in ((['-p', 'voltage:=nan', '-p', 'output:=throttle'], 'voltage nan: must'),
                         (['-p', 'voltage:=-1'], 'voltage -1: must be a finite number above 0'),
                         (['-p', 'wrench_topic:=a b'], "wrench_topic 'a b': is not a ROS topic")):
        result = subprocess.run(
            [sys.executable, '-m', 'bluerobotics_parts.ros.nodes.thrust_allocator',
             '--ros-args', '-p', f"description:={built['blueboat.yaml']}", *extra],
            cwd=REPO, env=env, capture_output=True, text=True, timeout=60,
            stdin=subprocess.DEVNULL)
        assert result.returncode == 1, result.stderr
        assert 'Traceback' not in result.stderr
        assert result.stderr.startswith(f'thrust_allocator: {words}'), result.stderr
