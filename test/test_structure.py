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
The package's structure: data flows one way, no import cycle, a light import, no xacro.

Modules import each other at module level only along the data flow (config -> resolution ->
URDF and record -> check / composition / bridge / vehicle model / export); a cycle would make
that flow hard to see. Importing the package loads nothing but the package itself. No command
or API path runs xacro: it stays the standalone resolver.
"""

from __future__ import annotations

import ast
import subprocess
import sys

from conftest import REPO

PACKAGE = REPO / 'bluerobotics_parts'


def module_imports() -> dict:
    """Return module -> the package modules it imports at module level (not in functions)."""
    graph = {}
    for path in sorted(PACKAGE.glob('*.py')):
        tree = ast.parse(path.read_text(encoding='utf-8'))
        found = set()
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    found.add(node.module.split('.')[0])
                else:
                    found.update(alias.name for alias in node.names)
        graph[path.stem] = found & {p.stem for p in PACKAGE.glob('*.py')}
    return graph


def test_no_module_level_import_cycle():
    graph = module_imports()
    state: dict = {}

    def visit(module, trail):
        if state.get(module) == 'done':
            return
        assert state.get(module) != 'open', ' -> '.join(trail + [module])
        state[module] = 'open'
        for imported in sorted(graph.get(module, ())):
            visit(imported, trail + [module])
        state[module] = 'done'

    for module in sorted(graph):
        visit(module, [])


def python(code: str) -> str:
    result = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                            cwd=REPO, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_importing_the_package_loads_only_the_package():
    loaded = python('import sys, bluerobotics_parts\n'
                    "print(sorted(m for m in sys.modules if m.startswith('bluerobotics_parts')"
                    " or m in ('yaml', 'xacro', 'xml.etree.ElementTree')))")
    assert loaded.strip() == "['bluerobotics_parts']"


def test_no_command_or_api_path_runs_xacro(tmp_path):
    out = tmp_path / 'out'
    loaded = python(f"""
import sys
from bluerobotics_parts import Assembly, build
from bluerobotics_parts.assembly import pipeline, urdf_check as assembly
from bluerobotics_parts.cli import main as cli
resolved = pipeline.resolve_config(None)
assembly.check(None, resolved.urdf)
build.build('config/examples/user_part.yaml', gz_release='ionic')
Assembly().fit('mast', 'blueboat_antenna_mast').build_gazebo()
assert cli.main(['build', 'config/blueboat.yaml', '-o', {str(out)!r}]) == 0
print('xacro' in sys.modules)
""")
    assert loaded.splitlines()[-1] == 'False'
    assert 'import xacro' not in ''.join(p.read_text(encoding='utf-8')
                                         for p in PACKAGE.glob('*.py'))
