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
The resolver (urdf/assembly.xacro): the default BlueBoat and one test per resolution rule.

Run through the checked pipeline (what every command uses) unless a test is about the xacro
command line itself (assembly/test_resolution_errors.py).
"""

from __future__ import annotations

import math

from conftest import REPO, run, tool, Urdf, write_config
import pytest


@pytest.fixture(scope='module')
def default(resolve_text) -> Urdf:
    return Urdf(resolve_text())


def resolve_yaml(tmp_path, text: str) -> Urdf:
    from bluerobotics_parts.assembly.pipeline import resolve_config

    return Urdf(resolve_config(write_config(tmp_path, text)).urdf)


# -- the default vehicle ---------------------------------------------------------------------

def test_default_root_is_the_chassis_link(default):
    roots = [name for name in default.links if name not in default.parent_of]
    assert roots == ['base_link']
    base = default.records('assembly_part')[0]
    assert base == {'type': 'blueboat_chassis', 'name': 'base_link', 'parent': ''}


@pytest.mark.parametrize('side, part', [('port', 'm200_weedless_prop_ccw'),
                                        ('stbd', 'm200_weedless_prop_cw')])
def test_default_motors_are_m200_whose_rotors_turn_about_their_axes(default, side, part):
    slot, occupant = f'base_link_motor_{side}', f'motor_{side}'
    assert default.parent_of[occupant] == slot
    assert default.parent_of[slot] == 'base_link'
    assert default.joint_to[occupant].get('type') == 'fixed'
    assert default.parent_of[f'{occupant}_rotor'] == occupant
    joint = default.joint_to[f'{occupant}_rotor']
    assert joint.get('type') == 'continuous'
    axis = [float(v) for v in joint.find('axis').get('xyz').split()]
    assert axis == [1.0, 0.0, 0.0]
    assert {'type': part, 'name': occupant, 'parent': slot, 'of': 'base_link',
            'slot': f'motor_{side}'} in default.records('assembly_part')


def test_default_flag_chain(default):
    assert default.parent_of['flag'] == 'base_link_flag'
    assert default.parent_of['base_link_flag'] == 'base_link'
    assert default.joint_to['base_link_flag'].get('type') == 'fixed'


def test_default_ping_kit_holds_the_ping_and_its_beam_frame(default):
    assert default.parent_of['ping_mount'] == 'base_link_ping_mount'
    assert default.parent_of['ping_mount_ping'] == 'ping_mount'
    assert default.parent_of['ping'] == 'ping_mount_ping'
    assert default.parent_of['ping_beam'] == 'ping'
    types = {r['name']: r['type'] for r in default.records('assembly_part')}
    assert types['ping_mount'] == 'blueboat_ping_singlebeam_mount'
    assert types['ping'] == 'ping_singlebeam'
    assert {'of': 'ping', 'name': 'beam', 'link': 'ping_beam'} in default.records('assembly_frame')


@pytest.mark.parametrize('slot', ['mast', 'payload'])
def test_default_mast_and_payload_slots_exist_empty(default, slot):
    link = f'base_link_{slot}'
    assert link in default.links
    assert default.children(link) == []
    assert {'of': 'base_link', 'name': slot, 'link': link} in default.records('assembly_slot')


def test_default_batteries_fill_their_bays(default):
    types = {r['name']: r['type'] for r in default.records('assembly_part')}
    assert types['battery_port'] == types['battery_stbd'] == 'blueboat_battery'


# -- rules -----------------------------------------------------------------------------------

def test_base_part_is_the_named_root(tmp_path):
    urdf = resolve_yaml(tmp_path, 'base: {type: blueboat_chassis, name: hull}\n')
    assert [n for n in urdf.links if n not in urdf.parent_of] == ['hull']
    assert urdf.parent_of['hull_flag'] == 'hull'
    assert 'base_link' not in urdf.links


def test_slots_fill_with_defaults_recursively(default):
    # ping_mount is a default of the chassis, ping a default of the mount: two levels.
    assert {'ping_mount', 'ping', 'ping_beam'} <= set(default.links)


def test_entry_names_slot_carrier_type_and_instance_name(tmp_path):
    urdf = resolve_yaml(tmp_path, """
parts:
  - {slot: ping, of: ping_mount, type: ping_singlebeam, name: echo}
  - {slot: motor_port, type: t200_thruster_ccw, name: port_thruster}
