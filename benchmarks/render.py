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
Speed of ``bluerobotics-parts render``, and of the drawing library it rests on.

Prints, in one run:

* the whole command for the default boat (a process, as a user runs it, four views, PNG),
  against ``bluerobotics-parts info`` of the same config (which resolves and solves the same
  rest): medians of interleaved pairs and of their ratios (target: render under 3 s);
* where the time goes in one process: resolving, the scene (meshes, water plane), the
  layout, the PNG and the SVG;
* the library choice: importing Pillow + numpy against importing matplotlib (paired
  processes), and painting the same triangles with Pillow against matplotlib's Agg
  PolyCollection (paired, in process); skipped where matplotlib is not installed;
* with ``--big`` (minutes, and 420 MB of temporary files): the whole
  command's wall time and peak memory (its process's maximum resident set) on a user part
  whose mesh has 2 million or 5.3 million triangles (a tessellated ball on the BlueBoat; the
  larger is just under the 256 MiB a mesh may have), as PNG and as SVG, and on 1,000 flags
  placed freely (PNG), against the memory target (300 MB); and the peak of the picture's own
  stages (scene, layout, image, in a child process: resolving and the water line's rest are
  left out, as they check the part files again and read each user mesh whole, in
  assembly/catalogue.py). With ``--baseline DIR`` (another checkout, e.g. ``git worktree add
  /tmp/old HEAD~1``) each case runs there too, interleaved in pairs, and the medians of the
  ratios this/baseline are printed.

Timing is never asserted by a test; ratios of runs made one right after the other cancel most
of what a shared machine adds.

    .venv/bin/python benchmarks/render.py [--pairs 7] [--big [--big-pairs 1] [--baseline DIR]]
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import os
from pathlib import Path
import statistics
import subprocess
import sys
import tempfile
import time

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
CONFIG = REPO / 'config' / 'blueboat.yaml'
TARGET = 3.0  # seconds, the whole render command
MEMORY_TARGET = 300  # MB, the whole render command on any mesh under the size limit
BIG_MESHES = (2_000_000, 5_300_000)
FLAGS = 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--pairs', type=int, default=7)
    parser.add_argument('--big', action='store_true',
                        help='also the 2M / 5.3M-triangle meshes and 1,000 flags (minutes)')
    parser.add_argument('--big-pairs', type=int, default=1)
    parser.add_argument('--baseline', type=Path,
                        help='another checkout to compare the --big cases with')
    args = parser.parse_args()
    ok = whole_command(args.pairs)
    stages()
    libraries(args.pairs)
    if args.big:
        ok = big(args.big_pairs, args.baseline) and ok
    return 0 if ok else 1


def timed(command) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, cwd=REPO)
    return time.perf_counter() - start


def pairs_of(first, second, pairs: int) -> tuple:
    """Return the medians of ``first``, of ``second`` and of first/second, order alternating."""
    a, b, ratios = [], [], []
    for index in range(pairs):
        if index % 2:
            tb, ta = second(), first()
        else:
            ta, tb = first(), second()
        a.append(ta)
        b.append(tb)
        ratios.append(ta / tb)
    return statistics.median(a), statistics.median(b), statistics.median(ratios)


def whole_command(pairs: int) -> bool:
    tool = [sys.executable, '-m', 'bluerobotics_parts.cli.main']
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / 'boat.png'
        render, info, ratio = pairs_of(lambda: timed(tool + ['render', CONFIG, '-o', out]),
                                       lambda: timed(tool + ['info', CONFIG]), pairs)
    print(f'render of the default boat (whole process, {pairs} pairs)')
    print(f'  render  median {render:6.3f} s wall  (target under {TARGET:g} s: '
          f"{'met' if render < TARGET else 'NOT MET'})")
    print(f'  info    median {info:6.3f} s wall')
    print(f'  ratio   median {ratio:5.2f}x')
    return render < TARGET


def stages() -> None:
    from bluerobotics_parts.assembly.pipeline import resolve_config
    from bluerobotics_parts.picture.render import draw
    from bluerobotics_parts.picture.scene import build_scene

    resolve_config(CONFIG)  # warm: the part library is read once per process
    rows = []
    for _ in range(5):
        t0 = time.perf_counter()
        resolved = resolve_config(CONFIG)
        t1 = time.perf_counter()
        scene = build_scene(resolved)
        t2 = time.perf_counter()
        picture = draw(scene)
        t3 = time.perf_counter()
        picture.canvas.png()
        t4 = time.perf_counter()
        picture.canvas.svg()
        t5 = time.perf_counter()
        rows.append((t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4))
    names = ('resolve', 'scene (meshes, rest)', 'layout', 'PNG', 'SVG')
    triangles = sum(len(s.triangles) for s in scene.solids)
    print(f'\nstages in one process (median of 5; {triangles} triangles, four views)')
    for index, name in enumerate(names):
        print(f'  {name:22} {statistics.median(r[index] for r in rows) * 1000:7.1f} ms')


