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

"""docs/FRAMES.md's TF trees are the model's, and ``tree --format mermaid`` is the TF tree."""

from __future__ import annotations

import importlib.util
import re

from conftest import cli, CONFIG_DIR, parse, REPO


def test_the_tf_trees_in_the_docs_are_current():
    spec = importlib.util.spec_from_file_location('make_frames_doc',
                                                  REPO / 'tools' / 'make_frames_doc.py')
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    text = (REPO / 'docs' / 'FRAMES.md').read_text(encoding='utf-8')
    assert text.count('```mermaid') == 2
    assert tool.current(text) == text, 'docs/FRAMES.md is stale: run tools/make_frames_doc.py'
    assert (REPO / 'docs' / 'images' / 'blueboat.png').read_bytes()[:4] == b'\x89PNG'


def test_the_mermaid_tree_has_every_link_and_joint_of_the_urdf():
    config = CONFIG_DIR / 'examples' / 'free_placement.yaml'
    mermaid = cli('tree', '--format', 'mermaid', config).stdout
    robot = parse(cli('urdf', config).stdout)
    nodes = dict(re.findall(r'^  n_(\w+)\["(\S+)"\]', mermaid, re.MULTILINE))
    assert nodes == {link.get('name'): f"blueboat/{link.get('name')}"
                     for link in robot.findall('link')}
    edges = set(re.findall(r'^  n_(\w+) -->\|(\w+)\| n_(\w+)$', mermaid, re.MULTILINE))
    assert edges == {(j.find('parent').get('link'), j.get('type'), j.find('child').get('link'))
                     for j in robot.findall('joint')}
    assert '  n__odom -->|"odometry (gz, /tf)"| n_base_link' in mermaid
    assert 'n_base_link_mast["blueboat/base_link_mast"]:::empty' in mermaid
    assert 'n_mast_top' not in mermaid and 'n_aft_mast_top["blueboat/aft_mast_top"]:::frame' \
        in mermaid
