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
Poses in ``parts`` and ``tree``: where each slot and frame is, as a user placing things needs.

The root-frame poses are checked against the URDF's joints composed here with numpy (URDF's
rpy rule written out again), not against the package's own kinematics.
"""

from __future__ import annotations

import json

from bluerobotics_parts.files.yaml_lines import load_file
from conftest import cli, CONFIG_DIR, parse, REPO, SHIPPED_CONFIGS
import numpy
import pytest


def rpy_matrix(roll, pitch, yaw):
    cr, sr, cp, sp, cy, sy = (numpy.cos(roll), numpy.sin(roll), numpy.cos(pitch),
                              numpy.sin(pitch), numpy.cos(yaw), numpy.sin(yaw))
    rx = numpy.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
    ry = numpy.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
    rz = numpy.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    return rz @ ry @ rx


def root_transforms(urdf: str) -> dict:
    """Return link -> 4x4 transform in the root link, from the URDF's joint origins."""
    robot = parse(urdf)
    joints = {}
    for joint in robot.findall('joint'):
        origin = joint.find('origin')
        matrix = numpy.eye(4)
        matrix[:3, :3] = rpy_matrix(*map(float, origin.get('rpy', '0 0 0').split()))
        matrix[:3, 3] = list(map(float, origin.get('xyz', '0 0 0').split()))
        joints[joint.find('child').get('link')] = (joint.find('parent').get('link'), matrix)
    found = {}

    def transform(link):
        if link not in found:
            parent = joints.get(link)
            found[link] = numpy.eye(4) if parent is None else transform(parent[0]) @ parent[1]
        return found[link]

    for link in robot.findall('link'):
        transform(link.get('name'))
    return found


def test_parts_lists_each_slot_pose_and_frame():
    out = cli('parts').stdout.splitlines()
    chassis = load_file(REPO / 'urdf' / 'parts' / 'blueboat_chassis.yaml').data
    motor = chassis['slots']['motor_port']
    line = out.index(next(t for t in out if t.startswith('    slot motor_port: accepts')))
    xyz = ' '.join(f'{v:g}' for v in motor['xyz'])
    assert out[line + 1] == f'        at xyz {xyz}, rpy 0 0 0'
    ping = load_file(REPO / 'urdf' / 'parts' / 'ping_singlebeam.yaml').data
    beam = ' '.join(f'{v:g}' for v in ping['frames']['beam']['xyz'])
    assert f'    frame beam: xyz {beam}, rpy 0 0 0' in out
    assert '    slot ping: accepts ping_singlebeam; default ping_singlebeam' in out


def test_tree_with_poses_shows_filled_and_empty_slots_and_frames():
    result = cli('tree', '--poses', CONFIG_DIR / 'blueboat.yaml')
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    mast = lines.index('    [mast] (empty)')
    assert lines[mast + 1] == '          in base_link: xyz -0.298 0 0.147, rpy 0 0 0'
    beam = lines.index('            <frame beam>')
    assert lines[beam + 1].startswith('                  in base_link: xyz 0 -0.27 -0.155, '
                                      'rpy 0 1.5708 0; in ping: xyz ')
    # without --poses the tree is as before
    assert '      in base_link' not in cli('tree', CONFIG_DIR / 'blueboat.yaml').stdout


@pytest.mark.parametrize('config', SHIPPED_CONFIGS, ids=lambda p: p.name)
def test_tree_json_poses_are_the_urdf_joints_composed(config):
    result = cli('tree', '--format', 'json', config)
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    expected = root_transforms(cli('urdf', config).stdout)
    items = document['instances'] + document['slots'] + document['frames']
    assert {item['link'] for item in items} <= set(expected)
    for item in items:
        matrix = expected[item['link']]
        pose = item['pose_in_root']
        assert pose['xyz'] == pytest.approx(matrix[:3, 3], abs=1e-4), item['link']
        assert rpy_matrix(*pose['rpy']) == pytest.approx(matrix[:3, :3], abs=1e-3)
        if item['parent_link'] is not None:
            relative = numpy.linalg.inv(expected[item['parent_link']]) @ matrix
            assert item['pose_in_parent']['xyz'] == pytest.approx(relative[:3, 3], abs=1e-4)
    names = [i['name'] for i in document['instances']]
    assert names[0] == document['root_link'] and len(names) == len(set(names))
    assert all(s['occupant'] is None or s['occupant'] in names for s in document['slots'])


def test_tree_json_marks_placements_and_empty_slots():
    document = json.loads(cli('tree', '--format', 'json',
                              CONFIG_DIR / 'examples' / 'free_placement.yaml').stdout)
    placed = {i['name']: i for i in document['instances']}['aft_mast']
    assert placed['placed'] and placed['parent_link'] == 'base_link'
    assert placed['pose_in_parent']['xyz'] == [-0.45, 0.0, 0.18]
    slots = {(s['of'], s['name']): s for s in document['slots']}
    assert slots[('base_link', 'mast')]['occupant'] is None


@pytest.mark.parametrize('config', SHIPPED_CONFIGS, ids=lambda p: p.name)
def test_tree_json_gives_each_moving_joint_as_the_urdf_does(config):
    """Type, axis and limits of every joint that moves; nothing for a fixed one."""
    from xml.etree import ElementTree

    document = json.loads(cli('tree', '--format', 'json', config).stdout)
    robot = ElementTree.fromstring(cli('urdf', config).stdout)
    moving = {j.find('child').get('link'): j for j in robot.findall('joint')
              if j.get('type') != 'fixed'}
    items = document['instances'] + document['slots'] + document['frames']
    assert {i['link'] for i in items if 'joint' in i} == set(moving)
    for item in items:
        if 'joint' not in item:
            continue
        joint, urdf = item['joint'], moving[item['link']]
        assert (joint['name'], joint['type']) == (urdf.get('name'), urdf.get('type'))
        assert joint['axis'] == [float(v) for v in urdf.find('axis').get('xyz').split()]
        limit = urdf.find('limit')
        if joint['type'] in ('revolute', 'prismatic'):
            assert joint['limits'] == {k: float(limit.get(k)) for k in
                                       ('lower', 'upper', 'effort', 'velocity')}
        else:
            assert 'limits' not in joint
