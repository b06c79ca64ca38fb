#!/usr/bin/env python3
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
Regenerate the pictures in docs/FRAMES.md from the model: TF trees and the BlueBoat picture.

The TF trees are ``bluerobotics-parts tree --format mermaid`` of the shipped configs, written
between the ``<!-- tf-tree CONFIG -->`` and ``<!-- end tf-tree -->`` lines (GitHub draws
Mermaid); test/test_frames_doc.py fails until they are current. docs/images/blueboat.png is
``bluerobotics-parts render config/blueboat.yaml`` (not compared byte for byte: fonts and
Pillow versions move pixels).

    .venv/bin/python tools/make_frames_doc.py [--check]
"""

import argparse
from pathlib import Path
import re
import sys

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bluerobotics_parts.assembly.pipeline import resolve_config  # noqa: E402
from bluerobotics_parts.cli.poses import tree_mermaid  # noqa: E402

DOC = REPO / 'docs' / 'FRAMES.md'
BLOCK = re.compile(r'(<!-- tf-tree (?P<config>\S+) -->\n)(?P<body>.*?)(<!-- end tf-tree -->)',
                   re.DOTALL)


def current(text: str) -> str:
    """Return the document with every TF tree block regenerated."""
    def block(match):
        mermaid = tree_mermaid(resolve_config(REPO / match.group('config')))
        return f'{match.group(1)}```mermaid\n{mermaid}```\n{match.group(4)}'

    return BLOCK.sub(block, text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--check', action='store_true', help='only say whether it is current')
    args = parser.parse_args()
    text = DOC.read_text(encoding='utf-8')
    fresh = current(text)
    if args.check:
        print('current' if fresh == text else f'{DOC} is stale')
        return 0 if fresh == text else 1
    DOC.write_text(fresh, encoding='utf-8')
    from bluerobotics_parts.picture.render import render_config

    image = REPO / 'docs' / 'images' / 'blueboat.png'
    image.parent.mkdir(exist_ok=True)
    image.write_bytes(render_config(REPO / 'config' / 'blueboat.yaml')[0])
    print(f'wrote {DOC.relative_to(REPO)} and {image.relative_to(REPO)}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
