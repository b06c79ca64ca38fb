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
The package's structure: one subpackage per layer, imports one way, no cycle, a light import.

Data flows one way: files -> formats -> assembly -> model -> physics -> sensing -> gazebo ->
ardupilot -> build -> description -> picture -> api -> ros -> cli (errors and paths under
all of them). A module may
import its own layer and the layers below, never one above, counting imports inside functions
too; no import cycle either, between modules or layers. Importing the package loads nothing
but the package itself; no command or API path runs xacro (the standalone resolver).
"""

from __future__ import annotations

import ast
import subprocess
import sys

from conftest import REPO
import pytest

PACKAGE = REPO / 'bluerobotics_parts'
#: Each layer, lowest first: a top-level module (errors, paths, build, api) or a subpackage.
LAYERS = (('errors', 'paths'), ('files',), ('formats',), ('assembly',), ('model',),
          ('physics',), ('sensing',), ('gazebo',), ('ardupilot',), ('build',), ('description',),
          ('picture',), ('figures',), ('api',), ('ros',), ('cli',))
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}
TOP_MODULES = {'__init__', '__main__', 'api', 'build', 'errors', 'paths'}


def module_name(path) -> str:
    """Return a module's dotted name inside the package ('' for the package itself)."""
    parts = list(path.relative_to(PACKAGE).with_suffix('').parts)
    return '.'.join(parts[:-1] if parts[-1] == '__init__' else parts)


MODULES = {module_name(path): path for path in PACKAGE.rglob('*.py')}


def imports(name: str) -> set:
    """
    Return the package modules ``name`` imports: anywhere in it, relative, absolute or lazy.

    ``from . import x`` counts as importing the submodule ``x`` (not the package's __init__)
    when ``x`` is one: Python runs that __init__ too, which is harmless while the subpackages'
    __init__ files import nothing at load (test_importing_the_package_loads_only_the_package
    holds the top one to it). A ``_LAZY`` table (name -> module, loaded on first use) and a
    literal ``import_module('bluerobotics_parts...')`` count like imports.
    """
    path = MODULES[name]
    package = name.split('.') if path.name == '__init__.py' else name.split('.')[:-1]
    package = [part for part in package if part]  # the package itself: ''
    found = set()

    def add(target):
        if target in MODULES and target not in ('', name):  # '': the package's names
            found.add(target)

    for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
            elif (node.module or '').split('.')[0] == 'bluerobotics_parts':
                base, node = [], ast.ImportFrom(node.module.partition('.')[2], node.names, 0)
            else:
                continue
            module = base + (node.module.split('.') if node.module else [])
            submodules = ['.'.join(module + [a.name]) for a in node.names]
            add('.'.join(module)) if not all(s in MODULES for s in submodules) else None
            for target in submodules:
                add(target)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith('bluerobotics_parts.'):
                    add(alias.name.partition('.')[2])
        elif (isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict)
              and any(isinstance(t, ast.Name) and t.id == '_LAZY' for t in node.targets)):
            for value in node.value.values:
                add('.'.join(package + value.value.split('.')))
        elif (isinstance(node, ast.Call) and getattr(node.func, 'attr', '') == 'import_module'
              and node.args and isinstance(node.args[0], ast.Constant)
              and str(node.args[0].value).startswith('bluerobotics_parts.')):
            add(node.args[0].value.partition('.')[2])
    return found


GRAPH = {name: imports(name) for name in MODULES}


def layer(name: str) -> str:
    return name.split('.')[0]


def test_the_top_holds_only_the_entry_points_and_the_layers():
    top = {path.stem for path in PACKAGE.glob('*.py')}
    assert top == TOP_MODULES
    folders = {path.name for path in PACKAGE.iterdir() if path.is_dir()
               and path.name != '__pycache__'}
    assert folders == {name for names in LAYERS for name in names} - TOP_MODULES
    assert all((PACKAGE / folder / '__init__.py').is_file() for folder in folders)


def test_no_import_runs_from_a_lower_layer_to_a_higher_one():
    upward = [f'{name} -> {target}' for name, targets in GRAPH.items() for target in targets
              if name not in ('', '__main__') and target and
              RANK[layer(target)] > RANK[layer(name)]]
    assert upward == []


@pytest.mark.parametrize('graph', ['modules', 'layers'])
def test_no_import_cycle(graph):
    edges = GRAPH if graph == 'modules' else {}
    if graph == 'layers':
        for name, targets in GRAPH.items():
            edges.setdefault(layer(name), set()).update(
                layer(t) for t in targets if layer(t) != layer(name))
    state: dict = {}

    def visit(node, trail):
        if state.get(node) == 'done':
            return
        assert state.get(node) != 'open', ' -> '.join(trail + [node])
        state[node] = 'open'
        for target in sorted(edges.get(node, ())):
            visit(target, trail + [node])
        state[node] = 'done'

    for node in sorted(edges):
        visit(node, [])


def test_the_checks_see_imports_inside_functions():
    """An import inside a function counts like one at the top of the module."""
    assert 'model.kinematics' in GRAPH['ros.launch.plan']  # imported in build_vehicle only


def test_the_checks_see_lazy_imports():
    """A module loaded on first use (a _LAZY table) counts like an import."""
    assert {'assembly.pipeline', 'assembly.urdf_check'} <= GRAPH['assembly']
    assert 'api' in GRAPH['']


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
from bluerobotics_parts.assembly import pipeline, urdf_check
from bluerobotics_parts.cli import main as cli
resolved = pipeline.resolve_config(None)
urdf_check.check(None, resolved.urdf)
build.build_gazebo('config/examples/user_part.yaml', gz_release='ionic')
Assembly().fit('mast', 'blueboat_antenna_mast').build_gazebo()
assert cli.main(['build', 'config/blueboat.yaml', '-o', {str(out)!r}]) == 0
print('xacro' in sys.modules)
""")
    assert loaded.splitlines()[-1] == 'False'
    assert 'import xacro' not in ''.join(p.read_text(encoding='utf-8')
                                         for p in PACKAGE.rglob('*.py'))


def test_the_ros_layer_keeps_what_launch_runs_apart_from_the_nodes():
    """
    ros/launch (what ``ros2 launch`` runs) may read the nodes' table; a node never needs launch.

    A user's node starts without the launch machinery, and the launch side grows without
    touching what runs on the vehicle.
    """
    ros = PACKAGE / 'ros'
    assert {p.name for p in ros.iterdir() if p.is_dir() and p.name != '__pycache__'} == {
        'launch', 'nodes'}
    assert {p.stem for p in ros.glob('*.py')} == {'__init__'}
    into_launch = [f'{name} -> {target}' for name, targets in GRAPH.items()
                   if name.startswith('ros.nodes') for target in targets
                   if target.startswith('ros.launch')]
    assert into_launch == []
    assert 'ros.nodes.converters' in GRAPH['ros.launch.plan']  # the checks see the sub-layers
