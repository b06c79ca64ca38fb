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
The assembly record a resolved URDF carries, and its reader.

Directly under ``<robot>``: ``<assembly_part type name parent [of slot]/>`` per fitted instance
(``parent``: the link its joint hangs from, empty for the base; ``of``/``slot``: the slot it
fills), ``<assembly_slot of name link/>`` per visited slot, filled or not,
``<assembly_frame of name link/>`` per named frame of a part, and
``<assembly_part_file type path/>`` per user part file the config brought in. Everything
downstream reads this record instead of resolving the config again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

from ..errors import RecordError

#: A built description moves the root link's inertia to ``<root>_inertia`` on a fixed joint
#: (gazebo/composition.py, root_inertia_split: robot_state_publisher cannot use an inertia on
#: the root). That link is no instance's: readers that compare links and joints leave it out.
ROOT_INERTIA_SUFFIX = '_inertia'


def is_root_inertia_joint(joint: ElementTree.Element, root_link: str) -> bool:
    """Whether ``joint`` is the fixed joint that carries the root link's inertia."""
    parent, child = joint.find('parent'), joint.find('child')
    return (joint.get('type') == 'fixed' and parent is not None and child is not None
            and parent.get('link') == root_link
            and child.get('link') == root_link + ROOT_INERTIA_SUFFIX)


@dataclass(frozen=True)
class PartRecord:
    type: str  # noqa: A003 (the URDF attribute)
    name: str
    parent: str  # the parent link; '' for the base
    of: str = ''  # carrying instance, for a slot's occupant
    slot: str = ''  # the slot it fills, for a slot's occupant

    @property
    def is_base(self) -> bool:
        return not self.parent

    @property
    def is_placement(self) -> bool:
        return bool(self.parent) and not self.slot


@dataclass(frozen=True)
class LinkRecord:
    """A slot or a named frame of an instance: ``of``, its name, and its link."""

    of: str
    name: str
    link: str


@dataclass(frozen=True)
class AssemblyRecord:
    robot_name: str
    parts: tuple  # of PartRecord, in document order (the base first)
    slots: tuple  # of LinkRecord
    frames: tuple  # of LinkRecord
    part_files: tuple  # of (type, Path)

    @property
    def base(self) -> PartRecord:
        return self.parts[0]

    def part(self, name: str) -> PartRecord | None:
        return self._parts_by_name().get(name)

    def occupant(self, of: str, slot: str) -> PartRecord | None:
        return self._index()[0].get((of, slot))

    def slots_of(self, instance: str) -> list[LinkRecord]:
        return self._index()[1].get(instance, [])

    def frames_of(self, instance: str) -> list[LinkRecord]:
        return self._index()[2].get(instance, [])

    def _parts_by_name(self) -> dict:
        cached = self.__dict__.get('_by_name')
        if cached is None:
            cached = {}
            for part in self.parts:
                cached.setdefault(part.name, part)  # the first of a repeated name
            object.__setattr__(self, '_by_name', cached)
        return cached

    def _index(self) -> tuple:
        """Return occupants by (of, slot), slots and frames by instance (built once)."""
        cached = self.__dict__.get('_lookup')
        if cached is None:
            occupants, slots, frames = {}, {}, {}
            for part in self.parts:
                if part.slot:
                    occupants.setdefault((part.of, part.slot), part)
            for slot in self.slots:
                slots.setdefault(slot.of, []).append(slot)
            for frame in self.frames:
                frames.setdefault(frame.of, []).append(frame)
            cached = (occupants, slots, frames)
            object.__setattr__(self, '_lookup', cached)
        return cached


def read_urdf_file(path) -> str:
    """
    Return the text of a URDF file: a regular file of bounded size, UTF-8.

    A build killed while it replaced its files is finished first, so the URDF read is never
    one set's beside another's bridge.yaml.
    """
    from ..files.atomic import finish_interrupted_writes
    from ..files.inputs import read_bytes, URDF_LIMIT

    finish_interrupted_writes(Path(path).parent)
    data = read_bytes(path, URDF_LIMIT, 'URDF')
    try:
        return data.decode('utf-8')
    except UnicodeDecodeError:
        raise RecordError(f'{path}: cannot read: not UTF-8 text (is it a URDF?)') from None


def parse_urdf(urdf: str | bytes) -> ElementTree.Element:
    """Return the ``<robot>`` element of URDF text; RecordError unless it is one."""
    try:
        root = ElementTree.fromstring(urdf.encode() if isinstance(urdf, str) else urdf)
    except ElementTree.ParseError as error:
        raise RecordError(f'not well-formed XML: {error}') from None
    if root.tag != 'robot':
        raise RecordError(f'not a URDF: the root element is <{root.tag}>, not <robot>')
    return root


def read(urdf: str | bytes | ElementTree.Element, folder=None) -> AssemblyRecord:
    """
    Return the assembly record of a resolved URDF (text or parsed root).

    ``folder``: the URDF file's folder, which relative part file paths are taken from (an
    export records its copies of the part files relative to itself); without it, they are
    taken from the working folder.
    """
    root = urdf if isinstance(urdf, ElementTree.Element) else parse_urdf(urdf)

    def records(tag, required):
        found = []
        for element in root.findall(tag):
            missing = [k for k in required if k not in element.attrib]
            if missing:
                raise RecordError(f"<{tag}> without {', '.join(missing)}: "
                                  f"{ElementTree.tostring(element, encoding='unicode').strip()}")
            found.append(element.attrib)
        return found

    parts = tuple(PartRecord(a['type'], a['name'], a.get('parent', ''), a.get('of', ''),
                             a.get('slot', ''))
                  for a in records('assembly_part', ('type', 'name', 'parent')))
    if not parts:
        raise RecordError('the URDF has no <assembly_part> records: it was not resolved by '
                          'bluerobotics_parts (urdf/assembly.xacro)')
    if not parts[0].is_base:
        raise RecordError(f'the first <assembly_part> ({parts[0].name}) is not the base '
                          '(it has a parent)')
    slots = tuple(LinkRecord(a['of'], a['name'], a['link'])
                  for a in records('assembly_slot', ('of', 'name', 'link')))
    frames = tuple(LinkRecord(a['of'], a['name'], a['link'])
                   for a in records('assembly_frame', ('of', 'name', 'link')))
    base = Path(folder) if folder is not None else Path()
    part_files = tuple((a['type'], base / a['path'])
                       for a in records('assembly_part_file', ('type', 'path')))
    return AssemblyRecord(root.get('name', ''), parts, slots, frames, part_files)
