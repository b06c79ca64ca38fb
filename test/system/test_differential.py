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
The Python resolution and the xacro resolver agree.

Commands resolve in Python (assembly/resolution.py, assembly/urdf_writer.py); ``xacro
urdf/assembly.xacro config:=...`` is the standalone resolver. On every shipped config and on
seeded generated ones (test/support/config_generator.py), a config with an expansion problem is
refused by xacro with the first such problem, word for word; any other resolves to the same URDF
byte for byte, and the check of xacro's URDF finds exactly the problems the Python resolution
lists. Configs the loader refuses are only counted. xacro runs in-process (xacro_harness.py).
"""

from __future__ import annotations

from collections import Counter
import difflib
import multiprocessing
from pathlib import Path
import re
import shutil
import tempfile

from conftest import SHIPPED_CONFIGS
import pytest

GENERATED = 1000
SEED = 20240611


def compare(config_path: Path) -> dict:
    """Resolve one config both ways; return its outcome and what disagreed (if anything)."""
    from bluerobotics_parts.assembly import urdf_check, record
    from bluerobotics_parts.assembly.resolution import resolve
    from bluerobotics_parts.assembly.urdf_writer import urdf_text, urdf_tree
    from bluerobotics_parts.formats import config as config_module
    from xacro_harness import run_xacro, XacroFailed

    config = config_module.read(config_path)
    resolution = resolve(config)
    problems = resolution.problems
    if any(p.stage == 'load' for p in problems):
        return {'kind': 'load', 'rules': sorted({p.rule for p in problems})}
    try:
        xacro_text, xacro_error = run_xacro(config_path), None
    except XacroFailed as error:
        xacro_text, xacro_error = None, error.message
    first = resolution.first_expansion_problem()
    if first is not None:
        expected = first.message  # ASSEMBLY ERROR: ... in both
        failure = None if xacro_error == expected else (
            f'first problem differs:\n  python: {expected}\n  xacro:  {xacro_error}')
        return {'kind': 'expansion', 'rules': [first.rule], 'failure': failure}
    if xacro_error is not None:
        return {'kind': 'accepted', 'failure': f'xacro refuses what Python resolves: '
                                               f'{xacro_error}\n  python: {problems}'}
    python_text = urdf_text(urdf_tree(resolution))
    if python_text != xacro_text:
        diff = ''.join(list(difflib.unified_diff(xacro_text.splitlines(True),
                                                 python_text.splitlines(True),
                                                 'xacro', 'python'))[:60])
        return {'kind': 'accepted', 'failure': f'URDF text differs:\n{diff}'}
    if record.read(xacro_text) != resolution.record:
        return {'kind': 'accepted', 'failure': 'the records differ'}
    checked = [str(p) for p in urdf_check.problems(config, xacro_text)]
    listed = [str(p) for p in resolution.sorted_problems()]
    failure = None if checked == listed else (
        f"the check of xacro's URDF says {checked}\n  the resolution says {listed}")
    return {'kind': 'check' if problems else 'accepted',
            'rules': sorted({p.rule for p in problems}), 'failure': failure,
            'joints': sorted({kind for name, kind in re.findall(
                r'<joint name="([^"]+)" type="(revolute|prismatic)"', python_text)
                if name != 'hd_camera_joint'}),  # a user part's, not the shipped camera tilt
            'adhoc_joints': sorted({slot.get('joint') for slot in config.adhoc_slots
                                    if isinstance(slot, dict) and 'limits' in slot})}


def _compare_cases(cases) -> list:
    """Worker: write each case to a folder of its own and compare it."""
    outcomes = []
    root = Path(tempfile.mkdtemp(prefix='bluerobotics_parts_differential_'))
    try:
        for number, case in cases:
            folder = root / f'case{number}'
            folder.mkdir()
            for name, text in case.part_files.items():
                (folder / name).write_text(text, encoding='utf-8')
            path = folder / 'config.yaml'
            path.write_text(case.config, encoding='utf-8')
            outcome = compare(path)
            outcome['number'] = number
            if outcome.get('failure'):
                outcome['failure'] += f'\n--- config #{number}:\n{case.config}'
                for name, text in case.part_files.items():
                    outcome['failure'] += f'--- {name}:\n{text}'
            outcomes.append(outcome)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return outcomes


def generated_cases(count: int = GENERATED, seed: int = SEED) -> list:
    from bluerobotics_parts.assembly.catalogue import shipped
    from config_generator import Generator

    generator = Generator(seed, shipped())
    return [(number, generator.case()) for number in range(count)]


@pytest.mark.parametrize('path', SHIPPED_CONFIGS, ids=[p.stem for p in SHIPPED_CONFIGS])
def test_every_shipped_config_resolves_the_same_both_ways(path):
    outcome = compare(path)
    assert outcome['kind'] == 'accepted' and not outcome.get('failure'), outcome


def test_generated_configs_resolve_the_same_both_ways():
    cases = generated_cases()
    chunks = [cases[i::8] for i in range(8)]
    # spawned, not forked: this process may already run threads (Fast DDS, after the rclpy
    # tests), and a fork copies their locks in whatever state they were
    with multiprocessing.get_context('spawn').Pool(2) as pool:
        outcomes = [o for chunk in pool.map(_compare_cases, chunks) for o in chunk]
    failures = [o['failure'] for o in sorted(outcomes, key=lambda o: o['number'])
                if o.get('failure')]
    assert not failures, f'{len(failures)} of {len(outcomes)} disagree; the first:\n' + \
        '\n\n'.join(failures[:3])
    kinds = Counter(o['kind'] for o in outcomes)
    first_rules = Counter(o['rules'][0] for o in outcomes if o['kind'] == 'expansion')
    check_rules = Counter(r for o in outcomes if o['kind'] == 'check' for r in o['rules'])
    # The generator must keep exercising every rule, or the agreement says little.
    assert kinds['accepted'] >= 250 and kinds['expansion'] >= 300 and kinds['check'] >= 100, \
        kinds
    assert kinds['load'] <= len(outcomes) // 10, kinds
    for rule in ('bare-on', 'required-key', 'part-file-clash', 'unknown-type', 'slot-joint',
                 'default-not-accepted', 'vector', 'slot-clash', 'no-slot', 'configured-twice',
                 'not-accepted', 'contains-itself'):
        assert first_rules[rule] >= 3, (rule, first_rules)
    for rule in ('no-instance', 'no-link', 'name-twice', 'inside-itself', 'unknown-key',
                 'empty-slot-name'):
        assert check_rules[rule] >= 3, (rule, check_rules)
    # and the limited joints of user parts' slots and frames
    moving = Counter(kind for o in outcomes for kind in o.get('joints', ()))
    assert moving['revolute'] >= 3 and moving['prismatic'] >= 3, moving
    # and a config's own moving slots
    adhoc = Counter(kind for o in outcomes for kind in o.get('adhoc_joints', ()))
    assert adhoc['revolute'] >= 3 and adhoc['prismatic'] >= 3, adhoc


@pytest.mark.parametrize('path', SHIPPED_CONFIGS[:3] + SHIPPED_CONFIGS[-2:],
                         ids=[p.stem for p in SHIPPED_CONFIGS[:3] + SHIPPED_CONFIGS[-2:]])
def test_the_harness_gives_what_the_xacro_command_prints(path):
    """The harness's shortcuts change nothing: its URDF is the ``xacro`` command's."""
    from xml.dom import minidom

    from conftest import xacro_cli
    from xacro_harness import run_xacro, to_text

    printed = xacro_cli(path)
    assert printed.returncode == 0, printed.stderr
    assert to_text(minidom.parseString(printed.stdout)) == run_xacro(path)
