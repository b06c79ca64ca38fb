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
scan_to_range under launch_testing, over real DDS (Fast DDS, loopback only).

Started exactly as vehicle.launch.py starts it (the launch plan's NodeSpec for the shipped
BlueBoat's Ping, mapped by launch_actions.node). The test publishes clouds of the cone
(echo_clouds.py) on the plan's scan topic and checks the Ranges on its range topic: the nearest
in-range return inside the cone, +inf / -inf outside the interval, nothing for a scan without a
usable ray, and every other field. Skips without the launch stack (ros_support.require_launch).
"""

import math
import os
from pathlib import Path
import random
import tempfile
import time
import unittest

from echo_clouds import cone_cloud, in_cone
import pytest
import ros_support

try:
    from launch import LaunchDescription
    import launch_testing
    import launch_testing.actions
    import launch_testing.asserts
except ImportError as missing:  # no ROS 2 Jazzy launch stack here
    ros_support.unavailable_module(ros_support.launch_stack_missing() or
                                   f'needs launch_testing ({missing}): {ros_support.GET_ROS}')

PLAN = {}  # the launch plan the node was started from, for the tests
SAVED_ENVIRONMENT = {}
ENVIRONMENT = ('AMENT_PREFIX_PATH', 'ROS_HOME', 'ROS_DOMAIN_ID',
               'ROS_AUTOMATIC_DISCOVERY_RANGE')


@pytest.mark.launch_test
def generate_test_description():
    ros_support.require_launch()
    from bluerobotics_parts.ros.launch import plan as launch_plan
    from bluerobotics_parts.ros.launch.actions import node

    folder = Path(tempfile.mkdtemp(prefix='scan_to_range_launch_'))
    prefix = ros_support.make_prefix(folder / 'prefix', doubles=False)
    SAVED_ENVIRONMENT.update({k: os.environ.get(k) for k in ENVIRONMENT})
    os.environ['AMENT_PREFIX_PATH'] = os.pathsep.join(
        [str(prefix)] + [p for p in os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep)
                         if p])
    os.environ['ROS_HOME'] = str(folder / 'ros_home')
    os.environ['ROS_DOMAIN_ID'] = str(random.randint(1, 101))  # apart from other test runs
    os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    plan = launch_plan.plan({'gazebo': 'false'}, os.environ)
    (spec,) = [n for n in plan.nodes if n.executable == 'scan_to_range']
    PLAN.update(spec=spec, use_sim_time=plan.use_sim_time)
    converter = node(spec)
    return LaunchDescription([converter, launch_testing.actions.ReadyToTest()]), {
        'converter': converter}


class Probe:
    """A publisher of cone clouds and a subscriber of Ranges on the plan's topics."""

    def __init__(self, rclpy, spec):
        from rclpy.qos import QoSProfile
        from sensor_msgs.msg import PointCloud2, PointField, Range

        self.rclpy = rclpy
        self.context = rclpy.context.Context()
        rclpy.init(context=self.context)
        self.node = rclpy.create_node('range_probe', context=self.context)
        self.received = {}
        self.node.create_subscription(
            Range, spec.parameters['range_topic'],
            lambda m: self.received.setdefault(m.header.stamp.sec, m), QoSProfile(depth=50))
        self.publisher = self.node.create_publisher(
            PointCloud2, spec.parameters['scan_topic'], QoSProfile(depth=50))
        self.types = (PointCloud2, PointField)
        self.field_of_view = spec.parameters['field_of_view']
        from rclpy.executors import SingleThreadedExecutor
        self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)

    def scan(self, stamp: int, ranges) -> object:
        """Return a cloud of the given rays, framed as Gazebo names it (the Range must not)."""
        return cone_cloud(self.types, ranges, self.field_of_view, stamp=(stamp, 250))

    def exchange(self, stamp: int, ranges, timeout: float = 20.0):
        """Publish the scan until its Range (same stamp) arrives; return the Range."""
        message = self.scan(stamp, ranges)
        deadline = time.monotonic() + timeout
        while stamp not in self.received:
            assert time.monotonic() < deadline, f'no Range for the scan stamped {stamp}'
            self.publisher.publish(message)
            self.executor.spin_once(timeout_sec=0.1)
        return self.received[stamp]

    def close(self):
        self.executor.shutdown()
        self.node.destroy_node()
        self.rclpy.shutdown(context=self.context)


