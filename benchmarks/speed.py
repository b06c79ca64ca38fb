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
Speed of ``bluerobotics-parts build``, from paired, interleaved runs.

Prints, in one run:

* the default build (the shipped BlueBoat, whole process) against plain ``xacro`` of the flat
  URDF that build writes (whole process, no macros to expand): the median of the per-pair
  ratios, wall clock and CPU (target: at most 3x);
* four series of generated configs (flat free placements, a chain of ad hoc slots each on
  the previous one's occupant, a chain of placements each on the previous one, flat ad hoc
  slots on the base) at 100, 1,000 and 3,000 items:
  the build's wall time, and t(1000)/t(100) from consecutive runs (target: at most 12); 3,000
  of anything under 30 s;
* the build cache: a default build that reuses a cached result against one that builds
  (``--no-cache``), paired; whole processes, and above what starting the interpreter costs
  (``python -c pass``, median of its own runs), which no cache can save (target: at most 0.2x
  above the interpreter); and one launch plan (``launch_plan.plan``, timed inside a process
  that has imported what vehicle.launch.py imports) that reuses the cache against one that
  builds (target: at most 0.2x).

Every build but the cached ones runs with ``--no-cache``.

Timing is never asserted by a test: machines differ and share their cores. Ratios of runs made
one right after the other cancel most of that out; the order within each pair alternates.
The package and xacro run as installed programs would, with their compiled bytecode (the runs
do not inherit PYTHONDONTWRITEBYTECODE).

    .venv/bin/python benchmarks/speed.py [--pairs 15] [--series-rounds 3]
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = Path(__file__).resolve().parent.parent
SIZES = (100, 1000, 3000)
SERIES = ('flat placements', 'chain of slots', 'chain of placements', 'ad hoc slots')
RATIO_TARGET = 3.0
GROWTH_TARGET = 12.0
LARGEST_TARGET = 30.0  # seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--pairs', type=int, default=15,
                        help='default build / xacro pairs (0: skip)')
    parser.add_argument('--cache-pairs', type=int, default=15,
                        help='cached / uncached build pairs (0: skip)')
    parser.add_argument('--series-rounds', type=int, default=3,
                        help='rounds of each series at 100 and 1,000 (3,000: once per round; '
                             '0: skip)')
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != 'PYTHONDONTWRITEBYTECODE'}
    with tempfile.TemporaryDirectory(prefix='bluerobotics_parts_bench_') as folder:
        folder = Path(folder)
        ok = default_against_xacro(folder, args.pairs, env) if args.pairs else True
        ok &= series(folder, args.series_rounds, env) if args.series_rounds else True
        ok &= cache_reuse(folder, args.cache_pairs, env) if args.cache_pairs else True
        ok &= launch_reuse(folder, args.cache_pairs, env) if args.cache_pairs else True
    print('\nall targets met' if ok else '\nsome targets missed')
    return 0 if ok else 1


# -- measuring one run ---------------------------------------------------------------------------

