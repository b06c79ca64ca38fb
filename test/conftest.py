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

"""Shared helpers for the tests: the repo's configs, running real tools, resolving."""

from __future__ import annotations

import os
from pathlib import Path
import shutil
import subprocess
import sys
from xml.etree import ElementTree

import pytest

REPO = Path(__file__).resolve().parent.parent
SUPPORT = Path(__file__).resolve().parent / 'support'  # the tests' helpers and doubles
for folder in (REPO, SUPPORT):  # the package from this checkout, and the helpers
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

# Every test builds for real (and child processes inherit this): the build cache is tested on
# its own, in test_cache.py, and must not let one test's build stand in for another's.
os.environ['BLUEROBOTICS_PARTS_CACHE'] = 'off'

CONFIG_DIR = REPO / 'config'
SHIPPED_CONFIGS = sorted([*CONFIG_DIR.glob('*.yaml'), *(CONFIG_DIR / 'examples').glob('*.yaml')])
BIN = Path(sys.executable).parent


#: Written by tools/setup.sh: a tool it could not install, and why, one ``name: reason`` a line
#: (Debian's SDFormat tools need root or sudo).
SKIPPED_TOOLS = Path(sys.prefix) / 'bluerobotics_parts-skipped-tools'


def set_up_without(name: str) -> str | None:
    """Return why tools/setup.sh left ``name`` out (None: it did not)."""
    try:
        lines = SKIPPED_TOOLS.read_text(encoding='utf-8').splitlines()
    except OSError:
        return None
    return next((line.split(':', 1)[1].strip() for line in lines
                 if line.split(':', 1)[0].strip() == name), None)


def skip_if_set_up_without(name: str) -> None:
    """Skip the test, with tools/setup.sh's reason, when the set-up left ``name`` out."""
    reason = set_up_without(name)
    if reason is not None:
        pytest.skip(f'{name} is not installed: {reason}')


def tool(name: str) -> str:
    """
    Return a command installed beside this Python (venv) or on PATH.

    Skip nothing silently: a missing tool is a failed test, since the README's set-up installs
    them all, unless the set-up said it could not (tools/setup.sh, SKIPPED_TOOLS): then the test
    skips with that reason.
    """
    skip_if_set_up_without(name)
    for candidate in (BIN / name, shutil.which(name)):
        if candidate and Path(candidate).exists():
            return str(candidate)
    raise AssertionError(f"{name} is not installed (the README's test command installs it)")


def run(args, **kwargs) -> subprocess.CompletedProcess:
    kwargs.setdefault('cwd', REPO)
    return subprocess.run([str(a) for a in args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=600, **kwargs)


def xacro_cli(config: Path, *extra) -> subprocess.CompletedProcess:
    """Run the resolver as users run it: ``xacro urdf/assembly.xacro config:=/abs/path``."""
    return run([tool('xacro'), REPO / 'urdf' / 'assembly.xacro', f'config:={config}', *extra])


def cli(*args, **kwargs) -> subprocess.CompletedProcess:
    """``bluerobotics-parts ...`` from this checkout."""
    return run([sys.executable, '-m', 'bluerobotics_parts.cli.main', *args], **kwargs)


def write_config(folder: Path, text: str, name: str = 'boat.yaml') -> Path:
    path = folder / name
    path.write_text(text, encoding='utf-8')
    return path


def parse(urdf: str) -> ElementTree.Element:
    return ElementTree.fromstring(urdf.encode())


class Urdf:
    """Small queries on a URDF's links and joints, for assertions."""

    def __init__(self, text: str):
        self.text = text
        self.root = parse(text)
        self.links = {link.get('name'): link for link in self.root.findall('link')}
        self.joints = {j.get('name'): j for j in self.root.findall('joint')}
        self.parent_of = {j.find('child').get('link'): j.find('parent').get('link')
                          for j in self.joints.values()}
        self.joint_to = {j.find('child').get('link'): j for j in self.joints.values()}

    def children(self, link: str) -> list[str]:
        return [c for c, p in self.parent_of.items() if p == link]

    def origin(self, joint: str) -> tuple[list[float], list[float]]:
        origin = self.joints[joint].find('origin')
        return ([float(v) for v in origin.get('xyz').split()],
                [float(v) for v in origin.get('rpy').split()])

    def records(self, tag: str) -> list[dict]:
        return [dict(e.attrib) for e in self.root.findall(tag)]

    def mass(self) -> float:
        return sum(float(m.get('value')) for m in self.root.iter('mass'))


@pytest.fixture(scope='session')
def resolve_text():
    """Resolve a config (path or None) through the checked pipeline, cached per session."""
    from bluerobotics_parts.assembly.pipeline import resolve_config

    cache: dict = {}

    def resolve(config=None, name=None) -> str:
        key = (str(config), name)
        if key not in cache:
            from bluerobotics_parts import paths

            cache[key] = resolve_config(config or paths.default_config(), name=name).urdf
        return cache[key]

    return resolve


@pytest.fixture
def ros():
    """Return a real rclpy, initialised for the test (failed where it is missing: PyPI has it)."""
    import ros_support

    rclpy = ros_support.require_rclpy()
    rclpy.init()
    yield rclpy
    rclpy.try_shutdown()


def pytest_terminal_summary(terminalreporter):
    """Print one line per skip reason with its count: what did not run, at a glance."""
    import collections

    reasons = collections.Counter()
    for report in terminalreporter.stats.get('skipped', []):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reasons[reason.removeprefix('Skipped: ')] += 1
    if reasons:
        terminalreporter.section('skipped, by reason')
        for reason, count in reasons.most_common():
            terminalreporter.write_line(f'{count:5d}  {reason}')
