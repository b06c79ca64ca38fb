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
The figures Blue Robotics (or a paper) publish for a vehicle, each with its source.

They are part data: the base part's ``hydrostatics`` section holds them with a ``_source``
beside each number (formats/part_format.py, HYDROSTATICS_FIELDS), so a user's own base part
brings its own, and a figure nobody published is simply absent.
"""

from __future__ import annotations

from dataclasses import dataclass

KGF = 9.80665  # N per kgf: standard gravity, the kilogram-force's definition


@dataclass(frozen=True)
class Published:
    value: float  # in the report's unit (N for thrust: the part data's kgf times g)
    source: str
    given: str  # the figure as published, e.g. "8.2 kgf"


#: key in the report -> (part data key, factor to the report's unit, published unit)
FIGURES = {
    'mass': ('mass', 1.0, 'kg'),
    'net_buoyancy': ('net_buoyancy', 1.0, 'kg'),
    'freeboard': ('freeboard', 1.0, 'm'),
    'top_speed': ('top_speed', 1.0, 'm/s'),
    'surge': ('bollard_thrust', KGF, 'kgf'),
    'sway': ('bollard_thrust_lateral', KGF, 'kgf'),
    'heave': ('bollard_thrust_vertical', KGF, 'kgf'),
}


def published(base_part) -> dict:
    """Return key -> Published for what the base part's data publishes (``FIGURES``)."""
    figures = base_part.data.get('hydrostatics') or {}
    found = {}
    for key, (name, factor, unit) in FIGURES.items():
        if figures.get(name) is None:
            continue
        value = float(figures[name])
        source = figures.get(f'{name}_source') or figures.get(f'{name}_unverified') or ''
        found[key] = Published(value * factor, str(source), f'{value:g} {unit}')
    return found
