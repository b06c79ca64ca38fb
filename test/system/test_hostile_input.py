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
Inputs are data: no YAML tag runs as code, and no input file can hang or exhaust a command.

The exploit below: xacro registers its unit tags (!radians, !degrees, ...) on PyYAML's global
SafeLoader the first time it loads YAML, and their constructors evaluate the tagged text. Each
test runs in a fresh Python process, so the global registrations are really there (or really
absent) as they would be for a user.
"""

import os
from pathlib import Path
import subprocess
import sys
import textwrap

from conftest import REPO
import pytest

EXPLOIT = ("(lambda f: python.vars(python.type(python.vars(python.type(f))['__globals__']))"
           "['__get__'](python.vars(python.type(f))['__globals__'], f)['os']"
           ".system('touch PWNED'))(xacro.load_yaml)")


def python(code: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, '-c', textwrap.dedent(code)], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL,
                          env={**os.environ, 'PYTHONPATH': str(REPO)})


def evil_config(folder: Path) -> Path:
    path = folder / 'evil.yaml'
    path.write_text('name: evil\nslots:\n  - name: bad\n'
                    f'    xyz: [0, 0, !radians "{EXPLOIT}"]\n', encoding='utf-8')
    return path


XACRO_LOADING_YAML = """
    import xacro
    from bluerobotics_parts import paths
    xacro.process_file(str(paths.share_dir() / 'urdf' / 'assembly.xacro'))
"""


def test_xacro_really_registers_its_tags_globally(tmp_path):
    """The precondition of the exploit: after xacro loads YAML once, SafeLoader has !radians."""
    result = python(XACRO_LOADING_YAML + """
    import yaml
    print('!radians' in yaml.SafeLoader.yaml_constructors)
    """, tmp_path)
    assert result.stdout.strip() == 'True', result.stderr


@pytest.mark.parametrize('first', ['xacro', 'pipeline'])
def test_a_tagged_config_after_a_first_resolution_is_refused_not_run(tmp_path, first):
    evil = evil_config(tmp_path)
    warm_up = XACRO_LOADING_YAML if first == 'xacro' else """
    from bluerobotics_parts.assembly.pipeline import resolve_config
    resolve_config(None)
