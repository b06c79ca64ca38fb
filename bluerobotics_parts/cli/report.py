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

"""Text views for the command line: the part catalogue and the resolved assembly tree."""

from __future__ import annotations

from ..assembly.catalogue import Catalogue
from ..assembly.record import AssemblyRecord
from ..formats.sensor_kinds import KINDS as SENSOR_KINDS
from ..model.topics import vehicle_topics


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
    lines = ['(slot and frame poses: xyz in m, rpy in rad, in the frame of the part that '
             'carries them)']
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
        lines.append(f'        at {pose_text(slot.xyz, slot.rpy)}')
    for frame, spec in part.frames.items():
        spec = spec or {}
        extras = [f"joint {spec['joint']}"] if spec.get('joint', 'fixed') != 'fixed' else []
        extras += [f"{(spec.get('inertial') or {}).get('mass'):g} kg"] if spec.get('inertial') \
            else []
        suffix = f"  ({', '.join(extras)})" if extras else ''
        lines.append(f'    frame {frame}: '
                     + pose_text(spec.get('xyz', (0, 0, 0)), spec.get('rpy', (0, 0, 0))) + suffix)
    return lines


def number_text(value: float) -> str:
    """Return a length or angle as the listings print it: 4 decimals at most, no -0."""
    text = f'{round(float(value), 4):g}'
    return '0' if text == '-0' else text


def pose_text(xyz, rpy) -> str:
    """Return ``xyz 0.1 0 -0.2, rpy 0 1.5708 0`` (metres, radians)."""
    return (f"xyz {' '.join(map(number_text, xyz))}, "
            f"rpy {' '.join(map(number_text, rpy))}")


def tree_text(record: AssemblyRecord, catalogue: Catalogue | None = None,
              poses: dict | None = None) -> str:
    """
    Return the resolved assembly as an indented tree.

    Each instance with its type, each slot with its occupant or ``(empty)``, its frames, with
    ``catalogue`` its sensors and lights (``<sensor KIND TOPIC...>``, ``<light NAME>``, from
    the sensor registry through topics.py), free placements under the instance owning their
    parent link. An explicit stack: a chain of thousands of slots must not exhaust Python's
    recursion. ``poses``: a line to print under each link's item (instance, empty slot,
    frame), by link name (poses.py).
    """
    poses = poses or {}
    sensors: dict = {}
    if catalogue is not None:
        for names in vehicle_topics(record, catalogue).sensors:
            shown_as = (f'<light {names.sensor_name}>'
                        if SENSOR_KINDS[names.kind].category == 'light' else
                        f"<sensor {names.kind} {' '.join(names.ros.values())}>")
            sensors.setdefault(names.instance, []).append(shown_as)
    owner = {p.name: p.name for p in record.parts}
    owner.update({s.link: s.of for s in record.slots})
    owner.update({f.link: f.of for f in record.frames})
    placements: dict = {}
    for part in record.parts:
        if part.is_placement:
            placements.setdefault(owner.get(part.parent, record.base.name), []).append(part)
    lines = [f'vehicle {record.robot_name}']
    shown = set()  # a record met again (only a config refused elsewhere could loop)
    stack = [('instance', record.base, '', '')]
    while stack:
        task = stack.pop()
        if task[0] == 'line':
            lines.append(task[1])
            continue
        _, part, indent, via = task
        lines.append(f'{indent}{via}{part.name} ({part.type})')
        inner = indent + '    '
        if part.name in poses:
            lines.append(f'{inner}  {poses[part.name]}')  # 6 right of the item, as below
        if id(part) in shown:
            continue
        shown.add(id(part))
        children = []
        for slot in record.slots_of(part.name):
            occupant = record.occupant(part.name, slot.name)
            if occupant is None:
                children.append(('line', f'{inner}[{slot.name}] (empty)'))
                if slot.link in poses:
                    children.append(('line', f'{inner}      {poses[slot.link]}'))
            else:
                children.append(('instance', occupant, inner, f'[{slot.name}] '))
        for frame in record.frames_of(part.name):
            children.append(('line', f'{inner}<frame {frame.name}>'))
            if frame.link in poses:
                children.append(('line', f'{inner}      {poses[frame.link]}'))
        children += [('line', f'{inner}{line}') for line in sensors.get(part.name, [])]
        children += [('instance', placed, inner, f'placed on {placed.parent}: ')
                     for placed in placements.get(part.name, [])]
        stack.extend(reversed(children))
    return '\n'.join(lines) + '\n'
