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
The one parser for ``xyz`` / ``rpy`` values: three finite numbers, as a list or a string.

A config may write ``xyz: [0.1, 0, -2e-3]`` or ``xyz: "0.1 0 -2e-3"``; both mean metres (or
radians for ``rpy``). The URDF gets the values as written, joined by spaces, which is what
the xacro resolver writes too (urdf/lib/helpers.xacro, ``bp_vector``, the same rule): a
number token is a plain decimal (``1``, ``-0.5``, ``.5``, ``2e-3``), never ``inf``, ``nan``,
hexadecimal or a boolean.
"""

from __future__ import annotations

from dataclasses import dataclass
import math
import re

from ..errors import shown

# A decimal number as written: sign, digits with at most one point, optional exponent.
DECIMAL = re.compile(r'^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$', re.ASCII)
_LIMIT = 1e308  # an integer beyond this has no float (xacro compares the same way)

SHAPE = 'three finite numbers (metres / radians) as a list [x, y, z] or a string "x y z"'


@dataclass(frozen=True)
class Vector:
    """A parsed vector: the numbers, and the text the URDF gets."""

    values: tuple
    text: str


def is_number(item) -> bool:
    """Return whether ``item`` is one finite number of a vector (a number or its text)."""
    if isinstance(item, bool):
        return False
    if isinstance(item, int):
        return -_LIMIT < item < _LIMIT
    if isinstance(item, float):
        return math.isfinite(item)
    if isinstance(item, str) and DECIMAL.match(item):
        return math.isfinite(float(item))
    return False


def parse(value) -> Vector | None:
    """Return the Vector of a config value, or None when it is not three finite numbers."""
    if isinstance(value, str):
        items = value.split()
    elif isinstance(value, list):
        items = value
    else:
        return None
    if len(items) != 3 or not all(is_number(item) for item in items):
        return None
    return Vector(tuple(float(item) for item in items), ' '.join(str(item) for item in items))


def problem_text(label: str, key: str, value) -> str:
    """Return the message for a value that is not a vector: ``<label>: xyz must be ...``."""
    return f'{label}: {key} must be {SHAPE}; got {shown(value)}'


ZERO = Vector((0.0, 0.0, 0.0), '0 0 0')
