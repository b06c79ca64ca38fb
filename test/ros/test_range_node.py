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
The scan_to_range node in this process and as a program.

Without rclpy the command explains what it needs. With rclpy (tools/setup_ros.sh) it turns a
point cloud of the Ping's cone into a Range on the configured topics, and as a program it stops
with exit status 0 on SIGINT, however many arrive and whenever (ros2 launch delivers two on a
terminal's Ctrl-C).
test_range_node_launch.py runs it under launch_testing.
"""

from __future__ import annotations

import math
import os
import random
import signal
import subprocess
import sys
import time

from conftest import REPO
from echo_clouds import cone_cloud, in_cone
import pytest
import ros_support

PARAMETERS = {  # what the launch plan gives the Ping of a vehicle named test_boat
    'scan_topic': '/test_boat/ping/scan', 'range_topic': '/test_boat/ping/range',
    'frame_id': 'test_boat/ping_beam', 'field_of_view': 0.43, 'min_range': 0.5,
    'max_range': 100.0}


def test_without_rclpy_the_command_says_what_it_needs(tmp_path):
    """Run where rclpy cannot be imported: a folder first on the path hides the real one."""
    hidden = tmp_path / 'rclpy'
    hidden.mkdir()
    (hidden / '__init__.py').write_text(
        "raise ImportError('No module named rclpy (hidden by the test)')\n", encoding='utf-8')
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(REPO)]))
    result = subprocess.run([sys.executable, '-m', 'bluerobotics_parts.ros.nodes.range_node'],
                            cwd=REPO,
                            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60,
                            env=env)
    assert result.returncode == 1
    assert 'scan_to_range needs ROS 2 (rclpy' in result.stderr
    assert 'Traceback' not in result.stderr


def test_a_scan_becomes_a_range(ros):
    from bluerobotics_parts.ros.nodes import range_node
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.parameter import Parameter
    from rclpy.qos import QoSProfile
    from sensor_msgs.msg import PointCloud2, PointField, Range

    node = range_node.make_node([Parameter(k, value=v) for k, v in PARAMETERS.items()])
    probe = ros.create_node('range_probe')
    received = []
    probe.create_subscription(Range, '/test_boat/ping/range', received.append,
                              QoSProfile(depth=10))
    scans = probe.create_publisher(PointCloud2, '/test_boat/ping/scan', QoSProfile(depth=10))
    scan = cone_cloud((PointCloud2, PointField), in_cone(17.5, 18.0, math.inf),
                      PARAMETERS['field_of_view'], stamp=(12, 0))
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
    from bluerobotics_parts.errors import EchosounderError
    from bluerobotics_parts.ros.nodes import range_node

    with pytest.raises(EchosounderError, match='field_of_view must be in'):
        range_node.make_node()


def start_node(tmp_path):
    """Start scan_to_range as ros2 launch does (own --ros-args); return it once it runs."""
    arguments = ['--ros-args', '-r', '__node:=ping_scan_to_range', '-r', '__ns:=/test_boat']
    for key, value in PARAMETERS.items():
        arguments += ['-p', f'{key}:={value}']
    env = dict(os.environ, ROS_DOMAIN_ID=str(random.randint(1, 101)),
               ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST', ROS_HOME=str(tmp_path),
               PYTHONUNBUFFERED='1')
    log = open(tmp_path / 'node.log', 'w+', encoding='utf-8')
    process = subprocess.Popen([sys.executable, '-m', 'bluerobotics_parts.ros.nodes.range_node',
                                *arguments], cwd=REPO, env=env, stdout=log,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while '(PointCloud2) ->' not in (tmp_path / 'node.log').read_text(encoding='utf-8'):
        assert process.poll() is None and time.monotonic() < deadline, \
            (tmp_path / 'node.log').read_text(encoding='utf-8')
        time.sleep(0.05)
    return process


@pytest.mark.parametrize('count, spacing', [(1, 0.0), (2, 0.0), (2, 0.05), (3, 0.1),
                                            (5, 0.02), (10, 0.01)])
def test_any_number_of_sigints_end_it_cleanly(tmp_path, count, spacing):
    """A terminal's Ctrl-C plus launch's own SIGINT, or more, at any moment of the shutdown."""
    ros_support.require_rclpy()
    process = start_node(tmp_path)
    try:
        for _ in range(count):
            if process.poll() is not None:
                break
            process.send_signal(signal.SIGINT)
            time.sleep(spacing)
        code = process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    log = (tmp_path / 'node.log').read_text(encoding='utf-8')
    assert code == 0, log
    assert 'Traceback' not in log and 'KeyboardInterrupt' not in log, log


def test_sigterm_ends_it_cleanly_too(tmp_path):
    ros_support.require_rclpy()
    process = start_node(tmp_path)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
