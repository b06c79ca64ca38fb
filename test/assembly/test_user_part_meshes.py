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
A user part's meshes lie inside its part file's folder, or are shipped meshes.

Anything else (``file:///etc/passwd``, ``../../../../etc/passwd``, an absolute path, a link out
of the folder, another package) is refused when the part file is loaded, naming the part
file and the line of the mesh, so no export can carry a local file along.
"""

from __future__ import annotations

import os
from pathlib import Path

from bluerobotics_parts.assembly.catalogue import catalogue
from bluerobotics_parts.description.export import export
from bluerobotics_parts.errors import ConfigError
from export_helpers import POD_STL, run_cli, USER_PART, user_part_config
import pytest

MESH_LINE = 1 + USER_PART.splitlines().index('  - mesh: pod.stl')


def part_with_mesh(folder: Path, mesh: str) -> Path:
    config = user_part_config(folder, USER_PART.replace('mesh: pod.stl', f'mesh: {mesh}'))
    return config.parent / 'parts' / 'sensor_pod.yaml'


@pytest.mark.parametrize('mesh, words', [
    ('file:///etc/passwd', ["outside the part file's folder"]),
    ('../../../../etc/passwd', ["outside the part file's folder"]),
    ('/etc/passwd', ["outside the part file's folder"]),
    ('sub/../../pod.stl', ["outside the part file's folder"]),
    ('package://other_pkg/x.stl', ["outside the part file's folder", 'package://']),
    ('package://bluerobotics_parts/meshes/../../../../etc/passwd', ['leads out of']),
    ('package://bluerobotics_parts/urdf/parts/index.yaml', ['leads out of']),
])
def test_a_mesh_outside_the_folder_is_refused_at_its_line(tmp_path, mesh, words):
    part_file = part_with_mesh(tmp_path, mesh)
    with pytest.raises(ConfigError) as caught:
        catalogue([part_file])
    assert caught.value.file == str(part_file) and caught.value.line == MESH_LINE
    for word in words:
        assert word in caught.value.message


def test_a_link_out_of_the_folder_is_refused(tmp_path):
    part_file = part_with_mesh(tmp_path, 'pod_link.stl')
    os.symlink('/etc/passwd', part_file.parent / 'pod_link.stl')
    with pytest.raises(ConfigError, match='leads out of') as caught:
        catalogue([part_file])
    assert caught.value.line == MESH_LINE


def test_a_linked_folder_out_of_the_part_folder_is_refused(tmp_path):
    (tmp_path / 'elsewhere').mkdir()
    (tmp_path / 'elsewhere' / 'pod.stl').write_bytes(POD_STL)
    part_file = part_with_mesh(tmp_path / 'project', 'linked/pod.stl')
    os.symlink(tmp_path / 'elsewhere', part_file.parent / 'linked')
    with pytest.raises(ConfigError, match='leads out of'):
        catalogue([part_file])


def test_a_fifo_as_mesh_is_named(tmp_path):
    part_file = part_with_mesh(tmp_path, 'pipe.stl')
    os.mkfifo(part_file.parent / 'pipe.stl')
    with pytest.raises(ConfigError, match='pipe.stl is a FIFO'):
        catalogue([part_file])


@pytest.mark.parametrize('mesh', ['pod.stl', './pod.stl', 'inner/pod.stl', 'link_inside.stl',
                                  'package://bluerobotics_parts/meshes/blueboat_flag/'
                                  'blueboat_flag.stl'])
def test_meshes_inside_the_folder_or_shipped_are_fine(tmp_path, mesh):
    part_file = part_with_mesh(tmp_path, mesh)
    (part_file.parent / 'inner').mkdir()
    (part_file.parent / 'inner' / 'pod.stl').write_bytes(POD_STL)
    os.symlink('pod.stl', part_file.parent / 'link_inside.stl')  # a link that stays inside
    assert 'sensor_pod' in catalogue([part_file])


def test_the_command_refuses_before_writing_and_copies_nothing(tmp_path):
    config = part_with_mesh(tmp_path / 'project', 'file:///etc/passwd').parent.parent
    done = run_cli('export', config / 'vehicle.yaml', tmp_path / 'out')
    assert done.returncode == 1 and 'Traceback' not in done.stderr
    assert f'sensor_pod.yaml:{MESH_LINE}:' in done.stderr
    assert not (tmp_path / 'out').exists()


def test_a_shipped_mesh_used_by_a_user_part_is_exported_as_shipped(tmp_path):
    part_file = part_with_mesh(tmp_path / 'project',
                               'package://bluerobotics_parts/meshes/blueboat_flag/'
                               'blueboat_flag.stl')
    result = export(part_file.parent.parent / 'vehicle.yaml', tmp_path / 'out')
    assert 'meshes/blueboat_flag/blueboat_flag.stl' in result.files
    assert not any(path.endswith('.stl') and path.startswith('user_parts/')
                   for path in result.files)
