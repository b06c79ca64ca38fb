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

import re
from xml.etree import ElementTree

#: The ``gz:`` prefix of Gazebo's own elements and attributes (a DVL's ``gz:type``, ``<gz:dvl>``).
#: SDFormat matches them by their written name and needs no declaration (sdformat14_14.9.0
#: src/parser.cc readXml copies a prefixed element as it is); XML readers that resolve prefixes
#: (Python's, here and in ROS tools) need one, so a description that uses it declares it.
GZ_PREFIX = 'gz'
GZ_NAMESPACE = 'http://gazebosim.org/schema'
ElementTree.register_namespace(GZ_PREFIX, GZ_NAMESPACE)


def uses_gz_prefix(element: ElementTree.Element) -> bool:
    """Return whether an element or anything in it has a ``gz:`` tag or attribute."""
    return any(node.tag.startswith('gz:') or any(k.startswith('gz:') for k in node.attrib)
               for node in element.iter())


def fromstring(text: str) -> ElementTree.Element:
    """Parse XML that may use the ``gz:`` prefix without declaring it (``gz sdf -p``'s SDF)."""
    if 'gz:' in text and 'xmlns:gz=' not in text:
        text = re.sub(r'<(sdf|robot)\b', lambda m: f'<{m.group(1)} xmlns:gz="{GZ_NAMESPACE}"',
                      text, count=1)
    return ElementTree.fromstring(text)


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
