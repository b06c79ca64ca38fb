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
The water of a Gazebo world: read it, and give a world another.

A world's water is its Buoyancy system's density: ``<graded_buoyancy><default_density>`` (the
shipped worlds: what lies below the lowest density change, the water) or
``<uniform_fluid_density>`` (gazebosim/gz-sim tag gz-sim8_8.14.0,
src/systems/buoyancy/Buoyancy.cc, Configure). The launch writes a world of the vehicle's
water beside its artefacts when the world it starts has another (ros/launch/plan.py), so the
world's buoyancy and the vehicle's Thrusters agree; everything else in the world is kept.
"""

from __future__ import annotations

from xml.etree import ElementTree

from ..errors import ConfigError

BUOYANCY = 'gz::sim::systems::Buoyancy'
#: The file name of a world written with another water (beside a launch's artefacts).
WORLD_FILE = 'world.sdf'


def _parse(text: str) -> ElementTree.Element:
    """Return the world's root, comments kept (the written world keeps the world's notes)."""
    parser = ElementTree.XMLParser(target=ElementTree.TreeBuilder(insert_comments=True))
    return ElementTree.fromstring(text, parser=parser)


def _density_element(root: ElementTree.Element):
    for plugin in root.iter('plugin'):
        if plugin.get('name') == BUOYANCY:
            found = plugin.find('graded_buoyancy/default_density')
            return found if found is not None else plugin.find('uniform_fluid_density')
    return None


def world_water(text: str) -> float | None:
    """Return the density of a world's water (kg/m^3), None when its Buoyancy gives none."""
    try:
        element = _density_element(_parse(text))
        return float(element.text) if element is not None and element.text else None
    except (ElementTree.ParseError, ValueError):
        return None


def with_water(text: str, density: float) -> str:
    """Return the world with its Buoyancy system's water at ``density`` (kg/m^3)."""
    root = _parse(text)
    element = _density_element(root)
    if element is None:
        raise ConfigError(f'the world has no {BUOYANCY} system with a density to set; give a '
                          'world with one (config/worlds/water.sdf)')
    element.text = f'{density:g}'
    root.insert(0, ElementTree.Comment(f' written by bluerobotics_parts: this world with its '
                                       f'Buoyancy water at {density:g} kg/m^3 '))
    return ElementTree.tostring(root, encoding='unicode', xml_declaration=True) + '\n'