def run(command, env) -> tuple[float, float]:
    """Run a whole process; return (wall seconds, CPU seconds of it and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run([str(c) for c in command], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f'failed: {" ".join(map(str, command))}\n{result.stderr}')
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def build_command(config: Path, out: Path, cached: bool = False) -> list:
    """Return ``bluerobotics-parts build``, the console script as users run it (as xacro)."""
    script = Path(sys.executable).parent / 'bluerobotics-parts'
    launcher = [script] if script.exists() else [sys.executable, '-m', 'bluerobotics_parts']
    return [*launcher, 'build', config, '-o', out, *([] if cached else ['--no-cache'])]


def xacro_command(urdf: Path) -> list:
    xacro = Path(sys.executable).parent / 'xacro'
    return [xacro if xacro.exists() else shutil.which('xacro'), urdf]


# -- the default build against plain xacro -----------------------------------------------

def default_against_xacro(folder: Path, pairs: int, env) -> bool:
    config = REPO / 'config' / 'blueboat.yaml'
    out = folder / 'default'
    run(build_command(config, out), env)  # warm-up: bytecode written, files in the cache
    urdf = out / 'robot_description.urdf'
    run(xacro_command(urdf), env)
    walls, cpus, build_walls, xacro_walls = [], [], [], []
    for index in range(pairs):
        first_build = index % 2 == 0
        order = ['build', 'xacro'] if first_build else ['xacro', 'build']
        times = {}
        for which in order:
            command = build_command(config, out) if which == 'build' else xacro_command(urdf)
            times[which] = run(command, env)
        walls.append(times['build'][0] / times['xacro'][0])
        cpus.append(times['build'][1] / times['xacro'][1])
        build_walls.append(times['build'][0])
        xacro_walls.append(times['xacro'][0])
    wall_ratio = statistics.median(walls)
    print(f'default build vs plain xacro of its flat URDF ({pairs} interleaved pairs, '
          'whole processes)')
    print(f'  build  median {statistics.median(build_walls) * 1000:7.1f} ms wall')
    print(f'  xacro  median {statistics.median(xacro_walls) * 1000:7.1f} ms wall')
    print(f'  ratio  median {wall_ratio:5.2f}x wall, {statistics.median(cpus):5.2f}x CPU '
          f'(target <= {RATIO_TARGET:g}x): {_verdict(wall_ratio <= RATIO_TARGET)}')
    return wall_ratio <= RATIO_TARGET


# -- the series -----------------------------------------------------------------------------------

def series(folder: Path, rounds: int, env) -> bool:
    ok = True
    print('\nseries (build, whole process; wall seconds, median of the rounds)')
    for kind in SERIES:
        configs = {n: write_config(folder / f"{kind.replace(' ', '_')}_{n}.yaml", kind, n)
                   for n in SIZES}
        out = folder / 'series_out'
        run(build_command(configs[100], out), env)  # warm-up
        times = {n: [] for n in SIZES}
        growth = []
        for index in range(rounds):
            order = [100, 1000] if index % 2 == 0 else [1000, 100]
            pair = {n: run(build_command(configs[n], out), env)[0] for n in order}
            growth.append(pair[1000] / pair[100])
            for n in order:
                times[n].append(pair[n])
            times[3000].append(run(build_command(configs[3000], out), env)[0])
        ratio = statistics.median(growth)
        largest = statistics.median(times[3000])
        ok &= ratio <= GROWTH_TARGET and largest < LARGEST_TARGET
        print(f'  {kind:16} ' + '  '.join(f'{n:>5}: {statistics.median(times[n]):6.2f} s'
                                          for n in SIZES)
              + f'  t(1000)/t(100) {ratio:5.2f} (<= {GROWTH_TARGET:g}: '
              f'{_verdict(ratio <= GROWTH_TARGET)}), 3000 < {LARGEST_TARGET:g} s: '
              f'{_verdict(largest < LARGEST_TARGET)}')
    return ok


# -- the build cache ----------------------------------------------------------------------------

def cache_reuse(folder: Path, pairs: int, env) -> bool:
    config = REPO / 'config' / 'blueboat.yaml'
    out = folder / 'cached'
    env = dict(env, XDG_CACHE_HOME=str(folder / 'cache'), BLUEROBOTICS_PARTS_CACHE='on')
    run(build_command(config, out, cached=True), env)  # warm-up: fills the cache
    interpreter = [run([sys.executable, '-c', 'pass'], env)[0] for _ in range(pairs)]
    ratios, above, colds, warms = [], [], [], []
    base = statistics.median(interpreter)
    for index in range(pairs):
        order = [True, False] if index % 2 == 0 else [False, True]
        times = {cached: run(build_command(config, out, cached), env)[0] for cached in order}
        ratios.append(times[True] / times[False])
        above.append(max(times[True] - base, 0.0) / max(times[False] - base, 1e-9))
        warms.append(times[True])
        colds.append(times[False])
    ratio = statistics.median(above)
    print(f'\nbuild cache ({pairs} interleaved pairs, whole processes; interpreter start '
          f'{base * 1000:.1f} ms)')
    print(f'  built   median {statistics.median(colds) * 1000:7.1f} ms wall')
    print(f'  reused  median {statistics.median(warms) * 1000:7.1f} ms wall')
    print(f'  ratio   median {statistics.median(ratios):5.2f}x whole process, '
          f'{ratio:5.2f}x above the interpreter start (target <= 0.2x): '
          f'{_verdict(ratio <= 0.2)}')
    return ratio <= 0.2


LAUNCH_PLAN = """
import sys, time
# as vehicle.launch.py does
from bluerobotics_parts.ros.launch import arguments as launch_arguments, plan as launch_plan
start = time.perf_counter()
launch_plan.plan({'gazebo': 'false'}, environ={'ROS_HOME': sys.argv[1],
                                               'BLUEROBOTICS_PARTS_CACHE': sys.argv[2]})
