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
A part's joint controls: the BlueROV2's camera tilt.

The block against gz-sim 8.14's JointPositionController (elements.py cites what its Configure
reads), the bridge pair against ros_gz's Float64 <-> Double, and, where Gazebo Harmonic is
installed, the camera turning to a commanded angle at its velocity limit and stopping at its
position limit.
"""

from __future__ import annotations

import math
import sys

from bluerobotics_parts.build import build_gazebo
from bluerobotics_parts.gazebo import bridge, elements, spawned_model
from conftest import CONFIG_DIR, run
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
    assert (control.instance, control.name, control.joints) == ('camera', 'tilt',
                                                                ('hd_camera_joint',))
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
    """
    0.6 rad at 1 rad/s: there in about 0.6 s; back to 0.3; 3 rad is past the range.

    Past the range it stops at Gazebo's eased limit, LIMIT_MARGIN of the range beyond
    (gazebo/spawned_model.py: dartsim does not lift a joint off a limit it rests on).
    """
    gz_support.require()
    path = tmp_path / 'bluerov2.urdf'
    path.write_text(rov.urdf, encoding='utf-8')
    topic = '/bluerov2/camera/tilt'
    trace = gz_support.simulate(path, 7.0, events=[{'t': 0.5, 'thrust': {topic: 0.6}},
                                                   {'t': 2.5, 'thrust': {topic: 0.3}},
                                                   {'t': 4.0, 'thrust': {topic: 3.0}}],
                                spawn=(0, 0, -1.0, 0, 0, 0), joints=['hd_camera_joint'])
    angle = trace.positions['hd_camera_joint']
    assert abs(angle[trace.at(0.4)]) < 1e-3  # holds its initial position
    assert angle[trace.at(0.8)] < 0.5  # on its way, not there at once
    assert angle[trace.at(2.4)] == pytest.approx(0.6, abs=0.01)
    assert angle[trace.at(3.9)] == pytest.approx(0.3, abs=0.01)
    assert angle[-1] == pytest.approx(math.pi / 2 * (1 + 2 * spawned_model.LIMIT_MARGIN),
                                      abs=0.02)


@pytest.fixture(scope='module')
def gripper():
    return build_gazebo(CONFIG_DIR / 'examples' / 'bluerov2_payload.yaml')


def test_the_gripper_moves_both_jaws_on_one_command(gripper):
    controls = {c.name: c for c in gripper.topics.joint_controls}
    command = controls['command']
    assert command.joints == ('gripper_jaw_upper_joint', 'gripper_jaw_lower_joint')
    assert command.topic == '/bluerov2/gripper/command'
    assert command.velocity == pytest.approx(0.39)  # 0.62 rad in the published 1.6 s
    upper, lower = (gripper.vehicle.joints[j] for j in command.joints)
    assert upper.axis == (0.0, -1.0, 0.0) and lower.axis == (0.0, 1.0, 0.0)  # mirrored
    assert (upper.limits.lower, upper.limits.upper) == (0.0, 0.62)
    blocks = [p for p in controllers(gripper.urdf)
              if p.findtext('topic') == '/bluerov2/gripper/command']
    # one controller a jaw: one of several joints would steer them all by the first's position
    assert [[j.text for j in b.findall('joint_name')] for b in blocks] == [
        [joint] for joint in command.joints]


def test_builds_summary_names_each_joint_control_and_its_topic(gripper):
    from bluerobotics_parts.build import summary_head

    text = summary_head(gripper, 'sha256:x')
    assert ('joint controls:\n  camera/tilt: joint hd_camera_joint, command /bluerov2/camera/tilt'
            ' (std_msgs/Float64, a position within the joint limits)\n  gripper/command: joint '
            'gripper_jaw_upper_joint, gripper_jaw_lower_joint, command /bluerov2/gripper/command '
            '(std_msgs/Float64, a position within the joint limits)\ntotal mass:') in text
    plain = summary_head(build_gazebo(CONFIG_DIR / 'blueboat.yaml'), 'sha256:x')
    assert 'joint controls' not in plain


def test_the_gripper_opens_and_closes_in_gazebo(gripper, tmp_path):
    """
    Open (0.62 rad at 0.39 rad/s: 1.6 s), a command past the range, then close; both alike.

    Past the range the jaws stop at Gazebo's eased limit and come back when told: no weight
    presses them on it (their centres at the pivots, the part file says why).
    """
    gz_support.require()
    path = tmp_path / 'gripper.urdf'
    path.write_text(gripper.urdf, encoding='utf-8')
    topic, jaws = '/bluerov2/gripper/command', ['gripper_jaw_upper_joint',
                                                'gripper_jaw_lower_joint']
    trace = gz_support.simulate(path, 8.0, events=[{'t': 0.5, 'thrust': {topic: 0.62}},
                                                   {'t': 3.0, 'thrust': {topic: 3.0}},
                                                   {'t': 4.5, 'thrust': {topic: 0.0}}],
                                spawn=(0, 0, -1.0, 0, 0, 0), joints=jaws)
    for jaw in jaws:
        angle = trace.positions[jaw]
        assert angle[trace.at(1.0)] < 0.4  # opening, not open at once
        assert angle[trace.at(2.9)] == pytest.approx(0.62, abs=0.01)
        assert angle[trace.at(4.4)] == pytest.approx(0.62 * (1 + spawned_model.LIMIT_MARGIN),
                                                     abs=0.01)
        assert angle[-1] == pytest.approx(0.0, abs=0.01)


def test_gazebo_gets_the_controlled_joints_limits_eased():
    """Only the controller's joints: no velocity limit, the range 5% wider each way."""
    sdf = ('<sdf version="1.11"><model name="m">'
           '<joint name="moved" type="revolute"><axis><xyz>0 1 0</xyz><limit><lower>0</lower>'
           '<upper>0.62</upper><effort>5.8</effort><velocity>0.39</velocity></limit></axis>'
           '</joint>'
           '<joint name="free" type="revolute"><axis><xyz>0 1 0</xyz><limit><lower>-1</lower>'
           '<upper>1</upper><effort>1</effort><velocity>1</velocity></limit></axis></joint>'
           f'<plugin filename="x" name="{elements.JOINT_POSITION_CONTROLLER.name}">'
           '<joint_name>moved</joint_name></plugin></model></sdf>')
    from xml.etree import ElementTree

    model = ElementTree.fromstring(spawned_model.ease_controlled(sdf)).find('model')
    moved, free = (model.find(f"joint[@name='{n}']/axis/limit") for n in ('moved', 'free'))
    assert moved.find('velocity') is None and moved.findtext('effort') == '5.8'
    assert float(moved.findtext('lower')) == pytest.approx(-0.031)
    assert float(moved.findtext('upper')) == pytest.approx(0.651)
    assert [free.findtext(k) for k in ('lower', 'upper', 'velocity')] == ['-1', '1', '1']


