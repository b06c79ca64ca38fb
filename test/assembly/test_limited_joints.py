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
Revolute and prismatic joints in the part format: a slot or a frame moves.

The loader's checks with their lines, the URDF's <axis> and <limit> (check_urdf reads it), both
resolvers alike, the vehicle model's limits, poses at a joint position, ``tree --poses``.
"""

from __future__ import annotations

import math
import sys

from bluerobotics_parts.assembly.pipeline import resolve_config
from bluerobotics_parts.model import kinematics
from bluerobotics_parts.model.vehicle import Limits, Vehicle
from conftest import cli, REPO, run, tool, write_config
import pytest

PART = """\
type: arm_mount
inertial: {{mass: 0.2, mass_unverified: test}}
visual:
  - box: [0.05, 0.05, 0.05]
frames:
  swing:
{frame}
slots:
  socket:
{slot}
"""
FRAME = """\
    joint: revolute
    xyz: [0.1, 0, 0]
    axis: [0, 1, 0]
    limits: {lower: -0.5, upper: 0.75, effort: 2, velocity: 1.5}
    inertial: {mass: 0.01, mass_unverified: test}"""
SLOT = """\
    xyz: [0, 0, 0.1]
    joint: prismatic
    axis: [0, 0, 1]
    limits: {lower: 0, upper: 0.05, effort: 10, velocity: 0.1}
    accepts: [lumen_light]
    default: lumen_light"""


def write_part(folder, frame=FRAME, slot=SLOT):
    (folder / 'arm_mount.yaml').write_text(PART.format(frame=frame, slot=slot), encoding='utf-8')
    return write_config(folder, 'part_files: [arm_mount.yaml]\n'
                                'parts:\n  - {type: arm_mount, name: arm, xyz: [0, 0, 0.3]}\n')


def test_a_revolute_frame_and_a_prismatic_slot_reach_the_urdf(tmp_path):
    resolved = resolve_config(write_part(tmp_path))
    vehicle = Vehicle.from_urdf(resolved.urdf)
    swing, light = vehicle.joints['arm_swing_joint'], vehicle.joints['socket_joint']
    assert (swing.type, swing.axis, swing.limits) == ('revolute', (0.0, 1.0, 0.0),
                                                      Limits(-0.5, 0.75, 2.0, 1.5))
    assert (light.type, light.axis, light.limits) == ('prismatic', (0.0, 0.0, 1.0),
                                                      Limits(0.0, 0.05, 10.0, 0.1))
    path = tmp_path / 'robot.urdf'
    path.write_text(resolved.urdf, encoding='utf-8')
    checked = run([tool('check_urdf'), path])  # urdfdom: a revolute joint without <limit> fails
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_both_resolvers_write_the_same_moving_joints(tmp_path):
    sys.path.insert(0, str(REPO / 'test' / 'system'))
    from test_differential import compare

    outcome = compare(write_part(tmp_path))
    assert outcome['kind'] == 'accepted' and outcome['failure'] is None, outcome


@pytest.mark.parametrize('frame, slot, line, message', [
    (FRAME.replace('    limits: {lower: -0.5, upper: 0.75, effort: 2, velocity: 1.5}\n', ''),
     SLOT, 7, 'frame swing: a revolute joint needs limits: {lower, upper, effort, velocity}'),
    (FRAME.replace('lower: -0.5', 'lower: 1'), SLOT, 10,
     'frame swing limits: lower must be below upper (got 1 and 0.75)'),
    (FRAME.replace('velocity: 1.5', 'velocity: 0'), SLOT, 10,
     'frame swing limits velocity must be positive, got 0'),
    (FRAME.replace('axis: [0, 1, 0]', 'axis: [0, 0, 0]'), SLOT, 9,
     'frame swing: axis must not be zero'),
    (FRAME, SLOT.replace('joint: prismatic', 'joint: fixed'), 17,
     "slot socket: limits apply to a revolute or prismatic joint, not 'fixed'"),
    (FRAME, SLOT.replace(', velocity: 0.1', ''), 17, 'slot socket limits need velocity'),
    (FRAME, SLOT.replace('joint: prismatic', 'joint: slider'), 15,
     'slot socket: joint must be one of fixed, continuous, revolute, prismatic'),
])
def test_the_loader_names_each_mistake_at_its_line(tmp_path, frame, slot, line, message):
    config = write_part(tmp_path, frame, slot)
    result = cli('build', config, '-o', tmp_path / 'out')
    assert result.returncode != 0 and not (tmp_path / 'out').exists()
    assert f'arm_mount.yaml:{line}: {message}' in result.stderr, result.stderr


def test_poses_follow_a_joint_position(tmp_path):
    vehicle = Vehicle.from_urdf(resolve_config(write_part(tmp_path)).urdf)
    rest = kinematics.link_poses(vehicle)
    moved = kinematics.link_poses(vehicle, {'arm_swing_joint': math.pi / 2,
                                            'socket_joint': 0.05})
    # a quarter turn about +y takes the swing frame's +x to -z (right hand)
    assert moved['arm_swing'].rotation[2][0] == pytest.approx(-1.0)
    assert moved['arm_swing'].translation == pytest.approx(rest['arm_swing'].translation)
    # the prismatic slot lifts the light 5 cm along its +z, and what hangs on it
    lift = [m - r for m, r in zip(moved['socket'].translation, rest['socket'].translation)]
    assert lift == pytest.approx([0.0, 0.0, 0.05])
    assert moved['socket_lens'].translation[2] == pytest.approx(
        rest['socket_lens'].translation[2] + 0.05)


def test_tree_poses_show_how_a_joint_moves(tmp_path):
    result = cli('tree', '--poses', write_part(tmp_path))
    assert result.returncode == 0, result.stderr
    assert ('prismatic along (0 0 1) from 0 to 0.05 m, effort 10, velocity 0.1 m/s (poses at 0)'
            in result.stdout)


def test_the_bluerov2_camera_tilts_on_a_revolute_joint():
    """Blue Robotics: camera tilt +/-90 deg (BlueROV2 specifications)."""
    for config in ('bluerov2.yaml', 'bluerov2_heavy.yaml'):
        vehicle = Vehicle.from_urdf(resolve_config(REPO / 'config' / config).urdf)
        tilt = vehicle.joints['hd_camera_joint']
        assert (tilt.type, tilt.parent, tilt.axis) == ('revolute', 'camera_hd_camera',
                                                       (0.0, 1.0, 0.0))
        assert (tilt.limits.lower, tilt.limits.upper) == pytest.approx((-math.pi / 2,
                                                                        math.pi / 2))
        # looking down 30 deg: the optical frame's z (the view) points down 30 deg
        poses = kinematics.link_poses(vehicle, {'hd_camera_joint': math.radians(30)})
        view = kinematics.rotate(poses['hd_camera_optical'].rotation, (0.0, 0.0, 1.0))
        assert view == pytest.approx((math.cos(math.radians(30)), 0.0,
                                      -math.sin(math.radians(30))), abs=1e-9)


def test_render_draws_a_joint_where_it_is_told(tmp_path):
    from bluerobotics_parts.assembly.pipeline import resolve_config as resolve
    from bluerobotics_parts.picture.scene import build_scene

    resolved = resolve(REPO / 'config' / 'bluerov2.yaml')
    level = {m.link: m for m in build_scene(resolved, frames='all').markers}
    tilted = {m.link: m for m in build_scene(resolved, positions={'hd_camera_joint': 0.5},
                                             frames='all').markers}
    view = kinematics.rotate(tilted['hd_camera_optical'].pose.rotation, (0.0, 0.0, 1.0))
    assert view == pytest.approx((math.cos(0.5), 0.0, -math.sin(0.5)), abs=1e-9)
    mount = 'base_link_thruster_1'
    assert tilted[mount].pose == level[mount].pose  # the rest stays
    drawn = cli('render', REPO / 'config' / 'bluerov2.yaml', '-o', tmp_path / 'tilt.png',
                '--joint', 'hd_camera_joint=0.5')
    assert drawn.returncode == 0 and (tmp_path / 'tilt.png').is_file(), drawn.stderr
    for bad, words in (('hd_camera_joint=2', 'outside its limits, -1.5708 to 1.5708'),
                       ('camera_joint=0.1', 'not a moving joint of bluerov2; moving: '
                                            'hd_camera_joint, thruster_1_rotor_joint'),
                       ('hd_camera_joint', 'give NAME=VALUE')):
        refused = cli('render', REPO / 'config' / 'bluerov2.yaml', '-o', tmp_path / 'x.png',
                      '--joint', bad)
        assert refused.returncode != 0 and words in refused.stderr, refused.stderr
        assert not (tmp_path / 'x.png').exists()


ADHOC = """\
slots:
  - name: pan
    xyz: [0.1, 0, 0.3]
    accepts: [ping_singlebeam]
    default: ping_singlebeam
    joint: revolute
    axis: "0 0 1"
    limits: {lower: -1.0, upper: 1.0, effort: 2, velocity: 0.5}
