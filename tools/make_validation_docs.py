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
stops before writing anything (a page of predictions alone would look measured). The pages
are replaced only when every run succeeded. Takes a few minutes per vehicle on two cores.
"""

import argparse
from datetime import date
from pathlib import Path
import re
import shutil
import subprocess
import sys
import tempfile

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bluerobotics_parts.gazebo import scenario  # noqa: E402

VEHICLES = ('blueboat', 'bluerov2', 'bluerov2_heavy')
TARGET = REPO / 'docs' / 'validation'
SIMULATED_WITH = re.compile(r'^Simulated with: (.+)$', re.MULTILINE)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('vehicles', nargs='*', metavar='VEHICLE',
                        help=f"the shipped vehicles to measure again: {', '.join(VEHICLES)} "
                        '(default: all)')
    parser.add_argument('--index-only', action='store_true',
                        help='write README.md from the reports there, flying nothing')
    args = parser.parse_args(argv)
    unknown = [v for v in args.vehicles if v not in VEHICLES]
    if unknown:
        parser.error(f"no shipped vehicle {unknown[0]!r}; choose from {', '.join(VEHICLES)}")
    args.vehicles = args.vehicles or list(VEHICLES)
    if args.index_only:
        return _write_index()
    reason = scenario.missing()
    if reason is not None:
        print(f'make_validation_docs: Gazebo is needed: {reason} (nothing was written)',
              file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix='validation_') as temporary:
        for vehicle in args.vehicles:  # validate will not write into the package's own docs/
            print(f'== {vehicle}', file=sys.stderr, flush=True)
            done = subprocess.run(
                [sys.executable, '-m', 'bluerobotics_parts.cli.main', 'validate',
                 f'config/{vehicle}.yaml', '-o', str(Path(temporary) / vehicle)],
                cwd=REPO, stdin=subprocess.DEVNULL, check=False)
            if done.returncode != 0:
                print(f'make_validation_docs: {vehicle} failed (exit {done.returncode}); '
                      'docs/validation/ is unchanged', file=sys.stderr)
                return 1
        for vehicle in args.vehicles:  # every run succeeded: replace their pages
            shutil.rmtree(TARGET / vehicle, ignore_errors=True)
            shutil.copytree(Path(temporary) / vehicle, TARGET / vehicle)
    return _write_index()


def _write_index() -> int:
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
             '| vehicle | report | top speed ahead, m/s: published / predicted / Gazebo '
             '| measured with | on |', '|---|---|---|---|---|']
    for vehicle in VEHICLES:
        page = TARGET / vehicle / 'report.md'
        if not page.is_file():
            continue
        text = page.read_text(encoding='utf-8')
        found = SIMULATED_WITH.search(text)
        made = re.search(r'made (\d{4}-\d{2}-\d{2})', text)
        speed = re.search(r'^\| top speed ahead \| m/s \| ([^|]*) \| ([^|]*) \| ([^|]*) \|$',
                          text, re.MULTILINE)
        speeds = ' / '.join(cell.split(' (')[0].strip() or '-' for cell in speed.groups()) \
            if speed else '-'
        lines.append(f'| {vehicle} | [{vehicle}/report.md]({vehicle}/report.md) | {speeds} | '
                     f'{found.group(1).rstrip(".") if found else "-"} | '
                     f'{made.group(1) if made else date.today().isoformat()} |')
    lines += ['', 'Where a row has no simulated value the report says why (a figure Gazebo is '
              'given rather than one a run measures; no battery in Gazebo). What the models leave '
              'out is in [../LIMITATIONS.md](../LIMITATIONS.md).', '']
    return '\n'.join(lines)


if __name__ == '__main__':
    sys.exit(main())
