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

"""Shared material of the export tests: a user part with a mesh, folder snapshots, the CLI."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
import re
import subprocess
import sys

REPO = Path(__file__).resolve().parents[2]
IDENTITY_LINE = re.compile(r'^identity: (sha256:[0-9a-f]{64})$', re.MULTILINE)
MANIFEST = 'description_manifest.json'
MAST_CONFIG = """\
name: boat2
parts:
  - {type: blueboat_antenna_mast, name: aft_mast, xyz: [-0.3, 0, 0.2]}
"""
USER_PART = """\
type: sensor_pod
description: a pod of our own (test part)
inertial:
  mass: 0.3
  mass_unverified: test value
  inertia: {ixx: 0.0002, ixy: 0.0, ixz: 0.0, iyy: 0.0002, iyz: 0.0, izz: 0.0002}
  inertia_unverified: test value
visual:
  - mesh: pod.stl
    material: {name: pod_grey, rgba: [0.5, 0.5, 0.5, 1.0]}
collision:
  - box: [0.05, 0.05, 0.05]
    box_unverified: test value
"""
USER_PART_CONFIG = """\
part_files: [parts/sensor_pod.yaml]
parts:
  - {type: sensor_pod, name: pod, xyz: [0.4, 0, 0.1]}
"""
POD_STL = b"""solid pod
facet normal 0 0 1
 outer loop
  vertex 0 0 0
  vertex 0.05 0 0
  vertex 0 0.05 0
 endloop
endfacet
endsolid pod
"""


def run_cli(*args, cwd=REPO, timeout=300):
    """Run ``bluerobotics-parts`` from this checkout, as a user runs it (any folder)."""
    environment = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, '-m', 'bluerobotics_parts.cli.main', *map(str, args)],
                          cwd=cwd, env=environment, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def printed_identity(text: str) -> str:
    found = IDENTITY_LINE.findall(text)
    assert len(found) == 1, text
    return found[0]


def snapshot(folder: Path) -> dict[str, bytes]:
    """Return every file under ``folder`` (hidden ones too) by relative path."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob('*')) if p.is_file() and not p.is_symlink()}


def write_config(folder: Path, text: str, name: str = 'vehicle.yaml') -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text)
    return path


def user_part_config(folder: Path, part: str = USER_PART) -> Path:
    """Return a config in ``folder`` using the sensor pod part (with its mesh) in parts/."""
    (folder / 'parts').mkdir(parents=True)
    (folder / 'parts' / 'sensor_pod.yaml').write_text(part)
    (folder / 'parts' / 'pod.stl').write_bytes(POD_STL)
    return write_config(folder, USER_PART_CONFIG)


def copy_tree(source: Path, target: Path) -> Path:
    for relative, data in snapshot(source).items():
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        (target / relative).write_bytes(data)
    return target


def manifest_of(folder: Path) -> dict:
    return json.loads((folder / MANIFEST).read_text())


def write_manifest(folder: Path, document: dict) -> None:
    """Write a manifest the way export does (compact, sorted keys, one newline)."""
    text = json.dumps(document, sort_keys=True, separators=(',', ':'), ensure_ascii=False)
    (folder / MANIFEST).write_text(text + '\n')


def relist(folder: Path, path: str) -> None:
    """Record ``path``'s current digest in the manifest (what a careful forger would do)."""
    document = manifest_of(folder)
    document['files'][path] = hashlib.sha256((folder / path).read_bytes()).hexdigest()
    write_manifest(folder, document)


def siblings(folder: Path) -> list[str]:
    """Return the names beside ``folder`` in its parent (staging folders would show here)."""
    return sorted(p.name for p in folder.parent.iterdir())
