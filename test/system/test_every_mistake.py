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
Every mistake at once: one message per independent problem, in line order, with file:line.

A config (or a user part file) with several mistakes gets them all in one run, whatever stage
finds them (the loader's shapes, the resolution's rules, what only the whole result shows).
A problem that only follows from an earlier one (an entry aimed inside a part whose type is
unknown) is left out.
"""

from __future__ import annotations

from bluerobotics_parts.assembly.catalogue import shipped
from bluerobotics_parts.assembly.pipeline import resolve_config
from bluerobotics_parts.errors import AssemblyError
from bluerobotics_parts.formats.part_format import PART_KEYS
from conftest import cli, write_config
import pytest

KNOWN = ', '.join(shipped().types())  # the library's types, as messages list them

SEVEN_MISTAKES = """\
name: survey_boat
colour: red
parts:
  - {slot: motor_port, type: t200_thruster_cw}
  - {slot: mast, type: blueboat_antena_mast}
  - {type: blueboat_flag, name: f1, xyz: [0, 0]}
  - {slot: pingg, of: ping_mount, type: none}
  - {slot: x, of: nobody, type: none}
  - {type: blueboat_flag, name: flag}
slots:
  - {name: bow, accepts: [blueboat_flag], default: ping_singlebeam}
"""


def problems_of(path) -> list[str]:
    with pytest.raises(AssemblyError) as caught:
        resolve_config(path)
    return [str(p) for p in caught.value.problems]


def test_a_config_with_seven_independent_mistakes_gets_seven_messages_in_line_order(tmp_path):
    path = write_config(tmp_path, SEVEN_MISTAKES)
    assert problems_of(path) == [
        f"{path}:2: the top level: unknown key 'colour'; valid keys: name, base, parts, slots, "
        'part_files, water',
        f'{path}:4: ASSEMBLY ERROR: parts entry #1 (slot motor_port): slot motor_port of '
        'base_link (blueboat_chassis) does not accept t200_thruster_cw; it accepts: '
        'm200_weedless_prop_ccw, t200_thruster_ccw, or none to leave it empty; slot motor_port '
        'takes ccw propellers and t200_thruster_cw turns cw: the two propellers of a pair turn '
        'opposite ways, so that their torques cancel; t200_thruster_cw goes in slot motor_stbd '
        'of blueboat_chassis',
        f"{path}:5: ASSEMBLY ERROR: unknown part type 'blueboat_antena_mast' in parts entry #2 "
        '(slot mast); did you mean blueboat_antenna_mast? slot mast accepts: '
        'blueboat_antenna_mast, or none for an empty slot (bluerobotics-parts parts lists every '
        'type)',
        f'{path}:6: ASSEMBLY ERROR: parts entry #3 (f1): xyz must be three finite numbers '
        '(metres / radians) as '
        'a list [x, y, z] or a string "x y z"; got [0, 0]',
        f'{path}:7: ASSEMBLY ERROR: parts entry #4 (slot pingg): ping_mount '
        '(blueboat_ping_singlebeam_mount) has '
        "no slot 'pingg'; did you mean ping? its slots: ping",
        f'{path}:8: parts entry #5 (slot x): of: nobody matches no fitted instance; instances: '
        'base_link, battery_port, battery_stbd, deck, f1, flag, gnss, motor_port, motor_stbd, '
        'navigator, ping, ping_mount',
        f'{path}:9: 2 instances are named flag (under base_link_flag, under base_link); '
        'instance names become link names and must be unique: give one a name: of its own',
        f'{path}:11: ASSEMBLY ERROR: slots entry #1 (bow) defaults to ping_singlebeam, which it '
        'does not '
        'accept; add it to accepts (accepts: blueboat_flag)',
    ]


def test_the_command_line_prints_each_problem_on_its_own_line(tmp_path):
    path = write_config(tmp_path, SEVEN_MISTAKES)
    result = cli('urdf', path)
    assert result.returncode == 1 and result.stdout == ''
    lines = result.stderr.splitlines()
    assert len(lines) == 8
    assert all(line.startswith(f'error: {path}:') for line in lines)
    assert [int(line.split(':')[2]) for line in lines] == [2, 4, 5, 6, 7, 8, 9, 11]


def test_shape_problems_and_rule_problems_come_together(tmp_path):
    path = write_config(tmp_path, 'name: 2boat\nparts:\n  - {slot: mast, type: [a]}\n'
                                  '  - {slot: payload, type: blueboat_flag}\n'
                                  '  - {type: blueboat_flag}\n')
    assert problems_of(path) == [
        f"{path}:1: name '2boat' cannot be a ROS namespace: use letters, digits and "
        'underscores, starting with a letter',
        f'{path}:3: parts entry #1 (slot mast): type must be a non-empty string, not a list '
        "(['a'])",
        f'{path}:4: ASSEMBLY ERROR: parts entry #2 (slot payload): slot payload of base_link '
        '(blueboat_chassis) '
        'does not accept blueboat_flag; it accepts: blueboat_payload_bracket, or none to leave '
        'it empty; blueboat_flag goes in slot flag of blueboat_chassis',
        f'{path}:5: ASSEMBLY ERROR: parts entry #3 is a free placement (it has no slot:) and '
        'needs name:; to '
        'fill a slot, give slot: (and of: for a slot not on the base)',
    ]


@pytest.mark.parametrize('text, expected', [
    # the mast's type is unknown: entries aimed at mast say nothing more
    ('parts:\n  - {slot: mast, type: blueboat_antena_mast}\n'
     '  - {type: blueboat_flag, name: pennant, parent: mast_top}\n'
     'slots:\n  - {of: mast, name: tip, accepts: [blueboat_flag]}\n',
     [2]),
    # a placement of an unknown type: nothing aimed at it or at its frames
    ('parts:\n  - {type: blueboat_antena_mast, name: aft}\n'
     '  - {slot: tip, of: aft, type: blueboat_flag}\n'
     '  - {type: blueboat_flag, name: pennant, parent: aft_top}\n',
     [2]),
    # an ad hoc slot without a name: the entry filling it is not called a stray
    ('slots:\n  - {of: base_link, accepts: [blueboat_flag]}\n'
     'parts:\n  - {slot: bow, type: blueboat_flag}\n',
     [2]),
])
def test_what_only_follows_from_an_earlier_problem_is_left_out(tmp_path, text, expected):
    path = write_config(tmp_path, text)
    found = problems_of(path)
    assert [int(message.split(':')[1]) for message in found] == expected, found


def test_every_duplicate_key_at_once(tmp_path):
    path = write_config(tmp_path, 'name: a\nname: b\nparts:\n  - slot: mast\n'
                                  '    type: blueboat_antenna_mast\n    type: none\n')
    assert problems_of(path) == [
        f"{path}:2: duplicate key 'name' (first given on line 1); YAML would silently keep "
        'only the last one: remove one of them',
        f"{path}:6: duplicate key 'type' (first given on line 5); YAML would silently keep "
        'only the last one: remove one of them',
    ]


def test_a_user_part_file_with_several_mistakes_gets_them_all(tmp_path):
    part = tmp_path / 'bracket.yaml'
    part.write_text('type: bracket\n'
                    'mass: 3\n'
                    'inertial: {mass: -1}\n'
                    'visual:\n'
                    '  - mesh: missing.stl\n'
                    '  - {box: [1, 1]}\n'
                    'slots:\n'
                    '  s: {accepts: [blueboat_flag], default: ping_singlebeam}\n',
                    encoding='utf-8')
    path = write_config(tmp_path, 'part_files: [bracket.yaml]\n'
                                  'parts:\n  - {slot: mast, type: blueboat_antena_mast}\n')
    assert problems_of(path) == [
        f"{path}:3: ASSEMBLY ERROR: unknown part type 'blueboat_antena_mast' in parts entry #1 "
        '(slot mast); did you mean blueboat_antenna_mast? slot mast accepts: '
        'blueboat_antenna_mast, or none for an empty slot (bluerobotics-parts parts lists every '
        'type)',
        f"{part}:2: a part has no key 'mass'; valid keys: "
        + ', '.join(PART_KEYS) + ' (and <key>_source / <key>_unverified notes)',
        f'{part}:3: inertial mass (kg) must be positive, got -1',
        f'{part}:5: mesh missing.stl not found (looked for {tmp_path}/missing.stl); mesh paths '
        "are relative to the part file's folder",
        f'{part}:6: visual item #2 box must be a list of three numbers, got [1, 1]',
        f'{part}:8: slot s defaults to ping_singlebeam, which it does not accept; accepts: '
        'blueboat_flag',
    ]
