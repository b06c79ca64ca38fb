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
scan_to_ping360 with a real rclpy: a whole-circle scan in, one beam a step out.

The launch gives it the scanning sonar's topics and frame (ros/nodes/converters.py); here a scan
with one near echo to port, and the beams that come out step 1 gradian (0.9 deg) at a time.
"""

from __future__ import annotations

import math
import time

from bluerobotics_parts.ros.nodes.converters import converter_parameters
from bluerobotics_parts.sensing.sonar_echo import echo_level, echo_profile, Ping
import pytest

PARAMETERS = {'scan_topic': '/rov/sonar/scan', 'beam_topic': '/rov/sonar/beam',
              'frame_id': 'rov/sonar_head', 'range': 1.5, 'range_min': 0.75,
              'ping_port': 0}  # any free port: tests run side by side


def test_it_steps_a_beam_round_the_scan(ros):
    from bluerobotics_parts.ros.nodes import ping360_node
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.parameter import Parameter
    from rclpy.qos import QoSProfile
    from sensor_msgs.msg import LaserScan

    node = ping360_node.make_node([Parameter(k, value=v) for k, v in PARAMETERS.items()])
    probe = ros.create_node('ping360_probe')
    beams = []
    probe.create_subscription(LaserScan, PARAMETERS['beam_topic'], beams.append,
                              QoSProfile(depth=100))
    scans = probe.create_publisher(LaserScan, PARAMETERS['scan_topic'], QoSProfile(depth=10))
    scan = LaserScan(angle_min=-math.pi, angle_increment=2 * math.pi / 400,
                     angle_max=-math.pi + 399 * 2 * math.pi / 400, range_min=0.75,
                     range_max=50.0)
    scan.ranges = [math.inf] * 400
    scan.ranges[200 + 3] = 1.2  # 3 gradians to port of ahead: 2.7 deg
    scan.ranges[200 + 5] = -math.inf  # REP 117: something nearer than range_min
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    executor.add_node(probe)
    deadline = time.monotonic() + 10.0
    while len(beams) < 8 and time.monotonic() < deadline:
        scans.publish(scan)
        executor.spin_once(timeout_sec=0.002)
    executor.shutdown()
    node.destroy_node()
    probe.destroy_node()
    assert len(beams) >= 8, 'fewer than 8 beams in 10 s'
    angles = [round(b.angle_min * 400 / (2 * math.pi)) for b in beams]
    assert angles[:8] == list(range(angles[0], angles[0] + 8))  # a gradian a step
    for beam, angle in zip(beams, angles):
        assert beam.angle_max == beam.angle_min and len(beam.ranges) == 1
        assert beam.header.frame_id == 'rov/sonar_head'
        assert beam.range_max == pytest.approx(1.5)
        assert beam.scan_time == pytest.approx(2 * 1.5 / 1500.0)
        expected = {3: pytest.approx(1.2), 5: -math.inf}.get(angle, math.inf)
        assert beam.ranges[0] == expected
        assert beam.intensities[0] == (echo_level(1.2, 0) if angle == 3 else 0.0)
    assert 3 in angles and 5 in angles  # the echo and the too-near one were passed


def test_ping_viewers_library_reads_the_gazebo_circle_over_udp(ros):
    """The brping library pings the node's sonar over UDP and hears the echo at its range."""
    brping = pytest.importorskip('brping')
    from bluerobotics_parts.ros.nodes import ping360_node
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.parameter import Parameter
    from rclpy.qos import QoSProfile
    from sensor_msgs.msg import LaserScan

    node = ping360_node.make_node([Parameter(k, value=v) for k, v in PARAMETERS.items()])
    probe = ros.create_node('ping360_udp_probe')
    scans = probe.create_publisher(LaserScan, PARAMETERS['scan_topic'], QoSProfile(depth=10))
    scan = LaserScan(angle_min=-math.pi, angle_increment=2 * math.pi / 400,
                     angle_max=-math.pi + 399 * 2 * math.pi / 400, range_min=0.75,
                     range_max=50.0)
    scan.ranges = [math.inf] * 400
    scan.ranges[200 + 30] = 1.0  # 30 gradians to port
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    executor.add_node(probe)
    deadline = time.monotonic() + 10.0
    while node.scan is None and time.monotonic() < deadline:
        scans.publish(scan)
        executor.spin_once(timeout_sec=0.01)
    client = brping.Ping360()
    try:
        client.connect_udp('127.0.0.1', node.server.address[1])
        assert client.initialize()
        reply = client.transmitAngle(30)
        assert reply is not None and reply.angle == 30
        ping = Ping(0, 32, 80, 1024)  # the firmware's boot settings: 1.54 m
        assert bytes(reply.data) == echo_profile(1.0, ping)
        assert not any(client.transmitAngle(31).data)
    finally:
        client.iodev.close()
        executor.shutdown()
        node.destroy_node()
        probe.destroy_node()
    assert node.server is None  # stopped with the node


