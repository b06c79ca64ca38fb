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
The folder swap's own promises, on real folders: modes kept, nothing lost when retiring.

The end-to-end behaviour (concurrent and killed exports) is in test_export_concurrency.py; here
are the cases that a real export only meets in a moment too short to hit on purpose.
"""

from __future__ import annotations

import hashlib
import os
import stat

from bluerobotics_parts.description import folder_swap
from bluerobotics_parts.description.export import export, verify
from bluerobotics_parts.description.identity import manifest_bytes, MANIFEST_FILE
from export_helpers import MAST_CONFIG, siblings, write_config


def old_tree(folder, files):
    """Write a folder as a previous export left it: the files and their manifest."""
    folder.mkdir(parents=True)
    for path, data in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_bytes(data)
    (folder / MANIFEST_FILE).write_bytes(manifest_bytes('v', files, 'harmonic'))
    return folder


def test_retiring_deletes_only_what_is_known_and_moves_late_files(tmp_path):
    target = tmp_path / 'vehicle'
    target.mkdir()
    (target / 'notes.txt').write_text('kept')
    tree = old_tree(tmp_path / '.old', {'robot.urdf': b'<robot/>', 'meshes/a.stl': b'solid'})
    os.link(target / 'notes.txt', tree / 'notes.txt')  # carried provenance: a second link
    (tree / 'late.txt').write_text('written in the moment of the swap')
    (tree / 'meshes' / 'b.stl').write_text('late too, in a folder')
    assert folder_swap._retire(tree, target) == []
    assert not tree.exists()
    assert (target / 'late.txt').read_text() == 'written in the moment of the swap'
    assert (target / 'meshes' / 'b.stl').read_text() == 'late too, in a folder'
    assert (target / 'notes.txt').read_text() == 'kept'


def test_retiring_keeps_a_changed_file_and_a_name_clash_visible(tmp_path):
    target = tmp_path / 'vehicle'
    target.mkdir()
    (target / 'robot.urdf').write_text('<robot name="new"/>')
    tree = old_tree(tmp_path / '.old', {'robot.urdf': b'<robot/>', 'bridge.yaml': b'[]\n'})
    (tree / 'robot.urdf').write_text('<robot name="edited in the moment"/>')  # not as listed
    notes = folder_swap._retire(tree, target)
    assert len(notes) == 1 and 'leftover' in notes[0]
    leftover = next(p for p in tmp_path.iterdir() if 'leftover' in p.name)
    assert (leftover / 'robot.urdf').read_text() == '<robot name="edited in the moment"/>'
    assert not (leftover / 'bridge.yaml').exists()  # listed, unchanged: the export's own
    assert (target / 'robot.urdf').read_text() == '<robot name="new"/>'


def test_the_folder_keeps_its_mode(tmp_path):
    config = write_config(tmp_path, MAST_CONFIG)
    folder = tmp_path / 'out'
    export(config, folder)
    os.chmod(folder, 0o750)
    result = export(config, folder)
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o750
    assert verify(folder) == result.identity and siblings(folder) == ['out', 'vehicle.yaml']


def test_digests_of_the_previous_export_are_what_decides(tmp_path):
    """Replace a listed file only while it has the digest its manifest records."""
    config = write_config(tmp_path, MAST_CONFIG)
    folder = tmp_path / 'out'
    export(config, folder)
    listed = hashlib.sha256((folder / 'bridge.yaml').read_bytes()).hexdigest()
    claimed = folder_swap._claims(folder, strict=True)
    assert claimed['bridge.yaml'] == listed and claimed[MANIFEST_FILE] is None
