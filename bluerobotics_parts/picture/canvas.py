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
A flat drawing (polygons, lines, circles, text in pixels) written as PNG or as SVG.

render.py lays the picture out once on a Canvas; ``png()`` rasterises it with Pillow (drawn at
twice the size and reduced, so edges are smooth and adjacent triangles leave no seams) and
``svg()`` writes the same items as SVG text. Text is measured with Pillow's font: its bundled
scalable font where Pillow has one (10.1 and later), else DejaVu Sans, else its bitmap font.

Memory stays near what the items hold: triangles are turned into Python numbers CHUNK at a time
(a list of floats costs about ten times the array), and SVG text is written to a binary stream
as it is made (``write_svg``), never held as one string beside its encoded copy. A polygon with a
wide outline is drawn on a piece of the image around it: Pillow draws such an outline through a
mask as large as the whole image, which made every legend swatch cost a full-image fill.
"""

from __future__ import annotations

from functools import lru_cache
import io
import math

from PIL import Image, ImageDraw, ImageFont

SUPERSAMPLE = 2
EDGE_WIDTH = 0.9  # px, an outlined triangle edge (render.py: a dark material's creases)
CHUNK = 8192  # triangles turned into Python numbers (and SVG text) at a time
FONT_FAMILY = 'DejaVu Sans, Helvetica, Arial, sans-serif'


@lru_cache(maxsize=None)
def font(size: int):
    """Return a scalable font of ``size`` pixels (Pillow's own, else DejaVu Sans)."""
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow before 10.1: no scalable default font
        pass
    try:
        return ImageFont.truetype('DejaVuSans.ttf', size)
    except OSError:
        return ImageFont.load_default()


@lru_cache(maxsize=4096)  # a label is measured once, not once a view
def text_size(text: str, size: int) -> tuple:
    """Return the (width, height) ``text`` takes at ``size`` pixels."""
    left, top, right, bottom = font(size).getbbox(text)
    return right - left, max(bottom - top, size * 0.8)


def _hex(rgb) -> str:
    return '#' + ''.join(f'{int(round(c)):02x}' for c in rgb[:3])


_BYTE_HEX = [f'{value:02x}' for value in range(256)]


class Canvas:
    """Items in drawing order, in pixels (origin top left, y down)."""

    def __init__(self, width: int, height: int, background=(255, 255, 255)):
        self.width, self.height = int(width), int(height)
        self.background = tuple(background)
        self.items: list = []

    def triangles(self, points, colours, edges=None, edge_colours=None) -> None:
        """
        Add filled triangles: ``points`` (n, 3, 2) pixels, ``colours`` (n, 3) 0-255.

        ``edges``: (n, 3) bools, which edges (corners 0-1, 1-2, 2-0) to outline, each drawn
        right after its triangle so that nearer triangles cover it; ``edge_colours`` (n, 3).
        """
        self.items.append(('triangles', points, colours, edges, edge_colours))

    def polygon(self, points, fill, alpha: float = 1.0, outline=None, width: float = 1.0):
        self.items.append(('polygon', [tuple(p) for p in points], fill, alpha, outline, width))

    def line(self, points, colour, width: float = 1.0, alpha: float = 1.0) -> None:
        self.items.append(('line', [tuple(p) for p in points], colour, width, alpha))

    def circle(self, centre, radius: float, fill=None, outline=None, width: float = 1.0):
        self.items.append(('circle', tuple(centre), radius, fill, outline, width))

    def text(self, position, text: str, size: int, colour=(20, 20, 20), anchor: str = 'lm',
             box=None) -> None:
        """
        Add text; ``anchor``: horizontal l/m/r then vertical t/m/b of ``position``.

        ``box``: a fill colour (with 0.8 opacity) for a rectangle behind the text.
        """
        self.items.append(('text', tuple(position), text, int(size), colour, anchor, box))

    # -- PNG

    def png(self) -> bytes:
        """Return the drawing as PNG (RGB), drawn at SUPERSAMPLE times the size and reduced."""
        k = SUPERSAMPLE
        image = Image.new('RGB', (self.width * k, self.height * k), self.background)
        draw = ImageDraw.Draw(image, 'RGBA')
        for item in self.items:
            getattr(self, f'_png_{item[0]}')(image, draw, k, *item[1:])
        out = io.BytesIO()
        image.reduce(k).save(out, format='PNG', optimize=False)
        return out.getvalue()

    @staticmethod
    def _png_triangles(image, draw, k, points, colours, edges, edge_colours) -> None:
        if edges is None or not edges.any():
            for start in range(0, len(points), CHUNK):
                scaled = (points[start:start + CHUNK] * k).reshape(-1, 6).tolist()
                for triangle, colour in zip(scaled, colours[start:start + CHUNK].tolist()):
                    draw.polygon(triangle, fill=tuple(colour))
            return
        width = max(1, round(EDGE_WIDTH * k))
        for start in range(0, len(points), CHUNK):
            end = start + CHUNK
            scaled = (points[start:end] * k).reshape(-1, 6).tolist()
            for triangle, colour, outline, ink in zip(scaled, colours[start:end].tolist(),
                                                      edges[start:end].tolist(),
                                                      edge_colours[start:end].tolist()):
                draw.polygon(triangle, fill=tuple(colour))
                for corner, drawn in enumerate(outline):
                    if drawn:
                        a, b = 2 * corner, 2 * ((corner + 1) % 3)
                        draw.line(triangle[a:a + 2] + triangle[b:b + 2], fill=tuple(ink),
                                  width=width)

    @staticmethod
    def _png_polygon(image, draw, k, points, fill, alpha, outline, width) -> None:
        fill = None if fill is None else (*fill[:3], int(255 * alpha))
        points = [(x * k, y * k) for x, y in points]
        width = max(1, int(width * k))
        if outline is not None and width > 1:
            # Pillow draws a wide outline through a mask the size of the image: on a piece
            # around the polygon (same pixels, its corner at whole pixels) it costs the piece
            margin = width + 2
            xs, ys = [x for x, _ in points], [y for _, y in points]
            box = (math.floor(min(xs)) - margin, math.floor(min(ys)) - margin,
                   math.ceil(max(xs)) + margin + 1, math.ceil(max(ys)) + margin + 1)
            if box[0] >= 0 and box[1] >= 0 and box[2] <= image.width and \
                    box[3] <= image.height:
                piece = image.crop(box)
                ImageDraw.Draw(piece, 'RGBA').polygon(
                    [(x - box[0], y - box[1]) for x, y in points], fill=fill, outline=outline,
                    width=width)
                image.paste(piece, box[:2])
                return
        draw.polygon(points, fill=fill, outline=outline, width=width)

    @staticmethod
    def _png_line(image, draw, k, points, colour, width, alpha) -> None:
        draw.line([(x * k, y * k) for x, y in points], fill=(*colour[:3], int(255 * alpha)),
                  width=max(1, int(round(width * k))), joint='curve')

    @staticmethod
    def _png_circle(image, draw, k, centre, radius, fill, outline, width) -> None:
        x, y = centre
        draw.ellipse([(x - radius) * k, (y - radius) * k, (x + radius) * k, (y + radius) * k],
                     fill=fill, outline=outline, width=max(1, int(width * k)))

    @staticmethod
    def _png_text(image, draw, k, position, text, size, colour, anchor, box) -> None:
        x, y = position[0] * k, position[1] * k
        face = font(size * k)
        spot = anchor[0] + {'t': 'a', 'm': 'm', 'b': 'd'}[anchor[1]]
        try:
            bounds = draw.textbbox((x, y), text, font=face, anchor=spot)
        except (ValueError, TypeError):  # the bitmap font takes no anchor
            spot, bounds = None, draw.textbbox((x, y), text, font=face)
        if box is not None:
            pad = 2 * k
            draw.rectangle([bounds[0] - pad, bounds[1] - pad, bounds[2] + pad, bounds[3] + pad],
                           fill=(*box[:3], 205))
        draw.text((x, y), text, fill=tuple(colour), font=face, anchor=spot)

    # -- SVG

    def svg(self) -> str:
        """Return the drawing as an SVG document (the same items, in the same order)."""
        out = io.BytesIO()
        self.write_svg(out)
        return out.getvalue().decode()

    def write_svg(self, stream) -> None:
        """Write the drawing as an SVG document to a binary stream, a piece at a time."""
        stream.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" '
                     f'height="{self.height}" viewBox="0 0 {self.width} {self.height}">\n'
                     f'<rect width="100%" height="100%" fill="{_hex(self.background)}"/>\n'
                     .encode())
        for item in self.items:
            for piece in getattr(self, f'_svg_{item[0]}')(*item[1:]):
                stream.write(piece.encode() + b'\n')
        stream.write(b'</svg>\n')

    @staticmethod
    def _svg_triangles(points, colours, edges, edge_colours):
        """Yield the triangles' SVG text, CHUNK triangles a piece."""
        for start in range(0, len(points), CHUNK):
            corners = points[start:start + CHUNK].reshape(-1, 6).tolist()
            hexes = _hexes(colours[start:start + CHUNK])
            if edges is None or not edges[start:start + CHUNK].any():
                yield '\n'.join(f'<polygon points="{_TRIANGLE % tuple(triangle)}" '
                                f'fill="{colour}" stroke="{colour}" stroke-width="0.3"/>'
                                for triangle, colour in zip(corners, hexes))
                continue
            pieces = []
            for triangle, colour, outline, ink in zip(
                    corners, hexes, edges[start:start + CHUNK].tolist(),
                    _hexes(edge_colours[start:start + CHUNK])):
                pieces.append(f'<polygon points="{_TRIANGLE % tuple(triangle)}" '
                              f'fill="{colour}" stroke="{colour}" stroke-width="0.3"/>')
                for corner, drawn in enumerate(outline):
                    if drawn:
                        a, b = 2 * corner, 2 * ((corner + 1) % 3)
                        pieces.append(f'<line x1="{triangle[a]:.2f}" y1="{triangle[a + 1]:.2f}" '
                                      f'x2="{triangle[b]:.2f}" y2="{triangle[b + 1]:.2f}" '
                                      f'stroke="{ink}" stroke-width="{EDGE_WIDTH}"/>')
            yield '\n'.join(pieces)

    @staticmethod
    def _svg_polygon(points, fill, alpha, outline, width) -> list:
        fill_text = 'none' if fill is None else f'{_hex(fill)}" fill-opacity="{alpha:g}'
        stroke = '' if outline is None else f' stroke="{_hex(outline)}" stroke-width="{width:g}"'
        return [f'<polygon points="{_points(points)}" fill="{fill_text}"{stroke}/>']

    @staticmethod
    def _svg_line(points, colour, width, alpha) -> list:
        return [f'<polyline points="{_points(points)}" fill="none" stroke="{_hex(colour)}" '
                f'stroke-width="{width:g}" stroke-opacity="{alpha:g}" stroke-linecap="round"/>']

    @staticmethod
    def _svg_circle(centre, radius, fill, outline, width) -> list:
        stroke = 'none' if outline is None else _hex(outline)
        return [f'<circle cx="{centre[0]:.2f}" cy="{centre[1]:.2f}" r="{radius:g}" '
                f'fill="{"none" if fill is None else _hex(fill)}" stroke="{stroke}" '
                f'stroke-width="{width:g}"/>']

    @staticmethod
    def _svg_text(position, text, size, colour, anchor, box) -> list:
        from xml.sax.saxutils import escape

        out = []
        width, height = text_size(text, size)
        x, y = position
        left = x - {'l': 0, 'm': width / 2, 'r': width}[anchor[0]]
        top = y - {'t': 0, 'm': height / 2, 'b': height}[anchor[1]]
        if box is not None:
            out.append(f'<rect x="{left - 2:.1f}" y="{top - 2:.1f}" width="{width + 4:.1f}" '
                       f'height="{height + 4:.1f}" fill="{_hex(box)}" fill-opacity="0.8"/>')
        out.append(f'<text x="{left:.1f}" y="{top + height / 2:.1f}" font-size="{size}" '
                   f'font-family="{FONT_FAMILY}" dominant-baseline="central" '
                   f'fill="{_hex(colour)}">{escape(text)}</text>')
        return out


_TRIANGLE = '%.2f,%.2f %.2f,%.2f %.2f,%.2f'


def _hexes(colours) -> list:
    """Return '#rrggbb' of each colour row (uint8 fast, else through _hex)."""
    if colours.dtype == 'uint8':
        return ['#' + _BYTE_HEX[r] + _BYTE_HEX[g] + _BYTE_HEX[b]
                for r, g, b in colours[:, :3].tolist()]
    return [_hex(colour) for colour in colours.tolist()]


def _points(points) -> str:
    return ' '.join(f'{x:.2f},{y:.2f}' for x, y in points)
