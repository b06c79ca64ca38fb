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
Every topic and frame name of a vehicle, computed here and nowhere else.

The Gazebo composition writes these names into the plugins and sensors, the bridge generator
writes the same names into bridge.yaml, and the launch logic and the scan-to-range node read
them too, so the two sides of the bridge cannot drift apart. Every name is explicit and
namespaced by the vehicle name, so it depends neither on the world's name nor on how Gazebo
lumps links, and several vehicles can share one world:

    thrust command   /<name>/<instance>/thrust          ROS and gz (std_msgs/Float64, N)
    echosounder      /<name>/<instance>/scan/points (gz) -> /<name>/<instance>/scan (ROS)
                     (PointCloud2: the whole cone; gz's LaserScan on /<name>/<instance>/scan
                     is not bridged: ros_gz would keep one row of it, echosounder.py)
                     /<name>/<instance>/range           ROS only (Range, from the converter)
    joint states     /model/<name>/joint_state (gz)  -> /<name>/joint_states (ROS)
    odometry         /model/<name>/odometry (gz)     -> /<name>/odometry (ROS)
    odom -> base TF  /model/<name>/tf (gz)           -> /tf (ROS)
    clock            /clock
    TF frames        <name>/<link> (robot_state_publisher's frame_prefix "<name>/"), and
                     <name>/odom for the odometry's fixed frame

Which parts are thrusters and echosounders comes from the part data (a ``propeller`` or
``echosounder`` section), never from type names, so a user's part works the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from .catalogue import Catalogue
from .config import check_vehicle_name
from .errors import BlueRoboticsPartsError
from .record import AssemblyRecord

CLOCK_TOPIC = '/clock'


@dataclass(frozen=True)
class ThrusterTopics:
    instance: str
    type: str  # noqa: A003 (the part type)
    joint: str  # the continuous joint the Thruster system drives
    namespace: str  # the Thruster system's <namespace>: the vehicle name
    topic: str  # the Thruster system's <topic>, relative: "<instance>/thrust"
    gz_topic: str  # what gz makes of them: "/<namespace>/<topic>"
    ros_topic: str


@dataclass(frozen=True)
class EchosounderTopics:
    instance: str
    type: str  # noqa: A003 (the part type)
    link: str  # the frame link the beam starts from (+x along it), e.g. ping_beam
    frame_id: str  # its TF frame, "<name>/<link>"
    gz_scan_topic: str  # the gpu_lidar's <topic> (its LaserScan, not bridged)
    gz_points_topic: str  # where gz-sensors publishes its point cloud: <topic>/points
    ros_scan_topic: str  # the bridged cloud, sensor_msgs/msg/PointCloud2
    ros_range_topic: str  # published by the scan -> range converter node, not bridged


@dataclass(frozen=True)
class VehicleTopics:
    name: str
    root_link: str
    thrusters: tuple  # of ThrusterTopics, record order
    echosounders: tuple  # of EchosounderTopics, record order
    gz_joint_state_topic: str
    ros_joint_state_topic: str
    gz_odometry_topic: str
    ros_odometry_topic: str
    gz_tf_topic: str  # the OdometryPublisher's odom -> base transform
    ros_tf_topic: str
    odom_frame: str
    base_frame: str
    clock_topic: str = CLOCK_TOPIC

    def frame(self, link: str) -> str:
        """Return the TF frame id of a URDF link of this vehicle."""
        return frame_id(self.name, link)


def frame_id(name: str, link: str) -> str:
    return f'{name}/{link}'


def vehicle_topics(record: AssemblyRecord, catalogue: Catalogue,
                   name: str | None = None) -> VehicleTopics:
    """
    Return the names for the vehicle recorded in ``record``.

    ``name`` defaults to the URDF's robot name. Raises ConfigError for a name that cannot be a
    ROS namespace.
    """
    name = check_vehicle_name(record.robot_name if name is None else name)
    thrusters, echosounders = [], []
    for part in record.parts:
        data = _part_type(catalogue, part)
        if data.propeller is not None:
            if part.is_base:
                raise BlueRoboticsPartsError(
                    f'the base part {part.name} ({part.type}) is a propeller: a thruster needs a '
                    'joint to spin, so fit it in a continuous slot')
            topic = f'{part.name}/thrust'
            gz_topic = f'/{name}/{topic}'
            thrusters.append(ThrusterTopics(part.name, part.type, f'{part.name}_joint', name,
                                            topic, gz_topic, gz_topic))
        echo = data.echosounder
        if echo is not None:
            link = next((f.link for f in record.frames_of(part.name) if f.name == echo.frame),
                        None)
            if link is None:
                recorded = ', '.join(f.name for f in record.frames_of(part.name)) or 'none'
                raise BlueRoboticsPartsError(
                    f'echosounder {part.name} ({part.type}) has its beam on frame '
                    f'{echo.frame!r}, but the URDF records no such frame of {part.name}; '
                    f'recorded: {recorded}')
            scan = f'/{name}/{part.name}/scan'
            echosounders.append(EchosounderTopics(part.name, part.type, link,
                                                  frame_id(name, link), scan, f'{scan}/points',
                                                  scan, f'/{name}/{part.name}/range'))
    root = record.base.name
    return VehicleTopics(
        name=name, root_link=root, thrusters=tuple(thrusters), echosounders=tuple(echosounders),
        gz_joint_state_topic=f'/model/{name}/joint_state',
        ros_joint_state_topic=f'/{name}/joint_states',
        gz_odometry_topic=f'/model/{name}/odometry',
        ros_odometry_topic=f'/{name}/odometry',
        gz_tf_topic=f'/model/{name}/tf', ros_tf_topic='/tf',
        odom_frame=frame_id(name, 'odom'), base_frame=frame_id(name, root))


def _part_type(catalogue: Catalogue, part):
    if part.type not in catalogue:
        raise BlueRoboticsPartsError(
            f'part {part.name} has type {part.type}, which neither the shipped library nor the '
            f"URDF's recorded part files define; known types: {', '.join(catalogue.types())}")
    return catalogue[part.type]