# -- a joint control never takes another stream's topic -----------------------------------------

POD = """\
type: pod
inertial: {mass: 1.0, mass_unverified: test}
frames:
  spinner:
    joint: continuous
    axis: [1, 0, 0]
    inertial: {mass: 0.01, mass_unverified: test}
  fin:
    joint: revolute
    axis: [0, 0, 1]
    limits: {lower: -0.5, upper: 0.5, effort: 1.0, velocity: 1.0}
    inertial: {mass: 0.01, mass_unverified: test}
  beam: {xyz: [0, 0, 0], xyz_unverified: test}
propeller: {rotation: cw, diameter: 0.1, max_thrust: 10, min_thrust: -5,
            thrust_coefficient: 0.01, rotor: spinner}
echosounder: {frame: beam, beam_width: 0.4, range_min: 0.5, range_max: 10, update_rate: 5}
joint_controls:
  {control}: {{frame: fin}}
"""


@pytest.mark.parametrize('control, shared, other, other_line', [
    ('thrust', '/boat/mp/thrust', 'the thrust command of mp', 14),
    ('throttle', '/boat/mp/throttle', 'the throttle of mp', 14),
    ('range', '/boat/mp/range', 'the echosounder stream range of mp', 16),
    ('scan', '/boat/mp/scan', 'the echosounder stream scan of mp', 16),
])
def test_a_joint_control_on_another_streams_topic_is_refused(tmp_path, control, shared, other,
                                                             other_line):
    """/boat/mp/thrust was read by the Thruster and a JointPositionController, bridged twice."""
    part = tmp_path / 'pod.yaml'
    part.write_text(POD.replace('{control}', control).replace('{{', '{').replace('}}', '}'),
                    encoding='utf-8')
    config = tmp_path / 'boat.yaml'
    config.write_text('name: boat\npart_files: [pod.yaml]\n'
                      'parts:\n  - {type: pod, name: mp, xyz: [0, 0, 0]}\n', encoding='utf-8')
    result = run([sys.executable, '-m', 'bluerobotics_parts.cli.main', 'build', config,
                  '--output', tmp_path / 'out'])
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stderr.splitlines()[0] == (
        f'error: {part}:18: joint control {control} of mp would share the topic {shared} with '
        f'{other} ({part}:{other_line}): one topic carries one stream; give the joint control '
        'another name')
    assert not (tmp_path / 'out').exists()
