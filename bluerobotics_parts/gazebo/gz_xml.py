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
The XML of Gazebo extension blocks: ``<gazebo>``, ``<plugin>``, children and their text.

One place for how a value is written (booleans as true/false, floats by ``repr``), used by the
vehicle-level composition (composition.py) and the sensor blocks (sensor_blocks.py) alike.
"""

from __future__ import annotations

from xml.etree import ElementTree


def gazebo(child: ElementTree.Element, reference: str | None = None) -> ElementTree.Element:
    """Return ``<gazebo>`` (on link ``reference`` when given) holding ``child``."""
    block = ElementTree.Element('gazebo', reference=reference) if reference else \
        ElementTree.Element('gazebo')
    block.append(child)
    return block


def plugin(system, parameters: list) -> ElementTree.Element:
    """Return ``<plugin filename= name=>`` of a ``System`` (elements.py) with its parameters."""
    element = ElementTree.Element('plugin', filename=system.filename, name=system.name)
    children(element, parameters)
    return element


def children(parent: ElementTree.Element, items: list) -> None:
    """Append ``<tag>value</tag>`` for each (tag, value); a value may be an element's children."""
    for tag, value in items:
        child = ElementTree.SubElement(parent, tag)
        if isinstance(value, list):
            children(child, value)
        else:
            child.text = text(value)


def text(value) -> str:
    """Return a value as Gazebo reads it: true/false, floats exactly (repr), the rest str()."""
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (tuple,)):
        return ' '.join(text(v) for v in value)
    return str(value)
