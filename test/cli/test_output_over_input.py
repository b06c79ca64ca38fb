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
No command writes over one of its own inputs: the config, a part file it lists, a mesh.

``urdf my.yaml -o my.yaml`` used to leave the URDF where the config was. Files are compared,
not names: a relative or ``./`` spelling, a symbolic link and a hard link are the same file.
Each writing command refuses with exit 1, names the file and what it is, and writes nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

from bluerobotics_parts import Assembly
from bluerobotics_parts.errors import OutputError
from export_helpers import run_cli, snapshot, user_part_config
import pytest


def refused(done, what: str) -> None:
    assert done.returncode == 1, done.stderr
    assert 'Traceback' not in done.stderr and 'wrote' not in done.stdout + done.stderr
    assert f'it is {what}' in done.stderr or f'{what}, which this command reads' in \
        done.stderr, done.stderr
    assert 'nothing was written' in done.stderr


@pytest.fixture
def folder(tmp_path):
    """Return a user's folder: a config, its part file and the part's mesh."""
    user_part_config(tmp_path)
    return tmp_path


@pytest.mark.parametrize('spelling', ['same', 'dot', 'absolute', 'symlink', 'hardlink'])
def test_urdf_never_replaces_its_config(folder, spelling):
    target = {'same': 'vehicle.yaml', 'dot': './vehicle.yaml',
              'absolute': str(folder / 'vehicle.yaml'),
              'symlink': 'link.yaml', 'hardlink': 'twin.yaml'}[spelling]
    if spelling == 'symlink':
        (folder / 'link.yaml').symlink_to('vehicle.yaml')
    if spelling == 'hardlink':
        os.link(folder / 'vehicle.yaml', folder / 'twin.yaml')
    before = snapshot(folder)
    done = run_cli('urdf', 'vehicle.yaml', '-o', target, cwd=folder)
    refused(done, 'the config')
    assert snapshot(folder) == before


@pytest.mark.parametrize('target, what', [
    ('parts/sensor_pod.yaml', 'the part file of sensor_pod'),
    ('parts/pod.stl', "a mesh of the config's parts")])
def test_urdf_never_replaces_a_part_file_or_a_mesh(folder, target, what):
    before = snapshot(folder)
    refused(run_cli('urdf', 'vehicle.yaml', '-o', target, cwd=folder), what)
    assert snapshot(folder) == before


def test_build_never_replaces_its_config(folder):
    """A config that happens to carry an output's name, in the output folder."""
    (folder / 'vehicle.yaml').rename(folder / 'bridge.yaml')
    before = snapshot(folder)
    refused(run_cli('build', 'bridge.yaml', '-o', '.', '--no-cache', cwd=folder),
            'the config')
    assert snapshot(folder) == before


def test_build_never_replaces_a_part_file_even_from_the_cache(folder, tmp_path_factory,
                                                              monkeypatch):
    """The second build comes from the cache and still knows what it read."""
    cache = tmp_path_factory.mktemp('cache')
    monkeypatch.setenv('XDG_CACHE_HOME', str(cache))
    monkeypatch.setenv('BLUEROBOTICS_PARTS_CACHE', 'on')  # the suite turns it off
    assert run_cli('build', 'vehicle.yaml', '-o', 'first', cwd=folder).returncode == 0
    assert len(list(cache.rglob('*.json'))) == 1  # the entry the second build reuses
    os.unlink(folder / 'first' / 'robot_description.urdf')
    os.link(folder / 'parts' / 'sensor_pod.yaml', folder / 'first' / 'robot_description.urdf')
    os.unlink(folder / 'first' / 'bridge.yaml')
    before = snapshot(folder)
    refused(run_cli('build', 'vehicle.yaml', '-o', 'first', cwd=folder),
            'the part file of sensor_pod')
    assert snapshot(folder) == before


def test_render_never_replaces_its_config(folder):
    os.link(folder / 'vehicle.yaml', folder / 'boat.png')
    before = snapshot(folder)
    refused(run_cli('render', 'vehicle.yaml', '-o', 'boat.png', '--view', 'top', cwd=folder),
            'the config')
    assert snapshot(folder) == before


@pytest.mark.parametrize('into', ['.', 'parts'])
def test_export_never_replaces_a_folder_holding_its_inputs(folder, into):
    before = snapshot(folder)
    done = run_cli('export', 'vehicle.yaml', into, cwd=folder)
    assert done.returncode == 1 and 'cannot replace' in done.stderr, done.stderr
    assert 'which this command reads' in done.stderr and 'nothing was written' in done.stderr
    assert snapshot(folder) == before


def test_export_into_a_folder_of_its_own_still_works(folder):
    done = run_cli('export', 'vehicle.yaml', 'described', cwd=folder)
    assert done.returncode == 0, done.stderr


def test_assembly_to_yaml_never_replaces_a_part_file_it_lists(folder):
    assembly = Assembly.from_yaml(folder / 'vehicle.yaml')
    part = folder / 'parts' / 'sensor_pod.yaml'
    before = part.read_bytes()
    with pytest.raises(OutputError, match='sensor_pod.yaml it lists'):
        assembly.to_yaml(Path(folder / 'parts' / '..' / 'parts' / 'sensor_pod.yaml'))
    assert part.read_bytes() == before
    assembly.to_yaml(folder / 'copy.yaml')  # anywhere else: written
    assert (folder / 'copy.yaml').is_file()