""")
    assert urdf.parent_of['echo'] == 'ping_mount_ping'
    assert 'echo_beam' in urdf.links and 'ping' not in urdf.links
    assert urdf.parent_of['port_thruster'] == 'base_link_motor_port'
    types = {r['name']: r['type'] for r in urdf.records('assembly_part')}
    assert types['port_thruster'] == 't200_thruster_ccw'


def test_type_none_keeps_the_slot_frame(tmp_path):
    urdf = resolve_yaml(tmp_path, 'parts:\n  - {slot: flag, type: none}\n')
    assert 'flag' not in urdf.links
    assert 'base_link_flag' in urdf.links and urdf.children('base_link_flag') == []
    assert {'of': 'base_link', 'name': 'flag', 'link': 'base_link_flag'} in \
        urdf.records('assembly_slot')
    assert 'flag' not in {r['name'] for r in urdf.records('assembly_part')}


def test_free_placement_and_its_slots_fill(tmp_path):
    urdf = resolve_yaml(tmp_path, """
parts:
  - {type: blueboat_ping_singlebeam_mount, name: bow_mount, xyz: [0.5, 0.3, -0.02], rpy: "0 0 0.1"}
  - {slot: ping, of: bow_mount, type: ping_singlebeam, name: bow_ping}
""")
    assert urdf.parent_of['bow_mount'] == 'base_link'
    assert urdf.joint_to['bow_mount'].get('type') == 'fixed'
    xyz, rpy = urdf.origin('bow_mount_joint')
    assert xyz == [0.5, 0.3, -0.02] and rpy == [0.0, 0.0, 0.1]
    assert urdf.parent_of['bow_ping'] == 'bow_mount_ping'
    assert {'type': 'blueboat_ping_singlebeam_mount', 'name': 'bow_mount',
            'parent': 'base_link'} in urdf.records('assembly_part')


def test_free_placement_on_another_parent(tmp_path):
    urdf = resolve_yaml(tmp_path, """
parts:
  - {slot: mast, type: blueboat_antenna_mast}
  - {type: blueboat_flag, name: pennant, parent: mast_top}
""")
    assert urdf.parent_of['pennant'] == 'mast_top'


def test_adhoc_slot_behaves_like_a_part_slot(tmp_path):
    urdf = resolve_yaml(tmp_path, """
slots:
  - name: bow_thruster
    xyz: [0.4, 0.0, -0.1]
    rpy: [0, 0, 1.5707963267948966]
    accepts: [blueboat_flag]
    default: blueboat_flag
    joint: continuous
    collision: false
  - {of: ping_mount, name: spare, xyz: [0, 0.05, 0], accepts: [blueboat_flag]}
""")
    assert urdf.parent_of['base_link_bow_thruster'] == 'base_link'
    xyz, rpy = urdf.origin('base_link_bow_thruster_joint')
    assert xyz == [0.4, 0.0, -0.1] and rpy[2] == pytest.approx(math.pi / 2)
    assert urdf.joint_to['bow_thruster'].get('type') == 'continuous'
    assert urdf.joint_to['bow_thruster'].find('axis') is not None
    assert urdf.links['bow_thruster'].find('collision') is None
    # default none: the slot frame only
    assert 'ping_mount_spare' in urdf.links and urdf.children('ping_mount_spare') == []


def test_adhoc_slot_entry_fills_it(tmp_path):
    urdf = resolve_yaml(tmp_path, """
slots:
  - {name: stern_flag, xyz: [-0.5, 0, 0.2], accepts: [blueboat_flag]}
parts:
  - {slot: stern_flag, type: blueboat_flag}
""")
    assert urdf.parent_of['stern_flag'] == 'base_link_stern_flag'


def test_slot_is_a_massless_link_on_a_fixed_joint_at_the_slot_pose(default):
    from bluerobotics_parts.assembly.catalogue import shipped

    spec = shipped()['blueboat_chassis'].slots['motor_port']
    slot_link = default.links['base_link_motor_port']
    assert slot_link.find('inertial') is None and len(slot_link) == 0
    joint = default.joint_to['base_link_motor_port']
    assert joint.get('type') == 'fixed'
    xyz, rpy = default.origin('base_link_motor_port_joint')
    assert tuple(xyz) == spec.xyz and tuple(rpy) == spec.rpy


def test_attach_offset_is_folded_into_the_occupant_joint(tmp_path):
    (tmp_path / 'clamp.yaml').write_text("""
type: clamp
attach: {xyz: [0.0, 0.0, 0.03], rpy: [0.0, 0.0, 3.14]}
inertial: {mass: 0.1, inertia: {ixx: 0.001, iyy: 0.001, izz: 0.001}}
visual: [{box: [0.02, 0.02, 0.06]}]
""")
    urdf = resolve_yaml(tmp_path, """
part_files: [clamp.yaml]
slots: [{name: clamp_slot, xyz: [0.1, 0, 0.2], accepts: [clamp], default: clamp}]
""")
    assert urdf.origin('clamp_slot_joint') == ([0.0, 0.0, 0.03], [0.0, 0.0, 3.14])
    assert urdf.origin('base_link_clamp_slot_joint')[0] == [0.1, 0.0, 0.2]


def test_collision_false_slots_drop_the_occupants_collision(tmp_path):
    # The M200 has collision geometry: fitted in a motor slot (collision: false) it has none,
    # placed freely it keeps it.
    urdf = resolve_yaml(tmp_path, """
