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
``bluerobotics-parts render``: a picture of the assembled vehicle, without ROS or a display.

The scene (scene.py: visuals, slot and part frames, the water plane) is projected
orthographically in each view and painted far to near (painter's algorithm, flat shading),
then every frame is drawn on top as a small x/y/z triad (red, green, blue, as RViz draws
them) with its label placed where it overlaps no other label. All views share one scale, so
the metre bar holds in each orthographic view. Coordinates are the root link's (REP 103: x
forward, y left, z up).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
import io
import math

import numpy

from .canvas import Canvas, text_size
from .scene import build_scene, Scene, TRIANGLE_BUDGET
from .views import View, VIEW_NAMES as DEFAULT_VIEWS, VIEWS

AXIS_COLOURS = ((214, 39, 40), (44, 160, 44), (31, 119, 180))  # x, y, z
INK, MUTED, PAPER = (25, 25, 30), (120, 120, 128), (255, 255, 255)
WATER = (70, 140, 220)
LABEL_SIZE, TITLE_SIZE = 13, 16
PANEL_MARGIN = 34  # pixels inside each panel edge kept free of the vehicle
TRIAD_LENGTH = 0.05  # m
#: A material darker than this (its luma, 0-1) is drawn with its creases outlined and a wider
#: shade range: black parts on a dark shade otherwise merge (the BlueROV2's frame, thrusters,
#: enclosures).
DARK_MATERIAL = 0.35
LUMA = numpy.array([0.299, 0.587, 0.114])  # ITU-R BT.601, the usual weights
#: Faces meeting at more than this are a crease; an outline goes a third of the way to white.
CREASE_COSINE = math.cos(math.radians(30))
EDGE_LIFT = 0.33


@dataclass(frozen=True)
class Panel:
    """One view's place in the picture and its projection (root frame -> pixels)."""

    view: View
    left: float
    top: float
    width: float
    height: float
    scale: float  # pixels per metre
    centre: tuple  # screen coordinates (m) drawn at the panel's centre

    def project(self, points) -> numpy.ndarray:
        """Return the pixel (column, row) of root-frame points, (..., 3) -> (..., 2)."""
        right, up, _ = self.view.axes()
        points = numpy.asarray(points, dtype=float)
        u = points @ right - self.centre[0]
        v = points @ up - self.centre[1]
        return numpy.stack([self.left + self.width / 2 + u * self.scale,
                            self.top + self.height / 2 - v * self.scale], axis=-1)


@dataclass
class Picture:
    canvas: Canvas
    panels: dict  # view name -> Panel
    scene: Scene


