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
The Bar30's pressure from the vehicle's pose: the arithmetic, and the node with real rclpy.

p = p_atm + rho g depth at the sensor (pressure.py): checked by hand at known depths and
attitudes, then through the real pose_to_pressure node over loopback DDS (an Odometry in, a
FluidPressure out), and as the launch plan configures it for the BlueROV2.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import time

from bluerobotics_parts.errors import PressureError
from bluerobotics_parts.sensing.pressure import PressureSpec, rotate, Throttle
from conftest import CONFIG_DIR, REPO
import pytest
import ros_support

RHO_G = 1025.0 * 9.8
BAR30 = PressureSpec(offset=(-0.18, 0.0, -0.015), max_pressure=3e6)
LEVEL = (0.0, 0.0, 0.0, 1.0)


def test_at_the_surface_it_reads_the_atmosphere():
    assert BAR30.pressure((0.0, 0.0, 0.015), LEVEL) == pytest.approx(101325.0)
    assert BAR30.pressure((5.0, -3.0, 2.0), LEVEL) == 101325.0  # in the air: no water column


def test_below_the_surface_each_metre_adds_rho_g():
    for depth in (0.5, 1.0, 10.0, 100.0):
        z = -depth + 0.015  # the root link above the sensor by its offset
        assert BAR30.pressure((1.0, 2.0, z), LEVEL) == pytest.approx(101325.0 + RHO_G * depth)


def test_the_offset_turns_with_the_vehicle():
    """Pitched 90 deg nose down, the sensor 0.18 m aft ends 0.18 m above the root link."""
    half = math.sqrt(0.5)
    nose_down = (0.0, half, 0.0, half)  # +90 deg about y: x goes to -z
    assert rotate(nose_down, (1.0, 0.0, 0.0)) == pytest.approx((0.0, 0.0, -1.0))
    spec = PressureSpec(offset=(-0.18, 0.0, 0.0), max_pressure=3e6)
    assert spec.depth((0.0, 0.0, -2.0), nose_down) == pytest.approx(2.0 - 0.18)


def test_it_saturates_at_the_sensor_maximum():
    assert BAR30.pressure((0.0, 0.0, -1000.0), LEVEL) == 3e6


def test_the_throttle_lets_through_the_rate_by_stamps():
    throttle = Throttle(50.0)
    stamps = [k * 0.005 for k in range(40)]  # 200 Hz of odometry for 0.2 s
    passed = [stamp for stamp in stamps if throttle.due(stamp)]
    assert passed == pytest.approx([k * 0.02 for k in range(10)])
    assert throttle.due(0.0)  # a reset simulation starts over
    assert all(Throttle(0.0).due(stamp) for stamp in (1.0, 1.0, 1.0001))  # 0: every one
    with pytest.raises(PressureError, match='update_rate must be a number >= 0'):
        Throttle(-1.0)


@pytest.mark.parametrize('kwargs, words', [
    ({'offset': (0.0, 0.0), 'max_pressure': 3e6}, 'offset must be x, y, z'),
    ({'offset': (0.0, 0.0, math.nan), 'max_pressure': 3e6}, 'offset z must be a finite'),
    ({'offset': (0.0, 0.0, 0.0), 'max_pressure': 0.0}, 'max_pressure must be positive'),
    ({'offset': (0.0, 0.0, 0.0), 'max_pressure': 5e4}, 'below max_pressure'),
])
def test_bad_parameters_are_named(kwargs, words):
    with pytest.raises(PressureError, match=words):
        PressureSpec(**kwargs)


def test_the_launch_plan_gives_the_rov_its_converter(tmp_path):
    from plans import make_plan, nodes_by_executable

    plan = make_plan(tmp_path, config=CONFIG_DIR / 'bluerov2.yaml')
    (node,) = nodes_by_executable(plan)['pose_to_pressure']
    assert (node.name, node.namespace) == ('depth_pose_to_pressure', 'bluerov2')
    assert node.parameters == {'odometry_topic': '/bluerov2/odometry',
                               'pressure_topic': '/bluerov2/depth/pressure',
                               'frame_id': 'bluerov2/depth_port',
                               'offset': pytest.approx([-0.205, 0.0, -0.015]),
                               'max_pressure': 3e6, 'update_rate': 50.0}


