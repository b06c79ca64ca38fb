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


"""The views a picture can have: where the eye looks from (numpy only once one is drawn)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
import math


#: Which frames a picture marks: ``default`` every slot and every part frame that is not inner
#: (scene.py, INNER_FRAME_DISTANCE), ``all`` every frame, ``slots`` the slots alone.
FRAME_CHOICES = ('default', 'all', 'slots')


@dataclass(frozen=True)
class View:
    name: str
    title: str
    direction: tuple  # from the eye into the scene
    up: tuple  # what should point up on the screen (before orthogonalising)

    def axes(self) -> tuple:
        """Return unit (right, up, into) vectors of the screen in the root frame (copies)."""
        return tuple(axis.copy() for axis in _axes(self))


@lru_cache(maxsize=None)
def _axes(view: View) -> tuple:
    """Work out a view's axes once: every point and marker drawn projects through them."""
    import numpy

    into = numpy.array(view.direction, dtype=float)
    into /= numpy.linalg.norm(into)
    right = numpy.cross(into, view.up)
    right /= numpy.linalg.norm(right)
    return right, numpy.cross(right, into), into


_ELEVATION, _AZIMUTH = math.radians(30), math.radians(45)
VIEWS = {
    'iso': View('iso', 'iso: from ahead, starboard and above',
                (-math.cos(_ELEVATION) * math.cos(_AZIMUTH),
                 math.cos(_ELEVATION) * math.sin(_AZIMUTH), -math.sin(_ELEVATION)), (0, 0, 1)),
    'top': View('top', 'top: x right, y up', (0, 0, -1), (0, 1, 0)),
    'side': View('side', 'side, from starboard: x right, z up', (0, 1, 0), (0, 0, 1)),
    'front': View('front', 'front, from ahead: y right, z up', (-1, 0, 0), (0, 0, 1)),
}
VIEW_NAMES = tuple(VIEWS)  # every view, the default set, in drawing order
