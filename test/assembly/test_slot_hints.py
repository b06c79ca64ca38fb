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
A slot that is not where a newcomer aims: the message says where it is and how to get there.

The DVL's slot is the payload skid's, thruster_7 the Heavy's, sonar the ROV frames'; a
propeller of the other hand fits the other motor. Each message is the one the user sees (the
command's stderr, file:line), and the xacro resolver stops with the same words.
"""

from __future__ import annotations

from conftest import cli, REPO, write_config, xacro_cli
import pytest

ROV = 'name: rov\nbase: {type: bluerov2_frame}\nparts:\n'


def error_of(tmp_path, text: str) -> str:
    """Return the one error line ``tree`` prints for a config (after ``file:line: ``)."""
    config = write_config(tmp_path, text)
    result = cli('tree', config)
    assert result.returncode == 1, result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    return lines[0].split(': ', 2)[2]


def test_a_slot_of_the_payload_skid_says_so_and_how_to_reach_it(tmp_path):
    message = error_of(tmp_path, ROV + '  - {slot: dvl, type: dvl_a50}\n')
    assert message.startswith('ASSEMBLY ERROR: parts entry #1 (slot dvl): base_link '
                              "(bluerov2_frame) has no slot 'dvl'; its slots: camera, ")
    assert message.endswith(
        '; dvl is a slot of bluerov2_payload_skid, which goes in slot payload of '
        'bluerov2_frame, bluerov2_heavy_frame (fit it with {slot: payload, type: '
        'bluerov2_payload_skid}, then give this entry of: payload)')


def test_the_heavys_thruster_names_its_base_instead_of_a_near_miss(tmp_path):
    message = error_of(tmp_path, ROV + '  - {slot: thruster_7, type: t200_thruster_cw}\n')
    assert 'did you mean' not in message
    assert message.endswith('; thruster_7 is a slot of the base bluerov2_heavy_frame (start the '
                            'config with base: {type: bluerov2_heavy_frame})')


def test_a_near_miss_with_no_such_slot_elsewhere_is_still_suggested(tmp_path):
    message = error_of(tmp_path, ROV + '  - {slot: thruster_9, type: t200_thruster_cw}\n')
    assert "has no slot 'thruster_9'; did you mean thruster_1? its slots:" in message


def test_the_rov_snippet_without_a_base_says_the_slots_are_the_rov_frames(tmp_path):
    config = write_config(tmp_path, 'parts:\n  - {slot: sonar, type: ping_singlebeam}\n'
                                    '  - {slot: payload, type: bluerov2_payload_skid}\n'
                                    '  - {slot: light_stbd, type: none}\n')
    lines = cli('tree', config).stderr.splitlines()
    assert len(lines) == 3
    assert lines[0].endswith('sonar is a slot of the bases bluerov2_frame, bluerov2_heavy_frame '
                             '(start the config with base: {type: bluerov2_frame})')
    assert lines[1].endswith('does not accept bluerov2_payload_skid; it accepts: '
                             'blueboat_payload_bracket, or none to leave it empty; '
                             'bluerov2_payload_skid goes in slot payload of bluerov2_frame, '
                             'bluerov2_heavy_frame (start the config with base: '
                             '{type: bluerov2_frame})')
    assert lines[2].endswith('light_stbd is a slot of the bases bluerov2_frame, '
                             'bluerov2_heavy_frame (start the config with base: '
                             '{type: bluerov2_frame})')


def test_the_docs_rov_snippet_builds_as_written(tmp_path):
    """docs/ROV.md's "a config of your own", copied as it is, builds."""
    text = (REPO / 'docs' / 'ROV.md').read_text(encoding='utf-8')
    (block,) = [b for b in text.split('\n\n') if '# a config of your own' in b]
    snippet = '\n'.join(line[4:] for line in block.splitlines())
    assert 'base: {type: bluerov2_frame}' in snippet, snippet
    result = cli('build', write_config(tmp_path, snippet), '-o', tmp_path / 'out')
    assert result.returncode == 0, result.stderr
    assert '/bluerov2/sonar/range' in result.stdout


def test_a_base_written_as_a_string_is_shown_as_a_mapping(tmp_path):
    message = error_of(tmp_path, 'name: rov\nbase: bluerov2_frame\n')
    assert message == ("base must be a mapping of keys, not a string ('bluerov2_frame'); write "
                       'base: {type: bluerov2_frame}')


def test_an_unknown_base_lists_the_base_types_only(tmp_path):
    message = error_of(tmp_path, 'base: {type: bluerov2_fram}\n')
    assert message == ("ASSEMBLY ERROR: unknown part type 'bluerov2_fram' in base; did you mean "
                       'bluerov2_frame? base types: blueboat_chassis, bluerov2_frame, '
                       'bluerov2_heavy_frame (bluerobotics-parts parts lists every type)')


def test_a_propeller_of_the_other_hand_says_why_and_where_it_fits(tmp_path):
    message = error_of(tmp_path, 'parts:\n  - {slot: motor_port, type: t200_thruster_cw}\n')
    assert message.endswith(
        'does not accept t200_thruster_cw; it accepts: m200_weedless_prop_ccw, '
        't200_thruster_ccw, or none to leave it empty; slot motor_port takes ccw propellers '
        'and t200_thruster_cw turns cw: the two propellers of a pair turn opposite ways, so '
        'that their torques cancel; t200_thruster_cw goes in slot motor_stbd of '
        'blueboat_chassis')


def test_the_boats_electronics_are_slots_of_its_deck(tmp_path):
    message = error_of(tmp_path, 'parts:\n  - {slot: navigator, type: none}\n')
    assert 'navigator is a slot of blueboat_electronics_deck, which goes in slot deck of ' \
        'blueboat_chassis (there by default: give this entry of: deck)' in message


def test_of_an_empty_slot_says_to_fill_it_first(tmp_path):
    message = error_of(tmp_path, ROV + '  - {slot: dvl, of: payload, type: dvl_a50}\n')
    assert message.endswith('; payload is an empty slot of base_link: fill it first, e.g. '
                            '{slot: payload, type: bluerov2_payload_skid}')


@pytest.mark.parametrize('text', [
    ROV + '  - {slot: dvl, type: dvl_a50}\n',
    ROV + '  - {slot: thruster_7, type: t200_thruster_cw}\n',
    'parts:\n  - {slot: motor_port, type: t200_thruster_cw}\n',
    'parts:\n  - {slot: payload, type: bluerov2_payload_skid}\n',
    'base: {type: bluerov2_fram}\n',
], ids=['dvl', 'thruster_7', 'hand', 'skid', 'base'])
def test_xacro_stops_with_the_same_words(tmp_path, text):
    config = write_config(tmp_path, text)
    ours = cli('tree', config).stderr.splitlines()[0].split(': ', 2)[2]
    result = xacro_cli(config)
    assert result.returncode != 0
    assert ours in result.stderr