"""


def test_a_configs_own_slot_may_move_within_limits(tmp_path):
    """An ad hoc slot takes a limited joint as a part's slot does: no part file needed."""
    sys.path.insert(0, str(REPO / 'test' / 'system'))
    from test_differential import compare

    config = write_config(tmp_path, ADHOC)
    pan = Vehicle.from_urdf(resolve_config(config).urdf).joints['pan_joint']
    assert (pan.type, pan.axis, pan.limits) == ('revolute', (0.0, 0.0, 1.0),
                                                Limits(-1.0, 1.0, 2.0, 0.5))
    outcome = compare(config)  # the xacro resolver writes the same joint
    assert outcome['kind'] == 'accepted' and outcome['failure'] is None, outcome


@pytest.mark.parametrize('change, line, message', [
    (('    limits: {lower: -1.0, upper: 1.0, effort: 2, velocity: 0.5}\n', ''), 6,
     'slots entry #1 (pan): a revolute joint needs limits: {lower, upper, effort, velocity}'),
    (('lower: -1.0', 'lower: 2'), 8,
     'slots entry #1 (pan) limits: lower must be below upper (got 2 and 1)'),
    (('effort: 2', 'effort: -2'), 8,
     'slots entry #1 (pan) limits effort must be positive, got -2'),
    (('joint: revolute', 'joint: fixed'), 8,
     "slots entry #1 (pan): limits apply to a revolute or prismatic joint, not 'fixed'"),
    (('axis: "0 0 1"', 'axis: [0, 0, 0]'), 7,
     'slots entry #1 (pan): axis must not be zero'),
    (('velocity: 0.5', 'velocity: 0.5, speed: 1'), 8,
     "slots entry #1 (pan) limits has no key 'speed'; valid keys: lower, upper, effort, "
     'velocity'),
])
def test_a_configs_moving_slot_mistakes_name_their_line(tmp_path, change, line, message):
    config = write_config(tmp_path, ADHOC.replace(*change))
    result = cli('build', config, '-o', tmp_path / 'out')
    assert result.returncode != 0 and not (tmp_path / 'out').exists()
    assert f'{config.name}:{line}: {message}' in result.stderr, result.stderr
