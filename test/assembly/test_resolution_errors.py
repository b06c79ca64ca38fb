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
Mistakes the expansion catches, named with the offending item and what would be valid.

From the xacro command line: ASSEMBLY ERROR on stderr, non-zero exit. Through the pipeline
(the Python resolution, which every command uses): the same words at the entry's file:line,
together with every other problem of the config.
"""

from __future__ import annotations

from conftest import write_config, xacro_cli
import pytest

CASES = {
    'not_accepted': (
        'parts:\n  - {slot: motor_port, type: m200_weedless_prop_cw}\n',
        ['ASSEMBLY ERROR', 'slot motor_port of base_link', 'does not accept m200_weedless_prop_cw',
         'm200_weedless_prop_ccw, t200_thruster_ccw'], 2),
    'unknown_slot_on_base': (
        'parts:\n  - {slot: motr_port, type: m200_weedless_prop_ccw}\n',
        ['ASSEMBLY ERROR', "'motr_port'", 'base_link (blueboat_chassis) has no slot',
         'battery_port, battery_stbd, deck, flag, mast, motor_port, motor_stbd, payload, '
         'ping_mount'], 2),
    'slot_twice': (
        'parts:\n  - {slot: mast, type: blueboat_antenna_mast}\n  - {slot: mast, type: none}\n',
        ['ASSEMBLY ERROR', 'slot mast of base_link is configured twice',
         'parts entry #1 (slot mast) and parts entry #2 (slot mast)'], 2),
    'bare_on': (
        'parts:\n  - slot: ping\n    on: ping_mount\n    type: none\n',
        ['ASSEMBLY ERROR', 'parts entry #1 (slot ping)', 'bare on:', 'of:'], 2),
    'unknown_type': (
        'parts:\n  - {slot: mast, type: blueboat_antena_mast}\n',
        ['ASSEMBLY ERROR', "unknown part type 'blueboat_antena_mast'",
         'parts entry #1 (slot mast)', 'did you mean blueboat_antenna_mast?',
         'slot mast accepts: blueboat_antenna_mast, or none for an empty slot'], 2),
}


@pytest.mark.parametrize('case', sorted(CASES))
def test_xacro_command_fails_naming_the_problem(tmp_path, case):
    text, expected, _ = CASES[case]
    result = xacro_cli(write_config(tmp_path, text))
    assert result.returncode != 0
    assert result.stdout.strip() == ''
    for fragment in expected:
        assert fragment in result.stderr, (fragment, result.stderr)


@pytest.mark.parametrize('case', ['not_accepted', 'unknown_slot_on_base', 'slot_twice'])
def test_pipeline_points_at_the_entry_line(tmp_path, case):
    from bluerobotics_parts.assembly.pipeline import resolve_config
    from bluerobotics_parts.errors import ConfigError

    text, expected, line = CASES[case]
    path = write_config(tmp_path, '# my boat\n' + text)
    with pytest.raises(ConfigError) as caught:
        resolve_config(path)
    message = str(caught.value)
    assert message.startswith(f'{path}:{line + 1}: ASSEMBLY ERROR: '), message
    for fragment in expected:
        assert fragment in message


def test_pipeline_names_a_bare_on_key_at_its_line(tmp_path):
    from bluerobotics_parts.assembly.pipeline import resolve_config
    from bluerobotics_parts.errors import ConfigError

    path = write_config(tmp_path, CASES['bare_on'][0])
    with pytest.raises(ConfigError) as caught:
        resolve_config(path)
    assert str(caught.value).startswith(f'{path}:3: ASSEMBLY ERROR: parts entry #1 (slot ping) '
                                        'has a bare on:')
    assert 'of:' in str(caught.value)


def test_unknown_slot_deeper_down_is_named_with_that_instances_slots(tmp_path):
    result = xacro_cli(write_config(
        tmp_path, 'parts:\n  - {slot: pingg, of: ping_mount, type: none}\n'))
    assert result.returncode != 0
    assert ("ping_mount (blueboat_ping_singlebeam_mount) has no slot 'pingg'; did you mean ping? "
            'its slots: ping' in result.stderr)


def test_unknown_base_type(tmp_path):
    result = xacro_cli(write_config(tmp_path, 'base: {type: blueboat_chasis}\n'))
    assert result.returncode != 0
    assert ("unknown part type 'blueboat_chasis' in base; did you mean blueboat_chassis? base "
            'types: blueboat_chassis, bluerov2_frame, bluerov2_heavy_frame' in result.stderr)


def test_adhoc_slot_default_must_be_accepted(tmp_path):
    result = xacro_cli(write_config(
        tmp_path, 'slots:\n  - {name: s, accepts: [blueboat_flag], default: ping_singlebeam}\n'))
    assert result.returncode != 0
    assert ('slots entry #1 (s) defaults to ping_singlebeam, which it does not accept; add it '
            'to accepts (accepts: blueboat_flag)') in result.stderr


def test_adhoc_slot_clashing_with_a_part_slot(tmp_path):
    result = xacro_cli(write_config(tmp_path,
                                    'slots:\n  - {name: flag, accepts: [blueboat_flag]}\n'))
    assert result.returncode != 0
    assert ('declares slot flag on base_link, which its part type blueboat_chassis already has'
            in result.stderr)


def test_free_placement_needs_type_and_name(tmp_path):
    result = xacro_cli(write_config(tmp_path, 'parts:\n  - {type: blueboat_flag}\n'))
    assert result.returncode != 0
    assert 'parts entry #1 is a free placement (it has no slot:) and needs name:;' in result.stderr


def test_bad_vector(tmp_path):
    result = xacro_cli(write_config(
        tmp_path, "parts:\n  - {type: blueboat_flag, name: f, xyz: '1 2'}\n"))
    assert result.returncode != 0
    assert ('parts entry #1 (f): xyz must be three finite numbers (metres / radians) as a list '
            '[x, y, z] or a string "x y z"; got \'1 2\'') in result.stderr


def test_user_part_type_clashing_with_the_library(tmp_path):
    (tmp_path / 'flag.yaml').write_text('type: blueboat_flag\n')
    result = xacro_cli(write_config(tmp_path, 'part_files: [flag.yaml]\n'))
    assert result.returncode != 0
    assert 'defines type blueboat_flag, which the shipped library already has' in result.stderr


def test_an_instance_inside_itself_stops_instead_of_recursing(tmp_path):
    result = xacro_cli(write_config(tmp_path, """
