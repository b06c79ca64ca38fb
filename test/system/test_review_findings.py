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
What an attacker or bad luck could do with meshes, paths and names, one test per case.

Meshes that are another file's second name or no mesh at all, NUL bytes in paths, the empty
config argument, and smaller ones: a config or world that is not a file, a world named like an
option, an empty output folder, a line break in an output path, the size of the messages of a
big config.
"""

from __future__ import annotations

import os
from pathlib import Path
import shutil

from bluerobotics_parts.api import Assembly
from bluerobotics_parts.build import build_gazebo
from bluerobotics_parts.errors import BlueRoboticsPartsError, ConfigError, OutputError
from bluerobotics_parts.ros.launch import plan as launch_plan
from conftest import cli, CONFIG_DIR, REPO, write_config
import pytest

MESH = REPO / 'meshes' / 'blueboat_flag' / 'blueboat_flag.stl'


def part_with_mesh(folder: Path, mesh: str = 'm.stl') -> Path:
    (folder / 'p.yaml').write_text('type: pp\ninertial: {mass: 1, mass_unverified: t}\n'
                                   f'visual:\n  - mesh: {mesh}\n', encoding='utf-8')
    return write_config(folder, 'part_files: [p.yaml]\nparts:\n  - {type: pp, name: x}\n')


def refusal(config) -> str:
    with pytest.raises(BlueRoboticsPartsError) as caught:
        build_gazebo(config)
    return str(caught.value)


def test_a_mesh_with_a_second_name_is_refused(tmp_path):
    """As root, a hard link to /etc/shadow passed the folder rule and was exported."""
    config = part_with_mesh(tmp_path)
    shutil.copyfile(MESH, tmp_path / 'm.stl')
    build_gazebo(config)  # one name: fine
    os.link(tmp_path / 'm.stl', tmp_path / 'elsewhere.stl')
    assert refusal(config).startswith(f"{tmp_path / 'p.yaml'}:4: mesh m.stl")
    assert 'has 2 hard links' in refusal(config)


@pytest.mark.parametrize('content, why', [
    (b'', 'is empty'),
    (b'\x00' * 84 + b'garbage', 'not an STL file'),
    (b'solid x\nendsolid x\n', 'has no triangles'),
    (b'\x00' * 80 + (1).to_bytes(4, 'little') + b'\x00' * 12
     + b'\x00\x00\xc0\x7f' * 9 + b'\x00\x00', 'a vertex coordinate is not a finite number'),
], ids=['empty', 'garbage', 'no triangles', 'NaN vertices'])
def test_a_mesh_that_is_no_mesh_is_refused_at_its_line(tmp_path, content, why):
    """Only render refused these; build and export passed them on."""
    config = part_with_mesh(tmp_path)
    (tmp_path / 'm.stl').write_bytes(content)
    message = refusal(config)
    assert message.startswith(f"{tmp_path / 'p.yaml'}:4: mesh m.stl") and why in message
    done = cli('export', config, tmp_path / 'out')
    assert done.returncode == 1 and why in done.stderr and not (tmp_path / 'out').exists()


def test_a_nul_byte_is_a_message_everywhere(tmp_path):
    """Each was an internal error (exit 2, ValueError)."""
    config = part_with_mesh(tmp_path, '"m.stl\\0.png"')
    assert refusal(config).startswith(f"{tmp_path / 'p.yaml'}:4: visual item #1: mesh")
    done = cli('build', config, '-o', tmp_path / 'out')
    assert done.returncode == 1 and 'internal error' not in done.stderr
    with pytest.raises(ConfigError):
        Assembly(part_files=['a\0b'])
    with pytest.raises(OutputError, match='cannot hold a NUL byte'):
        Assembly().to_yaml(tmp_path / 'a\0b.yaml')


def test_an_empty_config_argument_is_the_shipped_boat_for_check_too(tmp_path):
    """An empty config was a TypeError for check while urdf '' took the shipped BlueBoat."""
    assert cli('urdf', '', '-o', tmp_path / 'b.urdf').returncode == 0
    for command in (['check', '', tmp_path / 'b.urdf'],):
        done = cli(*command)
        assert done.returncode == 0, done.stderr
        assert 'the shipped BlueBoat' in done.stdout


@pytest.mark.parametrize('values, message', [
    ({'config': '/dev/null'}, "config:='/dev/null': a character device, not a file"),
    ({'config': '/'}, "config:='/': a directory, not a file"),
    ({'world': '-s.sdf'}, "world:='-s.sdf': a world cannot start with - (gz would take it for "
                          'an option)'),
])
def test_a_launch_argument_that_is_no_file_says_what_it_is(tmp_path, values, message):
    with pytest.raises(BlueRoboticsPartsError) as caught:
        launch_plan.plan({**values, 'gazebo': 'false'}, {'ROS_HOME': str(tmp_path)})
    assert message in str(caught.value)


def test_an_empty_output_folder_is_refused(tmp_path):
    done = cli('build', CONFIG_DIR / 'blueboat.yaml', '-o', '', cwd=tmp_path)
    assert done.returncode == 1 and "--output ''" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_line_break_in_an_output_path_stays_on_its_line(tmp_path):
    done = cli('build', CONFIG_DIR / 'blueboat.yaml', '-o', tmp_path / 'a\nb')
    assert done.returncode == 0, done.stderr
    listed = done.stdout.split('wrote:\n')[1].splitlines()
    assert len(listed) == 2 and all(line.startswith("  '") for line in listed)


def test_a_big_config_gets_bounded_messages(tmp_path):
    """A listing names at most 24 items: 3,000 instances no longer fill every message."""
    entries = ''.join(f'  - {{type: blueboat_flag, name: f{i}}}\n' for i in range(3000))
    config = write_config(tmp_path, 'parts:\n' + entries
                          + '  - {slot: x, of: nobody, type: none}\n'
                          + '  - {slot: x, of: nobody2, type: none}\n')
    done = cli('build', config, '-o', tmp_path / 'out')
    assert done.returncode == 1
    assert len(done.stderr) < 2000 and 'and 2987 more' in done.stderr


def test_a_long_value_is_cut_in_every_message(tmp_path):
    """A 500 KB part type and a 300 KB slot name print as a few dozen characters each."""
    config = write_config(tmp_path, 'parts:\n  - {slot: motor_port, type: ' + 'x' * 500_000
                          + '}\n  - {slot: ' + 'y' * 300_000 + ', type: none}\n')
    done = cli('build', config, '-o', tmp_path / 'out')
    assert done.returncode == 1 and len(done.stderr) < 3000, len(done.stderr)
    assert "unknown part type 'xxxx" in done.stderr and '...(500002 characters)' in done.stderr
    assert all(line.startswith('error: ') for line in done.stderr.splitlines())


@pytest.mark.parametrize('command', ['urdf', 'render'])
def test_a_line_break_in_urdf_and_render_outputs_stays_on_its_line(tmp_path, command):
    if command == 'render':
        pytest.importorskip('PIL')
    target = tmp_path / ('a\nb.urdf' if command == 'urdf' else 'a\nb.png')
    done = cli(command, CONFIG_DIR / 'blueboat.yaml', '-o', target)
    assert done.returncode == 0, done.stderr
    (wrote,) = [line for line in done.stderr.splitlines() if line.startswith('wrote ')]
    assert 'a\\nb.' in wrote and target.is_file()


def test_an_export_never_widens_a_user_files_permissions(tmp_path):
    """The copy of a mode 0600 mesh was 0644 in the description."""
    (tmp_path / 'parts').mkdir()
    config = part_with_mesh(tmp_path / 'parts')
    shutil.copyfile(MESH, tmp_path / 'parts' / 'm.stl')
    os.chmod(tmp_path / 'parts' / 'm.stl', 0o600)
    os.chmod(tmp_path / 'parts' / 'p.yaml', 0o640)
    done = cli('export', config, tmp_path / 'out')
    assert done.returncode == 0, done.stderr
    copied = {path.name: path.stat().st_mode & 0o777
              for path in (tmp_path / 'out' / 'user_parts').rglob('*') if path.is_file()}
    assert copied['m.stl'] == 0o600 and copied['p.yaml'] & 0o077 <= 0o040, copied
    shipped = tmp_path / 'out' / 'meshes' / 'blueboat_chassis'
    assert all(p.stat().st_mode & 0o044 for p in shipped.iterdir())  # the package's: readable


def test_an_export_keeps_a_private_config_private(tmp_path):
    """config.yaml is the user's config rewritten: a mode 0600 config was exported 0644."""
    config = write_config(tmp_path, 'parts:\n  - {slot: mast, type: none}\n')
    os.chmod(config, 0o600)
    done = cli('export', config, tmp_path / 'out')
    assert done.returncode == 0, done.stderr
    assert (tmp_path / 'out' / 'config.yaml').stat().st_mode & 0o777 == 0o600
    os.chmod(config, 0o644)
    done = cli('export', config, tmp_path / 'open')
    assert (tmp_path / 'open' / 'config.yaml').stat().st_mode & 0o044  # readable as before


def test_an_export_of_a_config_given_as_data_still_works(tmp_path):
    """The config's mode is read only from a file: a dict or Config has none (was a TypeError)."""
    from bluerobotics_parts.description.export import export
    from bluerobotics_parts.formats.config import from_data

    for index, config in enumerate([{'parts': [{'slot': 'mast', 'type': 'none'}]},
                                    from_data({'name': 'given'})]):
        result = export(config, tmp_path / f'out{index}')
        assert (tmp_path / f'out{index}' / 'config.yaml').is_file() and result.files