parts:
  - {type: m200_weedless_prop_cw, name: spare_motor, xyz: [0, 0, 0.3]}
""")
    assert urdf.links['motor_port'].find('collision') is None
    assert urdf.links['spare_motor'].find('collision') is not None
    assert urdf.links['base_link'].find('collision') is not None


def test_every_instance_and_visited_slot_is_recorded(tmp_path):
    urdf = resolve_yaml(tmp_path, 'parts:\n  - {slot: mast, type: blueboat_antenna_mast}\n')
    records = urdf.records('assembly_part')
    assert {r['name'] for r in records} == {'base_link', 'motor_port', 'motor_stbd', 'flag',
                                            'mast', 'ping_mount', 'ping', 'deck', 'navigator',
                                            'gnss', 'battery_port', 'battery_stbd'}
    slots = {(r['of'], r['name']) for r in urdf.records('assembly_slot')}
    assert slots == {('base_link', s) for s in ('motor_port', 'motor_stbd', 'flag', 'mast',
                                                'payload', 'ping_mount', 'deck',
                                                'battery_port', 'battery_stbd')} | {
        ('ping_mount', 'ping'), ('deck', 'navigator'), ('deck', 'gnss')}
    # records sit directly under <robot>
    assert all(e.tag in ('link', 'joint', 'assembly_part', 'assembly_slot', 'assembly_frame')
               for e in urdf.root)


def test_vectors_as_lists_or_strings_give_the_same_urdf(tmp_path):
    as_list = resolve_yaml(tmp_path, 'parts:\n  - {type: blueboat_flag, name: f2, '
                                     'xyz: [0.1, 0.2, 0.3], rpy: [0, 0, 1]}\n')
    as_text = resolve_yaml(tmp_path, 'parts:\n  - {type: blueboat_flag, name: f2, '
                                     "xyz: '0.1 0.2 0.3', rpy: '0 0 1'}\n")
    assert as_list.origin('f2_joint') == as_text.origin('f2_joint') == \
        ([0.1, 0.2, 0.3], [0.0, 0.0, 1.0])


def test_vehicle_name_from_config_and_override(tmp_path, resolve_text):
    from bluerobotics_parts.assembly.pipeline import resolve_config

    config = write_config(tmp_path, 'name: boat2\n')
    assert Urdf(resolve_config(config).urdf).root.get('name') == 'boat2'
    assert Urdf(resolve_config(config, name='boat3').urdf).root.get('name') == 'boat3'
    assert Urdf(resolve_text()).root.get('name') == 'blueboat'


def test_empty_file_is_the_default_vehicle(tmp_path, resolve_text):
    from bluerobotics_parts.assembly.pipeline import resolve_config

    assert resolve_config(write_config(tmp_path, '')).urdf == resolve_text()


def test_relative_config_path_is_taken_from_the_working_directory(tmp_path):
    write_config(tmp_path, 'parts:\n  - {slot: flag, type: none}\n')
    result = run([tool('xacro'), REPO / 'urdf' / 'assembly.xacro', 'config:=boat.yaml'],
                 cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    urdf = Urdf(result.stdout)
    assert 'base_link_flag' in urdf.links and 'flag' not in urdf.links


def test_total_mass_is_the_sum_of_the_fitted_parts(default):
    from bluerobotics_parts.assembly.catalogue import shipped

    catalogue = shipped()
    expected = sum(catalogue[r['type']].mass for r in default.records('assembly_part'))
    fitted = [r['type'] for r in default.records('assembly_part')]
    assert sorted(fitted) == sorted(['blueboat_chassis', 'm200_weedless_prop_ccw',
                                     'm200_weedless_prop_cw', 'blueboat_flag',
                                     'blueboat_ping_singlebeam_mount', 'ping_singlebeam',
                                     'blueboat_electronics_deck', 'navigator_flight_controller',
                                     'blueboat_gnss', 'blueboat_battery', 'blueboat_battery'])
    assert default.mass() == pytest.approx(expected, abs=1e-9)
    # chassis + what it ships with + batteries is the published mass with two batteries
    # (16.8 kg, PART_FACTS)
    hull_and_batteries = sum(catalogue[t].mass for t in fitted
                             if t not in ('blueboat_ping_singlebeam_mount', 'ping_singlebeam'))
    assert hull_and_batteries == pytest.approx(16.8, abs=0.01)


def test_propeller_links_have_mass(default):
    for name in ('motor_port', 'motor_stbd'):
        assert float(default.links[name].find('inertial/mass').get('value')) > 1e-3
