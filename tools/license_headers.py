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
Check or add the Apache-2.0 license header on every source file, as ament_copyright checks it.

    tools/license_headers.py [PATH ...]          list the files without a valid header (exit 1)
    tools/license_headers.py --add [PATH ...]    add the header (tools/license_header.txt) to
                                                 them, after any shebang and coding line

Paths default to the package root. What counts as a header and which files are checked follow
ament_copyright (ament/ament_lint, tag 0.17.1): ament_copyright/crawler.py (the .py, .c, .cpp,
.h, .cmake, ... files; folders starting with '.' or '_' and those holding AMENT_IGNORE are
skipped, and so is the package-level setup.py) and ament_copyright/parser.py (after shebang,
coding and empty lines, the first comment block holds a "Copyright <years> <holder>" line
followed by the license text, compared without regard to line breaks and spacing). At a
repository root it also wants LICENSE and CONTRIBUTING.md. There is no ament_copyright on PyPI:
test/test_copyright.py runs this where ament_copyright is not installed.
"""

import argparse
import os
from pathlib import Path
import re
import sys

ROOT = Path(__file__).resolve().parent.parent
HEADER_FILE = Path(__file__).resolve().parent / 'license_header.txt'
EXTENSIONS = ('.c', '.cc', '.cpp', '.cxx', '.h', '.hh', '.hpp', '.hxx', '.cmake', '.py')
YEARS = r'\d{4}(?:-\d{4})?'
COPYRIGHT = re.compile(rf'^\s*copyright(?:\s+\(c\))?\s+{YEARS}(?:,\s*{YEARS})*,?\s+\S.*$',
                       re.IGNORECASE | re.MULTILINE)
LICENSE_START = 'Apache License Version 2.0, January 2004'
LICENSE_END = 'END OF TERMS AND CONDITIONS'
CONTRIBUTING_CLAUSE = '5. Submission of Contributions. Unless You explicitly state otherwise,'


def flat(text: str) -> str:
    """Return the text with every run of whitespace as one space (how headers are compared)."""
    return ' '.join(text.split())


def license_text() -> str:
    """Return the license part of the header: everything after its copyright line."""
    return flat(HEADER_FILE.read_text(encoding='utf-8').split('\n', 1)[1])


def source_files(paths) -> list:
    """Return the files ament_copyright would check under these paths."""
    found = []
    for path in map(Path, paths):
        if path.is_file():
            found.append(path)
            continue
        for folder, folders, files in os.walk(path):
            if 'AMENT_IGNORE' in folders + files:
                folders[:] = []
                continue
            folders[:] = sorted(d for d in folders if d[0] not in '._')
            for name in sorted(files):
                if name == 'setup.py' and (Path(folder) / 'package.xml').exists():
                    continue  # the package-level setup.py is not checked
                if name.endswith(EXTENSIONS):
                    found.append(Path(folder) / name)
    return found


def _start_of_header(lines: list) -> int:
    """Return the index of the first line after shebang, coding and empty lines."""
    index = 0
    while index < len(lines) and lines[index].startswith('#') and (
            lines[index].startswith('#!') or 'coding=' in lines[index] or
            'coding:' in lines[index]):
        index += 1
    while index < len(lines) and not lines[index].strip():
        index += 1
    return index


def header_problem(path: Path) -> str:
    """Return what is wrong with the file's header, or '' when it is valid."""
    text = path.read_text(encoding='utf-8')
    if not text:
        return ''  # ament_copyright reports an empty file but does not fail it
    lines = text.splitlines()
    index = _start_of_header(lines)
    block = []
    while index < len(lines) and lines[index].startswith('#'):
        block.append(lines[index][2:] if lines[index].startswith('# ') else lines[index][1:])
        index += 1
    comment = '\n'.join(block)
    match = COPYRIGHT.search(comment)
    if not match:
        return 'could not find copyright notice'
    if license_text() not in flat(comment[match.end():]):
        return 'copyright found, but not the Apache-2.0 license text after it'
    return ''


def repository_problems(root: Path) -> dict:
    """Return the problems of LICENSE and CONTRIBUTING.md at a repository root."""
    if not (root / '.git').exists():
        return {}
    problems = {}
    for name, needed in (('LICENSE', (LICENSE_START, LICENSE_END)),
                         ('CONTRIBUTING.md', (CONTRIBUTING_CLAUSE,))):
        path = root / name
        if not path.is_file():
            problems[path] = 'file not found'
        elif not all(flat(part) in flat(path.read_text(encoding='utf-8')) for part in needed):
            problems[path] = 'not the Apache-2.0 text'
    return problems


def problems(paths=(ROOT,)) -> dict:
    """Return {file: problem} for every checked file without a valid header."""
    found = {path: header_problem(path) for path in source_files(paths)}
    found = {path: problem for path, problem in found.items() if problem}
    for path in paths:
        found.update(repository_problems(Path(path)))
    return found


def add_header(path: Path) -> None:
    """Insert the header after the file's shebang and coding lines."""
    text = path.read_text(encoding='utf-8')
    lines = text.splitlines(keepends=True)
    index = 0
    while index < len(lines) and (lines[index].startswith('#!') or (
            lines[index].startswith('#') and ('coding=' in lines[index] or
                                              'coding:' in lines[index]))):
        index += 1
    header = ''.join(f'# {line}'.rstrip() + '\n'
                     for line in HEADER_FILE.read_text(encoding='utf-8').splitlines())
    rest = ''.join(lines[index:]).lstrip('\n')
    path.write_text(''.join(lines[:index]) + header + ('\n' + rest if rest else ''),
                    encoding='utf-8')


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('paths', nargs='*', default=[str(ROOT)])
    parser.add_argument('--add', action='store_true', help='add the missing headers')
    args = parser.parse_args(argv)
    found = problems(args.paths)
    if args.add:
        for path, problem in sorted(found.items()):
            if problem == 'could not find copyright notice':
                add_header(path)
                print(f'{path}: header added')
        found = problems(args.paths)
    for path, problem in sorted(found.items()):
        print(f'{path}: {problem}')
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
