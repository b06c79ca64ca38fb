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
The commands' outputs (``urdf -o``, ``build --output``, ``export``), as a user runs them.

Nothing that is not a regular file is replaced, everything that can fail runs before the first
byte is written, and the file-system root and the package's own data are no output folders.
"""

from __future__ import annotations

import os
from pathlib import Path
import stat

from bluerobotics_parts import paths
from export_helpers import REPO, run_cli, USER_PART, user_part_config, write_config
import pytest

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason='mknod of a device node needs root '
                                '(the suite runs as root here and in CI)')
BAD_CONFIG = 'parts:\n  - {slot: motor_port, type: ping_singlebeam}\n'


@needs_root
def test_urdf_output_to_a_device_node_refuses_and_keeps_the_device(tmp_path):
    """Refuse ``urdf -o`` onto a private twin of /dev/null (never the real one)."""
    node = tmp_path / 'null'
    os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    done = run_cli('urdf', paths.default_config(), '-o', node)
    assert done.returncode == 1 and 'Traceback' not in done.stderr
    assert f'{node} is a character device' in done.stderr and 'wrote' not in done.stderr
    assert stat.S_ISCHR(os.lstat(node).st_mode) and os.lstat(node).st_rdev == os.makedev(1, 3)
    assert sorted(p.name for p in tmp_path.iterdir()) == ['null']


def test_urdf_output_to_a_fifo_refuses_without_hanging(tmp_path):
    fifo = tmp_path / 'robot.urdf'
    os.mkfifo(fifo)
    done = run_cli('urdf', paths.default_config(), '-o', fifo, timeout=120)
    assert done.returncode == 1 and f'{fifo} is a FIFO' in done.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_build_output_with_a_fifo_in_place_writes_nothing(tmp_path):
    folder = tmp_path / 'out'
    folder.mkdir()
    os.mkfifo(folder / 'bridge.yaml')
    done = run_cli('build', paths.default_config(), '--output', folder, timeout=120)
    assert done.returncode == 1 and 'bridge.yaml is a FIFO' in done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ['bridge.yaml']  # no URDF either


def test_build_output_through_a_link_to_a_file_is_refused(tmp_path):
    (tmp_path / 'out').mkdir()
    (tmp_path / 'elsewhere.urdf').write_text('keep me')
    os.symlink('../elsewhere.urdf', tmp_path / 'out' / 'robot_description.urdf')
    done = run_cli('build', paths.default_config(), '--output', tmp_path / 'out')
    assert done.returncode == 1 and 'robot_description.urdf is a symbolic link' in done.stderr
    assert (tmp_path / 'elsewhere.urdf').read_text() == 'keep me'


# -- everything that can fail, before the first byte --------------------

def test_a_build_whose_summary_fails_writes_nothing(tmp_path):
    """
    Fail before writing when the identity (part of the summary) cannot be computed.

    The user mesh is a regular file over the mesh size limit (sparse: no disk used): the
    build itself never reads it, the identity in the summary does.
    """
    config = user_part_config(tmp_path / 'project')
    with open(tmp_path / 'project' / 'parts' / 'pod.stl', 'r+b') as mesh:
        mesh.truncate(300 * 1024 * 1024)
    done = run_cli('build', config, '--output', tmp_path / 'out')
    assert done.returncode == 1 and 'Traceback' not in done.stderr
    assert 'pod.stl' in done.stderr and 'limit' in done.stderr
    assert not (tmp_path / 'out').exists()


def test_a_mesh_of_another_package_fails_before_writing(tmp_path):
    """Refuse the reported case, ``package://other_pkg/x.stl``, at load; nothing written."""
    config = user_part_config(tmp_path / 'project', USER_PART.replace(
        'mesh: pod.stl', 'mesh: package://other_pkg/x.stl'))
    before = {'robot_description.urdf': b'old urdf', 'bridge.yaml': b'old bridge'}
    (tmp_path / 'out').mkdir()
    for name, data in before.items():
        (tmp_path / 'out' / name).write_bytes(data)
    done = run_cli('build', config, '--output', tmp_path / 'out')
    assert done.returncode == 1 and 'other_pkg' in done.stderr
    assert {p.name: p.read_bytes() for p in (tmp_path / 'out').iterdir()} == before


# -- where outputs may go --------------------------------------------

@pytest.mark.parametrize('command', [['build', '{config}', '--output', '/'],
                                     ['urdf', '{config}', '-o', '/robot.urdf'],
                                     ['export', '{config}', '/']])
def test_the_file_system_root_is_refused_first(tmp_path, command):
    """
    Refuse ``/`` before anything else, even before the config is read.

    The config is a bad one, so that a regression of this rule still writes nothing into
    the root of the machine running the test: it would fail on the config instead.
    """
    config = write_config(tmp_path, BAD_CONFIG)
    done = run_cli(*[part.format(config=config) for part in command])
    assert done.returncode == 1 and 'is the file-system root' in done.stderr, done.stderr


@pytest.mark.parametrize('inside', ['config', 'urdf/parts', 'meshes', 'bluerobotics_parts'])
def test_the_package_tree_is_refused(tmp_path, inside):
    target = REPO / inside / 'out_test_should_not_exist'
    for command in (['build', paths.default_config(), '--output', target],
                    ['urdf', paths.default_config(), '-o', target / 'robot.urdf'],
                    ['export', paths.default_config(), target]):
        done = run_cli(*command)
        assert done.returncode == 1 and 'part of the bluerobotics_parts package' in done.stderr
        assert not target.exists()
    assert not os.path.lexists(REPO / inside / 'robot_description.urdf')


def test_an_output_folder_of_ones_own_is_fine(tmp_path):
    """Write into a folder of the user's own (the rules above refuse only what they name)."""
    done = run_cli('urdf', paths.default_config(), '-o', tmp_path / 'robot.urdf', cwd=tmp_path)
    assert done.returncode == 0 and Path(tmp_path / 'robot.urdf').read_text().startswith('<')


def test_small_messages_say_what_is_wrong(tmp_path):
    """A missing folder is missing, a folder is no picture; bridge's --name is the URDF's."""
    from conftest import cli, CONFIG_DIR

    missing = cli('verify', tmp_path / 'nothere')
    assert missing.returncode == 1 and 'nothere: no such folder' in missing.stderr
    (tmp_path / 'pictures.png').mkdir()
    folder = cli('render', CONFIG_DIR / 'blueboat.yaml', '-o', tmp_path / 'pictures.png')
    assert folder.returncode == 1 and 'pictures.png (it is a folder)' in folder.stderr
    assert "URDF's robot name" in ' '.join(cli('bridge', '--help').stdout.split())
