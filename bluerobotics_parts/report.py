"""Text views for the command line: the part catalogue and the resolved assembly tree."""

from __future__ import annotations

from .catalogue import Catalogue
from .manifest import Manifest


COMMON_FAMILY = 'common'
FAMILY_HEADINGS = {COMMON_FAMILY: 'family common (parts more than one family takes)',
                   '': 'no family (part files that name none)'}


def catalogue_text(catalogue: Catalogue) -> str:
    """
    List every part type with its mass and slots (accepted types, default, joint).

    Parts are grouped by vehicle family (a part file's ``family``): each vehicle family in
    name order, then the common parts, then any part file that names no family.
    """
    groups: dict = {}
    for name in catalogue:
        groups.setdefault(catalogue[name].family, []).append(catalogue[name])
    order = sorted(f for f in groups if f not in FAMILY_HEADINGS) + \
        [f for f in FAMILY_HEADINGS if f in groups]
    lines = []
    for family in order:
        lines.append(FAMILY_HEADINGS.get(family, f'family {family}'))
        for part in groups[family]:
            lines += _part_lines(part)
        lines.append('')
    return '\n'.join(lines[:-1]) + '\n'


def _part_lines(part) -> list:
    origin = '' if part.shipped else f'  [from {part.file}]'
    lines = [f'{part.type}  ({part.mass:g} kg){origin}']
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
    return lines


def tree_text(manifest: Manifest) -> str:
    """
    Draw the resolved assembly as an indented tree.

    Each instance with its type, each slot with its occupant or ``(empty)``, free placements
    under their parent.
    """
    lines = []

    def instance(part, indent, via):
        lines.append(f'{indent}{via}{part.name} ({part.type})')
        child_indent = indent + '    '
        for slot in manifest.slots_of(part.name):
            occupant = manifest.occupant(part.name, slot.name)
            if occupant is None:
                lines.append(f'{child_indent}[{slot.name}] (empty)')
            else:
                instance(occupant, child_indent, f'[{slot.name}] ')
        for frame in manifest.frames_of(part.name):
            lines.append(f'{child_indent}<frame {frame.name}>')
        for placed in placements.get(part.name, []):
            instance(placed, child_indent, f'placed on {placed.parent}: ')

    # Free placements hang under the instance owning their parent link.
    owner = {p.name: p.name for p in manifest.parts}
    owner.update({s.link: s.of for s in manifest.slots})
    owner.update({f.link: f.of for f in manifest.frames})
    placements: dict = {}
    for part in manifest.parts:
        if part.is_placement:
            placements.setdefault(owner.get(part.parent, manifest.base.name), []).append(part)
    lines.append(f'vehicle {manifest.robot_name}')
    instance(manifest.base, '', '')
    return '\n'.join(lines) + '\n'
