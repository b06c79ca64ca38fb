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
The README, NOTES.md and docs/ state facts, not a diary, and their links lead somewhere.

No reference to the project's own issues ("issue 20", "#19", "item 7") and no words of a
working session ("this session", "the December review", "second audit", "stop 29"): a reader
meets the package as it is, and the history stays in git. An upstream issue is cited by its
address (github.com/gazebosim/sdformat/issues/199). Every relative markdown link
(``](path)``) in the README and docs/ points at a file of the checkout.
"""

from __future__ import annotations

import re

from conftest import REPO
import pytest

DOCUMENTS = ['README.md', 'NOTES.md',
             *sorted(str(p.relative_to(REPO)) for p in (REPO / 'docs').glob('*.md'))]
#: What a diary says and a reference does not (case-insensitive).
DIARY = {
    'an issue number': r'\bissues? \d+',
    'an issue reference': r'(?:^|[\s(\[])#\d{2,}\b',
    'an item of an issue': r'\bitems? \d+\b',
    'a pull request of ours': r'\b(?:PR|pull request) #?\d+',
    'the issue': r'\bthe issue\b',
    'a session': r'\b(?:this|that|next|last|previous|first|second|third|later|same) '
                 r'(?:session|round|audit|review|stop)\b',
    'a review round': r'\breview round\b|\bre-?audit',
    'a month of work': r'\bDecember\b',
    'a stop': r'\bstop \d+\b',
    'a session word': r'\bthis session\b|\bthis round\b|\bin this pass\b',
}
LINK = re.compile(r'\]\(([^)\s]+)\)')


def test_every_document_is_read():
    assert {'README.md', 'NOTES.md', 'docs/LIMITATIONS.md', 'docs/DESIGN.md',
            'docs/PART_FACTS.md', 'docs/README.md'} <= set(DOCUMENTS)


@pytest.mark.parametrize('document', DOCUMENTS)
def test_no_issue_numbers_or_session_words(document):
    found = []
    for number, line in enumerate((REPO / document).read_text(encoding='utf-8').splitlines(), 1):
        for what, pattern in DIARY.items():
            for match in re.finditer(pattern, line, re.IGNORECASE):
                found.append(f'{document}:{number}: {what}: {match.group(0).strip()!r}')
    assert not found, '\n'.join(found)


@pytest.mark.parametrize('document', DOCUMENTS)
def test_relative_links_point_at_files(document):
    path = REPO / document
    broken = []
    for number, line in enumerate(path.read_text(encoding='utf-8').splitlines(), 1):
        for target in LINK.findall(line):
            if re.match(r'^[a-z][a-z0-9+.-]*:', target) or target.startswith('#'):
                continue  # an address (https:, mailto:) or a place in the same page
            file = target.split('#')[0]
            if not (path.parent / file).exists():
                broken.append(f'{document}:{number}: {target}')
    assert not broken, '\n'.join(broken)


def test_the_checks_catch_what_they_are_for():
    text = ('Fixed in issue 20 (#19, item 7); this session, the December review round, '
            'stop 29, the second audit.')
    caught = {what for what, pattern in DIARY.items() if re.search(pattern, text, re.IGNORECASE)}
    assert {'an issue number', 'an issue reference', 'an item of an issue', 'a session',
            'a review round', 'a month of work', 'a stop'} <= caught
    clean = ('parts entry #1 (slot motor_port); stroke:#222; '
             'github.com/gazebosim/sdformat/issues/199; T200 data, September 2019')
    assert not [w for w, p in DIARY.items() if re.search(p, clean, re.IGNORECASE)]
    assert LINK.findall('see [FRAMES.md](FRAMES.md) and ![x](images/blueboat.png)') == [
        'FRAMES.md', 'images/blueboat.png']
