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
Every ``bluerobotics-parts`` command in the README and docs/ runs as written.

From the root of a fresh clone, where the README's quick start runs, with that clone as the
package (as its own tools/setup.sh installs it), so its files are the package's own and a
command must still write a new file the reader names there. A synopsis line's
placeholders are filled the way a reader would (``my_boat.yaml`` the shipped BlueBoat, ``DIR``
a new folder, ``[...]`` left out, ``config|part`` each); a command that needs Gazebo's ``gz``
(``--sdf``) runs where it is installed.
"""

from __future__ import annotations

from pathlib import Path
import re
import shlex
import shutil
import subprocess

from conftest import REPO, run, tool
import pytest

DOCUMENTS = ['README.md', *sorted(str(p.relative_to(REPO)) for p in (REPO / 'docs').glob('*.md'))]
COMMAND = re.compile(r'^(?:    |\t)\s*(?:\$ )?(?:.*&& )?((?:\.venv/bin/)?bluerobotics-parts .*)$')
PLACEHOLDERS = {'my_boat.yaml': 'config/blueboat.yaml', 'DIR': 'out/described',
                'robot_description.urdf': 'out/blueboat/robot_description.urdf'}


def documented() -> list[tuple[str, int, str]]:
    """Return (document, line, command) for each documented command line."""
    found = []
    for document in DOCUMENTS:
        for number, line in enumerate((REPO / document).read_text(encoding='utf-8')
                                      .splitlines(), 1):
            match = COMMAND.match(line)
            if match:
                command = match.group(1).split('  #')[0].split(' # ')[0].strip()
                found.append((document, number, command))
    return found


def expanded(command: str) -> list[list[str]]:
    """Return the argument lists a reader would run for one documented line."""
    command = re.sub(r'\s*\[[^\]]*\]', '', command)  # optional parts left out
    words = shlex.split(command)
    words[0] = 'bluerobotics-parts'
    words = [PLACEHOLDERS.get(word, word) for word in words]
    if words[1] == 'build':  # its own folder: export and verify share theirs
        words = ['out/built' if word == PLACEHOLDERS['DIR'] else word for word in words]
    choices = [i for i, word in enumerate(words) if '|' in word]
    if not choices:
        return [words]
    index = choices[0]
    return [words[:index] + [choice] + words[index + 1:] for choice in words[index].split('|')]


def as_package() -> list[str]:
    """Return the command line of ``bluerobotics-parts`` run as a module (package_env picks it)."""
    return [tool('python'), '-m', 'bluerobotics_parts']


def package_env(root: Path) -> dict:
    """Return an environment whose ``bluerobotics_parts`` is the clone's (first on the path)."""
    import os

    return dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(root)] + [p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep) if p]))


def test_the_documents_have_commands():
    assert len(documented()) > 15


@pytest.fixture(scope='module')
def clone(tmp_path_factory) -> Path:
    """Return a fresh clone's root (a copy of the tracked files where git cannot clone)."""
    root = tmp_path_factory.mktemp('clone') / 'bluerobotics_parts'
    done = run(['git', 'clone', '--quiet', REPO, root])
    if done.returncode != 0:
        shutil.copytree(REPO, root, ignore=shutil.ignore_patterns('.venv', '.git', 'out'))
    package = run([tool('python'), '-c', 'import bluerobotics_parts as p; print(p.__file__)'],
                  cwd=root, env=package_env(root))
    assert Path(package.stdout.strip()).is_relative_to(root), package.stdout + package.stderr
    # the README's build first: later synopsis lines read its output
    first = run([*as_package(), 'build', 'config/blueboat.yaml', '--output',
                 'out/blueboat'], cwd=root, env=package_env(root))
    assert first.returncode == 0, first.stderr
    return root


@pytest.mark.parametrize('document, line, command', documented(),
                         ids=[f'{d}:{n}' for d, n, _ in documented()])
def test_a_documented_command_runs_as_written(clone, document, line, command):
    for words in expanded(command):
        if '--sdf' in words and shutil.which('gz') is None:
            continue  # needs Gazebo's gz (gz_support.py says where it runs)
        done = subprocess.run([*as_package(), *words[1:]], cwd=clone,
                              capture_output=True, text=True, stdin=subprocess.DEVNULL,
                              timeout=300, env=package_env(clone))
        assert done.returncode == 0, f'{document}:{line}: {shlex.join(words)}\n{done.stderr}'


def indented_block(text: str, caption: str) -> str:
    """Return the indented block that follows a line holding ``caption`` in a document."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if caption in line) + 1
    block = []
    for line in lines[start:]:
        if line.strip() and not line.startswith('    '):
            break
        block.append(line[4:])
    return '\n'.join(block).strip('\n') + '\n'


def test_the_user_part_example_builds_as_written(tmp_path):
    """docs/USER_PARTS.md's config, part file and ad hoc slot, copied as a reader would."""
    text = (REPO / 'docs' / 'USER_PARTS.md').read_text(encoding='utf-8')
    (tmp_path / 'parts').mkdir()
    config = tmp_path / 'my_boat.yaml'
    config.write_text(indented_block(text, '`my_boat.yaml`:'), encoding='utf-8')
    (tmp_path / 'parts' / 'camera_bracket.yaml').write_text(
        indented_block(text, '`parts/camera_bracket.yaml`:'), encoding='utf-8')
    (tmp_path / 'parts' / 'camera_bracket.stl').write_bytes(  # the reader's own mesh
        b'solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n'
        b'vertex 0 1 0\nendloop\nendfacet\nendsolid x\n')
    slots = re.search(r'`(slots: \[\{of: .*?\}\])`', text.replace('\n', ' '), re.S).group(1)
    for extra in ('', slots + '\n'):
        with config.open('a', encoding='utf-8') as out:
            out.write(extra)
        done = subprocess.run([tool('bluerobotics-parts'), 'tree', config], capture_output=True,
                              text=True, stdin=subprocess.DEVNULL, timeout=300)
        assert done.returncode == 0, f'{extra or "the example"}:\n{done.stderr}'
    assert '(camera_bracket)' in done.stdout and '[side_mount]' in done.stdout
