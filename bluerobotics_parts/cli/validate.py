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
``bluerobotics-parts validate CONFIG -o DIR``: how close the simulated vehicle is to the real one.

Writes ``DIR/report.md``, the same as ``DIR/report.html`` (one self-contained file) and the
plots as PNG files (figures/report.py), all or nothing. Where Gazebo Harmonic's Python
modules import (and unless ``--no-gazebo``), each manoeuvre is flown headless first
(figures/simulated.py), with a progress line as it goes; Ctrl-C stops the run, leaves no gz
process behind and writes nothing.
"""

from __future__ import annotations

from pathlib import Path
import shutil
import subprocess
import sys
import time

from ..errors import printable

REPORT, PAGE = 'report.md', 'report.html'
PROGRESS_EVERY = 5.0  # s of simulated time between progress lines
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports Ctrl-C


def gazebo_version() -> str:
    """Return the Gazebo the runs used, as ``gz sim --versions`` names it."""
    found = shutil.which('gz')
    if found:
        try:
            done = subprocess.run([found, 'sim', '--versions'], capture_output=True, text=True,
                                  stdin=subprocess.DEVNULL, timeout=60)
            versions = done.stdout.split()
            if versions:
                return f'gz-sim {versions[0]} (headless, dartsim)'
        except (OSError, subprocess.TimeoutExpired):
            pass
    return 'gz-sim 8 (its Python modules; no gz on PATH to name the version)'


def run(args) -> int:
    """Validate ``args.config`` into ``args.output``; return the exit status."""
    from ..build import build_gazebo
    from ..figures import simulated
    from ..figures.predicted import vehicle_info
    from ..figures.report import html_page, markdown, report
    from ..files.atomic import check_not_inputs, check_output_folder, write_files_atomically
    from ..gazebo import scenario

    folder = Path(args.output)
    info = vehicle_info(args.config, name=args.name)
    build = build_gazebo(args.config, name=args.name)
    plot_names = ('speed.png', 'thrust_curve.png', 'turning.png', 'pitch.png', 'depth.png')
    names = (REPORT, PAGE) + plot_names
    check_output_folder(folder, names=names)
    check_not_inputs([folder / name for name in names], build.resolved.input_files())
    reason = 'skipped (--no-gazebo)' if args.no_gazebo else scenario.missing()
    traces, version = None, ''
    if reason is None:
        chosen = simulated.manoeuvres(info)
        total = sum(m.seconds for m in chosen)
        print(f'validate: flying {len(chosen)} manoeuvres in a headless Gazebo '
              f'({total:g} s simulated)', file=sys.stderr)
        try:
            traces = simulated.fly(build, info, chosen, progress=_progress())
        except KeyboardInterrupt:
            print('validate: stopped (Ctrl-C): the Gazebo run is ended; nothing was written',
                  file=sys.stderr)
            return EXIT_INTERRUPTED
        version = gazebo_version()
    else:
        reason = f'Gazebo not run: {reason}'
    label = args.config if args.config is not None else 'the default (config/blueboat.yaml)'
    made = report(build, info, traces, reason, str(label), version)
    files = {REPORT: markdown(made).encode('utf-8'), PAGE: html_page(made).encode('utf-8')}
    files.update({name: png for name, (_, png) in made.plots.items()})
    written = write_files_atomically(folder, files)
    empty = sum(1 for row in made.rows if row.simulated is None)
    print(f'wrote {printable(str(folder))}: {", ".join(p.name for p in written)} '
          f'({len(made.rows)} figures; {empty} without a simulated value, each saying why)',
          file=sys.stderr)
    return 0


def _progress():
    """Return the progress callback: a line when a manoeuvre starts and every few seconds."""
    state = {'key': None, 'next': 0.0, 'started': 0.0}

    def progress(manoeuvre, simulated_seconds: float) -> None:
        if state['key'] != manoeuvre.key:
            state.update(key=manoeuvre.key, next=0.0, started=time.monotonic())
            print(f'  {manoeuvre.label}: {manoeuvre.seconds:g} s', file=sys.stderr)
        if simulated_seconds >= state['next'] - 1e-9:
            wall = time.monotonic() - state['started']
            print(f'    {simulated_seconds:5.1f} / {manoeuvre.seconds:g} s simulated '
                  f'({wall:.0f} s)', file=sys.stderr, flush=True)
            state['next'] = simulated_seconds + PROGRESS_EVERY
    return progress
