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


"""The water and air the vehicles are in: the shipped worlds' values, each once."""

from ..formats.water import density as water_density, label as water_label, WATERS

#: kg/m^3, standard sea water (PART_FACTS.md); below z = 0 in config/worlds/water.sdf, and the
#: water of a config that names none (formats/water.py has the rule).
SEA_WATER_DENSITY = WATERS['sea']
#: kg/m^3, fresh water at 25 C (a config's ``water: fresh``).
FRESH_WATER_DENSITY = WATERS['fresh']
#: kg/m^3, above z = 0 in config/worlds/water.sdf.
AIR_DENSITY = 1.0
#: m/s^2: the SDFormat world's <gravity> default, 0 0 -9.8 (gazebosim/sdformat, tag
#: sdformat14_14.9.0, sdf/1.11/world.sdf); config/worlds/water.sdf does not set it.
GRAVITY = 9.8
#: Pa, the ISO 2533 standard atmosphere at sea level.
STANDARD_ATMOSPHERE = 101325.0

__all__ = ['AIR_DENSITY', 'FRESH_WATER_DENSITY', 'GRAVITY', 'SEA_WATER_DENSITY',
           'STANDARD_ATMOSPHERE', 'water_density', 'water_label']
