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
``bluerobotics-parts new --from VEHICLE FILE``: a commented config to start from.

It builds as it is, into the shipped vehicle; it lists every slot with what it accepts and its
default; uncommenting an entry works; it never replaces a file without --force, nor an input.
"""

from __future__ import annotations

from bluerobotics_parts.assembly.pipeline import resolve_config
from conftest import cli, CONFIG_DIR
import pytest


@pytest.mark.parametrize('vehicle', ['blueboat', 'bluerov2', 'bluerov2_heavy'])
def test_the_starting_config_builds_into_the_shipped_vehicle(tmp_path, vehicle):
    out = tmp_path / 'mine.yaml'
    result = cli('new', '--from', vehicle, out)
    assert result.returncode == 0, result.stderr
    assert result.stderr == (f'wrote {out}: a {vehicle} to start from, every slot listed; next: '
                             f'bluerobotics-parts info {out}\n')
    assert resolve_config(out).urdf == resolve_config(CONFIG_DIR / f'{vehicle}.yaml').urdf
    built = cli('build', out, '-o', tmp_path / 'built')
    assert built.returncode == 0, built.stderr


def test_every_slot_is_listed_with_what_it_accepts_and_its_default():
    text = cli('new', '--from', 'bluerov2').stdout
    resolved = resolve_config(CONFIG_DIR / 'bluerov2.yaml')
    for slot in resolved.record.slots:
        assert f'  # {slot.name}: accepts ' in text, slot.name
    assert ('  # thruster_1: accepts t200_thruster_ccw, t200_thruster_cw; default '
            't200_thruster_ccw\n  # - {slot: thruster_1, type: t200_thruster_ccw}\n') in text
    assert ('  # payload: accepts bluerov2_payload_skid; default none (empty)\n'
            '  # - {slot: payload, type: bluerov2_payload_skid}\n'
            '  # (bluerov2_payload_skid in payload brings slot dvl): accepts dvl_a50; default '
            'none\n  # - {slot: dvl, of: payload, type: dvl_a50}\n') in text
    assert '  # - {slot: hd_camera, of: camera, type: lowlight_hd_camera}\n' in text
    assert text.splitlines()[9:11] == ['base: {type: bluerov2_frame}',
                                       '# water: fresh    # the water it dives in: sea (1025 '
                                       'kg/m^3, the default), fresh']


def test_uncommenting_entries_fits_them(tmp_path):
    out = tmp_path / 'rov.yaml'
    cli('new', '--from', 'bluerov2', out)
    text = out.read_text(encoding='utf-8')
    for entry in ('{slot: payload, type: bluerov2_payload_skid}',
                  '{slot: dvl, of: payload, type: dvl_a50}'):
        text = text.replace(f'  # - {entry}', f'  - {entry}')
    out.write_text(text, encoding='utf-8')
    tree = cli('tree', out)
    assert tree.returncode == 0, tree.stderr
    assert '[dvl] dvl (dvl_a50)' in tree.stdout


def test_it_refuses_an_existing_file_without_force_and_an_input_always(tmp_path):
    out = tmp_path / 'rov.yaml'
    out.write_text('name: mine\n', encoding='utf-8')
    refused = cli('new', '--from', 'bluerov2', out)
    assert refused.returncode == 1
    assert refused.stderr == (f'error: {out} exists: name a new file, or give --force to '
                              'replace it (nothing was written)\n')
    assert out.read_text(encoding='utf-8') == 'name: mine\n'
    assert cli('new', '--from', 'bluerov2', out, '--force').returncode == 0
    assert out.read_text(encoding='utf-8').startswith('# A bluerov2 to start from')
    shipped = cli('new', '--from', 'bluerov2', CONFIG_DIR / 'bluerov2.yaml', '--force')
    assert shipped.returncode == 1 and 'nothing was written' in shipped.stderr
    unknown = cli('new', '--from', 'bluerov3', tmp_path / 'x.yaml')
    assert unknown.stderr == ('error: new --from bluerov3: no such vehicle; valid: blueboat, '
                              'bluerov2, bluerov2_heavy\n')
