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
Every shipped config resolves to a URDF that urdfdom accepts and that passes the assembly check.

urdfdom is what robot_state_publisher parses with. The URDF's meshes exist too, and its manifest
matches its joints.
"""

from __future__ import annotations

from conftest import run, SHIPPED_CONFIGS, tool, Urdf
import pytest

IDS = [p.relative_to(p.parents[1]).as_posix() if p.parent.name == 'examples' else p.name
       for p in SHIPPED_CONFIGS]


@pytest.fixture(scope='module', params=SHIPPED_CONFIGS, ids=IDS)
def shipped(request, tmp_path_factory, resolve_text):
    text = resolve_text(request.param)
    path = tmp_path_factory.mktemp('urdf') / 'robot.urdf'
    path.write_text(text, encoding='utf-8')
    return request.param, path, Urdf(text)


def test_there_are_examples_for_each_documented_case():
    names = {p.stem for p in SHIPPED_CONFIGS}
    assert {'blueboat', 't200', 'mast_and_payload', 'no_ping', 'ping_at_bow', 'free_placement',
            'user_part'} <= names


def test_urdfdom_parses_it(shipped):
    config, path, urdf = shipped
    result = run([tool('check_urdf'), path])
    assert result.returncode == 0, result.stdout + result.stderr
    assert 'Successfully Parsed XML' in result.stdout
    assert f'root Link: {next(n for n in urdf.links if n not in urdf.parent_of)}' in result.stdout


def test_every_mesh_it_references_exists(shipped):
    from bluerobotics_parts.paths import resolve_uri

    _, _, urdf = shipped
    meshes = [m.get('filename') for m in urdf.root.iter('mesh')]
    assert meshes, 'a vehicle without meshes'
    for uri in meshes:
        assert uri.startswith(('package://bluerobotics_parts/meshes/', 'file:///')), uri
        assert resolve_uri(uri).is_file(), uri


def test_each_recorded_parent_is_the_real_parent_link(shipped):
    _, _, urdf = shipped
    for record in urdf.records('assembly_part'):
        assert urdf.parent_of.get(record['name'], '') == record['parent'], record
        if record.get('slot'):
            assert record['parent'] == f"{record['of']}_{record['slot']}"


def test_it_passes_check_assembly(shipped):
    config, path, _ = shipped
    result = run([tool('check_assembly'), config, path])
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith('OK: ')
