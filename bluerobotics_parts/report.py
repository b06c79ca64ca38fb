"""Text views for the command line: the part catalogue and the resolved assembly tree."""

from __future__ import annotations

from .catalogue import Catalogue
from .record import AssemblyRecord


def catalogue_text(catalogue: Catalogue) -> str:
    """Every part type with its mass and slots (accepted types, default, joint)."""
    lines = []
    for name in catalogue:
        part = catalogue[name]
        origin = '' if part.shipped else f'  [from {part.file}]'
        lines.append(f'{name}  ({part.mass:g} kg){origin}')
        if part.description:
            lines.append(f'    {part.description}')
        for slot in part.slots.values():
            extras = [f'joint {slot.joint}'] if slot.joint != 'fixed' else []
            extras += ['no collision'] if not slot.collision else []
            suffix = f"  ({', '.join(extras)})" if extras else ''
            lines.append(f"    slot {slot.name}: accepts {', '.join(slot.accepts) or 'nothing'}; "
                         f'default {slot.default}{suffix}')
        for frame in part.frames:
            lines.append(f'    frame {frame}')
    return '\n'.join(lines) + '\n'


def tree_text(record: AssemblyRecord) -> str:
    """The resolved assembly as an indented tree: each instance with its type, each slot
    with its occupant or ``(empty)``, free placements under their parent."""
    lines = []

    def instance(part, indent, via):
        lines.append(f'{indent}{via}{part.name} ({part.type})')
        child_indent = indent + '    '
        for slot in record.slots_of(part.name):
            occupant = record.occupant(part.name, slot.name)
            if occupant is None:
                lines.append(f'{child_indent}[{slot.name}] (empty)')
            else:
                instance(occupant, child_indent, f'[{slot.name}] ')
        for frame in record.frames_of(part.name):
            lines.append(f'{child_indent}<frame {frame.name}>')
        for placed in placements.get(part.name, []):
            instance(placed, child_indent, f'placed on {placed.parent}: ')

    # Free placements hang under the instance owning their parent link.
    owner = {p.name: p.name for p in record.parts}
    owner.update({s.link: s.of for s in record.slots})
    owner.update({f.link: f.of for f in record.frames})
    placements: dict = {}
    for part in record.parts:
        if part.is_placement:
            placements.setdefault(owner.get(part.parent, record.base.name), []).append(part)
    lines.append(f'vehicle {record.robot_name}')
    instance(record.base, '', '')
    return '\n'.join(lines) + '\n'
