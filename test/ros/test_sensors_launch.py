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
``ros2 launch`` of a BlueROV2 with every sensor, for real, and what it starts for them.

The launch stack is real and so are the converter nodes (scan_to_range, pose_to_pressure);
parameter_bridge, robot_state_publisher, create and rviz2 are the shared recording doubles
(test/support/ros_support.py), so whether the real bridge carries each entry stays unverified
(docs/LIMITATIONS.md, "What the test doubles leave unverified"): here the bridge is given
one entry per sensor stream, from the same names.
"""

from __future__ import annotations

import re

from conftest import CONFIG_DIR
import pytest
from test_launch_runs import BRIDGE, CREATE, only, RSP, RVIZ, shut_down, vehicle, wait_for_log
import yaml

SENSOR_TOPICS = {  # ROS topic -> (ROS type, gz type) the bridge is given
    '/bluerov2/navigator/imu': ('sensor_msgs/msg/Imu', 'gz.msgs.IMU'),
    '/bluerov2/navigator/magnetic_field': ('sensor_msgs/msg/MagneticField',
                                           'gz.msgs.Magnetometer'),
    '/bluerov2/hd_camera/image': ('sensor_msgs/msg/Image', 'gz.msgs.Image'),
    '/bluerov2/hd_camera/camera_info': ('sensor_msgs/msg/CameraInfo', 'gz.msgs.CameraInfo'),
    '/bluerov2/scanning_sonar/scan': ('sensor_msgs/msg/LaserScan', 'gz.msgs.LaserScan'),
    '/bluerov2/sonar/scan': ('sensor_msgs/msg/PointCloud2', 'gz.msgs.PointCloudPacked'),
}


@pytest.fixture(scope='module')
def prefix(tmp_path_factory):
    import ros_support

    ros_support.require_launch()
    return ros_support.make_prefix(tmp_path_factory.mktemp('ament_prefix'))


def test_ros2_launch_of_an_rov_with_every_sensor(prefix, tmp_path):
    run = vehicle(tmp_path, prefix, f"config:={CONFIG_DIR / 'examples' / 'bluerov2_sensors.yaml'}",
                  'gazebo:=false', 'rviz:=true')
    try:
        records = run.wait_for([RSP, BRIDGE, CREATE, RVIZ])
        wait_for_log(run, '(FluidPressure')
        wait_for_log(run, '(PointCloud2) -> ')
        # the Ping360's ping-protocol, as the launch started it, for its owners' tools
        wait_for_log(run, 'ping-protocol (Ping360) on udp ')
        port = int(re.search(r'ping-protocol \(Ping360\) on udp 127\.0\.0\.1:(\d+)',
                             run.log).group(1))
        brping = pytest.importorskip('brping')
        sonar = brping.Ping360()
        sonar.connect_udp('127.0.0.1', port)
        try:
            assert sonar.initialize() and sonar.get_device_information()['device_type'] == 2
        finally:
            sonar.iodev.close()
    finally:
        shut_down(run)
    folder = tmp_path / 'ros_home' / 'bluerobotics_parts' / 'bluerov2'
    bridge = only(records, 'parameter_bridge')
    entries = {e['ros_topic_name']: e for e in
               yaml.safe_load(bridge['files'][str(folder / 'bridge.yaml')])}
    for topic, (ros_type, gz_type) in SENSOR_TOPICS.items():
        assert (entries[topic]['ros_type_name'], entries[topic]['gz_type_name']) == \
            (ros_type, gz_type), topic
        assert entries[topic]['direction'] == 'GZ_TO_ROS' and entries[topic]['lazy'] is True
    assert '/bluerov2/depth/pressure' not in entries  # published by pose_to_pressure
    line = ('[bluerov2.depth_pose_to_pressure]: /bluerov2/odometry (Odometry) -> '
            '/bluerov2/depth/pressure (FluidPressure, frame bluerov2/depth_port')
    assert line in run.log, run.log
    view = yaml.safe_load(only(records, 'rviz2')['files'][str(folder / 'vehicle.rviz')])
    displays = {d['Topic']['Value']: d['Class'] for d in view['Visualization Manager']['Displays']
                if 'Topic' in d}
    assert displays == {'/bluerov2/hd_camera/image': 'rviz_default_plugins/Image',
                        '/bluerov2/sonar/range': 'rviz_default_plugins/Range',
                        '/bluerov2/depth/pressure': 'rviz_default_plugins/FluidPressure',
                        '/bluerov2/scanning_sonar/scan': 'rviz_default_plugins/LaserScan'}


def test_ros2_launch_of_the_default_boat_bridges_imu_and_gnss(prefix, tmp_path):
    run = vehicle(tmp_path, prefix, 'gazebo:=false')
    try:
        records = run.wait_for([RSP, BRIDGE, CREATE])
    finally:
        shut_down(run)
    folder = tmp_path / 'ros_home' / 'bluerobotics_parts' / 'blueboat'
    entries = {e['ros_topic_name']: e for e in yaml.safe_load(
        only(records, 'parameter_bridge')['files'][str(folder / 'bridge.yaml')])}
    assert entries['/blueboat/navigator/imu']['gz_type_name'] == 'gz.msgs.IMU'
    assert entries['/blueboat/navigator/magnetic_field']['ros_type_name'] == \
        'sensor_msgs/msg/MagneticField'
    assert entries['/blueboat/gnss/fix']['ros_type_name'] == 'sensor_msgs/msg/NavSatFix'
