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
STL meshes (binary and ASCII) as numpy triangles: whole (``read_stl``) or in chunks (``StlFile``).

A small reader of our own rather than trimesh (which only the tests use): the picture needs
the triangles only, and one dependency fewer at run time. ``read_stl`` takes the file through
inputs.read_bytes (a regular file of bounded size) and returns every triangle; ``StlFile``
makes the same checks on its open descriptor and gives the same numbers a chunk at a time, its
triangle count known from a binary header before anything else is read (``checked`` reads
every vertex too): what a check of a user's mesh (assembly/catalogue.py) and the picture
(picture/mesh.py) need in bounded memory. A file that is neither form of STL, or holds a
coordinate that is no finite number, is an InputError naming it.
"""

from __future__ import annotations

import os
import re

import numpy

from .inputs import MESH_LIMIT, open_checked, read_bytes
from ..errors import InputError

CHUNK = 1 << 16  # triangles read at a time: 65,536 are 4.7 MB as float64
_HEADER = 80
_RECORD = numpy.dtype([('normal', '<f4', 3), ('vertices', '<f4', (3, 3)), ('extra', '<u2')])
_VERTEX = re.compile(rb'vertex\s+(\S+)\s+(\S+)\s+(\S+)')
_BLOCK = 4 * 1024 * 1024  # bytes of an ASCII file parsed at a time
_SNIFF = 64 * 1024  # bytes looked at for an ASCII file's leading 'solid'


def read_stl(path) -> numpy.ndarray:
    """Return the triangles of an STL file: an (n, 3, 3) float array, metres as written."""
    data = read_bytes(path, MESH_LIMIT, 'mesh')
    if len(data) >= _HEADER + 4:
        count = int.from_bytes(data[_HEADER:_HEADER + 4], 'little')
        if len(data) == _HEADER + 4 + count * _RECORD.itemsize:
            records = numpy.frombuffer(data, _RECORD, count, _HEADER + 4)
            return _finite(records['vertices'].astype(float), path)
    if data.lstrip()[:5].lower() == b'solid':
        try:
            values = numpy.array(_VERTEX.findall(data), dtype=float)
        except ValueError:
            raise InputError('mesh: an ASCII STL vertex is not three numbers',
                             file=str(path)) from None
        if len(values) % 3 == 0:
            return _finite(values.reshape(-1, 3, 3), path)
    raise InputError('mesh: not an STL file (neither binary with a matching triangle count '
                     'nor ASCII "solid ... vertex x y z")', file=str(path))


def _finite(triangles: numpy.ndarray, path) -> numpy.ndarray:
    """Return STL triangles (or vertices), InputError if a coordinate is NaN or infinite."""
    if not numpy.isfinite(triangles).all():
        raise InputError('mesh: a vertex coordinate is not a finite number (NaN or infinity)',
                         file=str(path))
    return triangles


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
        self._fd, self.size = open_checked(path, MESH_LIMIT, 'mesh')
        try:
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

    def checked(self) -> int:
        """Return the number of triangles after reading every vertex (each a finite number)."""
        found = sum(len(chunk) for chunk in self.chunks())
        self.count = found
        return found

    def chunks(self, size: int = CHUNK):
        """Yield the triangles, float64 arrays (at most ``size``, 3, 3), in file order."""
        if self.binary:
            for start in range(0, self.count, size):
                n = min(size, self.count - start)
                data = self._read(_HEADER + 4 + start * _RECORD.itemsize, n * _RECORD.itemsize)
                if len(data) != n * _RECORD.itemsize:
                    raise InputError('mesh: the file shrank while being read',
                                     file=str(self.path))
                yield _finite(numpy.frombuffer(data, _RECORD)['vertices'].astype(float),
                              self.path)
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
            _finite(values, self.path)
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
        """Raise read_stl's error for this file (it reads the file whole to say why)."""
        read_stl(self.path)
        raise InputError('mesh: not an STL file', file=str(self.path))
