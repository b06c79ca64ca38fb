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
The water a vehicle dives in, as a config (``water:``) or ``info --water`` names it.

One rule: ``sea`` or ``fresh``, or a density in kg/m^3. The config key, the command-line
option, the Gazebo composition (the Thrusters' fluid density), the launch's world and
``info`` all read the density through ``density``; physics/water.py re-exports the values.
"""

from __future__ import annotations

import math

from . import value_kinds as kinds
from ..errors import ConfigError, shown

#: kg/m^3. Sea water: the standard 1025 (docs/PART_FACTS.md), the shipped worlds' water and
#: the default. Fresh water: 997, pure water at 25 C (998 at 20 C, 1000 at 4 C).
WATERS = {'sea': 1025.0, 'fresh': 997.0}
DEFAULT_WATER = 'sea'
#: A density outside this is not water a vehicle dives in (brine lakes reach about 1240);
#: 1.0 would be a slip for 1000 (g/cm^3 instead of kg/m^3).
DENSITY_RANGE = (900.0, 1300.0)
SHAPE = (f"sea ({WATERS['sea']:g} kg/m^3), fresh ({WATERS['fresh']:g}) or a density in "
         f'kg/m^3 from {DENSITY_RANGE[0]:g} to {DENSITY_RANGE[1]:g}')


def problem(value) -> str | None:
    """Return why ``value`` names no water (``must be ...``), or None."""
    if isinstance(value, str) and value in WATERS:
        return None
    number = _number(value)
    if number is not None and DENSITY_RANGE[0] <= number <= DENSITY_RANGE[1]:
        return None
    return f'must be {SHAPE}, got {shown(value)}'


def density(value=None) -> float:
    """Return what ``value`` names in kg/m^3; None is the default, sea water."""
    if value is None:
        return WATERS[DEFAULT_WATER]
    complaint = problem(value)
    if complaint:
        raise ConfigError(f'water {complaint}')
    return WATERS[value] if isinstance(value, str) else float(value)


def from_text(text: str):
    """Return what a command-line ``--water`` names: ``sea``, ``fresh`` or a number as given."""
    try:
        return float(text)
    except ValueError:
        return text.strip()


def label(value=None) -> str:
    """Return how messages name the water: ``sea water (1025 kg/m^3)``, ``water of 1010``."""
    rho = density(value)
    named = next((name for name, known in WATERS.items() if known == rho), None)
    return f'{named} water ({rho:g} kg/m^3)' if named else f'water of {rho:g} kg/m^3'


def _number(value) -> float | None:
    """Return a number of YAML (not its text: the schema says number), or None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        return float(value) if math.isfinite(value) else None
    except OverflowError:  # an integer past float's range
        return None


#: The config key's kind (formats/config.py KEY_KINDS; assembly/schema.py's JSON Schema).
KIND = kinds.Kind({'anyOf': [{'enum': list(WATERS)},
                             {'type': 'number', 'minimum': DENSITY_RANGE[0],
                              'maximum': DENSITY_RANGE[1]}]}, problem)
