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
``scan_to_range``: republishes a simulated Ping's scan as a sensor_msgs/msg/Range.

ros_gz bridges the Ping's gpu_lidar cone as a PointCloud2 (Range cannot be bridged, and a
LaserScan would keep only one row of the cone: sensing/echosounder.py's module doc); this node
turns each cloud into one Range with that module's arithmetic, stamped with the scan's time.
The launch starts one per echosounder (parameters: ``make_node``). It ends cleanly on SIGINT and
SIGTERM (node_runner.py); rclpy is imported inside functions, so the module imports without ROS.
"""

from __future__ import annotations

import sys

from .node_runner import parameters, run, topic
from ...errors import EchosounderError
from ...sensing.echosounder import RangeReading, RangeSpec

NODE_NAME = 'scan_to_range'
PARAMETERS = {  # name -> default; the launch plan sets all of them
    'scan_topic': 'scan',
    'range_topic': 'range',
    'frame_id': '',
    'field_of_view': 0.0,
    'min_range': 0.0,
    'max_range': 0.0,
}
RULES = {'scan_topic': topic, 'range_topic': topic}


def make_node(parameter_overrides=()):
    """
    Return the rclpy node (rclpy must be initialised).

    ``parameter_overrides`` (rclpy Parameters) stand in for --ros-args. Raises
    EchosounderError for parameters that describe no ranger. The launch sets every parameter,
    with the names from model/topics.py and the beam data from the part::

        scan_topic     PointCloud2 to read, e.g. /blueboat/ping/scan
        range_topic    Range to publish, e.g. /blueboat/ping/range
        frame_id       TF frame of the beam, e.g. blueboat/ping_beam (the scan's own frame id is
                       whatever Gazebo named it; the Range is stamped with this one)
        field_of_view  full beam opening angle, rad
        min_range, max_range   the measurable interval, m
    """
    from rclpy.node import Node
    from rclpy.qos import qos_profile_sensor_data, QoSProfile
    from sensor_msgs.msg import PointCloud2, Range

    class ScanToRange(Node):
        """Publishes one Range per echosounder cloud."""

        def __init__(self):
            super().__init__(NODE_NAME, parameter_overrides=list(parameter_overrides))
            value = parameters(self, PARAMETERS, RULES)
            value.watch()  # each is read once: a set while it runs is refused, saying so

            self.spec = RangeSpec(field_of_view=float(value('field_of_view')),
                                  min_range=float(value('min_range')),
                                  max_range=float(value('max_range')))
            self.frame_id = str(value('frame_id'))
            # Sensor-data QoS takes the bridge's reliable stream as well as a best-effort one;
            # the Range goes out reliable so RViz's default subscription matches it.
            self.publisher = self.create_publisher(Range, str(value('range_topic')),
                                                   QoSProfile(depth=10))
            self.subscription = self.create_subscription(
                PointCloud2, str(value('scan_topic')), self.on_scan, qos_profile_sensor_data)
            self.get_logger().info(
                f'{self.subscription.topic_name} (PointCloud2) -> {self.publisher.topic_name} '
                f"(Range, frame {self.frame_id or 'of the scan'}, field of view "
                f'{self.spec.field_of_view:.3f} rad, '
                f'{self.spec.min_range}-{self.spec.max_range} m)')

        def on_scan(self, scan: PointCloud2) -> None:
            try:
                reading = RangeReading.from_cloud(scan, self.spec)
            except EchosounderError as error:
                self.get_logger().warning(f'unusable scan: {error}', throttle_duration_sec=5.0)
                return
            if reading is None:
                self.get_logger().warning(
                    'scan without a usable ray (empty or all NaN): no Range',
                    throttle_duration_sec=5.0)
                return
            message = Range()
            message.header.stamp = scan.header.stamp
            message.header.frame_id = self.frame_id or scan.header.frame_id
            message.radiation_type = reading.radiation_type
            message.field_of_view = reading.field_of_view
            message.min_range = reading.min_range
            message.max_range = reading.max_range
            message.range = reading.range
            self.publisher.publish(message)

    return ScanToRange()


def main(argv=None) -> int:
    """Run the console script ``scan_to_range`` (``ros2 run bluerobotics_parts scan_to_range``)."""
    return run(NODE_NAME, make_node, EchosounderError, argv, needs='rclpy and sensor_msgs')


if __name__ == '__main__':
    sys.exit(main())
