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
A part's joint controls (issue 23, item 2): the BlueROV2's camera tilt.

The block against gz-sim 8.14's JointPositionController (elements.py cites what its Configure
reads), the bridge pair against ros_gz's Float64 <-> Double, and, where Gazebo Harmonic is
installed, the camera turning to a commanded angle at its velocity limit and stopping at its
position limit.
"""

from __future__ import annotations

import math

from bluerobotics_parts.build import build_gazebo
from bluerobotics_parts.gazebo import bridge, elements
from conftest import CONFIG_DIR
import gz_support
import pytest


@pytest.fixture(scope='module')
def rov():
    return build_gazebo(CONFIG_DIR / 'bluerov2.yaml')


def controllers(urdf: str) -> list:
    from xml.etree import ElementTree

    return [p for p in ElementTree.fromstring(urdf).iter('plugin')
            if p.get('name') == elements.JOINT_POSITION_CONTROLLER.name]


def test_the_tilt_is_a_joint_position_controller(rov):
    (plugin,) = controllers(rov.urdf)
    assert plugin.get('filename') == 'gz-sim-joint-position-controller-system'
    values = {child.tag: child.text for child in plugin}
    assert values == {'joint_name': 'hd_camera_joint', 'topic': '/bluerov2/camera/tilt',
                      'use_velocity_commands': 'true', 'cmd_max': '1.0',
                      'initial_position': '0.0'}
    assert set(values) <= set(elements.JOINT_POSITION_CONTROLLER_ELEMENTS)


def test_the_tilt_is_bridged_from_ros(rov):
    names = rov.topics
    (control,) = names.joint_controls
    assert (control.instance, control.name, control.joint) == ('camera', 'tilt',
                                                               'hd_camera_joint')
    entry = [e for e in bridge.entries(names) if e['ros_topic_name'] == control.topic]
    assert entry == [{'ros_topic_name': '/bluerov2/camera/tilt',
                      'gz_topic_name': '/bluerov2/camera/tilt',
                      'ros_type_name': 'std_msgs/msg/Float64', 'gz_type_name': 'gz.msgs.Double',
                      'direction': 'ROS_TO_GZ'}]


def test_an_empty_camera_slot_has_no_tilt(tmp_path):
    from conftest import write_config

    config = write_config(tmp_path, 'base: {type: bluerov2_frame}\n'
                                    'parts:\n  - {slot: hd_camera, of: camera, type: none}\n')
    assert controllers(build_gazebo(config).urdf) == []


def test_the_camera_turns_to_the_commanded_angle_in_gazebo(rov, tmp_path):
    """0.6 rad at 1 rad/s: there in about 0.6 s; 3 rad is past the limit: it stops at pi/2."""
    gz_support.require()
    path = tmp_path / 'bluerov2.urdf'
    path.write_text(rov.urdf, encoding='utf-8')
    topic = '/bluerov2/camera/tilt'
    trace = gz_support.simulate(path, 6.0, events=[{'t': 0.5, 'thrust': {topic: 0.6}},
                                                   {'t': 2.5, 'thrust': {topic: 3.0}}],
                                spawn=(0, 0, -1.0, 0, 0, 0), joints=['hd_camera_joint'])
    angle = trace.positions['hd_camera_joint']
    assert abs(angle[trace.at(0.4)]) < 1e-3  # holds its initial position
    assert angle[trace.at(0.8)] < 0.5  # on its way, not there at once
    assert angle[trace.at(2.4)] == pytest.approx(0.6, abs=0.01)
    assert angle[-1] == pytest.approx(math.pi / 2, abs=0.02)