class TestScanToRange(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        import rclpy

        cls.spec = PLAN['spec']
        cls.probe = Probe(rclpy, cls.spec)

    @classmethod
    def tearDownClass(cls):
        cls.probe.close()

    def check_fields(self, message, stamp):
        from sensor_msgs.msg import Range

        parameters = self.spec.parameters
        self.assertEqual(message.radiation_type, Range.ULTRASOUND)
        self.assertAlmostEqual(message.field_of_view, parameters['field_of_view'], places=6)
        self.assertAlmostEqual(message.field_of_view, math.radians(25), places=6)  # Ping2
        self.assertAlmostEqual(message.min_range, parameters['min_range'], places=6)
        self.assertAlmostEqual(message.max_range, parameters['max_range'], places=5)
        self.assertEqual(message.header.frame_id, parameters['frame_id'])
        self.assertEqual(message.header.frame_id, 'blueboat/ping_beam')
        self.assertEqual((message.header.stamp.sec, message.header.stamp.nanosec), (stamp, 250))

    def test_the_plan_is_the_vehicle_launch_one(self):
        parameters = self.spec.parameters
        self.assertEqual((parameters['scan_topic'], parameters['range_topic']),
                         ('/blueboat/ping/scan', '/blueboat/ping/range'))
        self.assertEqual((self.spec.name, self.spec.namespace), ('ping_scan_to_range', 'blueboat'))

    def test_the_nearest_return_in_range(self):
        message = self.probe.exchange(1, in_cone(17.5, 0.2, 18.0, math.nan, 150.0))
        self.assertAlmostEqual(message.range, 17.5, places=5)
        self.check_fields(message, 1)

    def test_beyond_max_range_is_no_detection(self):
        message = self.probe.exchange(2, in_cone(150.0, 100.5))
        self.assertEqual(message.range, math.inf)
        self.check_fields(message, 2)

    def test_closer_than_min_range_is_minus_inf(self):
        message = self.probe.exchange(3, in_cone(0.2, math.inf))
        self.assertEqual(message.range, -math.inf)
        self.check_fields(message, 3)

    def test_open_water(self):
        message = self.probe.exchange(4, [math.inf] * 9)
        self.assertEqual(message.range, math.inf)
        self.check_fields(message, 4)

    def test_at_the_limits(self):
        self.assertAlmostEqual(self.probe.exchange(5, in_cone(0.5)).range, 0.5, places=6)
        self.assertAlmostEqual(self.probe.exchange(6, in_cone(100.0)).range, 100.0, places=5)

    def test_a_scan_without_a_usable_ray_gives_no_range(self):
        for stamp, ranges in ((10, [math.nan] * 9), (11, [])):
            for _ in range(3):
                self.probe.publisher.publish(self.probe.scan(stamp, ranges))
        # a later scan's Range arrives after any the earlier scans would have produced
        # (one publisher, one subscriber, in order)
        self.probe.exchange(12, in_cone(3.0))
        self.assertNotIn(10, self.probe.received)
        self.assertNotIn(11, self.probe.received)


@launch_testing.post_shutdown_test()
class TestShutdown(unittest.TestCase):

    def test_the_node_exits_cleanly(self, proc_info, converter):
        launch_testing.asserts.assertExitCodes(proc_info, process=converter)

    @classmethod
    def tearDownClass(cls):
        for key, value in SAVED_ENVIRONMENT.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
