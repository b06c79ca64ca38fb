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

"""bluerobotics_parts.assembly.urdf_check: a config's problems, and a URDF's record against it."""

from __future__ import annotations

from bluerobotics_parts.assembly import urdf_check
from bluerobotics_parts.assembly.pipeline import resolve_config
from bluerobotics_parts.assembly.record import read
from bluerobotics_parts.errors import AssemblyError
from bluerobotics_parts.formats import config as config_module
from conftest import write_config
import pytest


@pytest.fixture(scope='module')
def default_urdf(resolve_text) -> str:
    return resolve_text()


def located(tmp_path, text):
    return config_module.read(write_config(tmp_path, text, 'my_boat.yaml')).checked()


def messages(found) -> list[str]:
    return [str(p) for p in found]


def test_a_clean_config_has_no_problems(tmp_path):
    config = located(tmp_path, 'parts:\n  - {slot: mast, type: blueboat_antenna_mast}\n')
    urdf = resolve_config(config).urdf
    assert urdf_check.problems(config, urdf) == []
    urdf_check.check(config, urdf)  # does not raise


def test_the_record_is_read_from_the_urdf(default_urdf):
    record = read(default_urdf)
    assert record.base.name == 'base_link' and record.base.type == 'blueboat_chassis'
    assert record.occupant('ping_mount', 'ping').type == 'ping_singlebeam'
    assert [s.name for s in record.slots_of('ping_mount')] == ['ping']
    assert record.occupant('base_link', 'mast') is None


def test_entry_whose_of_matches_no_instance(tmp_path, default_urdf):
    config = located(tmp_path, 'parts:\n  - {slot: ping, of: ping_mont, type: none}\n')
    found = messages(urdf_check.problems(config, default_urdf))
    assert len(found) == 1
    assert found[0].startswith(f'{config.file}:2: parts entry #1 (slot ping): of: ping_mont '
                               'matches no fitted instance; instances: base_link, battery_port')
    assert 'ping_mount' in found[0]


def test_entry_whose_slot_is_not_on_that_instance(tmp_path, default_urdf):
    config = located(tmp_path, 'parts:\n  - slot: pingg\n    of: ping_mount\n    type: none\n')
    found = messages(urdf_check.problems(config, default_urdf))
    assert found == [f'{config.file}:2: ASSEMBLY ERROR: parts entry #1 (slot pingg): ping_mount '
                     "(blueboat_ping_singlebeam_mount) has no slot 'pingg'; did you mean ping? "
                     'its slots: ping']


def test_entry_inside_a_subtree_that_is_not_fitted(tmp_path):
    # The bracket is removed, so an entry for its ping slot matches nothing deeper down:
    # xacro never visits it; the check names it.
    config = located(tmp_path, 'parts:\n  - {slot: ping_mount, type: none}\n'
                               '  - {slot: ping, of: ping_mount, type: ping_singlebeam}\n')
    with pytest.raises(AssemblyError) as caught:
        resolve_config(config)
    assert len(caught.value.problems) == 1
    assert str(caught.value).startswith(f'{config.file}:3: parts entry #2 (slot ping): of: '
                                        'ping_mount matches no fitted instance')


def test_adhoc_slot_whose_of_matches_nothing(tmp_path):
    config = located(tmp_path, 'slots:\n  - {of: mast, name: top, accepts: [blueboat_flag]}\n')
    with pytest.raises(AssemblyError) as caught:
        resolve_config(config)
    assert str(caught.value) == (f'{config.file}:2: slots entry #1 (top): of: mast matches no '
                                 'fitted instance; instances: base_link, battery_port, '
                                 'battery_stbd, deck, flag, gnss, motor_port, motor_stbd, '
                                 'navigator, ping, ping_mount; mast is an empty slot of '
                                 'base_link: fill it first, e.g. {slot: mast, type: '
                                 'blueboat_antenna_mast}')


def test_free_placement_whose_parent_matches_nothing(tmp_path):
    config = located(tmp_path, 'parts:\n  - {type: blueboat_flag, name: f2, parent: mastt}\n')
    urdf_config = located(tmp_path / '..', 'parts:\n  - {type: blueboat_flag, name: f2}\n')
    found = messages(urdf_check.problems(config, resolve_config(urdf_config).urdf))
    assert found == [f'{config.file}:2: parts entry #1 (f2): parent: mastt matches no link; '
                     'instances: base_link, battery_port, battery_stbd, deck, f2, flag, gnss, '
                     'motor_port, motor_stbd, navigator, ping, ping_mount (slot and frame '
                     'links such as base_link_mast or mast_top work too)']


