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
``--version``, ``python -m bluerobotics_parts`` and shell completion (argcomplete, for real).

Completion runs the installed console script the way bash's hook does (``_ARGCOMPLETE`` and
``COMP_LINE`` set), with argcomplete writing its answer to a file instead of descriptor 8.
"""

from __future__ import annotations

import os
import re
import sys

from bluerobotics_parts import __version__
from conftest import CONFIG_DIR, REPO, run, tool, write_config
import pytest


def test_version_is_the_package_version_everywhere():
    result = run([tool('bluerobotics-parts'), '--version'])
    assert result.returncode == 0 and result.stdout == f'bluerobotics-parts {__version__}\n'
    assert f"version='{__version__}'" in (REPO / 'setup.py').read_text()
    assert re.search(rf'<version>{re.escape(__version__)}</version>',
                     (REPO / 'package.xml').read_text())


def test_python_m_runs_the_command(tmp_path):
    result = run([sys.executable, '-m', 'bluerobotics_parts', 'tree',
                  CONFIG_DIR / 'blueboat.yaml'])
    assert result.returncode == 0 and result.stdout.startswith('vehicle blueboat\n')
    bad = write_config(tmp_path, 'colour: red\n')
    result = run([sys.executable, '-m', 'bluerobotics_parts', 'tree', bad])
    assert result.returncode == 1 and "unknown key 'colour'" in result.stderr


def complete(tmp_path, line: str) -> list:
    answer = tmp_path / 'completions'
    env = dict(os.environ, _ARGCOMPLETE='1', COMP_LINE=line, COMP_POINT=str(len(line)),
               _ARGCOMPLETE_STDOUT_FILENAME=str(answer), _ARGCOMPLETE_SUPPRESS_SPACE='1')
    result = run([tool('bluerobotics-parts')], env=env)
    assert result.returncode == 0, result.stderr
    return answer.read_text().split('\013')


@pytest.mark.parametrize('line, expected', [
    ('bluerobotics-parts ', {'render', 'schema', 'tree', 'build', 'info', 'parts'}),
    ('bluerobotics-parts ren', {'render'}),
    ('bluerobotics-parts render boat.yaml --view ', {'iso', 'top', 'side', 'front'}),
    ('bluerobotics-parts schema ', {'config', 'part'}),
    ('bluerobotics-parts tree --format ', {'text', 'json'}),
])
def test_shell_completion(tmp_path, line, expected):
    assert expected <= set(complete(tmp_path, line))


def test_completion_of_file_names(tmp_path):
    (tmp_path / 'my_boat.yaml').write_text('')
    found = complete(tmp_path, f'bluerobotics-parts tree {tmp_path}/my_')
    assert f'{tmp_path}/my_boat.yaml' in found


def test_global_completion_finds_the_marker():
    """Run argcomplete's own check, as its global activation runs it on the script."""
    result = run([sys.executable, '-W', 'ignore', '-m', 'argcomplete._check_console_script',
                  tool('bluerobotics-parts')])
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_command_list_is_the_parsers():
    """cli.COMMANDS (what a run builds alone) names every subcommand, in the help's order."""
    import argparse

    from bluerobotics_parts.cli import main as cli

    (subcommands,) = [a for a in cli.parser()._actions
                      if isinstance(a, argparse._SubParsersAction)]
    assert tuple(subcommands.choices) == cli.COMMANDS
    for name in cli.COMMANDS:  # each one alone parses what it takes
        (alone,) = [a for a in cli.parser(only=name)._actions
                    if isinstance(a, argparse._SubParsersAction)]
        assert list(alone.choices) == [name]