def test_a_bad_gain_or_port_is_refused_naming_what_is_valid(ros):
    from bluerobotics_parts.ros.nodes import ping360_node
    from rclpy.parameter import Parameter

    with pytest.raises(ping360_node.SweepError, match=r'gain must be 0 \(low\), 1'):
        ping360_node.make_node([Parameter('gain', value=5), Parameter('ping_port', value=-1)])
    with pytest.raises(ping360_node.SweepError, match='ping_port must be a UDP port'):
        ping360_node.make_node([Parameter('ping_port', value=70000)])


def test_it_starts_as_the_sonars_own_tools_start_it(ros):
    """2 m, a gradian a step round the whole turn, gain 0: Ping Viewer's and the ROS driver's."""
    from bluerobotics_parts.ros.nodes import ping360_node
    from rclpy.parameter import Parameter

    node = ping360_node.make_node([Parameter('ping_port', value=-1)])
    try:
        assert (node.sweep.range, node.sweep.step, node.sweep.sector, node.gain) == \
            (2.0, 1, 400, 0)
        assert node.timer.timer_period_ns == pytest.approx(2 * 2.0 / 1500.0 * 1e9, abs=1)
    finally:
        node.destroy_node()


def test_range_step_and_gain_change_while_it_runs(ros):
    """``ros2 param set`` takes a new range (the step period follows); a bad one is refused."""
    from bluerobotics_parts.ros.nodes import ping360_node
    from rclpy.parameter import Parameter

    node = ping360_node.make_node([Parameter('ping_port', value=-1)])
    try:
        done = node.set_parameters([Parameter('range', value=30.0), Parameter('gain', value=2)])
        assert all(r.successful for r in done)
        assert (node.sweep.range, node.gain) == (30.0, 2)
        assert node.timer.timer_period_ns == pytest.approx(2 * 30.0 / 1500.0 * 1e9, abs=1)
        (refused,) = node.set_parameters([Parameter('step', value=0)])
        assert not refused.successful and 'step must be 1 to 200 gradians' in refused.reason
        (refused,) = node.set_parameters([Parameter('gain', value=7)])
        assert not refused.successful and 'gain must be 0 (low), 1 (normal) or 2' in \
            refused.reason
        (refused,) = node.set_parameters([Parameter('scan_topic', value='/other')])
        assert not refused.successful and 'set at start only' in refused.reason
        (refused,) = node.set_parameters([Parameter('range', value=80.0)])
        assert not refused.successful and 'at most 50 m' in refused.reason
        (refused,) = node.set_parameters([Parameter('range', value=0.01)])
        assert not refused.successful and 'above 0.75 m' in refused.reason
        assert (node.sweep.range, node.sweep.step, node.gain) == (30.0, 1, 2)
        timer, node.index = node.timer, 17
        assert node.set_parameters([Parameter('gain', value=1)])[0].successful
        assert node.timer is timer and node.index == 17  # the head keeps its place
        assert node.set_parameters([Parameter('use_sim_time', value=True)])[0].successful
    finally:
        node.destroy_node()


def test_the_launch_gives_it_the_sonars_topics_and_frame(tmp_path):
    from bluerobotics_parts.build import build_gazebo
    from conftest import CONFIG_DIR

    built = build_gazebo(CONFIG_DIR / 'examples' / 'bluerov2_sensors.yaml')
    (sonar,) = [s for s in built.topics.sensors if s.kind == 'scanning_sonar']
    values = built.catalogue[sonar.type].sensor_sections['scanning_sonar']
    parameters = converter_parameters(sonar, values, None)
    assert parameters == {'scan_topic': '/bluerov2/scanning_sonar/scan',
                          'beam_topic': '/bluerov2/scanning_sonar/beam',
                          'frame_id': 'bluerov2/scanning_sonar_head', 'range_min': 0.75,
                          'range_max': 50.0}


# -- parameters bounded to what a Ping360 does ----------------------------------------------

