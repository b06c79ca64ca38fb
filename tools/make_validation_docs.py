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
Regenerate docs/validation/: the shipped vehicles' ``validate`` reports and their index.

Each vehicle is flown in a headless Gazebo (``bluerobotics-parts validate``, progress on
stderr), so the pages say how close the simulation is without a visitor installing anything.
Run in a shell where Gazebo Harmonic and its Python modules are found; without them the tool
stops before writing anything (a page of predictions alone would look measured). A vehicle's
folder is replaced only when its run succeeded. Takes a few minutes per vehicle on two cores.
"""

import argparse
from datetime import date
from pathlib import Path
import re
import subprocess
import sys

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bluerobotics_parts.gazebo import scenario  # noqa: E402

VEHICLES = ('blueboat', 'bluerov2', 'bluerov2_heavy')
TARGET = REPO / 'docs' / 'validation'
SIMULATED_WITH = re.compile(r'^Simulated with: (.+)$', re.MULTILINE)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('vehicles', nargs='*', default=list(VEHICLES), choices=VEHICLES,
                        help='the shipped vehicles to measure again (default: all)')
    args = parser.parse_args(argv)
    reason = scenario.missing()
    if reason is not None:
        print(f'make_validation_docs: Gazebo is needed: {reason} (nothing was written)',
              file=sys.stderr)
        return 1
    for vehicle in args.vehicles:
        print(f'== {vehicle}', file=sys.stderr, flush=True)
        done = subprocess.run(
            [sys.executable, '-m', 'bluerobotics_parts.cli.main', 'validate',
             f'config/{vehicle}.yaml', '-o', str(TARGET / vehicle)],
            cwd=REPO, stdin=subprocess.DEVNULL, check=False)
        if done.returncode != 0:
            print(f'make_validation_docs: {vehicle} failed (exit {done.returncode}); its page '
                  'is unchanged', file=sys.stderr)
            return 1
    index = TARGET / 'README.md'
    index.write_text(index_text(), encoding='utf-8')
    print(f'wrote {index.relative_to(REPO)}', file=sys.stderr)
    return 0


def index_text() -> str:
    """Return docs/validation/README.md: a line per vehicle with what it was measured with."""
    lines = ['# How close the simulated vehicles are to the real ones', '',
             'Made by `python tools/make_validation_docs.py`, which runs '
             '`bluerobotics-parts validate` on each shipped config (docs/COMMANDS.md). Each '
             'report sets the published figure (with its source), the prediction '
             '`bluerobotics-parts info` prints and the value measured in a headless Gazebo run '
             'of the same manoeuvre side by side, with plots.', '',
             '| vehicle | report | measured with | on |', '|---|---|---|---|']
    for vehicle in VEHICLES:
        page = TARGET / vehicle / 'report.md'
        if not page.is_file():
            continue
        text = page.read_text(encoding='utf-8')
        found = SIMULATED_WITH.search(text)
        made = re.search(r'made (\d{4}-\d{2}-\d{2})', text)
        lines.append(f'| {vehicle} | [{vehicle}/report.md]({vehicle}/report.md) | '
                     f'{found.group(1) if found else "-"} | '
                     f'{made.group(1) if made else date.today().isoformat()} |')
    lines += ['', 'Where a row has no simulated value the report says why (a figure Gazebo is '
              'given rather than one a run measures; no battery in Gazebo). What the models leave '
              'out is in [../LIMITATIONS.md](../LIMITATIONS.md).', '']
    return '\n'.join(lines)


if __name__ == '__main__':
    sys.exit(main())
