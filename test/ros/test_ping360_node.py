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