@pytest.mark.parametrize('given, words', [
    ({'speed_of_sound': math.inf}, 'speed_of_sound inf: must be a finite number from 1450 to '
                                   '1550 m/s (what Ping Viewer and the ROS driver take)'),
    ({'speed_of_sound': 1e300}, 'speed_of_sound 1e+300: must be a finite number from 1450'),
    ({'speed_of_sound': 1e-300}, 'speed_of_sound 1e-300: must be a finite number from 1450'),
    ({'speed_of_sound': 343}, 'speed_of_sound 343: must be a finite number from 1450'),
    ({'range_min': -1.0, 'range': 0.001}, ('range_min -1.0: must be a finite number from 0.75 '
                                           "to 50 m (a Ping360's, its datasheet)")),
    ({'range_max': math.inf}, 'range_max inf: must be a finite number from 0.75 to 50 m'),
    ({'range_max': 80.0}, 'range_max 80.0: must be a finite number from 0.75 to 50 m'),
    ({'range_min': 40.0, 'range_max': 30.0}, 'range_min (40 m) must be below range_max (30 m)'),
    ({'range': math.nan}, 'range nan: must be a finite number'),
    ({'beam_topic': 'a b'}, "beam_topic 'a b': is not a ROS topic name"),
])
def test_impossible_sonar_parameters_are_refused_at_start(ros, given, words):
    from bluerobotics_parts.errors import BlueRoboticsPartsError
    from bluerobotics_parts.ros.nodes import ping360_node
    from rclpy.parameter import Parameter

    parameters = {'ping_port': -1, **given}
    with pytest.raises(BlueRoboticsPartsError) as refused:
        ping360_node.make_node([Parameter(k, value=v) for k, v in parameters.items()])
    assert words in str(refused.value)


def test_every_step_period_it_takes_is_a_ping_of_a_ping360(ros):
    """The shortest: 2 x 0.75 m at 1550 m/s, about 1 ms (never 0: a busy loop)."""
    from bluerobotics_parts.ros.nodes import ping360_node
    from rclpy.parameter import Parameter

    node = ping360_node.make_node([Parameter('ping_port', value=-1),
                                   Parameter('speed_of_sound', value=1550),
                                   Parameter('range', value=0.76)])
    try:
        assert node.timer.timer_period_ns == pytest.approx(2 * 0.76 / 1550 * 1e9, abs=1)
        for name, value, words in (('speed_of_sound', math.nan, 'speed_of_sound nan: must be'),
                                   ('range', math.inf, 'range inf: must be a finite number'),
                                   ('range_min', -1.0, 'range_min -1.0: must be a finite'),
                                   ('range_min', 1.0, 'range_min: set at start only')):
            (refused,) = node.set_parameters([Parameter(name, value=value)])
            assert not refused.successful and refused.reason.startswith(words), refused.reason
        assert node.set_parameters([Parameter('range', value=20)])[0].successful  # an integer
        assert node.sweep.range == 20.0
    finally:
        node.destroy_node()


def test_as_a_program_an_impossible_sonar_is_a_message_and_exit_1(tmp_path):
    """speed_of_sound 1e-300 once made the step timer's period 0: a busy loop, never refused."""
    import os
    import random
    import subprocess
    import sys

    from conftest import REPO
    import ros_support

    ros_support.require_rclpy()
    env = dict(os.environ, ROS_DOMAIN_ID=str(random.randint(1, 101)),
               ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST', ROS_HOME=str(tmp_path))
    for given in ('speed_of_sound:=1e-300', 'range_max:=inf', 'range_min:=-1.0'):
        try:
            result = subprocess.run(
                [sys.executable, '-m', 'bluerobotics_parts.ros.nodes.ping360_node',
                 '--ros-args', '-p', 'ping_port:=-1', '-p', given], cwd=REPO, env=env,
                capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            pytest.fail(f'{given}: still running after 30 s')
        assert result.returncode == 1, result.stderr
        assert 'Traceback' not in result.stderr
        assert result.stderr.startswith(f"scan_to_ping360: {given.split(':=')[0]} "), \
            result.stderr


# -- where ping-protocol is answered -----------------------------------------------------------

def test_an_empty_ping_host_is_the_loopback_and_every_interface_is_said(ros):
    from bluerobotics_parts.ros.nodes import ping360_node
    from rclpy.parameter import Parameter

    node = ping360_node.make_node([Parameter('ping_host', value=''),
                                   Parameter('ping_port', value=0)])
    said = []

    class Logger:
        def info(self, text, **_):
            said.append(('info', text))

        def warning(self, text, **_):
            said.append(('warning', text))

    try:
        assert node.server.address[0] == '127.0.0.1'  # was 0.0.0.0: every interface
        node.get_logger = Logger
        everywhere = node.serve('0.0.0.0', 0)
        try:
            assert everywhere.address[0] == '0.0.0.0'
            assert said[0] == ('info', 'ping-protocol (Ping360) on udp 0.0.0.0:'
                                       f'{everywhere.address[1]}')
            assert said[1][0] == 'warning' and 'on every interface (ping_host 0.0.0.0)' in \
                said[1][1]
        finally:
            everywhere.stop()
    finally:
        node.destroy_node()