def test_an_odometry_becomes_a_fluid_pressure(ros):
    from bluerobotics_parts.ros.nodes import pressure_node
    from nav_msgs.msg import Odometry
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.parameter import Parameter
    from rclpy.qos import QoSProfile
    from sensor_msgs.msg import FluidPressure

    parameters = {'odometry_topic': '/test_rov/odometry',
                  'pressure_topic': '/test_rov/bar/pressure', 'frame_id': 'test_rov/bar_port',
                  'offset': [-0.18, 0.0, -0.015], 'max_pressure': 3e6}
    node = pressure_node.make_node([Parameter(k, value=v) for k, v in parameters.items()])
    probe = ros.create_node('pressure_probe')
    received = []
    probe.create_subscription(FluidPressure, '/test_rov/bar/pressure', received.append,
                              QoSProfile(depth=10))
    odometry = probe.create_publisher(Odometry, '/test_rov/odometry', QoSProfile(depth=10))
    message = Odometry()
    message.header.stamp.sec = 42
    message.pose.pose.position.z = -9.985  # the sensor 10 m down
    message.pose.pose.orientation.w = 1.0
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    executor.add_node(probe)
    deadline = time.monotonic() + 10.0
    while not received and time.monotonic() < deadline:
        odometry.publish(message)
        executor.spin_once(timeout_sec=0.1)
    assert received, 'no FluidPressure within 10 s'
    reading = received[0]
    assert reading.fluid_pressure == pytest.approx(101325.0 + RHO_G * 10.0)
    assert reading.header.frame_id == 'test_rov/bar_port'
    assert reading.header.stamp.sec == 42
    assert reading.variance == 0.0  # unknown, as the message defines 0
    executor.shutdown()
    node.destroy_node()
    probe.destroy_node()


def test_without_its_parameters_the_node_is_refused(ros):
    from bluerobotics_parts.ros.nodes import pressure_node

    with pytest.raises(PressureError, match='max_pressure must be positive'):
        pressure_node.make_node()


def test_as_a_program_it_stops_cleanly_on_sigint(tmp_path):
    """Start it as ros2 launch does (its own --ros-args); a SIGINT ends it with status 0."""
    import random
    import signal

    ros_support.require_rclpy()
    arguments = ['--ros-args', '-r', '__node:=depth_pose_to_pressure', '-r', '__ns:=/test_rov',
                 '-p', 'max_pressure:=3000000.0', '-p', 'offset:=[-0.18, 0.0, -0.015]',
                 '-p', 'pressure_topic:=/test_rov/depth/pressure']
    env = dict(os.environ, ROS_DOMAIN_ID=str(random.randint(1, 101)),
               ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST', ROS_HOME=str(tmp_path),
               PYTHONUNBUFFERED='1')
    log_path = tmp_path / 'node.log'
    with open(log_path, 'w+', encoding='utf-8') as log:
        process = subprocess.Popen([sys.executable, '-m',
                                    'bluerobotics_parts.ros.nodes.pressure_node', *arguments],
                                   cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 30
            while '(FluidPressure' not in log_path.read_text(encoding='utf-8'):
                assert process.poll() is None and time.monotonic() < deadline, \
                    log_path.read_text(encoding='utf-8')
                time.sleep(0.05)
            process.send_signal(signal.SIGINT)
            assert process.wait(timeout=20) == 0, log_path.read_text(encoding='utf-8')
        finally:
            if process.poll() is None:
                process.kill()
    text = log_path.read_text(encoding='utf-8')
    assert '/test_rov/odometry (Odometry) -> /test_rov/depth/pressure (FluidPressure' in text