slots:
  - {name: a, accepts: [blueboat_flag], default: blueboat_flag}
  - {of: a, name: a, accepts: [blueboat_flag], default: blueboat_flag}
"""))
    assert result.returncode != 0
    assert ('slot a of a would hold an instance named a, a name an instance above it already '
            'has (base_link > a > a)') in result.stderr


def test_a_part_whose_slot_defaults_to_itself_stops(tmp_path):
    from bluerobotics_parts.assembly.pipeline import resolve_config
    from bluerobotics_parts.errors import ConfigError

    (tmp_path / 'tower.yaml').write_text(
        'type: tower\ninertial: {mass: 1}\nslots: {top: {accepts: [tower], default: tower}}\n')
    path = write_config(tmp_path, 'part_files: [tower.yaml]\n'
                                  'parts:\n  - {type: tower, name: t, xyz: [0, 0, 1]}\n')
    with pytest.raises(ConfigError, match=r'slot top of top would hold an instance named top, '
                                          r'a name an instance above it already has '
                                          r'\(t > top > top\)'):
        resolve_config(path)


def test_a_placement_inside_itself_is_found_along_any_chain():
    """One walk over every instance (a chain of 4,000 placements took 188 s)."""
    from bluerobotics_parts.assembly.resolution import _cycles

    chain = {f'f{i}': f'f{i - 1}' if i else 'base_link' for i in range(100000)}
    assert _cycles(chain) == {}
    looped = {'a': 'b', 'b': 'c', 'c': 'a', 'd': 'a', 'base_link': None}
    assert _cycles(looped) == {'a': ['a', 'b', 'c'], 'b': ['b', 'c', 'a'], 'c': ['c', 'a', 'b']}
    assert _cycles({'x': 'x'}) == {'x': ['x']}
