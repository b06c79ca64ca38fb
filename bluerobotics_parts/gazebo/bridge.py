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
The ros_gz_bridge configuration of a vehicle: one entry per bridged topic, every name final.

``parameter_bridge --ros-args -p config_file:=bridge.yaml`` reads a YAML list of entries
(``ros_topic_name``, ``gz_topic_name``, ``ros_type_name``, ``gz_type_name``, ``direction``,
``lazy``; the file takes no substitutions: gazebosim/ros_gz branch jazzy,
ros_gz_bridge/README.md). Names come from model/topics.py; sensor entries are lazy (the bridge
subscribes to Gazebo only while someone listens). sensor_msgs/Range has no bridge (ros_gz
issue 586): the echosounder's PointCloud2 is bridged and a converter node publishes the Range.
"""

from __future__ import annotations

import yaml

from .elements import ARDUPILOT_PLUGIN
from ..assembly import catalogue as part_catalogue
from ..assembly.record import parse_urdf, read
from ..errors import BlueRoboticsPartsError
from ..formats.sensor_kinds import GZ_TO_ROS, KINDS, ROS_TO_GZ
from ..model.topics import CLOCK_TOPIC, vehicle_topics, VehicleTopics

#: Every (ROS type, gz type) pair the package bridges: each is a row of ros_gz_bridge's type
#: table (gazebosim/ros_gz jazzy, ros_gz_bridge/README.md; the same pairs in
#: ros_gz_bridge/ros_gz_bridge/mappings.py, commit 739cb42a). The tests hold every entry to it.
#: The DVL's pair came later: gazebosim/ros_gz pull request 789 "Bridge DVL messages" (merged
#: 2025; ros_gz_sim_demos/launch/dvl.launch.py bridges
#: ``/dvl/velocity@marine_acoustic_msgs/msg/Dvl[gz.msgs.DVLVelocityTracking``), released for
#: Jazzy in ros_gz 1.0.22 (ros/rosdistro pull request 50418): an older ros_gz_bridge refuses
#: that one entry.
BRIDGE_PAIRS = frozenset({
    ('rosgraph_msgs/msg/Clock', 'gz.msgs.Clock'),
    ('sensor_msgs/msg/JointState', 'gz.msgs.Model'),
    ('nav_msgs/msg/Odometry', 'gz.msgs.Odometry'),
    ('tf2_msgs/msg/TFMessage', 'gz.msgs.Pose_V'),
    ('std_msgs/msg/Float64', 'gz.msgs.Double'),
    ('sensor_msgs/msg/PointCloud2', 'gz.msgs.PointCloudPacked'),
    ('sensor_msgs/msg/LaserScan', 'gz.msgs.LaserScan'),
    ('sensor_msgs/msg/Imu', 'gz.msgs.IMU'),
    ('sensor_msgs/msg/MagneticField', 'gz.msgs.Magnetometer'),
    ('sensor_msgs/msg/NavSatFix', 'gz.msgs.NavSat'),
    ('sensor_msgs/msg/Image', 'gz.msgs.Image'),
    ('sensor_msgs/msg/CameraInfo', 'gz.msgs.CameraInfo'),
    ('marine_acoustic_msgs/msg/Dvl', 'gz.msgs.DVLVelocityTracking'),
})


def _entry(ros_topic, gz_topic, ros_type, gz_type, direction, lazy=False) -> dict:
    entry = {'ros_topic_name': ros_topic, 'gz_topic_name': gz_topic, 'ros_type_name': ros_type,
             'gz_type_name': gz_type, 'direction': direction}
    if lazy:
        entry['lazy'] = True
    return entry


def entries(names: VehicleTopics, commands: bool = True, clock: bool = True) -> list[dict]:
    """
    Return the bridge entries of a vehicle's topics.

    Clock (unless not ``clock``: the launch bridges it once per world), joint states, odometry
    and its transform, one command per thruster (unless not ``commands``: an autopilot drives
    them), one per joint control (a camera's tilt), and each sensor's bridged streams.
    """
    found = [_entry(names.clock_topic, names.clock_topic, 'rosgraph_msgs/msg/Clock',
                    'gz.msgs.Clock', GZ_TO_ROS)] if clock else []
    found += [
        _entry(names.ros_joint_state_topic, names.gz_joint_state_topic,
               'sensor_msgs/msg/JointState', 'gz.msgs.Model', GZ_TO_ROS),
        _entry(names.ros_odometry_topic, names.gz_odometry_topic, 'nav_msgs/msg/Odometry',
               'gz.msgs.Odometry', GZ_TO_ROS),
        # odom -> base_link, so the odometry's frame is in TF and the vehicle moves in RViz
        _entry(names.ros_tf_topic, names.gz_tf_topic, 'tf2_msgs/msg/TFMessage', 'gz.msgs.Pose_V',
               GZ_TO_ROS),
    ]
    found += [_entry(t.ros_topic, t.gz_topic, 'std_msgs/msg/Float64', 'gz.msgs.Double',
                     ROS_TO_GZ) for t in names.thrusters if commands]
    found += [_entry(c.topic, c.topic, 'std_msgs/msg/Float64', 'gz.msgs.Double', ROS_TO_GZ)
              for c in names.joint_controls]
    found += sensor_entries(names)
    return found


def sensor_entries(names: VehicleTopics) -> list[dict]:
    """Return one entry per bridged stream of every sensor (sensor_kinds.KINDS), record order."""
    return [_entry(sensor.ros[stream.what], sensor.gz[stream.what], stream.ros_type,
                   stream.gz_type, stream.direction, lazy=stream.lazy)
            for sensor in names.sensors for stream in KINDS[sensor.kind].streams
            if stream.gz_type is not None]


def bridge_yaml(names: VehicleTopics, commands: bool = True, clock: bool = True) -> str:
    """Return bridge.yaml for ``parameter_bridge``'s ``config_file`` parameter."""
    header = (f'# ros_gz_bridge configuration for vehicle {names.name}, generated by '
              'bluerobotics_parts from its assembly manifest.\n')
    if not commands:
        header += ('# No thrust commands: an autopilot publishes them (ArduPilotPlugin), and '
                   "ROS's would fight its.\n")
    if not clock:
        header += ('# No /clock: the world has one clock bridge (clock_bridge_arguments), '
                   'whatever the number of vehicles.\n')
    return header + yaml.safe_dump(entries(names, commands, clock), sort_keys=False,
                                   default_flow_style=False)


def clock_bridge_arguments() -> tuple:
    """
    Return parameter_bridge's arguments for the world's one /clock bridge, Gazebo to ROS.

    As ros_gz documents it (gazebosim/ros_gz branch jazzy, ros_gz_bridge/README.md: "You
    should create an unidirectional /clock bridge"): ``/clock@rosgraph_msgs/msg/Clock[
    gz.msgs.Clock``, ``[`` for Gazebo to ROS. Two bridges of one clock interleave their
    messages, and ROS time runs backwards between them.
    """
    return (f'{CLOCK_TOPIC}@rosgraph_msgs/msg/Clock[gz.msgs.Clock',)


def bridge_yaml_for_urdf(urdf_text: str, name: str | None = None, folder=None) -> str:
    """
    Return bridge.yaml for a URDF resolved by bluerobotics_parts (plain or composed for Gazebo).

    The vehicle name defaults to the URDF's robot name. A URDF already composed for Gazebo
    has that name written into its plugins, so another name is refused rather than giving a
    bridge whose topics nothing publishes. ``folder``: the URDF file's folder, which the
    record's relative part file paths (an export's) are taken from.
    """
    root = parse_urdf(urdf_text)
    record = read(root, folder)
    composed = root.find('gazebo') is not None  # build writes the robot name into them
    if name is not None and composed and name != record.robot_name:
        raise BlueRoboticsPartsError(
            f'this URDF was composed for Gazebo as vehicle {record.robot_name!r} (its <gazebo> '
            f'blocks name the topics), so a bridge for {name!r} would match nothing; rebuild '
            f'it with --name {name}, or leave --name out')
    catalogue = part_catalogue.catalogue([path for _, path in record.part_files])
    driven = any(plugin.get('name') == ARDUPILOT_PLUGIN.name for plugin in root.iter('plugin'))
    return bridge_yaml(vehicle_topics(record, catalogue, name), commands=not driven)