def libraries(pairs: int) -> None:
    if importlib.util.find_spec('matplotlib') is None:
        print('\nlibraries: matplotlib is not installed; comparison skipped')
        return
    ours = [sys.executable, '-c', 'import numpy, PIL.Image, PIL.ImageDraw, PIL.ImageFont']
    theirs = [sys.executable, '-c', "import matplotlib; matplotlib.use('Agg'); "
              'import matplotlib.pyplot, matplotlib.collections']
    a, b, ratio = pairs_of(lambda: timed(ours), lambda: timed(theirs), pairs)
    print(f'\nimport (whole process, {pairs} pairs)')
    print(f'  Pillow + numpy  {a * 1000:7.1f} ms')
    print(f'  matplotlib      {b * 1000:7.1f} ms')
    print(f'  ratio           {ratio:5.2f}x')
    from bluerobotics_parts.assembly.pipeline import resolve_config
    from bluerobotics_parts.picture.render import draw
    from bluerobotics_parts.picture.scene import build_scene

    picture = draw(build_scene(resolve_config(CONFIG)), ['iso'])
    _, points, colours = next(i for i in picture.canvas.items if i[0] == 'triangles')
    a, b, ratio = pairs_of(lambda: _pillow(picture.canvas),
                           lambda: _matplotlib(points, colours, picture.canvas), pairs)
    print(f'\npainting {len(points)} triangles, one view, PNG (in process, {pairs} pairs)')
    print(f'  Pillow (ours, 2x supersampled)     {a * 1000:7.1f} ms')
    print(f'  matplotlib Agg PolyCollection      {b * 1000:7.1f} ms')
    print(f'  ratio                              {ratio:5.2f}x')


def _pillow(canvas) -> float:
    start = time.perf_counter()
    canvas.png()
    return time.perf_counter() - start


def _matplotlib(points, colours, canvas) -> float:
    import matplotlib
    matplotlib.use('Agg')
    from matplotlib.collections import PolyCollection
    from matplotlib.figure import Figure

    start = time.perf_counter()
    figure = Figure(figsize=(canvas.width / 100, canvas.height / 100), dpi=100)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, canvas.width)
    axes.set_ylim(canvas.height, 0)
    axes.add_collection(PolyCollection(points, facecolors=colours / 255.0, edgecolors='face',
                                       linewidths=0.3))
    figure.savefig(io.BytesIO(), format='png')
    return time.perf_counter() - start


# -- big meshes and many parts ---------------------------------------------------------------

_RECORD = [('normal', '<f4', 3), ('vertices', '<f4', (3, 3)), ('extra', '<u2')]


def write_ball(path: Path, count: int, radius: float = 0.15) -> int:
    """Write a binary STL ball of about ``count`` triangles, a band at a time; return them."""
    import numpy

    rows = int((count / 2) ** 0.5)
    columns = count // (2 * rows)
    phi = numpy.linspace(0, 2 * numpy.pi, columns + 1)
    with open(path, 'wb') as out:
        out.write(b'benchmark ball'.ljust(80) + (2 * rows * columns).to_bytes(4, 'little'))
        for row in range(rows):
            bands = []
            for theta in (numpy.pi * row / rows, numpy.pi * (row + 1) / rows):
                bands.append(numpy.stack([radius * numpy.sin(theta) * numpy.cos(phi),
                                          radius * numpy.sin(theta) * numpy.sin(phi),
                                          numpy.full_like(phi, radius * numpy.cos(theta))], 1))
            a, b, c, d = bands[0][:-1], bands[1][:-1], bands[1][1:], bands[0][1:]
            records = numpy.zeros(2 * columns, _RECORD)
            records['vertices'][0::2] = numpy.stack([a, b, c], 1)
            records['vertices'][1::2] = numpy.stack([a, c, d], 1)
            out.write(records.tobytes())
    return 2 * rows * columns


