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
The vehicle model: flat name maps and topology queries over resolved BlueBoat URDFs.

Each config resolves once per module (a resolve costs ~0.2 s); the queries are what a user of
``bluerobotics_parts.model.vehicle`` sees.
"""

import math

from bluerobotics_parts.assembly.catalogue import catalogue
from bluerobotics_parts.assembly.pipeline import resolve_config
from bluerobotics_parts.errors import (BlueRoboticsPartsError, NoParentJoint, NotAnAncestor,
                                       UnknownJoint, UnknownLink, UnknownPart, UnknownSlot,
                                       VehicleError)
from bluerobotics_parts.model.vehicle import Vehicle
import pytest

USER_THRUSTER = """\
type: bow_thruster
description: a user part with drive data, to show user part types become actuators
inertial: {mass: 0.2, mass_unverified: test part}
axis: [0.0, 1.0, 0.0]
axis_unverified: test part
propeller:
  rotation: cw
  diameter: 0.05
  max_thrust: 10.0
  min_thrust: -5.0
  thrust_coefficient: 0.001
  max_rpm: 6000
  diameter_unverified: test part
  max_thrust_unverified: test part
  min_thrust_unverified: test part
  thrust_coefficient_unverified: test part
  max_rpm_unverified: test part
"""

EXTRAS_CONFIG = """\
part_files: [bow_thruster.yaml]
parts:
  - {type: blueboat_antenna_mast, name: aft_mast, parent: base_link,
     xyz: [-0.3, 0, 0.2], rpy: [0, 0, 0.5]}
slots:
  - {of: base_link, name: bow, xyz: [0.5, 0, 0.1], accepts: [blueboat_flag],
     default: blueboat_flag}
  - {of: base_link, name: tunnel, xyz: [0.45, 0, -0.05], accepts: [bow_thruster],
     default: bow_thruster, joint: continuous, collision: false}
