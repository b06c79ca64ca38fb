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
The Python assembly API (bluerobotics_parts.api.Assembly).

Every method, every early error (the very problems the config path gives for the same data:
both come from the one resolution), the dict / YAML round trips, build() equal to the YAML
path, the Gazebo composition, and large and deep assemblies.
"""

from __future__ import annotations

from bluerobotics_parts import paths
from bluerobotics_parts.api import Assembly
from bluerobotics_parts.assembly import catalogue
from bluerobotics_parts.assembly.pipeline import resolve_config
from bluerobotics_parts.errors import AssemblyError, BlueRoboticsPartsError, ConfigError
from bluerobotics_parts.formats import config as config_module
from conftest import REPO, run, SHIPPED_CONFIGS, tool, Urdf, xacro_cli
import numpy
import pytest

USER_PART = REPO / 'config' / 'examples' / 'user_parts' / 'camera_bracket.yaml'
FLAG_SLOT = {'accepts': ['blueboat_flag'], 'default': 'blueboat_flag'}


def resolver_error(data: dict) -> BlueRoboticsPartsError:
    """Return what the config path (loader, resolution) raises for the same data."""
    with pytest.raises(BlueRoboticsPartsError) as caught:
        resolve_config(config_module.from_data(data))
    return caught.value


def assert_same_as_resolver(api_error: ConfigError, data: dict) -> None:
    """Assert an early API error lists exactly what the config path lists for the data."""
    expected = resolver_error(data)
    assert isinstance(expected, AssemblyError) and isinstance(api_error, AssemblyError)
    assert [str(p) for p in api_error.problems] == [str(p) for p in expected.problems]


@pytest.fixture(scope='module')
def default_urdf() -> str:
    return resolve_config(paths.default_config()).urdf


# -- the default and the constructor ------------------------------------------------------------

def test_default_assembly_is_the_shipped_blueboat(default_urdf):
    boat = Assembly()
    assert boat.to_dict() == {}
    assert boat.build() == default_urdf


def test_constructor_names_the_vehicle_and_the_base():
    boat = Assembly(name='boat2', base_name='hull')
    assert boat.to_dict() == {'name': 'boat2', 'base': {'name': 'hull'}}
    urdf = Urdf(boat.build())
    assert urdf.root.get('name') == 'boat2'
    assert [n for n in urdf.links if n not in urdf.parent_of] == ['hull']
    assert urdf.parent_of['hull_flag'] == 'hull'


def test_constructor_part_files_are_stored_absolute(monkeypatch):
    monkeypatch.chdir(USER_PART.parent.parent)
    boat = Assembly(part_files=['user_parts/camera_bracket.yaml'])
    assert boat.to_dict()['part_files'] == [str(USER_PART)]
    boat.place('camera_bracket', 'cam', xyz=[0.3, 0, 0.2])
    urdf = Urdf(boat.build())
    assert urdf.parent_of['cam'] == 'base_link'
    assert urdf.parent_of['cam_camera'] == 'cam'
    assert {'type': 'camera_bracket', 'path': str(USER_PART)} in urdf.records(
        'assembly_part_file')


@pytest.mark.parametrize('kwargs, fragment', [
    ({'name': 'my boat'}, "name 'my boat' cannot be a ROS namespace"),
    ({'base_name': '7hull'}, "base: name '7hull' is not a valid link name"),
    ({'part_files': ['/nonexistent/part.yaml']}, 'part file /nonexistent/part.yaml not found'),
])
def test_constructor_refuses_what_the_loader_refuses(kwargs, fragment):
    with pytest.raises(ConfigError, match=fragment):
        Assembly(**kwargs)


def test_unknown_base_type_reads_like_the_resolver():
    with pytest.raises(ConfigError) as caught:
        Assembly(base_type='blueboat_chasis')
    assert str(caught.value).startswith('ASSEMBLY ERROR: '
                                        "unknown part type 'blueboat_chasis' in base; did you "
                                        'mean blueboat_chassis? base types: blueboat_chassis, '
                                        'bluerov2_frame, bluerov2_heavy_frame ')
    assert_same_as_resolver(caught.value, {'base': {'type': 'blueboat_chasis'}})


# -- the changes ---------------------------------------------------------------------------------

def test_methods_return_the_assembly_for_chaining():
    boat = Assembly()
    assert boat.fit('motor_port', 't200_thruster_ccw') is boat
    assert boat.empty('ping_mount') is boat
    assert boat.place('blueboat_flag', 'spare_flag') is boat
    assert boat.add_slot('base_link', 'bow', accepts=['blueboat_flag']) is boat
    assert boat.remove('spare_flag') is boat
    assert boat.remove_slot('base_link', 'bow') is boat


def test_fit_puts_the_part_in_the_slot():
    boat = Assembly().fit('motor_port', 't200_thruster_ccw', name='port_thruster')
    assert boat.to_dict() == {'parts': [{'slot': 'motor_port', 'type': 't200_thruster_ccw',
                                         'name': 'port_thruster'}]}
    urdf = Urdf(boat.build())
    assert 'motor_port' not in urdf.links
    assert urdf.parent_of['port_thruster'] == 'base_link_motor_port'
    assert urdf.joint_to['port_thruster'].get('type') == 'fixed'  # only its rotor turns
    assert urdf.joint_to['port_thruster_rotor'].get('type') == 'continuous'
    assert {'type': 't200_thruster_ccw', 'name': 'port_thruster', 'parent': 'base_link_motor_port',
            'of': 'base_link', 'slot': 'motor_port'} in urdf.records('assembly_part')


def test_fit_of_a_slot_deeper_down():
    boat = Assembly().fit('mast', 'blueboat_antenna_mast').add_slot(
        'mast', 'pennant', xyz=[0, 0, 0.5], **FLAG_SLOT).fit('pennant', 'none', of='mast')
    urdf = Urdf(boat.build())
    assert urdf.parent_of['mast_pennant'] == 'mast'
    assert 'pennant' not in urdf.links


def test_empty_leaves_the_slot_frame():
    boat = Assembly().empty('ping_mount')
    assert boat.to_dict() == {'parts': [{'slot': 'ping_mount', 'type': 'none'}]}
    urdf = Urdf(boat.build())
    assert 'ping_mount' not in urdf.links and 'ping' not in urdf.links
    assert urdf.parent_of['base_link_ping_mount'] == 'base_link'


def test_empty_a_slot_of_another_instance():
    urdf = Urdf(Assembly().empty('ping', of='ping_mount').build())
    assert 'ping' not in urdf.links
    assert urdf.parent_of['ping_mount_ping'] == 'ping_mount'


def test_place_fixes_a_part_at_a_pose_on_a_parent():
    boat = Assembly().fit('mast', 'blueboat_antenna_mast').place(
        'blueboat_flag', 'top_flag', parent='mast_top', xyz=(0.0, 0.01, 0.02),
        rpy=numpy.array([0.0, 0.0, 1.5]))
    entry = boat.to_dict()['parts'][1]
    assert entry == {'type': 'blueboat_flag', 'name': 'top_flag', 'parent': 'mast_top',
                     'xyz': [0.0, 0.01, 0.02], 'rpy': [0.0, 0.0, 1.5]}
    assert all(type(v) is float for v in entry['xyz'] + entry['rpy'])  # YAML-safe
    urdf = Urdf(boat.build())
    assert urdf.parent_of['top_flag'] == 'mast_top'
    assert urdf.origin('top_flag_joint') == ([0.0, 0.01, 0.02], [0.0, 0.0, 1.5])


def test_place_defaults_to_the_base_at_the_origin():
    urdf = Urdf(Assembly().place('blueboat_flag', 'spare_flag').build())
    assert urdf.parent_of['spare_flag'] == 'base_link'
    assert urdf.origin('spare_flag_joint') == ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])


def test_add_slot_declares_a_slot_that_fills_with_its_default():
    boat = Assembly().add_slot('base_link', 'bow', xyz=[0.5, 0, 0.1], rpy=[0, 0, 0.5],
                               accepts=('blueboat_flag',), default='blueboat_flag',
                               collision=False, joint='continuous')
    assert boat.to_dict() == {'slots': [{'of': 'base_link', 'name': 'bow', 'xyz': [0.5, 0, 0.1],
                                         'rpy': [0, 0, 0.5], 'accepts': ['blueboat_flag'],
                                         'default': 'blueboat_flag', 'collision': False,
                                         'joint': 'continuous'}]}
    urdf = Urdf(boat.build())
    assert urdf.parent_of['bow'] == 'base_link_bow'
    assert urdf.origin('base_link_bow_joint') == ([0.5, 0.0, 0.1], [0.0, 0.0, 0.5])
    assert urdf.joint_to['bow'].get('type') == 'continuous'
    assert urdf.links['bow'].find('collision') is None
    assert urdf.links['flag'].find('collision') is not None  # the chassis' own flag slot


def test_add_slot_may_move_within_limits():
    boat = Assembly().add_slot('base_link', 'bow', xyz=(0.5, 0, 0.1), accepts=['blueboat_flag'],
                               default='blueboat_flag', joint='revolute', axis=(0, 0, 1),
                               limits={'lower': -1, 'upper': 1, 'effort': 2, 'velocity': 0.5})
    assert boat.to_dict()['slots'][0]['axis'] == [0, 0, 1]
    joint = Urdf(boat.build()).joint_to['bow']
    assert joint.get('type') == 'revolute' and joint.find('axis').get('xyz') == '0 0 1'
    assert dict(joint.find('limit').attrib) == {'lower': '-1', 'upper': '1', 'effort': '2',
                                                'velocity': '0.5'}


def test_add_slot_writes_only_what_differs_from_the_defaults():
    boat = Assembly().add_slot('base_link', 'spare', accepts=['blueboat_flag'])
    assert boat.to_dict() == {'slots': [{'of': 'base_link', 'name': 'spare',
                                         'accepts': ['blueboat_flag']}]}
    urdf = Urdf(boat.build())
    assert urdf.parent_of['base_link_spare'] == 'base_link'
    assert urdf.children('base_link_spare') == []


def test_remove_undoes_a_fit_and_a_placement(default_urdf):
    boat = Assembly().fit('motor_port', 't200_thruster_ccw').place('blueboat_flag', 'spare_flag')
    boat.remove('motor_port').remove('spare_flag')
    assert boat == Assembly()
    assert boat.build() == default_urdf


def test_remove_a_named_fit_and_an_emptied_slot():
    boat = Assembly().fit('motor_port', 't200_thruster_ccw', name='port').empty('ping_mount')
    boat.remove('port')
    assert boat.to_dict() == {'parts': [{'slot': 'ping_mount', 'type': 'none'}]}
    boat.remove('ping_mount')
    assert boat == Assembly()


def test_remove_prefers_the_instance_and_of_picks_the_slot_entry():
    # the default flag is emptied and a flag of the same name placed elsewhere
    boat = Assembly().empty('flag').place('blueboat_flag', 'flag', xyz=[0.4, 0, 0.2])
    with pytest.raises(AssemblyError, match='2 instances are named flag'):
        Assembly.from_dict(boat.to_dict()).remove('flag', of='base_link')
    boat.remove('flag')  # the placement: the entry that created instance flag
    assert boat.to_dict() == {'parts': [{'slot': 'flag', 'type': 'none'}]}
    boat.remove('flag', of='base_link')
    assert boat == Assembly()


def test_remove_that_would_bring_back_a_duplicate_refuses_and_changes_nothing():
    boat = Assembly().empty('flag').place('blueboat_flag', 'flag')
    before = boat.to_dict()
    with pytest.raises(AssemblyError) as caught:
        boat.remove('flag', of='base_link')
    assert str(caught.value).startswith('2 instances are named flag')
    assert boat.to_dict() == before


def test_remove_of_nothing_names_what_could_be_removed():
    boat = Assembly().fit('mast', 'blueboat_antenna_mast').empty('ping_mount')
    with pytest.raises(ConfigError) as caught:
        boat.remove('antenna')
    assert str(caught.value) == ("no fit or placement named 'antenna'; entries: mast, "
                                 'ping_mount (emptied)')
    with pytest.raises(ConfigError, match="no entry for slot 'flag' of base_link; entries: "):
        boat.remove('flag', of='base_link')


def test_remove_of_an_ambiguous_emptied_slot_asks_for_of():
    boat = (Assembly().fit('mast', 'blueboat_antenna_mast').place('blueboat_antenna_mast', 'mast2')
            .add_slot('mast', 'tip', accepts=['blueboat_flag'])
            .add_slot('mast2', 'tip', accepts=['blueboat_flag'])
            .empty('tip', of='mast').empty('tip', of='mast2'))
    with pytest.raises(ConfigError) as caught:
        boat.remove('tip')
    assert str(caught.value) == ('2 entries empty a slot named tip: parts entry #3 (slot tip) of '
                                 'mast, parts entry #4 (slot tip) of mast2; say which with '
                                 'remove(slot, of=carrier)')
    boat.remove('tip', of='mast2')
    assert [e.get('of') for e in boat.to_dict()['parts']] == [None, None, 'mast']


def test_remove_slot_undoes_add_slot():
    boat = Assembly().add_slot('base_link', 'bow', **FLAG_SLOT)
    assert 'bow' in Urdf(boat.build()).links
    boat.remove_slot('base_link', 'bow')
    assert boat == Assembly()
    with pytest.raises(ConfigError) as caught:
        boat.remove_slot('base_link', 'bow')
    assert str(caught.value) == "no ad hoc slot 'bow' on base_link; ad hoc slots: (none)"


# -- mistakes raise at the call, worded as the config path words them --------------------------

def test_unknown_type_in_fit():
    boat = Assembly().empty('ping_mount')
    with pytest.raises(ConfigError) as caught:
        boat.fit('motor_port', 't300_thruster')
    assert str(caught.value).startswith('ASSEMBLY ERROR: '
                                        "unknown part type 't300_thruster' in parts entry #2 "
                                        '(slot motor_port); slot motor_port accepts: '
                                        'm200_weedless_prop_ccw, t200_thruster_ccw, or none '
                                        'for an empty slot (bluerobotics-parts parts lists '
                                        'every type)')
    assert_same_as_resolver(caught.value, {'parts': boat.to_dict()['parts'] + [
        {'slot': 'motor_port', 'type': 't300_thruster'}]})


def test_unknown_type_in_place():
    with pytest.raises(ConfigError) as caught:
        Assembly().place('blueboat_flagg', 'spare')
    assert str(caught.value).startswith('ASSEMBLY ERROR: '
                                        "unknown part type 'blueboat_flagg' in parts entry #1 "
                                        '(spare); did you mean blueboat_flag? known types: ')
    assert_same_as_resolver(caught.value, {'parts': [{'type': 'blueboat_flagg',
                                                      'name': 'spare'}]})


def test_unknown_type_in_add_slot_accepts():
    with pytest.raises(ConfigError) as caught:
        Assembly().add_slot('base_link', 'bow', accepts=['ping_single_beam'])
    assert str(caught.value).startswith('ASSEMBLY ERROR: '
                                        "unknown part type 'ping_single_beam' in slots entry #1 "
                                        '(bow) accepts; did you mean ping_singlebeam? known '
                                        'types: ')
    assert_same_as_resolver(caught.value, {'slots': [{'of': 'base_link', 'name': 'bow',
                                                      'accepts': ['ping_single_beam']}]})


def test_a_type_the_slot_does_not_accept():
    with pytest.raises(ConfigError) as caught:
        Assembly().fit('motor_port', 't200_thruster_cw')
    assert str(caught.value) == (
        'ASSEMBLY ERROR: '
        'parts entry #1 (slot motor_port): slot motor_port of base_link (blueboat_chassis) does '
        'not accept t200_thruster_cw; it accepts: m200_weedless_prop_ccw, t200_thruster_ccw, or '
        'none to leave it empty; slot motor_port takes ccw propellers and t200_thruster_cw '
        'turns cw: the two propellers of a pair turn opposite ways, so that their torques '
        'cancel; t200_thruster_cw goes in slot motor_stbd of blueboat_chassis')
    assert_same_as_resolver(caught.value, {'parts': [{'slot': 'motor_port',
                                                      'type': 't200_thruster_cw'}]})


def test_a_slot_that_becomes_known_later_is_checked_then():
    boat = Assembly().fit('tip', 'ping_singlebeam', of='mast')  # mast not fitted yet: allowed
    with pytest.raises(AssemblyError) as caught:  # now mast is known, and it has no slot tip
        boat.fit('mast', 'blueboat_antenna_mast')
    assert str(caught.value) == ('ASSEMBLY ERROR: '
                                 'parts entry #1 (slot tip): mast (blueboat_antenna_mast) has '
                                 "no slot 'tip'; its slots: (none)")
    boat.add_slot('mast', 'tip', accepts=['blueboat_flag'])  # on mast, not there yet: allowed
    with pytest.raises(ConfigError) as caught:
        boat.fit('mast', 'blueboat_antenna_mast')
    assert str(caught.value).startswith('ASSEMBLY ERROR: '
                                        'parts entry #1 (slot tip): slot tip of mast '
                                        '(blueboat_antenna_mast) does not accept ping_singlebeam')
    assert_same_as_resolver(caught.value, {**boat.to_dict(), 'parts': boat.to_dict()['parts'] + [
        {'slot': 'mast', 'type': 'blueboat_antenna_mast'}]})
    assert len(boat.to_dict()['parts']) == 1


def test_a_slot_configured_twice():
    boat = Assembly().fit('motor_port', 't200_thruster_ccw')
    with pytest.raises(ConfigError) as caught:
        boat.empty('motor_port', of='base_link')
    assert str(caught.value) == ('ASSEMBLY ERROR: '
                                 'slot motor_port of base_link is configured twice: parts entry '
                                 '#1 (slot motor_port) and parts entry #2 (slot motor_port); keep '
                                 'one entry per slot')
    assert_same_as_resolver(caught.value, {'parts': [
        {'slot': 'motor_port', 'type': 't200_thruster_ccw'},
        {'slot': 'motor_port', 'of': 'base_link', 'type': 'none'}]})
    assert boat.to_dict() == {'parts': [{'slot': 'motor_port', 'type': 't200_thruster_ccw'}]}


def test_a_duplicate_name_reads_like_the_check():
    boat = Assembly()
    with pytest.raises(AssemblyError) as caught:
        boat.place('blueboat_ping_singlebeam_mount', 'ping_mount', xyz=[0.4, 0, 0])
    expected = resolver_error({'parts': [{'type': 'blueboat_ping_singlebeam_mount',
                                          'name': 'ping_mount', 'xyz': [0.4, 0, 0]}]})
    assert isinstance(expected, AssemblyError)
    assert [str(p) for p in caught.value.problems] == [str(p) for p in expected.problems]
    # the ping inside each ping_mount is there twice too, as a consequence: not repeated
    assert [str(p) for p in caught.value.problems] == [
        '2 instances are named ping_mount (under base_link_ping_mount, under base_link); '
        'instance names become link names and must be unique: give one a name: of its own']
    assert boat == Assembly()


def test_a_name_taken_by_a_slot_link():
    with pytest.raises(AssemblyError) as caught:
        Assembly().place('blueboat_flag', 'base_link_mast')
    assert str(caught.value) == ('the link name base_link_mast is used 2 times: instance under '
                                 'base_link, slot mast of base_link; link names must be unique: '
                                 'rename the instance or the slot')


def test_an_ad_hoc_slot_that_the_part_already_has():
    with pytest.raises(ConfigError) as caught:
        Assembly().add_slot('base_link', 'mast', accepts=['blueboat_flag'])
    assert str(caught.value).startswith('ASSEMBLY ERROR: '
                                        'slots entry #1 declares slot mast on base_link, which '
                                        'its part type blueboat_chassis already has')
    assert_same_as_resolver(caught.value, {'slots': [{'of': 'base_link', 'name': 'mast',
                                                      'accepts': ['blueboat_flag']}]})


def test_a_cycle_of_names_is_refused_before_the_resolver_could_recurse_forever():
    boat = Assembly().add_slot('base_link', 'a', **FLAG_SLOT)
    with pytest.raises(AssemblyError) as caught:
        boat.add_slot('a', 'a', **FLAG_SLOT)  # a's slot a would hold another a, and so on
    assert str(caught.value) == (
        'ASSEMBLY ERROR: '
        'slot a of a would hold an instance named a, a name an instance above it already has '
        '(base_link > a > a): instance names must be unique, and a part cannot contain itself; '
        'give the occupant another name: or the slot another default')


@pytest.mark.parametrize('call, message', [
    (lambda a: a.place('blueboat_flag', 'spare flag'),
     "parts entry #1 (spare flag): name 'spare flag' is not a valid link name: use "
     'letters, digits and underscores, starting with a letter'),
    (lambda a: a.place('blueboat_flag', 'spare', xyz=[0.1, 0.2]),
     'ASSEMBLY ERROR: '
     'parts entry #1 (spare): xyz must be three finite numbers (metres / radians) as a '
     'list [x, y, z] or a string "x y z"; got [0.1, 0.2]'),
    (lambda a: a.place('blueboat_flag', 'spare', xyz=[0.0, 0.0, float('nan')]),
     'ASSEMBLY ERROR: '
     'parts entry #1 (spare): xyz must be three finite numbers (metres / radians) as a '
     'list [x, y, z] or a string "x y z"; got [0.0, 0.0, nan]'),
    (lambda a: a.add_slot('base_link', 'bow', accepts='blueboat_flag'),
     'slots entry #1 (bow): accepts must be a list of part types, e.g. '
     "[blueboat_antenna_mast]; got 'blueboat_flag'"),
    (lambda a: a.add_slot('base_link', 'bow', accepts=['blueboat_flag'], joint='hinge'),
     "ASSEMBLY ERROR: slots entry #1 (bow): joint 'hinge' is not a slot joint; valid: fixed, "
     'continuous, revolute, prismatic'),
    (lambda a: a.add_slot('base_link', 'bow', accepts=['blueboat_flag'], joint='revolute'),
     'slots entry #1 (bow): a revolute joint needs limits: {lower, upper, effort, velocity} '
     '(rad or m, N m or N, per second)'),
    (lambda a: a.add_slot('base_link', 'bow', accepts=[], default='blueboat_flag'),
     'ASSEMBLY ERROR: '
     'slots entry #1 (bow) defaults to blueboat_flag, which it does not accept; add it '
     'to accepts (accepts: nothing)'),
])
def test_values_the_loader_refuses(call, message):
    boat = Assembly()
    with pytest.raises(ConfigError) as caught:
        call(boat)
    assert str(caught.value) == message
    assert boat == Assembly()


def test_from_dict_refuses_unknown_keys_with_the_valid_ones():
    with pytest.raises(AssemblyError) as caught:
        Assembly.from_dict({'parts': [{'slot': 'mast', 'type': 'blueboat_antenna_mast',
                                       'xyz': [0, 0, 1]}]})
    assert str(caught.value).startswith("parts entry #1 (slot mast): unknown key 'xyz'; valid "
                                        'keys: slot, of, type, name')


def test_references_to_instances_not_there_yet_fail_at_build():
    boat = Assembly().fit('tip', 'blueboat_flag', of='mast')  # no instance mast (yet)
    boat.place('blueboat_flag', 'pennant', parent='mast_top')  # nor its frame link
    with pytest.raises(AssemblyError) as caught:
        boat.build()
    assert [str(p) for p in caught.value.problems] == [
        'parts entry #1 (slot tip): of: mast matches no fitted instance; instances: '
        'base_link, battery_port, battery_stbd, deck, flag, gnss, motor_port, motor_stbd, '
        'navigator, pennant, ping, ping_mount; mast is an empty slot of base_link: fill it '
        'first, e.g. {slot: mast, type: blueboat_antenna_mast}',
        'parts entry #2 (pennant): parent: mast_top matches no link; instances: base_link, '
        'battery_port, battery_stbd, deck, flag, gnss, motor_port, motor_stbd, navigator, '
        'pennant, ping, ping_mount '
        '(slot and frame links such as base_link_mast or mast_top work too)']


def test_an_unknown_slot_on_a_known_instance_fails_at_the_call():
    boat = Assembly()
    with pytest.raises(AssemblyError) as caught:
        boat.fit('motorport', 't200_thruster_ccw')
    assert str(caught.value) == (
        'ASSEMBLY ERROR: '
        "parts entry #1 (slot motorport): base_link (blueboat_chassis) has no slot 'motorport'; "
        'did you mean motor_port? its slots: battery_port, battery_stbd, deck, flag, mast, '
        'motor_port, motor_stbd, payload, ping_mount')
    assert boat == Assembly()
    with pytest.raises(AssemblyError, match='ping_mount \\(blueboat_ping_singlebeam_mount\\) has '
                                            "no slot 'pingg'; did you mean ping\\? its slots: "
                                            'ping'):
        boat.empty('pingg', of='ping_mount')


def test_fit_of_none_explains_the_word_none():
    with pytest.raises(ConfigError) as caught:
        Assembly().fit('mast', None)
    assert str(caught.value) == ("fit('mast', None): the type is a part type, or the word 'none' "
                                 "to leave the slot empty (as empty('mast') does)")


def test_remove_of_a_default_occupant_says_how_to_empty_its_slot():
    with pytest.raises(ConfigError) as caught:
        Assembly().remove('ping')
    assert str(caught.value) == (
        'ping is not an entry of this assembly but the default occupant of slot ping of '
        "ping_mount: empty('ping', of='ping_mount') leaves that slot empty (or "
        "empty('ping_mount') to remove ping_mount with what it holds)")
    with pytest.raises(ConfigError, match='default occupant of slot flag of base_link: '
                                          "empty\\('flag'\\) leaves that slot empty$"):
        Assembly().remove('flag')


def test_add_slot_defaults_of_to_the_base_as_the_yaml_does():
    boat = Assembly().add_slot(name='bow', xyz=[0.5, 0, 0.1], **FLAG_SLOT)
    assert boat.to_dict() == {'slots': [{'name': 'bow', 'xyz': [0.5, 0, 0.1], **FLAG_SLOT}]}
    assert Urdf(boat.build()).parent_of['base_link_bow'] == 'base_link'
    boat.remove_slot(name='bow')
    assert boat == Assembly()
    with pytest.raises(ConfigError, match='add_slot needs name='):
        Assembly().add_slot(xyz=[0, 0, 1])


def test_an_assembly_gives_the_gazebo_composition_too():
    result = Assembly(name='boat2').fit('motor_port', 't200_thruster_ccw').build_gazebo('ionic')
    assert result.name == 'boat2' and result.gz_release == 'ionic'
    assert 'gz::sim::systems::Thruster' in result.urdf
    assert '<frame_id>boat2/ping_beam</frame_id>' in result.urdf
    assert '/boat2/motor_port/thrust' in result.bridge_yaml
    assert result.vehicle.parts['motor_port'].type == 't200_thruster_ccw'


def test_the_vehicle_model_and_the_thruster_plugin_give_the_same_coefficient():
    result = Assembly().build_gazebo()
    plugins = {p.find('joint_name').text: float(p.find('thrust_coefficient').text)
               for p in Urdf(result.urdf).root.iter('plugin')
               if p.get('name') == 'gz::sim::systems::Thruster'}
    for name, actuator in result.vehicle.actuators.items():
        assert actuator.thrust_coefficient == plugins[actuator.joint], name
    assert result.vehicle.actuators['motor_port'].thrust_coefficient < 0  # ccw
    assert result.vehicle.actuators['motor_stbd'].thrust_coefficient > 0  # cw


# -- round trips and builds ----------------------------------------------------------------------

def rich_assembly() -> Assembly:
    return (Assembly(name='boat2')
            .fit('motor_port', 't200_thruster_ccw').fit('motor_stbd', 't200_thruster_cw')
            .empty('ping_mount')
            .fit('mast', 'blueboat_antenna_mast')
            .place('blueboat_antenna_mast', 'aft_mast', xyz=[-0.3, 0, 0.2])
            .add_slot('base_link', 'bow', xyz=[0.5, 0, 0.1], accepts=['ping_singlebeam'],
                      default='ping_singlebeam')
            .add_slot('aft_mast', 'pennant', xyz=[0, 0, 0.5], **FLAG_SLOT))


def test_dict_round_trip():
    boat = rich_assembly()
    assert Assembly.from_dict(boat.to_dict()) == boat
    assert Assembly.from_dict(boat.to_dict()) != Assembly()


def test_to_dict_and_from_dict_copy():
    boat = rich_assembly()
    data = boat.to_dict()
    data['parts'].clear()
    assert boat == rich_assembly()
    source = rich_assembly().to_dict()
    copy = Assembly.from_dict(source)
    source['parts'][0]['type'] = 'none'
    assert copy == rich_assembly()


def test_from_dict_takes_tuples_and_numpy_numbers():
    boat = Assembly.from_dict({'parts': [{'type': 'blueboat_flag', 'name': 'spare',
                                          'xyz': (numpy.float64(0.1), 0, numpy.int64(2))}]})
    assert boat.to_dict()['parts'][0]['xyz'] == [0.1, 0, 2]
    assert [type(v) for v in boat.to_dict()['parts'][0]['xyz']] == [float, int, int]


def test_to_yaml_resolves_to_what_build_gives(tmp_path):
    boat = rich_assembly()
    path = boat.to_yaml(tmp_path / 'boat2.yaml')
    assert path == tmp_path / 'boat2.yaml'
    assert resolve_config(path).urdf == boat.build()
    assert Assembly.from_yaml(path) == boat
    # the strict loader reads it back
    assert config_module.read(path).checked().data == boat.to_dict()


def test_to_yaml_replaces_a_file_whole(tmp_path):
    path = tmp_path / 'boat.yaml'
    path.write_text('parts: [{slot: mast, type: blueboat_antenna_mast}]\n', encoding='utf-8')
    Assembly().to_yaml(path)
    assert Assembly.from_yaml(path) == Assembly()
    assert [p.name for p in tmp_path.iterdir()] == ['boat.yaml']  # no temporary left behind


def test_to_yaml_that_cannot_write_says_so_and_writes_nothing(tmp_path):
    blocker = tmp_path / 'not_a_folder'
    blocker.write_text('x', encoding='utf-8')
    with pytest.raises(BlueRoboticsPartsError, match=f'cannot write {blocker}/boat.yaml: '):
        Assembly().to_yaml(blocker / 'boat.yaml')
    assert sorted(p.name for p in tmp_path.iterdir()) == ['not_a_folder']
    assert blocker.read_text(encoding='utf-8') == 'x'


@pytest.mark.parametrize('path', SHIPPED_CONFIGS, ids=[p.stem for p in SHIPPED_CONFIGS])
def test_every_shipped_config_round_trips(path, tmp_path):
    boat = Assembly.from_yaml(path)
    assert Assembly.from_dict(boat.to_dict()) == boat
    assert boat.build() == resolve_config(path).urdf
    assert Assembly.from_yaml(boat.to_yaml(tmp_path / 'copy.yaml')) == boat


def test_from_yaml_reports_file_and_line(tmp_path):
    path = tmp_path / 'boat.yaml'
    path.write_text('parts:\n  - {slot: mast, type: blueboat_antenna_mast}\n'
                    '  - {type: blueboat_flag, name: 2flag}\n', encoding='utf-8')
    with pytest.raises(ConfigError) as caught:
        Assembly.from_yaml(path)
    assert str(caught.value).startswith(f"{path}:3: parts entry #2 (2flag): name '2flag' is not a "
                                        'valid link name')


def test_from_yaml_locates_early_errors_where_the_config_path_does(tmp_path):
    path = tmp_path / 'boat.yaml'
    path.write_text('parts:\n  - {slot: mast, type: blueboat_antenna_mast}\n'
                    '  - {slot: payload, type: blueboat_flag}\n', encoding='utf-8')
    with pytest.raises(ConfigError) as caught:
        Assembly.from_yaml(path)
    assert str(caught.value).startswith(f'{path}:3: ASSEMBLY ERROR: parts entry #2 (slot '
                                        'payload): slot payload of base_link '
                                        '(blueboat_chassis) does not accept')
    with pytest.raises(ConfigError) as resolved:
        resolve_config(path)
    assert str(resolved.value) == str(caught.value)


def test_from_yaml_locates_a_duplicate_name_as_the_check_does(tmp_path):
    path = tmp_path / 'boat.yaml'
    path.write_text('name: boat3\nparts:\n  - {type: blueboat_flag, name: flag}\n',
                    encoding='utf-8')
    with pytest.raises(AssemblyError) as caught:
        Assembly.from_yaml(path)
    assert str(caught.value).startswith(f'{path}:3: 2 instances are named flag')
    with pytest.raises(AssemblyError) as resolved:
        resolve_config(path)
    assert [str(p) for p in caught.value.problems] == [str(p) for p in resolved.value.problems]


def test_from_yaml_makes_part_files_absolute_from_the_files_folder(tmp_path):
    example = REPO / 'config' / 'examples' / 'user_part.yaml'
    boat = Assembly.from_yaml(example)
    assert boat.to_dict()['part_files'] == [str(USER_PART)]
    moved = boat.to_yaml(tmp_path / 'elsewhere.yaml')  # still finds the part file
    assert resolve_config(moved).urdf == resolve_config(example).urdf


def test_to_config_and_resolve():
    boat = rich_assembly()
    assert boat.to_config().data == boat.to_dict()
    resolved = boat.resolve()
    assert resolved.urdf == boat.build()
    assert resolved.record.occupant('base_link', 'bow').type == 'ping_singlebeam'
    assert resolved.record.occupant('aft_mast', 'pennant').name == 'pennant'
    assert resolved.name == 'boat2'


def test_build_vehicle_gives_the_model():
    vehicle = rich_assembly().build_vehicle()
    assert vehicle.root_link == 'base_link'
    assert {'motor_port', 'motor_stbd'} <= set(vehicle.actuators)
    assert vehicle.parts['motor_port'].type == 't200_thruster_ccw'
    assert vehicle.parts['pennant'].parent == 'aft_mast_pennant'
    echosounders = {s.part for s in vehicle.sensors.values() if s.kind == 'echosounder'}
    assert echosounders == {'bow'}  # the Ping moved to the bow slot


def test_equality_and_repr():
    assert Assembly() == Assembly()
    assert Assembly(name='a') != Assembly(name='b')
    assert Assembly() != {}
    boat = rich_assembly()
    assert repr(boat) == ('<Assembly boat2: base_link (blueboat_chassis), 4 fits, 1 placement, '
                          '2 ad hoc slots>')
    assert repr(Assembly()) == ('<Assembly blueboat: base_link (blueboat_chassis), 0 fits, '
                                '0 placements, 0 ad hoc slots>')
    assert repr(Assembly(part_files=str(USER_PART), base_type='blueboat_flag')).endswith(
        ': base_link (blueboat_flag), 0 fits, 0 placements, 0 ad hoc slots, 1 part file>')


# -- size and depth --------------------------------------------------------------------------

def test_five_hundred_placements_through_the_api(tmp_path):
    boat = Assembly(name='fleet_test')
    for index in range(500):
        kind = 'blueboat_flag' if index % 2 else 'blueboat_antenna_mast'
        boat.place(kind, f'item{index}', xyz=[0.001 * index, 0.0, 0.3])
    assert len(boat.to_dict()['parts']) == 500
    urdf_text = boat.build()
    urdf = Urdf(urdf_text)
    placed = [n for n in urdf.links if n.startswith('item') and not n.endswith('_top')]
    assert len(placed) == 500
    assert len([n for n in urdf.links if n.endswith('_top')]) == 250  # each mast's top frame
    assert all(urdf.parent_of[n] == 'base_link' for n in placed)
    assert urdf.origin('item499_joint')[0] == pytest.approx([0.499, 0.0, 0.3])
    path = tmp_path / 'fleet_test.urdf'
    path.write_text(urdf_text, encoding='utf-8')
    checked = run([tool('check_urdf'), path])
    assert checked.returncode == 0, checked.stderr
    slots = len(catalogue.shipped()['blueboat_chassis'].slots)  # each a child slot link
    assert f'root Link: base_link has {slots + 500} child(ren)' in checked.stdout


def test_a_deep_chain_that_plain_xacro_cannot_resolve(tmp_path):
    boat, carrier = Assembly(), 'base_link'
    for level in range(1, 151):
        boat.add_slot(carrier, f's{level}', xyz=[0, 0, 0.5], **FLAG_SLOT)
        carrier = f's{level}'  # the default occupant is named after its slot
    vehicle = boat.build_vehicle()
    path = vehicle.path_to('s150')
    assert path[0] == 'base_link' and path[-1] == 's150'
    assert len([n for n in path if n in vehicle.links]) == 1 + 2 * 150  # slot link + flag each
    # the same config through xacro as shipped, at Python's default recursion limit
    plain = xacro_cli(boat.to_yaml(tmp_path / 'deep.yaml'))
    assert plain.returncode != 0
    assert 'maximum recursion depth exceeded' in plain.stderr
