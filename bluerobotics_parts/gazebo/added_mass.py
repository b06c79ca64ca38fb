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
Added mass into Gazebo: the root link's ``<fluid_added_mass>`` through URDF.

The values are physics/added_mass.py's.

dartsim adds that matrix to the link's spatial inertia about the link origin and keeps the
weight at the rigid mass (gazebosim/gz-physics gz-physics7_7.8.0, dartsim/src/
AddedMassFeatures.cc SetLinkAddedMass, SimulationFeatures.cc WorldForwardStep), so it is
implicit and stable; the Hydrodynamics system's ``xDotU`` terms are an explicit force from the
last step's acceleration that diverges once an added mass exceeds the link's mass (gz-sim8_8.14.0
src/systems/hydrodynamics/Hydrodynamics.cc PreUpdate; gazebosim/gz-sim issue 1923).

URDF has no such element. The composition puts it in a ``<gazebo reference>`` block as a second
``<inertial>``; the URDF conversion copies it into the SDF link (sdformat14_14.9.0
src/parser_urdf.cc InsertSDFExtensionLink), where ``sdf::Link::Load`` reads only the first
``<inertial>`` (src/Link.cc). ``fold`` moves it into the first: Gazebo is given that SDF.
"""

from __future__ import annotations

from xml.etree import ElementTree

from . import gz_xml

ELEMENT = 'fluid_added_mass'


def block(link: str, values: dict) -> ElementTree.Element:
    """Return the ``<gazebo reference>`` block that carries the added mass through URDF."""
    inertial = ElementTree.Element('inertial')
    gz_xml.children(ElementTree.SubElement(inertial, ELEMENT), list(values.items()))
    return gz_xml.gazebo(inertial, reference=link)


def fold(sdf_text: str) -> str:
    """Return the SDF with each link's added mass moved into its first ``<inertial>``."""
    root = gz_xml.fromstring(sdf_text)
    fold_tree(root)
    return ElementTree.tostring(root, encoding='unicode') + '\n'


def fold_tree(root: ElementTree.Element) -> None:
    """
    Move each link's added mass into its first ``<inertial>``, in place.

    Only a later ``<inertial>`` holding nothing but ``<fluid_added_mass>`` (``block``'s) is
    folded; anything else is left as it is.
    """
    for link in root.iter('link'):
        inertials = link.findall('inertial')
        for extra in inertials[1:]:
            if [child.tag for child in extra] != [ELEMENT]:
                continue
            first = inertials[0]
            for old in first.findall(ELEMENT):
                first.remove(old)
            first.append(extra.find(ELEMENT))
            link.remove(extra)


def has_added_mass(urdf_text: str) -> bool:
    """Return whether a composed URDF carries added mass for Gazebo."""
    return f'<{ELEMENT}>' in urdf_text