def test_two_instances_with_the_same_name(tmp_path):
    config = located(tmp_path,
                     'parts:\n  - {slot: mast, type: blueboat_antenna_mast, name: flag}\n')
    with pytest.raises(AssemblyError) as caught:
        resolve_config(config)
    assert str(caught.value) == (f'{config.file}:2: 2 instances are named flag (under '
                                 'base_link_flag, under base_link_mast); instance names become '
                                 'link names and must be unique: give one a name: of its own')


def test_instance_named_like_a_slot_link(tmp_path):
    config = located(tmp_path, 'parts:\n  - {type: blueboat_flag, name: base_link_mast}\n')
    with pytest.raises(AssemblyError) as caught:
        resolve_config(config)
    assert str(caught.value) == (f'{config.file}:2: the link name base_link_mast is used 2 '
                                 'times: instance under base_link, slot mast of base_link; link '
                                 'names must be unique: rename the instance or the slot')


@pytest.mark.parametrize('text, line, fragment', [
    ('nmae: boat\n', 1,
     "the top level: unknown key 'nmae'; did you mean name? valid keys: name, base, parts, "
     'slots, part_files'),
    ('base:\n  type: blueboat_chassis\n  nam: hull\n', 3,
     "base: unknown key 'nam'; did you mean name? valid keys: type, name"),
    ('parts:\n  - slot: mast\n    typ: blueboat_antenna_mast\n', 3,
     "parts entry #1 (slot mast): unknown key 'typ'; did you mean type? valid keys: slot, of, "
     'type, name'),
    ('parts:\n  - {slot: mast, type: none, xyz: [0, 0, 1]}\n', 2,
     "parts entry #1 (slot mast): unknown key 'xyz'; valid keys: slot, of, type, name (a slot "
     'entry takes its pose from the slot'),
    ('parts:\n  - {type: blueboat_flag, name: f, pos: [0, 0, 1]}\n', 2,
     "parts entry #1 (f): unknown key 'pos'; valid keys: type, name, parent, xyz, rpy (this is "
     'a free placement because it has no slot:)'),
    ('slots:\n  - {name: s, accept: [blueboat_flag]}\n', 2,
     "slots entry #1 (s): unknown key 'accept'; did you mean accepts? valid keys: of, name, xyz, "
     'rpy, accepts, default, collision, joint'),
])
def test_unknown_keys_at_every_level(tmp_path, default_urdf, text, line, fragment):
    config = located(tmp_path, text)
    found = messages(urdf_check.problems(config, default_urdf))
    assert any(m.startswith(f'{config.file}:{line}: {fragment}') for m in found), found


def test_unknown_key_is_reported_before_resolving(tmp_path):
    # A typo'd type key is named as an unknown key, not as "needs type:".
    config = located(tmp_path, 'parts:\n  - {slot: mast, typ: blueboat_antenna_mast}\n')
    with pytest.raises(Exception) as caught:
        resolve_config(config)
    assert "unknown key 'typ'" in str(caught.value)


def test_every_problem_is_listed_at_once(tmp_path, default_urdf):
    config = located(tmp_path, 'colour: red\nparts:\n  - {slot: x, of: nobody, type: none}\n')
    with pytest.raises(AssemblyError) as caught:
        urdf_check.check(config, default_urdf)
    assert len(caught.value.problems) == 2
    assert "unknown key 'colour'" in str(caught.value)
    assert 'of: nobody matches no fitted instance' in str(caught.value)


def test_a_urdf_from_another_config_is_inconsistent(tmp_path, default_urdf):
    config = located(tmp_path, 'parts:\n  - {slot: motor_port, type: t200_thruster_ccw}\n')
    found = messages(urdf_check.problems(config, default_urdf))
    assert found == [f'{config.file}:2: parts entry #1 (slot motor_port): the config fits '
                     't200_thruster_ccw but the URDF has m200_weedless_prop_ccw in slot '
                     'motor_port of base_link: the URDF was not resolved from this config']


def test_a_urdf_without_manifest_is_a_problem(tmp_path):
    config = located(tmp_path, '')
    found = messages(urdf_check.problems(config, '<robot name="x"><link name="a"/></robot>'))
    assert found == ['the URDF has no <assembly_part> records: it was not resolved by '
                     'bluerobotics_parts (urdf/assembly.xacro)']


