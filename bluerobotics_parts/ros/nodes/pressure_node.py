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
``pose_to_pressure``: a simulated depth sensor's sensor_msgs/msg/FluidPressure.

Gazebo has no water pressure sensor; this node computes the pressure at the sensor from the
vehicle's odometry (sensing/pressure.py has the arithmetic and its sources): one FluidPressure
per odometry message, at most ``update_rate`` a second by the stamps, with its odometry's stamp
and ``variance`` 0 (unknown, as the message defines it). An odometry whose pose has a
component that is not a finite number is dropped with a warning at most every 5 s (no reading
rather than a NaN one). The launch starts one per pressure sensor (parameters: ``make_node``);
it stops as ``scan_to_range`` does (node_runner.py).
"""

from __future__ import annotations

import sys

from .node_runner import parameters, run, topic
from ...errors import CommandError, PressureError
from ...sensing.pressure import PressureSpec, Throttle

NODE_NAME = 'pose_to_pressure'
PARAMETERS = {  # name -> default; the launch plan sets all of them
    'odometry_topic': 'odometry',
    'pressure_topic': 'pressure',
    'frame_id': '',
    'offset': [0.0, 0.0, 0.0],
    'max_pressure': 0.0,
    'update_rate': 0.0,
}
RULES = {'odometry_topic': topic, 'pressure_topic': topic}


def make_node(parameter_overrides=()):
    """
    Return the rclpy node (rclpy must be initialised).

    ``parameter_overrides`` (rclpy Parameters) stand in for --ros-args. Raises PressureError
    for parameters that describe no pressure sensor. The launch sets every parameter, with the
    names from model/topics.py and the sensor's place from the vehicle model::

        odometry_topic   nav_msgs/Odometry of the vehicle, e.g. /bluerov2/odometry
        pressure_topic   FluidPressure to publish, e.g. /bluerov2/bar30/pressure
        frame_id         TF frame of the sensor, e.g. bluerov2/bar30_port
        offset           the sensor in the root link, [x, y, z] m
        max_pressure     where the reading saturates, Pa
        update_rate      readings a second, at most (the part's; 0: one per odometry message)
    """
    from nav_msgs.msg import Odometry
    from rclpy.node import Node
    from rclpy.qos import qos_profile_sensor_data, QoSProfile
    from sensor_msgs.msg import FluidPressure

    class PoseToPressure(Node):
        """Publishes the pressure at the sensor for every odometry message."""

        def __init__(self):
            super().__init__(NODE_NAME, parameter_overrides=list(parameter_overrides))
            value = parameters(self, PARAMETERS, RULES)
            value.watch()  # each is read once: a set while it runs is refused, saying so

            self.spec = PressureSpec(offset=tuple(float(v) for v in value('offset')),
                                     max_pressure=float(value('max_pressure')))
            self.frame_id = str(value('frame_id'))
            self.throttle = Throttle(float(value('update_rate')))
            self.publisher = self.create_publisher(FluidPressure, str(value('pressure_topic')),
                                                   QoSProfile(depth=10))
            self.subscription = self.create_subscription(
                Odometry, str(value('odometry_topic')), self.on_odometry,
                qos_profile_sensor_data)
            self.get_logger().info(
                f'{self.subscription.topic_name} (Odometry) -> {self.publisher.topic_name} '
                f'(FluidPressure, frame {self.frame_id}, offset {self.spec.offset} m)')

        def on_odometry(self, odometry: Odometry) -> None:
            pose = odometry.pose.pose
            position = (pose.position.x, pose.position.y, pose.position.z)
            orientation = (pose.orientation.x, pose.orientation.y, pose.orientation.z,
                           pose.orientation.w)
            try:
                pressure = self.spec.pressure(position, orientation)
            except CommandError as error:
                self.get_logger().warning(f'unusable odometry: {error}; no FluidPressure',
                                          throttle_duration_sec=5.0)
                return
            stamp = odometry.header.stamp  # a dropped odometry takes no turn of the rate
            if not self.throttle.due(stamp.sec + stamp.nanosec * 1e-9):
                return
            message = FluidPressure()
            message.header.stamp = odometry.header.stamp
            message.header.frame_id = self.frame_id
            message.fluid_pressure = pressure
            message.variance = 0.0
            self.publisher.publish(message)

    return PoseToPressure()


def main(argv=None) -> int:
    """Run ``pose_to_pressure`` (``ros2 run bluerobotics_parts pose_to_pressure``)."""
    return run(NODE_NAME, make_node, PressureError, argv,
               needs='rclpy, nav_msgs and sensor_msgs')


if __name__ == '__main__':
    sys.exit(main())