def big_cases(folder: Path) -> list:
    """Return (label, config, output suffix) of the --big cases, written into ``folder``."""
    cases = []
    for count in BIG_MESHES:
        name = f'ball_{count}'
        made = write_ball(folder / f'{name}.stl', count)
        (folder / f'{name}.yaml').write_text(
            f'type: {name}\ninertial: {{mass: 0.5, mass_unverified: benchmark}}\nvisual:\n'
            f'  - mesh: {name}.stl\n    material: {{name: grey, rgba: [0.5, 0.5, 0.6, 1]}}\n')
        config = folder / f'{name}_boat.yaml'
        config.write_text(f'part_files: [{name}.yaml]\nparts:\n  - {{type: {name}, name: ball, '
                          'parent: base_link, xyz: [0, 0, 0.4]}\n')
        cases += [(f'{made / 1e6:.1f}M triangles, {kind}', config, kind)
                  for kind in ('png', 'svg')]
    flags = folder / 'flags.yaml'
    flags.write_text('parts:\n' + ''.join(
        f'  - {{type: blueboat_flag, name: flag{i}, parent: base_link, '
        f'xyz: [{(i % 40) * 0.03 - 0.6:.3f}, {(i // 40) * 0.03 - 0.4:.3f}, 0.2]}}\n'
        for i in range(FLAGS)))
    return cases + [(f'{FLAGS:,} placed flags, png', flags, 'png')]


_STAGES = """\
import sys
from bluerobotics_parts.assembly import pipeline
from bluerobotics_parts.physics import stability
from bluerobotics_parts.picture import render


def peak():
    return int([line.split()[1] for line in open('/proc/self/status')
                if line.startswith('VmHWM')][0])


def reset():
    open('/proc/self/clear_refs', 'w').write('5')  # the peak starts again from here


resolved = pipeline.resolve_config(sys.argv[1])
pipeline.resolve_config = lambda *args, **kwargs: resolved  # resolved once, above
water, peaks = stability.rest, []


def rest(*args, **kwargs):  # the water line re-reads the part files (and their meshes) whole
    peaks.append(peak())
    try:
        return water(*args, **kwargs)
    finally:
        reset()


stability.rest = rest
reset()
render.render_config(sys.argv[1], image_format=sys.argv[2])
print(max(peaks + [peak()]))
"""


def big(pairs: int, baseline: Path | None) -> bool:
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        print(f'\nbig meshes and many parts (whole command, {pairs} run(s) each; target under '
              f'{MEMORY_TARGET} MB)')
        for label, config, kind in big_cases(folder):
            out = folder / f'out.{kind}'
            rows = [[], []]  # this checkout's runs, the baseline's
            for index in range(pairs):
                order = [REPO, baseline] if index % 2 == 0 else [baseline, REPO]
                for where in order:
                    if where is not None:
                        rows[where != REPO].append(_whole(where, config, out))
            wall = statistics.median(r[0] for r in rows[0])
            peak = statistics.median(r[1] for r in rows[0])
            line = f'  {label:28} {wall:7.2f} s  {peak:7.0f} MB'
            if baseline:
                ratio_t = statistics.median(a[0] / b[0] for a, b in zip(*rows))
                ratio_m = statistics.median(a[1] / b[1] for a, b in zip(*rows))
                line += (f'   baseline {statistics.median(r[0] for r in rows[1]):7.2f} s '
                         f'{statistics.median(r[1] for r in rows[1]):7.0f} MB   ratio '
                         f'{ratio_t:5.2f}x time, {ratio_m:5.2f}x memory')
            print(line)
            ok = ok and peak < MEMORY_TARGET
            if sys.platform.startswith('linux'):
                stage = _own_stages(config, kind)
                print(f'  {"":28} {"":9}  {stage:7.0f} MB  the picture\'s own stages')
    return ok


def _whole(where: Path, config: Path, out: Path) -> tuple:
    return _wait([sys.executable, '-m', 'bluerobotics_parts.cli.main', 'render', config,
                  '-o', out], where)


def _own_stages(config: Path, kind: str) -> float:
    """
    Return the peak (MB) of the picture's own stages (Linux only).

    Left out: resolving the config and the water line's rest (physics/stability.py), which
    check the user's part files again and read each mesh whole (assembly/catalogue.py).
    """
    _, _, text = _wait([sys.executable, '-c', _STAGES, config, kind], REPO)
    return int(text.split()[-1]) / 1024


def _wait(command, cwd) -> tuple:
    """Run a process; return (wall seconds, its own peak resident set in MB, its output)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen([str(c) for c in command], cwd=cwd, stdout=out, stderr=err,
                                 stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)  # this child's own rusage
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if child.returncode:
            raise RuntimeError(f'{command} failed: {err.read().decode()[-400:]}')
        return wall, usage.ru_maxrss / 1024, out.read().decode()


if __name__ == '__main__':
    sys.exit(main())
