"""
The scan_to_range node: without ROS it explains itself; with rclpy it makes Ranges.

With rclpy it turns the Ping's point cloud into a Range on the configured topics (runs under
colcon test in a ROS 2 workspace).
"""

from __future__ import annotations

import importlib.util
import math
import struct
import subprocess
import sys
import time

from conftest import REPO
import pytest

HAS_RCLPY = importlib.util.find_spec('rclpy') is not None


@pytest.mark.skipif(HAS_RCLPY, reason='rclpy is installed: the no-ROS message is not shown')
def test_without_rclpy_the_command_says_what_it_needs():
    result = subprocess.run([sys.executable, '-m', 'bluerobotics_parts.range_node'], cwd=REPO,
                            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert result.returncode == 1
    assert 'scan_to_range needs ROS 2 (rclpy' in result.stderr
    assert 'Traceback' not in result.stderr


@pytest.fixture
def ros():
    rclpy = pytest.importorskip('rclpy', reason='needs ROS 2 (rclpy, sensor_msgs): run under '
                                                'colcon test in a sourced ROS 2 workspace')
    pytest.importorskip('sensor_msgs.msg', reason='needs ROS 2 sensor_msgs')
    rclpy.init()
    yield rclpy
    rclpy.try_shutdown()


def test_a_scan_becomes_a_range(ros):
    from bluerobotics_parts import range_node
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.parameter import Parameter
    from rclpy.qos import QoSProfile
    from sensor_msgs.msg import PointCloud2, PointField, Range

    node = range_node.make_node([  # the parameters the launch plan gives the node
        Parameter('scan_topic', value='/test_boat/ping/scan'),
        Parameter('range_topic', value='/test_boat/ping/range'),
        Parameter('frame_id', value='test_boat/ping_beam'),
        Parameter('field_of_view', value=0.43),
        Parameter('min_range', value=0.5),
        Parameter('max_range', value=100.0)])
    probe = ros.create_node('range_probe')
    received = []
    probe.create_subscription(Range, '/test_boat/ping/range', received.append, QoSProfile(depth=10))
    scans = probe.create_publisher(PointCloud2, '/test_boat/ping/scan', QoSProfile(depth=10))
    scan = PointCloud2()  # a 3 x 3 grid over the 0.43 rad cone, laid out as gz-sensors does
    scan.header.frame_id = 'gz_name_of_the_link'
    scan.header.stamp.sec = 12
    scan.width = scan.height = 3
    scan.point_step, scan.row_step = 12, 36
    scan.fields = [PointField(name=n, offset=4 * i, datatype=PointField.FLOAT32, count=1)
                   for i, n in enumerate('xyz')]
    half, depths = 0.215, [math.inf] * 4 + [17.5] + [18.0] * 4  # the axis ray: 17.5 m
    points = b''
    for k, depth in enumerate(depths):
        v, h = (k // 3 - 1) * half, (k % 3 - 1) * half
        points += struct.pack('<fff', depth * math.cos(v) * math.cos(h),
                              depth * math.cos(v) * math.sin(h), depth * math.sin(v))
    scan.data = points
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    executor.add_node(probe)
    deadline = time.monotonic() + 10.0
    while not received and time.monotonic() < deadline:
        scans.publish(scan)
        executor.spin_once(timeout_sec=0.1)
    assert received, 'no Range within 10 s'
    message = received[0]
    assert message.range == pytest.approx(17.5)
    assert message.radiation_type == Range.ULTRASOUND
    assert message.header.frame_id == 'test_boat/ping_beam'
    assert message.header.stamp.sec == 12
    assert message.field_of_view == pytest.approx(0.43)
    assert (message.min_range, message.max_range) == (pytest.approx(0.5), pytest.approx(100.0))
    executor.shutdown()
    node.destroy_node()
    probe.destroy_node()


def test_a_node_without_its_cone_parameters_is_refused(ros):
    from bluerobotics_parts import range_node
    from bluerobotics_parts.echosounder import EchosounderError

    with pytest.raises(EchosounderError, match='field_of_view must be in'):
        range_node.make_node()
