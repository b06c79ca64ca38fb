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
Time and peak memory of the commands on hostile inputs (YAML and file hazards).

Each case runs `bluerobotics-parts` in a child process with a time limit and reports the
child's wall time, peak resident memory (from wait4's rusage) and its first line of output,
so a regression from "refused at once" to "grows for minutes" is visible at a glance:

    .venv/bin/python benchmarks/yaml_hazards.py
"""

import os
from pathlib import Path
import subprocess
import sys
import tempfile
import time

REPO = Path(__file__).resolve().parent.parent
LIMIT_SECONDS = 60


def alias_bomb(levels: int, width: int) -> str:
    """Return a 'billion laughs' document: width**levels values once expanded."""
    lines = [f'a0: &a0 [{", ".join(["x"] * width)}]']
    for level in range(1, levels):
        lines.append(f'a{level}: &a{level} [{", ".join([f"*a{level - 1}"] * width)}]')
    return '\n'.join(lines) + '\n'


def placements(count: int) -> str:
    """Return a config of ``count`` free placements of the flag."""
    rows = [f'  - {{type: blueboat_flag, name: f{i}, xyz: [{i * 0.001:.3f}, 0, 0.5]}}'
            for i in range(count)]
    return 'parts:\n' + '\n'.join(rows) + '\n'


def run(arguments) -> tuple:
    """Return (seconds, peak MiB, exit code, first line) of one command in a child process."""
    start = time.monotonic()
    child = subprocess.Popen([sys.executable, '-m', 'bluerobotics_parts.cli.main', *arguments],
                             cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    deadline = start + LIMIT_SECONDS
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            child.kill()
            pid, status, usage = os.wait4(child.pid, 0)
            return LIMIT_SECONDS, usage.ru_maxrss / 1024, 'killed', 'still running'
        time.sleep(0.01)
    output = child.stdout.read()
    child.returncode = os.waitstatus_to_exitcode(status)
    first = output.strip().splitlines()[0] if output.strip() else ''
    return time.monotonic() - start, usage.ru_maxrss / 1024, child.returncode, first


def main() -> int:
    folder = Path(tempfile.mkdtemp(prefix='yaml_hazards_'))
    cases = []

    def config(name: str, text: str) -> Path:
        path = folder / name
        path.write_text(text, encoding='utf-8')
        return path

    cases.append(('device /dev/zero as config', ['urdf', '/dev/zero']))
    fifo = folder / 'fifo.yaml'
    os.mkfifo(fifo)
    cases.append(('FIFO as config', ['urdf', fifo]))
    (folder / 'fifo_part').mkdir()
    os.mkfifo(folder / 'fifo_part' / 'my_part.yaml')
    cases.append(('FIFO as part file',
                  ['urdf', config('fifo_part/boat.yaml', 'part_files: [my_part.yaml]\n')]))
    sparse = folder / 'huge.yaml'
    with open(sparse, 'wb') as stream:
        stream.truncate(50 * 1024 * 1024)
    cases.append(('50 MB config (sparse)', ['urdf', sparse]))
    bomb_small = alias_bomb(9, 10)
    cases.append((f'alias bomb, {len(bomb_small)} bytes (10^9 values)',
                  ['urdf', config('bomb_small.yaml', bomb_small)]))
    bomb_large = alias_bomb(12, 10)
    cases.append((f'alias bomb, {len(bomb_large)} bytes (10^12 values)',
                  ['urdf', config('bomb_large.yaml', bomb_large)]))
    cases.append(('deep nesting (5,000 levels)',
                  ['urdf', config('deep.yaml', 'name: ' + '[' * 5000 + ']' * 5000 + '\n')]))
    many = placements(50_000)
    cases.append((f'50,000 placements, {len(many) / 2**20:.1f} MiB',
                  ['urdf', config('many.yaml', many)]))
    tagged = 'slots:\n  - name: s\n    xyz: [0, 0, !radians "1+1"]\n'
    cases.append(('tag !radians', ['urdf', config('tag.yaml', tagged)]))
    print(f'{"case":48} {"seconds":>8} {"peak MiB":>9} {"exit":>6}  first line of output')
    for label, arguments in cases:
        seconds, peak, code, first = run([str(a) for a in arguments])
        print(f'{label:48} {seconds:8.2f} {peak:9.0f} {code!s:>6}  {first[:90]}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