print(time.perf_counter() - start)
"""


def launch_reuse(folder: Path, pairs: int, env) -> bool:
    def planned(switch: str) -> float:
        result = subprocess.run([sys.executable, '-c', LAUNCH_PLAN, str(folder / 'ros'),
                                 switch], capture_output=True, text=True, env=env, cwd=REPO)
        if result.returncode != 0:
            raise SystemExit(f'launch plan failed:\n{result.stderr}')
        return float(result.stdout.split()[-1])

    planned('on')  # fills the cache
    ratios, warms, colds = [], [], []
    for index in range(pairs):
        order = ['on', 'off'] if index % 2 == 0 else ['off', 'on']
        times = {switch: planned(switch) for switch in order}
        ratios.append(times['on'] / times['off'])
        warms.append(times['on'])
        colds.append(times['off'])
    ratio = statistics.median(ratios)
    print(f'\nlaunch plan ({pairs} interleaved pairs, in-process, after the imports of the '
          'launch file)')
    print(f'  built   median {statistics.median(colds) * 1000:7.1f} ms')
    print(f'  reused  median {statistics.median(warms) * 1000:7.1f} ms')
    print(f'  ratio   median {ratio:5.2f}x (target <= 0.2x): {_verdict(ratio <= 0.2)}')
    return ratio <= 0.2


def write_config(path: Path, kind: str, count: int) -> Path:
    """Write a config with ``count`` items of one kind; return its path."""
    lines = []
    if kind == 'flat placements':
        lines.append('parts:')
        lines += [f'  - {{type: blueboat_flag, name: f{i}, xyz: [{i * 0.001:.3f}, 0, 0.3]}}'
                  for i in range(count)]
    elif kind == 'chain of placements':  # each placed on the previous one
        lines.append('parts:')
        parent = 'base_link'
        for i in range(count):
            lines.append(f'  - {{type: blueboat_flag, name: f{i}, parent: {parent}}}')
            parent = f'f{i}'
    elif kind == 'chain of slots':  # each slot on the previous slot's default occupant
        lines.append('slots:')
        carrier = 'base_link'
        for i in range(count):
            lines.append(f'  - {{of: {carrier}, name: s{i}, xyz: [0, 0, 0.1], '
                         'accepts: [blueboat_flag], default: blueboat_flag}')
            carrier = f's{i}'
    else:
        lines.append('slots:')
        lines += [f'  - {{name: s{i}, xyz: [{i * 0.001:.3f}, 0, 0.1], accepts: [blueboat_flag], '
                  'default: blueboat_flag}' for i in range(count)]
    path.write_text('\n'.join(lines) + '\n', encoding='utf-8')
    return path


def _verdict(met: bool) -> str:
    return 'met' if met else 'MISSED'


if __name__ == '__main__':
    sys.exit(main())
