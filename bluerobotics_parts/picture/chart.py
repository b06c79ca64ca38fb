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
A line chart on the picture's canvas: axes with round ticks, units, a legend.

What ``validate`` plots (speed against time, a thrust curve, a track) needs no more than this,
so the package keeps Pillow as its one drawing dependency (docs/DESIGN.md, "The picture").
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from .canvas import Canvas, text_size

WIDTH, HEIGHT = 800, 480
MARGIN = (80, 50, 30, 60)  # left, top, right, bottom, pixels
TEXT, SMALL = 16, 13
COLOURS = ((31, 119, 180), (214, 39, 40), (44, 160, 44), (148, 103, 189), (255, 127, 14))
DASH = 8.0  # pixels


@dataclass(frozen=True)
class Series:
    label: str
    points: tuple  # (x, y) in the axes' units
    dashed: bool = False


def ticks(low: float, high: float, count: int = 6) -> list:
    """Return round tick values covering [low, high] (1, 2 or 5 times a power of ten apart)."""
    if high <= low:
        high = low + 1.0
    raw = (high - low) / max(count - 1, 1)
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    values, value = [], first
    while value <= high + step * 1e-9:
        values.append(round(value, 10))
        value += step
    if values[-1] < high:
        values.append(round(value, 10))
    return values


def line_chart(title: str, x_label: str, y_label: str, series: list,
               equal: bool = False) -> Canvas:
    """
    Return a chart of ``series`` (each a line; dashed ones for predictions).

    ``equal``: one metre is as long on both axes (a track seen from above).
    """
    canvas = Canvas(WIDTH, HEIGHT)
    xs = [x for s in series for x, _ in s.points] or [0.0, 1.0]
    ys = [y for s in series for _, y in s.points] or [0.0, 1.0]
    y_low = min(ys) if equal else min(min(ys), 0.0)
    x_ticks, y_ticks = ticks(min(xs), max(xs)), ticks(y_low, max(ys))
    left, top, right, bottom = MARGIN
    plot_w, plot_h = WIDTH - left - right, HEIGHT - top - bottom
    x0, x1, y0, y1 = x_ticks[0], x_ticks[-1], y_ticks[0], y_ticks[-1]
    if equal:  # widen the narrower span so a metre has one length
        scale = max((x1 - x0) / plot_w, (y1 - y0) / plot_h)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        x0, x1 = cx - scale * plot_w / 2, cx + scale * plot_w / 2
        y0, y1 = cy - scale * plot_h / 2, cy + scale * plot_h / 2
        x_ticks = [t for t in ticks(x0, x1) if x0 <= t <= x1]
        y_ticks = [t for t in ticks(y0, y1) if y0 <= t <= y1]

    def at(x, y):
        return (left + (x - x0) / (x1 - x0) * plot_w, top + (y1 - y) / (y1 - y0) * plot_h)

    canvas.text((WIDTH / 2, 22), title, TEXT, anchor='mm')
    canvas.polygon([(left, top), (left + plot_w, top), (left + plot_w, top + plot_h),
                    (left, top + plot_h)], (255, 255, 255), outline=(90, 90, 90))
    for t in x_ticks:
        px = at(t, y0)[0]
        canvas.line([(px, top), (px, top + plot_h)], (225, 225, 225))
        canvas.text((px, top + plot_h + 14), f'{t:g}', SMALL, anchor='mm')
    for t in y_ticks:
        py = at(x0, t)[1]
        canvas.line([(left, py), (left + plot_w, py)], (225, 225, 225))
        canvas.text((left - 8, py), f'{t:g}', SMALL, anchor='rm')
    if y0 < 0 < y1:
        canvas.line([at(x0, 0), at(x1, 0)], (120, 120, 120))
    canvas.text((left + plot_w / 2, HEIGHT - 18), x_label, TEXT, anchor='mm')
    canvas.text((left, top - 12), y_label, TEXT, anchor='lm')
    legend_y = top + 14
    for number, s in enumerate(series):
        colour = COLOURS[number % len(COLOURS)]
        pixels = [at(x, y) for x, y in s.points]
        if len(pixels) > 1:
            for piece in (_dashes(pixels) if s.dashed else [pixels]):
                canvas.line(piece, colour, width=2.0)
        elif pixels:
            canvas.circle(pixels[0], 4, fill=colour)
        width = text_size(s.label, SMALL)[0]
        lx = left + plot_w - width - 50
        sample = [(lx, legend_y), (lx + 36, legend_y)]
        canvas.polygon([(lx - 6, legend_y - 10), (lx + width + 46, legend_y - 10),
                        (lx + width + 46, legend_y + 10), (lx - 6, legend_y + 10)],
                       (255, 255, 255), alpha=0.85)
        for piece in (_dashes(sample) if s.dashed else [sample]):
            canvas.line(piece, colour, width=2.0)
        canvas.text((lx + 42, legend_y), s.label, SMALL, anchor='lm')
        legend_y += 22
    return canvas


def _dashes(pixels: list) -> list:
    """Return the pieces of a polyline drawn dashed (DASH on, DASH off)."""
    pieces, current, drawn, on = [], [pixels[0]], 0.0, True
    for a, b in zip(pixels, pixels[1:]):
        length = math.dist(a, b)
        position = 0.0
        while length - position > 1e-9:
            step = min(DASH - drawn, length - position)
            position += step
            drawn += step
            point = (a[0] + (b[0] - a[0]) * position / length,
                     a[1] + (b[1] - a[1]) * position / length)
            if on:
                current.append(point)
            if drawn >= DASH - 1e-9:
                if on:
                    pieces.append(current)
                on, drawn, current = not on, 0.0, [point]
    if on and len(current) > 1:
        pieces.append(current)
    return pieces