def test_check_accepts_a_plain_dict(default_urdf):
    assert urdf_check.problems({}, default_urdf) == []
    assert messages(urdf_check.problems({'colour': 1}, default_urdf)) == [
        "the top level: unknown key 'colour'; valid keys: name, base, parts, slots, part_files, "
        'water']


def test_a_slot_link_named_like_a_frame_link(tmp_path):
    config = located(tmp_path, 'parts:\n  - {slot: mast, type: blueboat_antenna_mast}\n'
                               'slots:\n  - {of: mast, name: top, accepts: [blueboat_flag]}\n')
    with pytest.raises(AssemblyError) as caught:
        resolve_config(config)
    assert str(caught.value) == (f'{config.file}:4: the link name mast_top is used 2 times: '
                                 'slot top of mast, frame top of mast; link names must be '
                                 'unique: rename the instance or the slot')


def test_a_placement_inside_its_own_subtree(tmp_path):
    config = located(tmp_path, 'parts:\n  - {type: blueboat_antenna_mast, name: m2, '
                               'parent: m2_top}\n')
    with pytest.raises(AssemblyError) as caught:
        resolve_config(config)
    assert str(caught.value) == (f'{config.file}:2: m2 is placed on m2_top, which is inside m2 '
                                 'itself (m2 < m2): place it on a link outside its own subtree')


@pytest.mark.parametrize('config_text, urdf_config, fragment', [
    ('', 'config/examples/t200.yaml',
     'the URDF has motor_port (t200_thruster_ccw) in slot motor_port of base_link, where the '
     'config keeps the default (m200_weedless_prop_ccw)'),
    ('', 'config/examples/free_placement.yaml',
     'the URDF places aft_mast (blueboat_antenna_mast) on base_link, which the config does not'),
    ('', 'config/examples/ping_at_bow.yaml',
     'the URDF has slot bow_ping on base_link, which neither its part type blueboat_chassis nor '
     'the config declares'),
    ('parts:\n  - {slot: mast, type: blueboat_antenna_mast, name: m1}\n',
     'config/examples/mast_and_payload.yaml',
     'parts entry #1 (slot mast): the config names the occupant m1 but the URDF names it mast'),
    ('base: {type: blueboat_chassis, name: hull}\n', 'config/blueboat.yaml',
     "the URDF's base is base_link (blueboat_chassis) but the config's is hull "
     '(blueboat_chassis)'),
    ('parts:\n  - type: blueboat_antenna_mast\n    name: aft_mast\n    xyz: [9, 9, 9]\n'
     'slots:\n  - {of: aft_mast, name: pennant, xyz: [0, 0, 0.5], accepts: [blueboat_flag], '
     'default: blueboat_flag}\n',
     'config/examples/free_placement.yaml',
     "parts entry #1 (aft_mast): xyz is [9.0, 9.0, 9.0] in the config but '-0.45 0 0.18' in "
     'the URDF'),
])
def test_the_check_runs_both_ways(tmp_path, resolve_text, config_text, urdf_config, fragment):
    from conftest import REPO

    config = located(tmp_path, config_text)
    found = messages(urdf_check.problems(config, resolve_text(REPO / urdf_config)))
    assert any(fragment in m and m.endswith('the URDF was not resolved from this config')
               for m in found), found


def test_check_reads_a_urdf_path_and_names_an_unreadable_one(tmp_path, default_urdf):
    from pathlib import Path

    path = tmp_path / 'robot.urdf'
    path.write_text(default_urdf)
    assert urdf_check.problems({}, path) == []
    path.write_bytes(b'\xff\xfe')
    assert 'cannot read' in messages(urdf_check.problems({}, Path(path)))[0]


def test_every_shipped_urdf_checks_against_its_own_config_only(resolve_text):
    from conftest import SHIPPED_CONFIGS

    urdfs = {path: resolve_text(path) for path in SHIPPED_CONFIGS}
    for config in SHIPPED_CONFIGS:
        for path, urdf in urdfs.items():
            found = urdf_check.problems(config, urdf)
            if path == config:
                assert found == [], (config, found)
            else:
                assert found and all(m.endswith('the URDF was not resolved from this config')
                                     for m in messages(found)), (config, path, found)


def test_an_edited_slot_pose_is_named_at_its_ad_hoc_slot(tmp_path, resolve_text):
    from conftest import REPO

    config = REPO / 'config' / 'examples' / 'ping_at_bow.yaml'
    urdf = resolve_text(config).replace('xyz="0.45 0.3615 -0.06"', 'xyz="0.45 0.3615 -0.6"')
    assert messages(urdf_check.problems(config, urdf)) == [
        f'{config}:7: slots entry #1 (bow_ping): xyz is [0.45, 0.3615, -0.06] in the config '
        "but '0.45 0.3615 -0.6' in the URDF: the URDF was not resolved from this config"]