def render_config(config, views=DEFAULT_VIEWS, name: str | None = None,
                  image_format: str = 'png', positions: dict | None = None,
                  frames: str = 'default') -> tuple:
    """
    Return (image bytes, notes) for a config: ``png`` or ``svg`` of the given views.

    ``config``: what resolve_config takes, or a config it resolved already (``name`` unused
    then). ``positions``: joint -> rad or m for the moving joints drawn away from 0;
    ``frames``: which frames are marked (views.FRAME_CHOICES).
    """
    from ..assembly.pipeline import resolve_config, Resolved

    resolved = config if isinstance(config, Resolved) else resolve_config(config, name=name)
    scene = build_scene(resolved, TRIANGLE_BUDGET // len(views), positions, frames)
    picture = draw(scene, views)
    if image_format == 'svg':
        out = io.BytesIO()  # written as made: its buffer becomes the bytes, never copied
        picture.canvas.write_svg(out)
        return out.getvalue(), picture.scene.notes
    return picture.canvas.png(), picture.scene.notes


def draw(scene: Scene, views=DEFAULT_VIEWS) -> Picture:
    """Lay out and draw ``views`` of a scene: one view alone, several in a grid."""
    views = [VIEWS[v] for v in views]
    columns = 1 if len(views) == 1 else 2
    rows = math.ceil(len(views) / columns)
    cell_w, cell_h = (1200, 860) if len(views) == 1 else (800, 560)
    legend_h = _legend_height(scene, columns * cell_w)
    canvas = Canvas(columns * cell_w, rows * cell_h + legend_h)
    spans = _spans(scene, views)
    inner_w, inner_h = cell_w - 2 * PANEL_MARGIN, cell_h - 2 * PANEL_MARGIN - TITLE_SIZE - 24
    scale = min(min(inner_w / max(su[1] - su[0], 1e-3), inner_h / max(sv[1] - sv[0], 1e-3))
                for su, sv in spans)
    panels = {}
    for index, (view, (su, sv)) in enumerate(zip(views, spans)):
        left, top = (index % columns) * cell_w, (index // columns) * cell_h
        panels[view.name] = Panel(view, left, top + TITLE_SIZE + 12, cell_w, cell_h - TITLE_SIZE
                                  - 12, scale, ((su[0] + su[1]) / 2, (sv[0] + sv[1]) / 2))
        _draw_panel(canvas, scene, panels[view.name], (left, top, cell_w, cell_h))
    _draw_legend(canvas, scene, rows * cell_h, columns * cell_w)
    return Picture(canvas, panels, scene)


def _spans(scene: Scene, views) -> list:
    """Return each view's ((u min, u max), (v min, v max)) of the scene's points, in metres."""
    points = scene.points()
    spans = []
    for view in views:
        right, up, _ = view.axes()
        u, v = points @ right, points @ up
        spans.append(((u.min(), u.max()), (v.min(), v.max())))
    return spans


# -- one panel ------------------------------------------------------------------------------

def _draw_panel(canvas: Canvas, scene: Scene, panel: Panel, cell: tuple) -> None:
    left, top, width, height = cell
    canvas.polygon([(left + 1, top + 1), (left + width - 1, top + 1),
                    (left + width - 1, top + height - 1), (left + 1, top + height - 1)],
                   fill=(247, 248, 250), outline=(215, 218, 224))
    canvas.text((left + 12, top + 14), panel.view.title, TITLE_SIZE, INK, 'lm')
    _draw_solids(canvas, scene, panel)
    if panel.view.name in ('side', 'front'):
        _draw_water(canvas, scene, panel, cell)
    labels = _draw_markers(canvas, scene, panel)
    _place_labels(canvas, labels, cell)
    if panel.view.name != 'iso':
        _draw_scale(canvas, panel, cell)
    _draw_axes(canvas, panel, cell)


def _draw_solids(canvas: Canvas, scene: Scene, panel: Panel) -> None:
    # what is no longer needed is let go as it goes: a scene at the budget is 25 MB of
    # triangles, and each step below would otherwise keep its own copy to the end
    if not scene.solids:
        return
    triangles = numpy.concatenate([s.triangles for s in scene.solids])
    base = numpy.concatenate([numpy.tile(numpy.array(s.rgba[:3]), (len(s.triangles), 1))
                              for s in scene.solids])
    right, up, into = panel.view.axes()
    normals = numpy.cross(triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0])
    length = numpy.linalg.norm(normals, axis=1)
    keep = length > 1e-12
    if not keep.all():
        triangles, base = triangles[keep], base[keep]
        normals, length = normals[keep], length[keep]
    normals /= length[:, None]
    del length, keep
    dark = base @ LUMA < DARK_MATERIAL
    edges = _creases(triangles, normals) & dark[:, None]
    light = -into + 0.6 * numpy.array([0.0, 0.0, 1.0]) + 0.3 * right
    light /= numpy.linalg.norm(light)
    lambert = numpy.abs(normals @ light)
    del normals
    # black parts still show their shape: a dark material is lifted further and shaded over a
    # wider range, so its faces stay apart, and its creases are outlined a shade lighter
    lifted = numpy.where(dark[:, None], 0.24 + 0.76 * base, 0.16 + 0.84 * base)
    del base
    shade = numpy.where(dark, 0.30 + 0.70 * lambert, 0.42 + 0.58 * lambert)
    colours = lifted * shade[:, None] + 0.2 * (lambert ** 8)[:, None]
    del lifted, lambert, shade
    colours = numpy.clip(colours * 255, 0, 255).astype(numpy.uint8)
    edge_colours = (colours + (255 - colours.astype(numpy.int16)) * EDGE_LIFT).astype(
        numpy.uint8)
    order = numpy.argsort(-(triangles @ into).mean(axis=1), kind='stable')  # far first
    triangles = triangles[order]
    canvas.triangles(panel.project(triangles), colours[order], edges[order], edge_colours[order])


def _creases(triangles, normals) -> numpy.ndarray:
    """
    Return (n, 3) bools: the triangle edges (corners 0-1, 1-2, 2-0) that are creases.

    A crease is an edge whose two faces meet at more than CREASE_DEGREES (either way: meshes
    do not all wind their faces alike), or an edge of one face or of more than two. Corners
    are the same point within a micrometre.
    """
    count = len(triangles)
    if count == 0:
        return numpy.zeros((0, 3), dtype=bool)
    grid = numpy.round(triangles.reshape(-1, 3) * 1e6).astype(numpy.int64)
    _, point = numpy.unique(grid, axis=0, return_inverse=True)
    point = point.reshape(count, 3).astype(numpy.int64)
    following = numpy.roll(point, -1, axis=1)
    key = (numpy.minimum(point, following) << 32 | numpy.maximum(point, following)).ravel()
    order = numpy.argsort(key, kind='stable')
    ranked = key[order]
    starts = numpy.flatnonzero(numpy.r_[True, ranked[1:] != ranked[:-1]])
    sizes = numpy.diff(numpy.r_[starts, len(ranked)])
    face = order // 3
    pairs = sizes == 2
    first, second = face[starts[pairs]], face[starts[pairs] + 1]
    crease = ~pairs
    crease[pairs] = numpy.abs(numpy.einsum('ij,ij->i', normals[first], normals[second])) < \
        CREASE_COSINE
    edges = numpy.empty(len(ranked), dtype=bool)
    edges[order] = numpy.repeat(crease, sizes)
    return edges.reshape(count, 3)


def _draw_water(canvas: Canvas, scene: Scene, panel: Panel, cell: tuple) -> None:
    if scene.rest is None:
        return
    left, top, width, height = cell
    right, up, _ = panel.view.axes()
    along = right  # the view's horizontal axis: x in the side view, y in the front view
    ends = []
    for column in (left + 4, left + width - 4):
        s = (column - panel.left - panel.width / 2) / panel.scale + panel.centre[0]
        x, y = s * along[0], s * along[1]
        ends.append(panel.project((x, y, scene.water_height(x, y))))
    bottom = top + height - 2
    canvas.polygon([tuple(ends[0]), tuple(ends[1]), (ends[1][0], bottom), (ends[0][0], bottom)],
                   fill=WATER, alpha=0.16)
    canvas.line([tuple(ends[0]), tuple(ends[1])], WATER, width=1.6)
    canvas.text((ends[0][0] + 6, ends[0][1] + 4), 'water line', 11, (40, 95, 170), 'lt')


def _draw_markers(canvas: Canvas, scene: Scene, panel: Panel) -> list:
    """Draw every frame's triad and dot; return its labels (anchor, text, colour)."""
    labels = []
    for marker in scene.markers:
        origin = marker.pose.translation
        rotation = numpy.array(marker.pose.rotation)
        start = panel.project(origin)
        for axis in range(3):
            tip = panel.project(numpy.array(origin) + TRIAD_LENGTH * rotation[:, axis])
            if numpy.hypot(*(tip - start)) > 1.5:
                canvas.line([start, tip], AXIS_COLOURS[axis], width=1.8)
        if marker.kind == 'slot':
            canvas.circle(start, 3.6, fill=INK, outline=PAPER, width=1)
        elif marker.kind == 'empty':
            canvas.circle(start, 4.2, fill=PAPER, outline=INK, width=1.6)
        else:
            x, y = start
            canvas.polygon([(x, y - 5), (x + 5, y), (x, y + 5), (x - 5, y)], fill=(160, 60, 170),
                           outline=PAPER)
        labels.append((tuple(start), marker.label, MUTED if marker.kind == 'empty' else INK))
    return labels


# the spots a label may take, nearest first: (radius, angle in degrees) around its anchor
_SPOTS = [(radius, angle) for radius in (10, 22, 36, 54, 76, 100, 130)
          for angle in range(-45, 315, 30)]
_SPOT_DX = [radius * math.cos(math.radians(angle)) for radius, angle in _SPOTS]
_SPOT_DY = [radius * math.sin(math.radians(angle)) for radius, angle in _SPOTS]
_SPOT_RIGHT = [math.cos(math.radians(angle)) >= -0.01 for _, angle in _SPOTS]  # text after


def _place_labels(canvas: Canvas, labels: list, cell: tuple) -> None:
    """
    Put each label near its anchor where it overlaps no placed label nor anchor dot.

    Greedy, nearest first: candidate spots on rings around the anchor; a label set away from
    its anchor gets a thin leader line. Labels are placed in order of anchor position, so the
    result does not depend on the record's order of equal spots. Every spot of a label is
    tried at once against the boxes already taken near it (numpy), so a thousand labels cost
    a thousand small steps, not a million Python comparisons.
    """
    left, top, width, height = cell
    bounds = (left + 4, top + TITLE_SIZE + 20, left + width - 4, top + height - 4)
    taken = numpy.empty((2 * len(labels), 4))
    count = len(labels)
    taken[:count] = numpy.array([(x - 4, y - 4, x + 4, y + 4) for (x, y), _, _ in labels],
                                dtype=float).reshape(-1, 4)
    dx, dy, right = numpy.array(_SPOT_DX), numpy.array(_SPOT_DY), numpy.array(_SPOT_RIGHT)
    for (x, y), label, colour in sorted(labels, key=lambda item: (item[0][1], item[0][0])):
        w, h = text_size(label, LABEL_SIZE)
        cx, cy = x + dx, y - dy
        boxes = numpy.stack([numpy.where(right, cx, cx - w - 4), cy - h / 2 - 2,
                             numpy.where(right, cx + w + 4, cx), cy + h / 2 + 2], axis=1)
        fits = (boxes[:, 0] >= bounds[0]) & (boxes[:, 1] >= bounds[1]) & \
            (boxes[:, 2] <= bounds[2]) & (boxes[:, 3] <= bounds[3])
        near = taken[:count]
        near = near[(near[:, 0] < boxes[:, 2].max()) & (boxes[:, 0].min() < near[:, 2]) &
                    (near[:, 1] < boxes[:, 3].max()) & (boxes[:, 1].min() < near[:, 3])]
        if len(near):
            fits &= ~((boxes[:, None, 0] < near[None, :, 2]) &
                      (near[None, :, 0] < boxes[:, None, 2]) &
                      (boxes[:, None, 1] < near[None, :, 3]) &
                      (near[None, :, 1] < boxes[:, None, 3])).any(axis=1)
        if not fits.any():
            continue  # no room anywhere near: the legend and other views still name it
        index = int(numpy.argmax(fits))
        box, radius = tuple(float(v) for v in boxes[index]), _SPOTS[index][0]
        taken[count] = box
        count += 1
        draw_label(canvas, (x, y), box, radius, label, colour)


def draw_label(canvas: Canvas, point: tuple, box: tuple, radius: float, label: str,
               colour) -> None:
    """Write a label in its placed box; one set away from its point gets a leader line."""
    x, y = point
    if radius > 12:
        anchor = (box[0], (box[1] + box[3]) / 2) if box[0] >= x else \
            (box[2], (box[1] + box[3]) / 2)
        canvas.line([(x, y), anchor], MUTED, width=0.8, alpha=0.8)
    canvas.text((box[0] + 2, (box[1] + box[3]) / 2), label, LABEL_SIZE, colour, 'lm',
                box=PAPER)


def _draw_scale(canvas: Canvas, panel: Panel, cell: tuple) -> None:
    left, top, width, height = cell
    target = 0.22 * width / panel.scale
    length = max([v for v in (0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10, 20, 50)
                  if v <= target] or [0.01])
    x0, y0 = left + 18, top + height - 20
    x1 = x0 + length * panel.scale
    canvas.line([(x0, y0), (x1, y0)], INK, width=2.4)
    for x in (x0, (x0 + x1) / 2, x1):
        canvas.line([(x, y0 - 5), (x, y0 + 1)], INK, width=1.4)
    canvas.text(((x0 + x1) / 2, y0 - 7), f'{length:g} m', 12, INK, 'mb')


def _draw_axes(canvas: Canvas, panel: Panel, cell: tuple) -> None:
    """Draw where x, y and z point in this view, in the panel's lower right corner."""
    left, top, width, height = cell
    right, up, _ = panel.view.axes()
    corner = (left + width - 46, top + height - 40)
    for axis, name in enumerate('xyz'):
        unit = numpy.eye(3)[axis]
        dx, dy = unit @ right * 26, -(unit @ up) * 26
        if math.hypot(dx, dy) < 4:
            canvas.circle(corner, 3, fill=AXIS_COLOURS[axis])  # towards the viewer or away
            canvas.text((corner[0] + 6, corner[1] + 8), name, 11, AXIS_COLOURS[axis], 'lm')
            continue
        tip = (corner[0] + dx, corner[1] + dy)
        canvas.line([corner, tip], AXIS_COLOURS[axis], width=2)
        canvas.text((tip[0] + 7 * dx / 26, tip[1] + 7 * dy / 26), name, 12,
                    AXIS_COLOURS[axis], 'mm')


# -- the legend -----------------------------------------------------------------------------

_LEGEND_ROW = 20
#: Rows of parts the legend lists (the shipped vehicles take 4 to 6); a longer list ends with a
#: row that counts the rest by type, so the picture of 1,000 parts is not 8,000 pixels tall
#: (350 MB to draw, most of its time).
LEGEND_ROWS = 30
#: Notes the legend shows; the command prints every one.
LEGEND_NOTES = 8


def _part_labels(scene: Scene) -> list:
    return [f'{instance} ({type_name})' for instance, type_name, _ in scene.parts]


def _legend_grid(scene: Scene, width: int) -> tuple:
    """Return (columns, column width) for the parts list, left of the marker key."""
    column = 40 + max([text_size(label, 12)[0] for label in _part_labels(scene)] or [0])
    return max(1, int((width - 420) // column)), column


def _legend_rows(scene: Scene, columns: int) -> tuple:
    """Return (rows, parts listed by name): the last row counts the rest beyond LEGEND_ROWS."""
    rows = math.ceil(len(scene.parts) / columns)
    if rows <= LEGEND_ROWS:
        return rows, len(scene.parts)
    return LEGEND_ROWS, (LEGEND_ROWS - 1) * columns


def _legend_notes(scene: Scene) -> list:
    if len(scene.notes) <= LEGEND_NOTES:
        return scene.notes
    rest = len(scene.notes) - LEGEND_NOTES + 1
    return scene.notes[:LEGEND_NOTES - 1] + [f'and {rest} more notes (render prints them all)']


def _legend_height(scene: Scene, width: int) -> int:
    rows, _ = _legend_rows(scene, _legend_grid(scene, width)[0])
    return 44 + max(rows, 4) * _LEGEND_ROW + 16 * len(_legend_notes(scene))


def _draw_legend(canvas: Canvas, scene: Scene, top: float, width: int) -> None:
    canvas.text((14, top + 18), f'{scene.name}: {len(scene.parts)} parts, {scene.mass:.2f} kg; '
                'coordinates in '
                f'{scene.root_link} (REP 103: x forward, y left, z up)', 14, INK, 'lm')
    columns, column = _legend_grid(scene, width)
    rows, listed = _legend_rows(scene, columns)
    for index, (label, (_, _, rgba)) in enumerate(zip(_part_labels(scene)[:listed],
                                                      scene.parts)):
        x = 14 + (index % columns) * column
        y = top + 44 + (index // columns) * _LEGEND_ROW
        colour = tuple(int(255 * c) for c in (rgba or (1, 1, 1, 1))[:3])
        canvas.polygon([(x, y - 6), (x + 12, y - 6), (x + 12, y + 6), (x, y + 6)], fill=colour,
                       outline=MUTED)
        canvas.text((x + 18, y), label, 12, INK, 'lm')
    if listed < len(scene.parts):
        _draw_the_rest(canvas, scene.parts[listed:], top + 44 + (rows - 1) * _LEGEND_ROW,
                       width - 440)
    x, y = width - 400, top + 44
    canvas.circle((x + 6, y), 3.6, fill=INK, outline=PAPER)
    canvas.text((x + 18, y), 'slot, filled (its frame: x red, y green, z blue)', 12, INK, 'lm')
    canvas.circle((x + 6, y + _LEGEND_ROW), 4.2, fill=PAPER, outline=INK, width=1.6)
    canvas.text((x + 18, y + _LEGEND_ROW), 'slot, empty', 12, MUTED, 'lm')
    d = y + 2 * _LEGEND_ROW
    canvas.polygon([(x + 6, d - 5), (x + 11, d), (x + 6, d + 5), (x + 1, d)], fill=(160, 60, 170))
    inner = f'; {scene.inner_frames} inner unmarked' if scene.inner_frames else ''
    canvas.text((x + 18, d), f'part frame (sensor beams, lenses, tops{inner})', 12, INK, 'lm')
    if scene.rest is not None:
        w = y + 3 * _LEGEND_ROW
        canvas.line([(x, w), (x + 12, w)], WATER, width=1.6)
        trim = math.degrees(scene.rest.pitch)
        canvas.text((x + 18, w), f'water line at rest: trim {trim:+.2f} deg, {scene.root_link} '
                    f'at z {scene.rest.z:+.3f} m (as info)', 12, INK, 'lm')
    for index, note in enumerate(_legend_notes(scene)):
        canvas.text((14, top + 44 + max(rows, 4) * _LEGEND_ROW + 16 * index), note, 11, MUTED,
                    'lm')


def _draw_the_rest(canvas: Canvas, parts: list, y: float, room: float) -> None:
    """Write one row: how many more parts, by type, most first, as many types as fit."""
    kinds = Counter(type_name for _, type_name, _ in parts).most_common()
    text = f'and {len(parts):,} more parts:'
    for index, (type_name, count) in enumerate(kinds):
        more = f' {count:,} {type_name}' + (',' if index < len(kinds) - 1 else '')
        tail = f' and {len(kinds) - index} more types'
        if text_size(text + more + tail, 12)[0] > room:
            text += tail
            break
        text += more
    canvas.text((14, y), text, 12, MUTED, 'lm')
