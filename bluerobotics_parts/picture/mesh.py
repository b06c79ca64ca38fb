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

files/stl.py reads a whole file and then its triangles as float64, about eight times the
file (1.5 GB for 5 million triangles, more while the picture copies them). Here an STL file is
opened once, checked as files/inputs.py checks every input (a regular file, at most
MESH_LIMIT bytes), its triangle count is known from the binary header before anything else is
read (an ASCII file is counted in a pass), and its triangles come CHUNK at a time: the same
numbers files/stl.py gives, as float64 (binary: the file's float32; ASCII: each number as
written), so a mesh that is not simplified is drawn exactly as before.

``cluster`` simplifies as it reads (vertex clustering): a triangle with two corners in one
cell of a grid is dropped, as is a repeat of one already kept (its corners in the same three
cells, whichever its winding: the picture shades both faces alike), and every corner moves to
the mean of the kept triangles' corners in its cell. It holds only what survives, so its
memory is that of its result and one chunk, whatever the size of the file.
"""

from __future__ import annotations

import os
import re
import stat

import numpy

from ..errors import InputError
from ..files.inputs import file_kind, MESH_LIMIT

CHUNK = 1 << 16  # triangles read (and clustered) at a time: 65,536 are 4.7 MB as float64
_HEADER = 80
# as files/stl.py reads them
_RECORD = numpy.dtype([('normal', '<f4', 3), ('vertices', '<f4', (3, 3)), ('extra', '<u2')])
_VERTEX = re.compile(rb'vertex\s+(\S+)\s+(\S+)\s+(\S+)')
_BLOCK = 4 * 1024 * 1024  # bytes of an ASCII file parsed at a time
_SNIFF = 64 * 1024  # bytes looked at for an ASCII file's leading 'solid'
_BITS = 21  # bits of each cell index in a cell's key (three in an int64)


class NotStl(Exception):
    """A file neither form of STL: files/stl.py's read_stl says why, in its words."""


class StlFile:
    """
    One STL file, open for reading in chunks; ``count`` its triangles (None: ASCII, uncounted).

    Checked on its open descriptor, as files/inputs.read_bytes checks: a regular file (a FIFO
    would block, a device never end) of at most MESH_LIMIT bytes. Raises InputError for those,
    NotStl for a file that is neither binary STL (a triangle count matching its size) nor ASCII
    (starting with ``solid``).
    """

    def __init__(self, path):
        self.path = path
        flags = os.O_RDONLY | getattr(os, 'O_NONBLOCK', 0) | getattr(os, 'O_CLOEXEC', 0)
        try:
            self._fd = os.open(path, flags)
        except FileNotFoundError:
            raise InputError('no such file', file=str(path)) from None
        except OSError as error:
            raise InputError(f'mesh: cannot open: {error.strerror or error}',
                             file=str(path)) from None
        try:
            info = os.fstat(self._fd)
            if not stat.S_ISREG(info.st_mode):
                raise InputError(f'mesh is {file_kind(info.st_mode)}, not a regular file; '
                                 'name a file', file=str(path))
            if info.st_size > MESH_LIMIT:
                raise InputError(f'mesh is {info.st_size:,} bytes, more than the limit of '
                                 f'{MESH_LIMIT:,} bytes', file=str(path))
            self.size = info.st_size
            head = self._read(0, min(self.size, _SNIFF))
            self.count = None
            if len(head) >= _HEADER + 4:
                count = int.from_bytes(head[_HEADER:_HEADER + 4], 'little')
                if self.size == _HEADER + 4 + count * _RECORD.itemsize:
                    self.binary, self.count = True, count
                    return
            if head.lstrip()[:5].lower() != b'solid':
                raise NotStl(str(path))
            self.binary = False
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _read(self, offset: int, size: int) -> bytes:
        try:
            return os.pread(self._fd, size, offset)
        except OSError as error:
            raise InputError(f'mesh: cannot read: {error.strerror or error}',
                             file=str(self.path)) from None

    def counted(self) -> int:
        """Return the number of triangles (an ASCII file is counted in a pass, once)."""
        if self.count is None:
            self.count = sum(len(chunk) for chunk in self.chunks())
        return self.count

    def chunks(self, size: int = CHUNK):
        """Yield the triangles, float64 arrays (at most ``size``, 3, 3), in file order."""
        if self.binary:
            for start in range(0, self.count, size):
                n = min(size, self.count - start)
                data = self._read(_HEADER + 4 + start * _RECORD.itemsize, n * _RECORD.itemsize)
                if len(data) != n * _RECORD.itemsize:
                    raise InputError('mesh: the file shrank while being read',
                                     file=str(self.path))
                yield numpy.frombuffer(data, _RECORD)['vertices'].astype(float)
            return
        yield from self._ascii_chunks(size)

    def _ascii_chunks(self, size: int):
        offset, rest, carry = 0, b'', numpy.empty((0, 3))
        while True:  # to the size checked at opening, should the file grow
            block = self._read(offset, min(_BLOCK, self.size - offset))
            offset += len(block)
            text = rest + block
            matches = list(_VERTEX.finditer(text))
            if block and matches and matches[-1].end() == len(text):
                matches.pop()  # its last number may go on in the next block
            end = matches[-1].end() if matches else 0
            # what follows the last whole vertex, up to a vertex's worth of it
            rest = text[max(end, len(text) - 512):] if block else b''
            try:
                values = numpy.array([m.groups() for m in matches], dtype=float).reshape(-1, 3)
            except ValueError:
                raise InputError('mesh: an ASCII STL vertex is not three numbers',
                                 file=str(self.path)) from None
            if not numpy.isfinite(values).all():
                self._not_stl()
            values = numpy.concatenate([carry, values])
            whole = len(values) // 3 * 3
            carry = values[whole:]
            triangles = values[:whole].reshape(-1, 3, 3)
            for start in range(0, len(triangles), size):
                yield triangles[start:start + size]
            if not block:
                if len(carry):
                    self._not_stl()
                return

    def _not_stl(self):
        """Raise files/stl.py's error for this file (it reads the file whole to say why)."""
        from ..files.stl import read_stl

        read_stl(self.path)
        raise InputError('mesh: not an STL file', file=str(self.path))


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


def finite(triangles: numpy.ndarray) -> numpy.ndarray:
    """Return the triangles whose corners are all numbers (the picture leaves out the rest)."""
    return triangles[numpy.isfinite(triangles).all(axis=(1, 2))]


def read(stl: StlFile, scale) -> numpy.ndarray:
    """Return every finite triangle of the file, scaled: what the picture drew before."""
    chunks = [finite(chunk) for chunk in stl.chunks()]
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