def test_an_edited_pose_from_the_part_data_is_named(default_urdf):
    from bluerobotics_parts import paths

    urdf = default_urdf.replace('xyz="-0.52 0.301 -0.117"', 'xyz="-0.52 0.301 0.117"')
    assert messages(urdf_check.problems(None, urdf)) == [
        f'{paths.default_config()}: joint base_link_motor_port_joint: xyz is '
        "'-0.52 0.301 0.117' in the URDF but '-0.52 0.301 -0.117' from the part data: the URDF "
        'was not resolved from this config']


def test_numbers_are_compared_as_numbers(default_urdf):
    urdf = default_urdf.replace('xyz="-0.52 0.301 -0.117"', 'xyz="-5.2e-1 0.3010 -0.117"')
    assert urdf_check.problems(None, urdf) == []


def test_a_record_in_another_order_is_named(default_urdf):
    from bluerobotics_parts.assembly.record import parse_urdf

    root = parse_urdf(default_urdf)
    slots = root.findall('assembly_slot')
    root.remove(slots[0])
    root.append(slots[0])  # the same records, the first slot last
    found = messages(urdf_check.problems({}, root))
    assert len(found) == 1 and found[0].startswith(
        'the URDF records other slots than the config resolves to, from record #1 on '
        '(of=base_link name=motor_port link=base_link_motor_port expected, of=base_link '
        'name=motor_stbd link=base_link_motor_stbd found)'), found


def test_a_missing_joint_is_named(default_urdf):
    from bluerobotics_parts.assembly.record import parse_urdf

    root = parse_urdf(default_urdf)
    root.remove(root.find("joint[@name='flag_joint']"))
    found = messages(urdf_check.problems(None, root))
    assert found and 'flag_joint' in found[0], found


def test_the_documented_names_are_on_the_assembly_folder(tmp_path):
    """
    The names README.md and docs/DESIGN.md give for the assembly folder.

    ``bluerobotics_parts.assembly.check`` / ``problems``; resolve_config too.
    """
    import bluerobotics_parts.assembly as documented

    resolved = documented.resolve_config(None)
    documented.check(None, resolved.urdf)
    assert documented.problems(None, resolved.urdf) == []
    other = write_config(tmp_path, 'parts:\n  - {slot: mast, type: blueboat_antenna_mast}\n')
    with pytest.raises(AssemblyError):
        documented.check(other, resolved.urdf)


@pytest.mark.parametrize('name', ['blueboat.yaml', 'bluerov2.yaml', 'bluerov2_heavy.yaml'])
def test_the_built_and_exported_descriptions_check_against_their_config(tmp_path, name):
    """
    What ``build`` and ``export`` write passes ``check`` (it once failed on both).

    Their description carries the root link's inertia on ``base_link_inertia`` (for
    robot_state_publisher), a link the plain ``urdf`` output does not have.
    """
    from conftest import cli, CONFIG_DIR

    config = CONFIG_DIR / name
    built = cli('build', config, '-o', tmp_path / 'out')
    assert built.returncode == 0, built.stderr
    urdf = tmp_path / 'out' / 'robot_description.urdf'
    assert '_inertia_joint' in urdf.read_text(encoding='utf-8')
    result = cli('check', config, urdf)
    assert result.returncode == 0 and result.stdout.startswith('OK: '), result.stderr
    exported = cli('export', config, tmp_path / 'export')
    assert exported.returncode == 0, exported.stderr
    result = cli('check', tmp_path / 'export' / 'config.yaml', tmp_path / 'export' / 'robot.urdf')
    assert result.returncode == 0 and result.stdout.startswith('OK: '), result.stderr


def test_an_inertia_carrier_elsewhere_is_still_a_difference(default_urdf):
    """Only the fixed joint from the root to ``<root>_inertia`` is the composition's."""
    stray = ('<link name="base_link_flag_inertia"/><joint name="x" type="fixed">'
             '<parent link="base_link_flag"/><child link="base_link_flag_inertia"/></joint>'
             '</robot>')
    found = urdf_check.problems({}, default_urdf.replace('</robot>', stray))
    assert any('joints where the config resolves to' in m for m in messages(found)), found


