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
Meshes for the picture in bounded memory: STL read a chunk at a time, and vertex clustering.

read_stl reads a whole file and then its triangles as float64, about eight times the file
(1.5 GB for 5 million triangles, more while the picture copies them). The picture reads each
STL through files/stl.py's StlFile instead, CHUNK triangles at a time: the same numbers, as
float64, so a mesh that is not simplified is drawn exactly as before.

``cluster`` simplifies as it reads (vertex clustering): a triangle with two corners in one
cell of a grid is dropped, as is a repeat of one already kept (its corners in the same three
cells, whichever its winding: the picture shades both faces alike), and every corner moves to
the mean of the kept triangles' corners in its cell. It holds only what survives, so its
memory is that of its result and one chunk, whatever the size of the file.
"""

from __future__ import annotations

import numpy

from ..files.stl import CHUNK, StlFile

_BITS = 21  # bits of each cell index in a cell's key (three in an int64)


class Loaded:
    """Triangles already in memory, read as a StlFile is (files/stl.py read them)."""

    def __init__(self, triangles: numpy.ndarray, size: int):
        self.triangles, self.count, self.size = triangles, len(triangles), size

    def close(self) -> None:
        pass

    def counted(self) -> int:
        return self.count

    def chunks(self, size: int = CHUNK):
        for start in range(0, self.count, size):
            yield self.triangles[start:start + size]


def read(stl: StlFile, scale) -> numpy.ndarray:
    """Return every triangle of the file, scaled (StlFile refuses a coordinate that is NaN)."""
    chunks = list(stl.chunks())
    return (numpy.concatenate(chunks) if chunks else numpy.empty((0, 3, 3))) * scale


def measure(chunks) -> tuple:
    """Return (triangles, lowest corner, highest corner, area in m^2) of finite triangles."""
    count, area = 0, 0.0
    low, high = numpy.full(3, numpy.inf), numpy.full(3, -numpy.inf)
    for chunk in chunks:
        if not len(chunk):
            continue
        count += len(chunk)
        low = numpy.minimum(low, chunk.min(axis=(0, 1)))
        high = numpy.maximum(high, chunk.max(axis=(0, 1)))
        cross = numpy.cross(chunk[:, 1] - chunk[:, 0], chunk[:, 2] - chunk[:, 0])
        area += float(numpy.sqrt((cross * cross).sum(axis=1)).sum()) / 2
    return count, low, high, area


def smallest_cell(low, high) -> float:
    """Return the smallest cell a mesh's grid may have: 2**21 cells along its longest side."""
    return float(max(numpy.max(high - low), 1e-9)) / (2 ** _BITS - 2)


def cluster(chunks, origin, cell: float, cap: int):
    """
    Return the triangles (m, 3, 3) left by clustering on a grid of ``cell`` metres.

    The grid starts at ``origin``. None as soon as more than ``cap`` would be left (the caller
    takes a coarser grid), so what is held stays near ``cap`` triangles and one chunk.
    """
    vertices, triangles, held = [], [], 0
    for chunk in chunks:
        if not len(chunk):
            continue
        index = numpy.floor((chunk - origin) / cell).astype(numpy.int64)
        numpy.clip(index, 0, 2 ** _BITS - 1, out=index)
        keys = (index[..., 0] << (2 * _BITS)) | (index[..., 1] << _BITS) | index[..., 2]
        del index
        corners = numpy.sort(keys, axis=1)
        alive = (corners[:, 0] != corners[:, 1]) & (corners[:, 1] != corners[:, 2])
        triangles.append(numpy.unique(corners[alive], axis=0))
        # a cell's vertex: the mean of the corners of the triangles kept in it (the cells only
        # collapsed triangles reach are never drawn, so they are never held)
        cells, inverse, counts = numpy.unique(keys[alive].ravel(), return_inverse=True,
                                              return_counts=True)
        flat = chunk[alive].reshape(-1, 3)
        sums = numpy.stack([numpy.bincount(inverse, flat[:, axis], len(cells))
                            for axis in range(3)], axis=1)
        vertices.append((cells, sums, counts))
        held += len(triangles[-1])
        if held > 2 * cap:
            triangles = [numpy.unique(numpy.concatenate(triangles), axis=0)]
            vertices = [_merged(vertices)]
            held = len(triangles[0])
            if held > cap:
                return None
    if not triangles:
        return numpy.empty((0, 3, 3))
    kept = numpy.unique(numpy.concatenate(triangles), axis=0)
    if len(kept) > cap:
        return None
    cells, sums, counts = _merged(vertices)
    centres = sums / counts[:, None]
    return centres[numpy.searchsorted(cells, kept)]


def _merged(parts) -> tuple:
    """Return one (cells, sums, counts) from several, each cell once."""
    if len(parts) == 1:
        return parts[0]
    cells, inverse = numpy.unique(numpy.concatenate([p[0] for p in parts]), return_inverse=True)
    sums = numpy.concatenate([p[1] for p in parts])
    counts = numpy.bincount(inverse, numpy.concatenate([p[2] for p in parts]), len(cells))
    sums = numpy.stack([numpy.bincount(inverse, sums[:, axis], len(cells)) for axis in range(3)],
                       axis=1)
    return cells, sums, counts
