"""The assembly manifest recorded in a resolved URDF.

The resolver writes, directly under ``<robot>``:

* ``<assembly_part type name parent [of slot]/>`` per fitted instance (``parent`` is the link
  its joint hangs from, empty for the base; ``of``/``slot`` for a slot's occupant),
* ``<assembly_slot of name link/>`` per visited slot, filled or not,
* ``<assembly_frame of name link/>`` per named frame of a part,
* ``<assembly_part_file type path/>`` per user part file the config brought in.

Everything downstream reads this instead of re-resolving the config.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

from .errors import BlueRoboticsPartsError


class ManifestError(BlueRoboticsPartsError):
    """A URDF without (or with a broken) assembly manifest."""


@dataclass(frozen=True)
class PartRecord:
    type: str
    name: str
    parent: str  # the parent link; "" for the base
    of: str = ''  # carrying instance, for a slot's occupant
    slot: str = ''  # the slot it fills, for a slot's occupant

    @property
    def is_base(self) -> bool:
        return not self.parent

    @property
    def is_placement(self) -> bool:
        return bool(self.parent) and not self.slot


@dataclass(frozen=True)
class SlotRecord:
    of: str
    name: str
    link: str


@dataclass(frozen=True)
class FrameRecord:
    of: str
    name: str
    link: str


@dataclass(frozen=True)
class Manifest:
    robot_name: str
    parts: tuple  # of PartRecord, in document order (the base first)
    slots: tuple  # of SlotRecord
    frames: tuple  # of FrameRecord
    part_files: tuple  # of (type, Path)

    @property
    def base(self) -> PartRecord:
        return self.parts[0]

    def part(self, name: str) -> PartRecord | None:
        return next((p for p in self.parts if p.name == name), None)

    def occupant(self, of: str, slot: str) -> PartRecord | None:
        return next((p for p in self.parts if p.of == of and p.slot == slot), None)

    def slots_of(self, instance: str) -> list[SlotRecord]:
        return [s for s in self.slots if s.of == instance]

    def frames_of(self, instance: str) -> list[FrameRecord]:
        return [f for f in self.frames if f.of == instance]


def parse_urdf(urdf: str | bytes) -> ElementTree.Element:
    try:
        root = ElementTree.fromstring(urdf.encode() if isinstance(urdf, str) else urdf)
    except ElementTree.ParseError as error:
        raise ManifestError(f'not well-formed XML: {error}') from None
    if root.tag != 'robot':
        raise ManifestError(f'not a URDF: the root element is <{root.tag}>, not <robot>')
    return root


def read(urdf: str | bytes | ElementTree.Element) -> Manifest:
    """The manifest of a resolved URDF (text or parsed root)."""
    root = urdf if isinstance(urdf, ElementTree.Element) else parse_urdf(urdf)

    def records(tag, required):
        found = []
        for element in root.findall(tag):
            missing = [k for k in required if k not in element.attrib]
            if missing:
                raise ManifestError(f"<{tag}> without {', '.join(missing)}: "
                                    f"{ElementTree.tostring(element, encoding='unicode').strip()}")
            found.append(element.attrib)
        return found

    parts = tuple(PartRecord(a['type'], a['name'], a.get('parent', ''), a.get('of', ''),
                             a.get('slot', '')) for a in records('assembly_part', ('type', 'name', 'parent')))
    if not parts:
        raise ManifestError('the URDF has no <assembly_part> records: it was not resolved by '
                            'bluerobotics_parts (urdf/assembly.xacro)')
    if not parts[0].is_base:
        raise ManifestError(f'the first <assembly_part> ({parts[0].name}) is not the base '
                            '(it has a parent)')
    slots = tuple(SlotRecord(a['of'], a['name'], a['link'])
                  for a in records('assembly_slot', ('of', 'name', 'link')))
    frames = tuple(FrameRecord(a['of'], a['name'], a['link'])
                   for a in records('assembly_frame', ('of', 'name', 'link')))
    part_files = tuple((a['type'], Path(a['path']))
                       for a in records('assembly_part_file', ('type', 'path')))
    return Manifest(root.get('name', ''), parts, slots, frames, part_files)
