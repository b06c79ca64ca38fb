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

"""bridge.yaml: the ros_gz_bridge entries generated from the assembly record."""

from __future__ import annotations

from bluerobotics_parts.assembly.pipeline import resolve_config
from bluerobotics_parts.build import build_gazebo
from bluerobotics_parts.errors import BlueRoboticsPartsError, ConfigError
from bluerobotics_parts.gazebo import bridge
from bluerobotics_parts.model.topics import vehicle_topics
from conftest import CONFIG_DIR, write_config
import pytest
import yaml

KEYS = ['ros_topic_name', 'gz_topic_name', 'ros_type_name', 'gz_type_name', 'direction']

DEFAULT = [
    ['/clock', '/clock', 'rosgraph_msgs/msg/Clock', 'gz.msgs.Clock', 'GZ_TO_ROS'],
    ['/blueboat/joint_states', '/model/blueboat/joint_state', 'sensor_msgs/msg/JointState',
     'gz.msgs.Model', 'GZ_TO_ROS'],
    ['/blueboat/odometry', '/model/blueboat/odometry', 'nav_msgs/msg/Odometry',
     'gz.msgs.Odometry', 'GZ_TO_ROS'],
    ['/tf', '/model/blueboat/tf', 'tf2_msgs/msg/TFMessage', 'gz.msgs.Pose_V', 'GZ_TO_ROS'],
    ['/blueboat/motor_port/thrust', '/blueboat/motor_port/thrust', 'std_msgs/msg/Float64',
     'gz.msgs.Double', 'ROS_TO_GZ'],
    ['/blueboat/motor_stbd/thrust', '/blueboat/motor_stbd/thrust', 'std_msgs/msg/Float64',
     'gz.msgs.Double', 'ROS_TO_GZ'],
    # the echosounder's whole cone: gz-sensors' point cloud of the gpu_lidar (echosounder.py)
    ['/blueboat/ping/scan', '/blueboat/ping/scan/points', 'sensor_msgs/msg/PointCloud2',
     'gz.msgs.PointCloudPacked', 'GZ_TO_ROS'],
    # the Navigator's IMU and magnetometer and the GNSS receiver, fitted by default
    ['/blueboat/navigator/imu', '/blueboat/navigator/imu', 'sensor_msgs/msg/Imu', 'gz.msgs.IMU',
     'GZ_TO_ROS'],
    ['/blueboat/navigator/magnetic_field', '/blueboat/navigator/magnetic_field',
     'sensor_msgs/msg/MagneticField', 'gz.msgs.Magnetometer', 'GZ_TO_ROS'],
    ['/blueboat/gnss/fix', '/blueboat/gnss/fix', 'sensor_msgs/msg/NavSatFix', 'gz.msgs.NavSat',
     'GZ_TO_ROS'],
]


@pytest.fixture(scope='module')
def default():
    return resolve_config(CONFIG_DIR / 'blueboat.yaml')


def rows(entries):
    return [[entry[key] for key in KEYS] for entry in entries]


def test_default_entries(default):
    entries = bridge.entries(vehicle_topics(default.record, default.catalogue()))
    assert rows(entries) == DEFAULT
    assert [entry.get('lazy', False) for entry in entries] == [False] * 6 + [True] * 4
    assert all(set(entry) <= set(KEYS) | {'lazy'} for entry in entries)


def test_the_yaml_is_the_list_parameter_bridge_reads(default):
    text = bridge.bridge_yaml(vehicle_topics(default.record, default.catalogue()))
    assert text.startswith('# ')
    loaded = yaml.safe_load(text)
    assert isinstance(loaded, list)
    assert loaded == bridge.entries(vehicle_topics(default.record, default.catalogue()))
    assert loaded[-1]['lazy'] is True
    assert 'topic_name:' not in text.replace('ros_topic_name', '').replace('gz_topic_name', '')


def test_no_ping_removes_the_scan_entry():
    resolved = resolve_config(CONFIG_DIR / 'examples' / 'no_ping.yaml')
    entries = bridge.entries(vehicle_topics(resolved.record, resolved.catalogue()))
    assert rows(entries) == DEFAULT[:6] + DEFAULT[7:]
    assert not any(e['ros_type_name'] == 'sensor_msgs/msg/PointCloud2' for e in entries)


def test_t200_keeps_the_thruster_commands():
    resolved = resolve_config(CONFIG_DIR / 'examples' / 't200.yaml')
    assert rows(bridge.entries(vehicle_topics(resolved.record, resolved.catalogue()))) == DEFAULT


def test_renamed_vehicle(default, tmp_path):
    renamed = _resolved(write_config(tmp_path, 'name: boat2\n'))
    for entries in (bridge.entries(vehicle_topics(default.record, default.catalogue(), 'boat2')),
                    bridge.entries(vehicle_topics(*renamed))):
        for entry, expected in zip(rows(entries)[1:], DEFAULT[1:]):
            assert entry[:2] == [topic.replace('blueboat', 'boat2') for topic in expected[:2]]
            assert entry[2:] == expected[2:]


def _resolved(config):
    resolved = resolve_config(config)
    return resolved.record, resolved.catalogue()


def test_a_bad_name_is_refused(default):
    with pytest.raises(ConfigError, match="'boat-2' cannot be a ROS namespace"):
        bridge.bridge_yaml(vehicle_topics(default.record, default.catalogue(), 'boat-2'))


# -- from a URDF (bluerobotics-parts bridge URDF) ------------------------------------------------

def test_from_a_plain_or_a_composed_urdf(default):
    expected = bridge.bridge_yaml(vehicle_topics(default.record, default.catalogue()))
    assert bridge.bridge_yaml_for_urdf(default.urdf) == expected
    built = build_gazebo(CONFIG_DIR / 'blueboat.yaml')
    assert bridge.bridge_yaml_for_urdf(built.urdf) == expected == built.bridge_yaml


def test_the_name_defaults_to_the_robot_name_and_can_be_given_for_a_plain_urdf(default):
    text = bridge.bridge_yaml_for_urdf(default.urdf, name='boat3')
    assert '/boat3/motor_port/thrust' in text
    assert 'blueboat' not in text


def test_a_composed_urdf_keeps_its_name():
    built = build_gazebo(CONFIG_DIR / 'blueboat.yaml', name='boat4')
    assert bridge.bridge_yaml_for_urdf(built.urdf) == built.bridge_yaml
    assert bridge.bridge_yaml_for_urdf(built.urdf, name='boat4') == built.bridge_yaml
    with pytest.raises(BlueRoboticsPartsError) as caught:
        bridge.bridge_yaml_for_urdf(built.urdf, name='other')
    assert "composed for Gazebo as vehicle 'boat4'" in str(caught.value)
    assert '--name other' in str(caught.value)


@pytest.mark.parametrize('text, message', [
    ('<robot name="r"><link name="a"/></robot>', 'no <assembly_part> records'),
    ("<sdf version='1.9'/>", 'not a URDF'),
    ('<robot', 'not well-formed XML'),
])
def test_a_urdf_without_a_manifest_is_refused(text, message):
    with pytest.raises(BlueRoboticsPartsError, match=message):
        bridge.bridge_yaml_for_urdf(text)
