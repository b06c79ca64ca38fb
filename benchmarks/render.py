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
Speed of ``bluerobotics-parts render`` (issue 14), and of the drawing library it rests on.

Prints, in one run:

* the whole command for the default boat (a process, as a user runs it, four views, PNG),
  against ``bluerobotics-parts info`` of the same config (which resolves and solves the same
  rest): medians of interleaved pairs and of their ratios (target: render under 3 s);
* where the time goes in one process: resolving, the scene (meshes, water plane), the
  layout, the PNG and the SVG;
* the library choice: importing Pillow + numpy against importing matplotlib (paired
  processes), and painting the same triangles with Pillow against matplotlib's Agg
  PolyCollection (paired, in process); skipped where matplotlib is not installed.

Timing is never asserted by a test; ratios of runs made one right after the other cancel most
of what a shared machine adds.

    .venv/bin/python benchmarks/render.py [--pairs 7]
"""

from __future__ import annotations

import argparse
import importlib.util
import io
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--pairs', type=int, default=7)
    args = parser.parse_args()
    ok = whole_command(args.pairs)
    stages()
    libraries(args.pairs)
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


if __name__ == '__main__':
    sys.exit(main())