@pytest.mark.parametrize('text, words', [
    ('garbage', 'not well-formed XML'),
    ('<robot name="x"><link name="a"/></robot>', 'the URDF has no <assembly_part> records'),
])
def test_a_bad_urdf_file_is_named(tmp_path, text, words):
    """``check`` and ``bridge`` say which file is not a URDF of ours."""
    from conftest import cli, CONFIG_DIR

    urdf = tmp_path / 'wrong.urdf'
    urdf.write_text(text, encoding='utf-8')
    for args in (('check', CONFIG_DIR / 'blueboat.yaml', urdf), ('bridge', urdf)):
        result = cli(*args)
        assert result.returncode == 1
        assert f'error: {urdf}: {words}' in result.stderr, (args, result.stderr)


def test_a_slot_named_like_the_inertia_carrier_is_still_compared(tmp_path):
    """A base slot ``inertia`` makes a link ``base_link_inertia`` of the config's own."""
    from conftest import cli

    config = write_config(tmp_path, 'name: bluerov2\nbase: {type: bluerov2_frame}\nslots:\n'
                                    '  - {name: inertia, xyz: [0, 0, 0.1], accepts: '
                                    '[lumen_light]}\n', 'rov.yaml')
    urdf = tmp_path / 'rov.urdf'
    assert cli('urdf', config, '-o', urdf).returncode == 0
    assert cli('check', config, urdf).returncode == 0
    moved = urdf.read_text(encoding='utf-8').replace(
        'rpy="0 0 0" xyz="0 0 0.1"/>', 'rpy="0 0 0" xyz="0 0 0.2"/>')
    assert moved != urdf.read_text(encoding='utf-8')
    urdf.write_text(moved, encoding='utf-8')
    result = cli('check', config, urdf)
    assert result.returncode == 1 and 'xyz' in result.stderr, result.stderr


@pytest.mark.parametrize('edit, found', [
    (('<axis xyz="0.0 1.0 0.0"/>', '<axis xyz="0 0 1"/>'),
     "joint hd_camera_joint: <axis xyz> is '0 0 1' in the URDF but '0.0 1.0 0.0'"),
    (('upper="1.5707963267948966" velocity="1.0"', 'upper="3.0" velocity="1.0"'),
     "joint hd_camera_joint: <limit upper> is '3.0' in the URDF but '1.5707963267948966'"),
    (('<axis xyz="0.0 1.0 0.0"/>', ''),  # URDF's default then: 1 0 0
     "joint hd_camera_joint: <axis xyz> is '1 0 0' in the URDF but '0.0 1.0 0.0'"),
    (('effort="0.2" lower=', 'lower='),
     "joint hd_camera_joint: <limit effort> is missing in the URDF but '0.2'"),
])
def test_a_moving_joints_axis_and_limits_are_compared(edit, found):
    """A tilt widened past its range, or turned about another axis, is not the config's."""
    from conftest import CONFIG_DIR

    config = CONFIG_DIR / 'examples' / 'bluerov2_payload.yaml'
    urdf = resolve_config(config).urdf
    assert urdf_check.problems(config_module.read(config), urdf) == []
    changed = urdf.replace(edit[0], edit[1], 1)
    assert changed != urdf
    assert any(found in m for m in messages(urdf_check.problems(config_module.read(config),
                                                                changed)))


def test_a_config_slots_joint_is_located_at_the_config_and_defaults_count(tmp_path):
    """A config's own moving slot is named at its line; an axis left out is URDF's 1 0 0."""
    config = write_config(tmp_path, (
        'base: {type: bluerov2_frame}\nslots:\n'
        '  - {name: pan, xyz: [0, 0, 0.2], joint: revolute, axis: [1, 0, 0],\n'
        '     limits: {lower: 0, upper: 1, effort: 1, velocity: 1},\n'
        '     accepts: [lumen_light], default: lumen_light}\n'))
    urdf = resolve_config(config).urdf
    loaded = config_module.read(config)
    assert urdf_check.problems(loaded, urdf) == []
    start = urdf.index('<joint name="pan_joint"')
    axis = '<axis xyz="1 0 0"/>'
    assert urdf.index(axis, start) < urdf.index('</joint>', start)
    left_out = urdf[:start] + urdf[start:].replace(axis, '', 1)
    assert urdf_check.problems(loaded, left_out) == []  # URDF's default axis: the same joint
    wider = urdf[:start] + urdf[start:].replace('upper="1"', 'upper="2"', 1)
    found = [str(p) for p in urdf_check.problems(loaded, wider)]
    assert len(found) == 1 and found[0].startswith(f'{config}:3: slots entry #1 (pan')
    assert "joint pan_joint <limit upper> is '2' in the URDF but '1' in the config" in found[0]