"""
    result = python(warm_up + f"""
    from bluerobotics_parts.errors import ConfigError
    from bluerobotics_parts.assembly.pipeline import resolve_config
    try:
        resolve_config({str(evil)!r})
    except ConfigError as error:
        print('refused:', error)
    """, tmp_path)
    assert not (tmp_path / 'PWNED').exists()
    assert f'refused: {evil}:4: unsupported YAML tag ' in result.stdout, result.stderr
    assert '!radians' in result.stdout


def test_a_tagged_user_part_file_is_refused_not_run(tmp_path):
    (tmp_path / 'my_part.yaml').write_text(
        'type: my_part\ndescription: x\ninertial:\n  mass: 1.0\n  mass_unverified: test\n'
        f'  com: [0, 0, !degrees "{EXPLOIT}"]\n', encoding='utf-8')
    config = tmp_path / 'boat.yaml'
    config.write_text('part_files: [my_part.yaml]\n', encoding='utf-8')
    result = python(XACRO_LOADING_YAML + f"""
    from bluerobotics_parts.errors import ConfigError
    from bluerobotics_parts.assembly.pipeline import resolve_config
    resolve_config(None)
    try:
        resolve_config({str(config)!r})
    except ConfigError as error:
        print('refused:', error)
    """, tmp_path)
    assert not (tmp_path / 'PWNED').exists()
    assert f"refused: {tmp_path / 'my_part.yaml'}:6: unsupported YAML tag" in result.stdout, \
        result.stderr


def test_a_launch_like_sequence_refuses_the_tagged_config(tmp_path):
    """
    Two vehicles planned in one process, as a launch file that starts two would.

    xacro has loaded YAML in that process before (a launch that also runs xacro for another
    robot): its tags are on PyYAML's SafeLoader.
    """
    evil = evil_config(tmp_path)
    result = python(XACRO_LOADING_YAML + f"""
    from bluerobotics_parts.ros.launch import plan as launch_plan
    from bluerobotics_parts.errors import BlueRoboticsPartsError
    environ = {{'ROS_HOME': {str(tmp_path / 'ros')!r}}}
    launch_plan.plan({{'gazebo': 'false'}}, environ=environ)
    try:
        launch_plan.plan({{'config': {str(evil)!r}, 'gazebo': 'false'}}, environ=environ)
    except BlueRoboticsPartsError as error:
        print('refused:', error)
    """, tmp_path, timeout=120)
    assert not (tmp_path / 'PWNED').exists()
    assert 'unsupported YAML tag' in result.stdout, result.stdout + result.stderr


@pytest.mark.parametrize('text, expected', [
    ('name: !!python/object/apply:os.system ["touch PWNED"]\n', 'unsupported YAML tag '
     "'python/object/apply:os.system'"),
    ('name: !custom boat\n', "unsupported YAML tag '!custom'"),
    ('parts: !!set {a, b}\n', "unsupported YAML tag 'set'"),
    ('name: 2024-01-01\n', "unsupported YAML tag 'timestamp'"),
    ('slots:\n  - name: s\n    xyz: [1:30, 0, 0]\n', "'1:30' is a YAML 1.1 base-60"),
    ('slots:\n  - name: s\n    xyz: [010, 0, 0]\n', "'010' is a YAML 1.1 base-60, octal"),
    ('slots:\n  - name: s\n    xyz: [0x10, 0, 0]\n', "'0x10' is a YAML 1.1"),
])
def test_tags_and_surprising_numbers_are_refused_with_their_line(tmp_path, text, expected):
    from bluerobotics_parts.errors import ConfigError
    from bluerobotics_parts.formats.config import read

    path = tmp_path / 'boat.yaml'
    path.write_text(text, encoding='utf-8')
    with pytest.raises(ConfigError) as caught:
        read(path).checked()
    line = text.count('\n', 0, text.index('!') if '!' in text else len(text.rstrip()))
    assert str(caught.value).startswith(f'{path}:{line + 1}: '), str(caught.value)
    assert expected in str(caught.value)
    assert not (tmp_path / 'PWNED').exists()


def test_plain_numbers_still_read_as_numbers(tmp_path):
    from bluerobotics_parts.formats.config import read

    path = tmp_path / 'boat.yaml'
    path.write_text('slots:\n  - name: s\n    xyz: [0.5, -2, 1.0e-3]\n    rpy: "0 0 0"\n',
                    encoding='utf-8')
    assert read(path).checked().data['slots'][0]['xyz'] == [0.5, -2, 0.001]


# -- files that are not files, and files too large ------------------------------------------

def cli_in_subprocess(*args, timeout=30):
    return subprocess.run([sys.executable, '-m', 'bluerobotics_parts.cli.main', *map(str, args)],
                          cwd=REPO, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def test_a_fifo_as_config_is_refused_without_hanging(tmp_path):
    fifo = tmp_path / 'boat.yaml'
    os.mkfifo(fifo)
    result = cli_in_subprocess('urdf', fifo)  # would block forever on open() before
    assert result.returncode == 1
    assert result.stderr == (f'error: {fifo}: config is a FIFO (named pipe), not a regular '
                             'file; name a file\n')


def test_a_device_as_config_is_refused_without_reading_it():
    result = cli_in_subprocess('urdf', '/dev/zero')
    assert result.returncode == 1
    assert result.stderr == ('error: /dev/zero: config is a character device, not a regular '
                             'file; name a file\n')


def test_a_folder_as_config_is_refused(tmp_path):
    result = cli_in_subprocess('tree', tmp_path)
    assert result.returncode == 1
    assert 'config is a directory, not a regular file' in result.stderr


def test_a_fifo_as_part_file_is_refused_without_hanging(tmp_path):
    os.mkfifo(tmp_path / 'my_part.yaml')
    config = tmp_path / 'boat.yaml'
    config.write_text('part_files: [my_part.yaml]\n', encoding='utf-8')
    result = cli_in_subprocess('urdf', config)
    assert result.returncode == 1
    assert 'my_part.yaml' in result.stderr and 'FIFO' in result.stderr, result.stderr


def test_an_oversized_config_is_refused_before_it_is_parsed(tmp_path):
    from bluerobotics_parts.files.inputs import YAML_LIMIT

    path = tmp_path / 'boat.yaml'
    with open(path, 'wb') as stream:
        stream.truncate(YAML_LIMIT + 1)  # sparse: costs no disk
    result = cli_in_subprocess('urdf', path)
    assert result.returncode == 1
    assert result.stderr == (f'error: {path}: config is {YAML_LIMIT + 1:,} bytes, more than the '
                             f'limit of {YAML_LIMIT:,} bytes\n')


def test_an_alias_bomb_fails_fast_with_a_message(tmp_path):
    """Nine levels of ten aliases each: 10^9 values if expanded."""
    lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]']
    for level in range(1, 10):
        previous = f'*a{level - 1}'
        lines.append(f'a{level}: &a{level} [{", ".join([previous] * 10)}]')
    path = tmp_path / 'bomb.yaml'
    path.write_text('\n'.join(lines) + '\n', encoding='utf-8')
    result = cli_in_subprocess('urdf', path, timeout=10)
    assert result.returncode == 1
    assert 'more than 100,000 values (counting each use of an alias)' in result.stderr


# -- what the fuzzer once turned into tracebacks: messages with file:line -------

LONG = 'a' * 300  # longer than a file name may be (255 bytes on Linux)
ECHO_PART = ('type: echo_x\nframes:\n  beam: {xyz: [0, 0, 0], xyz_unverified: test}\n'
             'echosounder: {frame: [1, 2, 3], beam_width: 0.4, range_min: 0.5, range_max: 10,\n'
             '              update_rate: 5}\n')


@pytest.mark.parametrize('config, part, where, expected', [
    ('slots:\n  - {name: s, xyz: [' + '9' * 400 + ', 0, 0]}\n', None, 'config:2',
     'an integer of 400 digits is not a plausible value here'),
    ('name: ' + '7' * 5000 + '\n', None, 'config:1',
     'an integer of 5,000 digits is not a plausible value here'),
    ('part_files: [part.yaml]\n', ECHO_PART, 'part:4',
     "echosounder frame [1, 2, 3] is not one of the part's frames (beam)"),
    (f'part_files: [{LONG}.yaml]\n', None, 'config:1', f'part file {LONG}.yaml not found'),
    ('part_files: [part.yaml]\n', f'type: meshy\nvisual:\n  - mesh: {LONG}.stl\n', 'part:3',
     f'mesh {LONG}.stl not found'),
    ('part_files: [part.yaml]\n', 'type: nan\n', 'part:1', 'type: must name the part type'),
    ('part_files: [part.yaml]\n', 'type: fr\nframes:\n  True: {xyz: [0, 0, 0]}\n', 'part:3',
     'frame name True: use letters, digits and underscores'),
])
def test_what_once_raised_a_traceback_is_a_message_at_its_line(tmp_path, config, part, where,
                                                               expected):
    files = {'config': tmp_path / 'config.yaml', 'part': tmp_path / 'part.yaml'}
    files['config'].write_text(config, encoding='utf-8')
    if part is not None:
        files['part'].write_text(part, encoding='utf-8')
    result = cli_in_subprocess('build', files['config'], '--output', tmp_path / 'out')
    file, line = where.split(':')
    assert result.returncode == 1, result.stderr
    assert 'Traceback' not in result.stderr
    first = result.stderr.splitlines()[0]
    assert first.startswith(f'error: {files[file]}:{line}: {expected}'), result.stderr
    assert not (tmp_path / 'out').exists()


def test_part_files_that_are_not_a_list_of_paths_is_a_message():
    from bluerobotics_parts.api import Assembly
    from bluerobotics_parts.errors import ConfigError

    with pytest.raises(ConfigError, match='part_files must be a path or a list of paths, not '
                                          'bool'):
        Assembly(part_files=True)
