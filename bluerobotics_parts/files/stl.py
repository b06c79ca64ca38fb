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
STL meshes (binary and ASCII) as numpy triangles, for the picture (picture/scene.py).

A small reader of our own rather than trimesh (which only the tests use): the picture needs
the triangles only, and one dependency fewer at run time. The file comes through
inputs.read_bytes (a regular file of bounded size); one that is neither form of STL is an
InputError naming it.
"""

from __future__ import annotations

import re

import numpy

from .inputs import MESH_LIMIT, read_bytes
from ..errors import InputError

_HEADER = 80
_RECORD = numpy.dtype([('normal', '<f4', 3), ('vertices', '<f4', (3, 3)), ('extra', '<u2')])
_VERTEX = re.compile(rb'vertex\s+(\S+)\s+(\S+)\s+(\S+)')


def read_stl(path) -> numpy.ndarray:
    """Return the triangles of an STL file: an (n, 3, 3) float array, metres as written."""
    data = read_bytes(path, MESH_LIMIT, 'mesh')
    if len(data) >= _HEADER + 4:
        count = int.from_bytes(data[_HEADER:_HEADER + 4], 'little')
        if len(data) == _HEADER + 4 + count * _RECORD.itemsize:
            records = numpy.frombuffer(data, _RECORD, count, _HEADER + 4)
            return records['vertices'].astype(float)
    if data.lstrip()[:5].lower() == b'solid':
        try:
            values = numpy.array(_VERTEX.findall(data), dtype=float)
        except ValueError:
            raise InputError('mesh: an ASCII STL vertex is not three numbers',
                             file=str(path)) from None
        if len(values) % 3 == 0 and numpy.isfinite(values).all():
            return values.reshape(-1, 3, 3)
    raise InputError('mesh: not an STL file (neither binary with a matching triangle count '
                     'nor ASCII "solid ... vertex x y z")', file=str(path))
