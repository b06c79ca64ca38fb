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
The BlueROV2 family in the part library.

Its frames and their slots, the shipped configs, families in the catalogue and in
``bluerobotics-parts parts``, and a part of another family refused by a BlueROV2 slot with the
usual message.
"""

from __future__ import annotations

from bluerobotics_parts.assembly.catalogue import shipped
from bluerobotics_parts.errors import ConfigError
from bluerobotics_parts.files.yaml_lines import load_file, load_text
from bluerobotics_parts.formats.part_format import check_part
from conftest import cli, CONFIG_DIR, write_config
import pytest

ACCESSORY_SLOTS = {  # slot: (accepts, default)
    'camera': (('bluerov2_camera_tilt',), 'bluerov2_camera_tilt'),
    'light_port': (('lumen_light',), 'lumen_light'),
    'light_stbd': (('lumen_light',), 'lumen_light'),
    'sonar': (('ping_singlebeam',), 'none'),
    'payload': (('bluerov2_payload_skid',), 'none'),
    'navigator': (('navigator_flight_controller',), 'navigator_flight_controller'),
    'depth': (('bar30_pressure_sensor',), 'bar30_pressure_sensor'),
    'scanning_sonar': (('ping360',), 'none'),
    'gripper': (('newton_gripper',), 'none'),  # under the bottom panel
}
FRAMES = {'bluerov2_frame': 6, 'bluerov2_heavy_frame': 8}


@pytest.mark.parametrize('frame', sorted(FRAMES))
def test_a_frame_has_its_thruster_and_accessory_slots(frame):
    slots = shipped()[frame].slots
    thrusters = [f'thruster_{n}' for n in range(1, FRAMES[frame] + 1)]
    assert sorted(slots) == sorted(thrusters + list(ACCESSORY_SLOTS))
    for name in thrusters:
        slot = slots[name]
        assert slot.accepts == ('t200_thruster_ccw', 't200_thruster_cw')
        assert slot.joint == 'fixed' and slot.collision is False  # the T200's rotor turns
    for name, (accepts, default) in ACCESSORY_SLOTS.items():
        assert (slots[name].accepts, slots[name].default) == (accepts, default)


@pytest.mark.parametrize('config, name, frame', [
    ('bluerov2.yaml', 'bluerov2', 'bluerov2_frame'),
    ('bluerov2_heavy.yaml', 'bluerov2_heavy', 'bluerov2_heavy_frame')])
def test_the_shipped_configs_name_the_vehicle_and_its_base_only(config, name, frame):
    data = load_file(CONFIG_DIR / config).data
    assert data == {'name': name, 'base': {'type': frame}}


def families_taking(catalogue) -> dict:
    """
    Map each part type to the families of the base parts whose slot trees take it.

    Base parts are the parts no slot takes; a tree takes what its slots accept, recursively.
    """
    accepted = {t for p in catalogue for s in catalogue[p].slots.values() for t in s.accepts}
    bases = [t for t in catalogue if t not in accepted]
    taken: dict = {}
    for base in bases:
        family, seen, todo = catalogue[base].family, set(), [base]
        while todo:
            part = todo.pop()
            if part in seen:
                continue
            seen.add(part)
            taken.setdefault(part, set()).add(family)
            for slot in catalogue[part].slots.values():
                todo += list(slot.accepts)
    return taken


def test_every_part_names_the_family_whose_slots_take_it():
    """
    Check each part's family against the slots that take it.

    A part's family is the vehicle family of the bases whose slots (recursively) accept it,
    or common when several families' do; every shipped part is reachable from a base.
    """
    catalogue = shipped()
    taken = families_taking(catalogue)
    assert set(taken) == set(catalogue.types())
    for part, families in sorted(taken.items()):
        expected = families.pop() if len(families) == 1 else 'common'
        assert catalogue[part].family == expected, part
    assert {catalogue[t].family for t in catalogue} == {'blueboat', 'bluerov2', 'common'}


def test_parts_lists_the_catalogue_by_family():
    result = cli('parts')
    assert result.returncode == 0, result.stderr
    headings = [line for line in result.stdout.splitlines() if line.startswith(('family', 'no '))]
    assert headings == ['family blueboat', 'family bluerov2',
                        'family common (parts more than one family takes)']
    sections = dict(zip(headings, result.stdout.split('\n\n')))
    assert '\nbluerov2_heavy_frame  (' in sections['family bluerov2']
    assert '\nlumen_light  (0.082 kg)' in sections['family bluerov2']
    assert '\nblueboat_flag  (' in sections['family blueboat']
    assert '\nt200_thruster_cw  (0.344 kg)' in sections['family common (parts more than one '
                                                        'family takes)']
    assert ('    slot thruster_1: accepts t200_thruster_ccw, t200_thruster_cw; default '
            't200_thruster_ccw  (no collision)') in result.stdout
    assert '    frame rotor: xyz 0 0 0, rpy 0 0 0  (joint continuous, 0.042 kg)' in result.stdout


def test_a_user_part_without_a_family_is_listed_last():
    result = cli('parts', '--part-file',
                 CONFIG_DIR / 'examples' / 'user_parts' / 'camera_bracket.yaml')
    assert result.returncode == 0, result.stderr
    last = result.stdout.split('\n\n')[-1]
    assert last.startswith('no family (part files that name none)\n'
                           'camera_bracket  (0.2 kg)  [from ')


def test_a_blueboat_part_in_a_bluerov2_slot_is_refused_naming_what_fits(tmp_path):
    config = write_config(tmp_path, 'name: rov\nbase: {type: bluerov2_frame}\nparts:\n'
                          '  - {slot: light_port, type: blueboat_flag}\n', 'rov.yaml')
    out = tmp_path / 'out'
    result = cli('build', config, '--output', out)
    assert result.returncode == 1
    assert result.stderr == (
        f'error: {config}:4: ASSEMBLY ERROR: parts entry #1 (slot light_port): slot light_port '
        'of base_link (bluerov2_frame) does not accept blueboat_flag; it accepts: lumen_light, '
        'or none to leave it empty; blueboat_flag goes in slot flag of blueboat_chassis (start '
        'the config with base: {type: blueboat_chassis})\n')
    assert not out.exists()


def test_a_bluerov2_part_on_the_blueboat_is_refused_the_same_way(tmp_path):
    config = write_config(tmp_path, 'parts:\n  - {slot: flag, type: lumen_light}\n')
    result = cli('tree', config)
    assert result.returncode == 1
    assert result.stderr == (
        f'error: {config}:2: ASSEMBLY ERROR: parts entry #1 (slot flag): slot flag of base_link '
        '(blueboat_chassis) does not accept lumen_light; it accepts: blueboat_flag, or none to '
        'leave it empty; lumen_light goes in slot light_port of bluerov2_frame, '
        'bluerov2_heavy_frame or slot light_stbd of bluerov2_frame, bluerov2_heavy_frame (start '
        'the config with base: {type: bluerov2_frame})\n')


def test_a_family_must_be_a_name():
    with pytest.raises(ConfigError) as caught:
        check_part(load_text('type: x\nfamily: [rov]\n', 'my_part.yaml'))
    assert str(caught.value).startswith("my_part.yaml:2: family ['rov']: use letters")