"""


def _resolve(folder, text, files=()):
    for name, content in files:
        (folder / name).write_text(content)
    config = folder / 'config.yaml'
    config.write_text(text)
    return resolve_config(config).urdf


@pytest.fixture(scope='module')
def default_urdf():
    return resolve_config(None).urdf


@pytest.fixture(scope='module')
def boat(default_urdf):
    return Vehicle.from_urdf(default_urdf)


@pytest.fixture(scope='module')
def t200_boat(tmp_path_factory):
    return Vehicle.from_urdf(_resolve(tmp_path_factory.mktemp('t200'),
                                      'parts:\n  - {slot: motor_port, type: t200_thruster_ccw}\n'))


@pytest.fixture(scope='module')
def no_ping_boat(tmp_path_factory):
    return Vehicle.from_urdf(_resolve(tmp_path_factory.mktemp('no_ping'),
                                      'parts:\n  - {slot: ping_mount, type: none}\n'))


@pytest.fixture(scope='module')
def extras_boat(tmp_path_factory):
    folder = tmp_path_factory.mktemp('extras')
    return Vehicle.from_urdf(_resolve(folder, EXTRAS_CONFIG,
                                      [('bow_thruster.yaml', USER_THRUSTER)]))


# -- flat maps -----------------------------------------------------------------------------------

def test_default_links_and_joints_are_flat_maps_by_name(boat):
    assert boat.name == 'blueboat'
    assert {'base_link', 'base_link_flag', 'flag', 'ping_mount', 'ping', 'ping_beam',
            'motor_port', 'motor_stbd'} <= set(boat.links)
    assert all(name == link.name for name, link in boat.links.items())
    slot_joint = boat.joints['base_link_motor_port_joint']
    assert (slot_joint.type, slot_joint.parent, slot_joint.child) == \
        ('fixed', 'base_link', 'base_link_motor_port')
    assert slot_joint.xyz == (-0.52, 0.301, -0.117)
    assert slot_joint.axis is None
    motor = boat.joints['motor_port_joint']
    assert (motor.type, motor.parent, motor.child) == ('fixed', 'base_link_motor_port',
                                                       'motor_port')
    spin = boat.joints['motor_port_rotor_joint']
    assert (spin.type, spin.parent, spin.child, spin.axis) == \
        ('continuous', 'motor_port', 'motor_port_rotor', (1.0, 0.0, 0.0))
    assert boat.links['motor_port_rotor'].part == 'motor_port'
    assert boat.joints['ping_mount_ping_joint'].rpy == pytest.approx((0.0, math.pi / 2, 0.0))
    assert all(isinstance(v, float) for j in boat.joints.values() for v in j.xyz + j.rpy)


def test_links_record_topology_mass_and_owner(boat):
    flag_slot = boat.links['base_link_flag']
    assert flag_slot.parent_joint == 'base_link_flag_joint'
    assert flag_slot.child_joints == ('flag_joint',)
    assert flag_slot.mass == 0.0
    flag = boat.links['flag']
    assert flag.mass == pytest.approx(0.05)
    assert flag.com == pytest.approx((0.0, 0.0, 0.25))
    assert (flag.part, flag_slot.part, boat.links['ping_beam'].part) == \
        ('flag', 'base_link', 'ping')
    assert boat.links['base_link'].parent_joint is None


def test_actuators_are_the_two_propellers_with_their_drive_data(boat):
    assert set(boat.actuators) == {'motor_port', 'motor_stbd'}
    port, stbd = boat.actuators['motor_port'], boat.actuators['motor_stbd']
    assert (port.joint, stbd.joint) == ('motor_port_rotor_joint', 'motor_stbd_rotor_joint')
    assert (port.rotation, stbd.rotation) == ('ccw', 'cw')
    assert port.diameter == stbd.diameter == pytest.approx(0.112)
    assert port.type == 'm200_weedless_prop_ccw'
    assert (port.max_thrust, port.min_thrust) == pytest.approx((55.2, -27.6))
    assert port.max_angular_velocity == pytest.approx(2751 * 2 * math.pi / 60)
    assert port.joint in boat.joints and boat.joints[port.joint].type == 'continuous'


def test_sensors_are_keyed_like_their_topics_and_the_ping_is_at_its_beam_frame(boat):
    assert 'ping/scan' in boat.sensors  # /<vehicle>/ping/scan
    ping = boat.sensors['ping/scan']
    assert (ping.kind, ping.part) == ('echosounder', 'ping')
    assert ping.frame == ping.link == 'ping_beam' and ping.frame in boat.links
    assert ping.type == 'ping_singlebeam'
    assert ping.values['beam_width'] == pytest.approx(math.radians(25))
    assert (ping.values['range_min'], ping.values['range_max']) == pytest.approx((0.5, 100.0))


def test_total_mass_is_the_sum_of_the_fitted_part_types(boat):
    parts = catalogue()
    expected = sum(parts[part.type].mass for part in boat.parts.values())
    assert boat.total_mass == pytest.approx(expected)
    assert boat.total_mass == pytest.approx(sum(link.mass for link in boat.links.values()))
    assert boat.total_mass > parts['blueboat_chassis'].mass


# -- tree queries --------------------------------------------------------------------------------

def test_root_link_is_the_base(boat):
    assert boat.root_link == 'base_link'


def test_links_in_order_start_at_the_root_and_put_parents_first(boat):
    order = [link.name for link in boat.links_in_order()]
    # depth first, children in document order: the chassis's first slot, then its occupant
    assert order[:5] == ['base_link', 'base_link_motor_port', 'motor_port',
                         'motor_port_rotor', 'base_link_motor_stbd']
    assert sorted(order) == sorted(boat.links)
    position = {name: index for index, name in enumerate(order)}
    for link in boat.links_in_order()[1:]:
        assert position[boat.joints[link.parent_joint].parent] < position[link.name]


def test_joints_in_order_cover_every_joint_parents_first(boat, default_urdf):
    order = [joint.name for joint in boat.joints_in_order()]
    assert sorted(order) == sorted(boat.joints)
    seen_links = {boat.root_link}
    for joint in boat.joints_in_order():
        assert joint.parent in seen_links
        seen_links.add(joint.child)
    again = Vehicle.from_urdf(default_urdf)
    assert [j.name for j in again.joints_in_order()] == order
    assert [link.name for link in again.links_in_order()] == \
        [link.name for link in boat.links_in_order()]


def test_parent_joint_of_the_root_is_not_an_unknown_link(boat):
    assert boat.parent_joint('flag').name == 'flag_joint'
    with pytest.raises(NoParentJoint) as root:
        boat.parent_joint('base_link')
    assert not isinstance(root.value, UnknownLink)
    assert root.value.link == 'base_link' and 'root' in str(root.value)
    with pytest.raises(UnknownLink) as unknown:
        boat.parent_joint('flagg')
    assert not isinstance(unknown.value, NoParentJoint)
    assert unknown.value.name == 'flagg' and 'flag' in unknown.value.suggestions
    assert "'flagg'" in str(unknown.value) and 'flag' in str(unknown.value)


def test_child_joints_of_a_leaf_is_empty_and_of_an_unknown_link_raises(boat):
    assert boat.child_joints('flag') == []
    assert boat.child_joints('ping_beam') == []
    names = [joint.name for joint in boat.child_joints('base_link')]
    assert 'base_link_flag_joint' in names and 'base_link_ping_mount_joint' in names
    with pytest.raises(UnknownLink):
        boat.child_joints('no_such_link')


def test_getters_raise_their_own_error_types(boat):
    assert boat.link('ping').name == 'ping'
    assert boat.joint('ping_joint').child == 'ping'
    with pytest.raises(UnknownJoint) as joint:
        boat.joint('ping')  # a link, not a joint
    with pytest.raises(UnknownLink):
        boat.link('ping_joint')  # a joint, not a link
    assert joint.value.name == 'ping'
    for error in (UnknownLink, UnknownJoint, UnknownPart, UnknownSlot, NoParentJoint,
                  NotAnAncestor):
        assert issubclass(error, VehicleError) and issubclass(error, BlueRoboticsPartsError)


def test_unknown_name_without_a_close_match_says_how_many_there_are(boat):
    with pytest.raises(UnknownLink) as error:
        boat.link('zzzz')
    assert f'{len(boat.links)} known link names' in str(error.value)


def test_path_to_a_link_and_a_joint(boat):
    assert boat.path_to('flag') == ['base_link', 'base_link_flag_joint', 'base_link_flag',
                                    'flag_joint', 'flag']
    assert boat.path_to('flag_joint') == ['base_link', 'base_link_flag_joint', 'base_link_flag',
                                          'flag_joint']
    assert boat.path_to('base_link') == ['base_link']
    with pytest.raises(UnknownLink) as error:
        boat.path_to('flag_jiont')
    assert 'flag_joint' in str(error.value)


def test_path_between_an_ancestor_and_a_descendant(boat):
    assert boat.path_between('base_link_ping_mount', 'ping_beam') == [
        'base_link_ping_mount', 'ping_mount_joint', 'ping_mount', 'ping_mount_ping_joint',
        'ping_mount_ping', 'ping_joint', 'ping', 'ping_beam_joint', 'ping_beam']
    assert boat.path_between('ping', 'ping') == ['ping']
    assert boat.path_between('base_link', 'ping_beam') == boat.path_to('ping_beam')


def test_path_between_a_non_ancestor_names_the_common_ancestor(boat):
    with pytest.raises(NotAnAncestor) as error:
        boat.path_between('motor_port', 'ping_beam')
    assert error.value.common_ancestor == 'base_link'
    assert "'base_link'" in str(error.value) and 'motor_port' in str(error.value)
    with pytest.raises(NotAnAncestor) as upside_down:
        boat.path_between('ping_beam', 'ping_mount')
    assert upside_down.value.common_ancestor == 'ping_mount'
    with pytest.raises(UnknownLink):
        boat.path_between('nowhere', 'ping_beam')
    with pytest.raises(UnknownLink):
        boat.path_between('base_link', 'nowhere')


# -- part queries --------------------------------------------------------------------------------

def test_occupants_of_the_default_slots(boat):
    assert boat.occupant('base_link', 'mast') is None
    assert boat.occupant('base_link', 'motor_port').type == 'm200_weedless_prop_ccw'
    assert boat.occupant('ping_mount', 'ping').name == 'ping'
    mast = boat.slots['base_link/mast']
    assert (mast.of, mast.name, mast.link, mast.occupant) == \
        ('base_link', 'mast', 'base_link_mast', None)
    with pytest.raises(UnknownSlot) as error:
        boat.occupant('base_link', 'masts')
    assert (error.value.of, error.value.slot) == ('base_link', 'masts')
    assert 'base_link/mast' in str(error.value)


def test_slots_of_an_instance(boat):
    assert [slot.name for slot in boat.slots_of('ping_mount')] == ['ping']
    assert boat.slots_of('ping') == []
    assert 'motor_port' in [slot.name for slot in boat.slots_of('base_link')]
    with pytest.raises(UnknownPart) as error:
        boat.slots_of('pingg')
    assert error.value.name == 'pingg' and 'ping' in str(error.value)


def test_part_of_a_link_is_the_instance_carrying_it(boat):
    assert boat.part_of('ping_beam').name == 'ping'
    assert boat.part_of('base_link_flag').name == 'base_link'
    assert boat.part_of('ping_mount_ping').name == 'ping_mount'
    assert boat.part_of('flag').name == 'flag'
    flag = boat.parts['flag']
    assert (flag.type, flag.parent, flag.of, flag.slot, flag.joint) == \
        ('blueboat_flag', 'base_link_flag', 'base_link', 'flag', 'flag_joint')
    assert boat.parts['base_link'].parent is None
    with pytest.raises(UnknownLink):
        boat.part_of('ping_beem')


# -- other configs -------------------------------------------------------------------------------

def test_a_t200_changes_the_occupant_and_the_actuator_data(t200_boat):
    assert t200_boat.occupant('base_link', 'motor_port').type == 't200_thruster_ccw'
    port = t200_boat.actuators['motor_port']
    assert (port.type, port.diameter, port.joint) == ('t200_thruster_ccw', 0.076,
                                                      'motor_port_rotor_joint')
    assert t200_boat.actuators['motor_stbd'].diameter == pytest.approx(0.112)
    assert t200_boat.total_mass == pytest.approx(
        sum(catalogue()[p.type].mass for p in t200_boat.parts.values()))


def test_an_empty_ping_mount_leaves_no_sensor_but_keeps_the_slot(no_ping_boat):
    assert not [s for s in no_ping_boat.sensors.values() if s.kind == 'echosounder']
    assert no_ping_boat.occupant('base_link', 'ping_mount') is None
    assert 'ping' not in no_ping_boat.links and 'ping_mount' not in no_ping_boat.parts
    assert no_ping_boat.slots['base_link/ping_mount'].link in no_ping_boat.links


def test_free_placement_and_ad_hoc_slots_show_up(extras_boat):
    mast = extras_boat.parts['aft_mast']
    assert (mast.parent, mast.of, mast.slot) == ('base_link', None, None)
    assert extras_boat.joints[mast.joint].rpy == pytest.approx((0.0, 0.0, 0.5))
    assert extras_boat.part_of('aft_mast_top').name == 'aft_mast'
    bow = extras_boat.slots['base_link/bow']
    assert (bow.link, bow.occupant) == ('base_link_bow', 'bow')
    assert extras_boat.occupant('base_link', 'bow').type == 'blueboat_flag'
    assert extras_boat.path_to('bow') == ['base_link', 'base_link_bow_joint', 'base_link_bow',
                                          'bow_joint', 'bow']


def test_user_part_types_become_actuators(extras_boat):
    assert set(extras_boat.actuators) == {'motor_port', 'motor_stbd', 'tunnel'}
    tunnel = extras_boat.actuators['tunnel']
    assert (tunnel.type, tunnel.rotation, tunnel.diameter) == ('bow_thruster', 'cw', 0.05)
    assert extras_boat.joints[tunnel.joint].type == 'continuous'
    assert extras_boat.joints[tunnel.joint].axis == (0.0, 1.0, 0.0)


# -- not a tree ----------------------------------------------------------------------------------

def _joint(name, parent, child):
    return (f'<joint name="{name}" type="fixed"><parent link="{parent}"/>'
            f'<child link="{child}"/></joint>')


@pytest.mark.parametrize('extra, names', [
    ('<link name="stray"/>', ['2 root links', 'base_link', 'stray']),
    ('<link name="a"/><link name="b"/>' + _joint('ab', 'a', 'b') + _joint('ba', 'b', 'a'),
     ['cycle', 'a -> b -> a']),
    (_joint('ghost_joint', 'base_link', 'ghost'), ['ghost_joint', "'ghost'"]),
    (_joint('second_joint', 'base_link', 'flag'), ["'flag'", 'flag_joint', 'second_joint']),
    ('<link name="flag"/>', ['two <link>', "'flag'"]),
], ids=['two roots', 'cycle', 'missing link', 'two parents', 'duplicate link'])
def test_a_urdf_that_is_not_a_tree_is_refused(default_urdf, extra, names):
    broken = default_urdf.replace('</robot>', extra + '</robot>')
    with pytest.raises(VehicleError) as error:
        Vehicle.from_urdf(broken)
    for name in names:
        assert name in str(error.value)


def test_a_root_inside_a_cycle_is_refused(default_urdf):
    broken = default_urdf.replace('</robot>', _joint('loop', 'flag', 'base_link') + '</robot>')
    with pytest.raises(VehicleError, match='no root link.*cycle'):
        Vehicle.from_urdf(broken)
