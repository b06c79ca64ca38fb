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
The assembly check: a URDF against the config it is said to be resolved from.

``problems(config, urdf)`` resolves the config (resolution.py: every problem of the config
itself), then compares the URDF's assembly record and joint poses with that resolution and
reports each difference: another base, a slot with another occupant, a slot or a placement
the config does not make or that is missing, a pose that differs. Each message names the
config entry (with ``file:line``) where one is involved. ``check`` raises AssemblyError with
all of them. ``check_assembly CONFIG URDF`` and ``bluerobotics-parts check`` run this.
"""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

from .record import (AssemblyRecord, is_root_inertia_joint, parse_urdf, read, read_urdf_file,
                     ROOT_INERTIA_SUFFIX)
from .resolution import Resolution, resolve
from ..errors import AssemblyError, ConfigError, in_line_order, Problem, RecordError
from ..formats.config import as_config, entry_label

NOT_FROM_THIS_CONFIG = 'the URDF was not resolved from this config'


def problems(config, urdf) -> list[Problem]:
    """
    Return every problem of a config and of a URDF against it.

    ``config``: a Config, a path, a dict; ``urdf``: URDF text, a Path to it, or its parsed
    ``<robot>`` element.
    """
    config = as_config(config)
    resolution = resolve(config)
    found = resolution.problems
    where = f'{urdf}: ' if isinstance(urdf, Path) else ''
    try:
        if isinstance(urdf, Path):
            urdf = read_urdf_file(urdf)
        root = urdf if isinstance(urdf, ElementTree.Element) else parse_urdf(urdf)
        actual = read(root)
    except ConfigError as error:  # unreadable, not UTF-8: it names the file
        return in_line_order(found, config.file) + [Problem(str(error))]
    except RecordError as error:  # not a URDF, or not one of ours
        message = str(error)
        return in_line_order(found, config.file) + [
            Problem(message if message.startswith(where) else where + message)]
    return in_line_order(found + record_problems(resolution, actual, root), config.file)


def check(config, urdf) -> None:
    """Raise AssemblyError listing every problem; return quietly when consistent."""
    found = problems(config, urdf)
    if found:
        raise AssemblyError(found)


def record_problems(resolution: Resolution, actual: AssemblyRecord,
                    root: ElementTree.Element | None = None) -> list[Problem]:
    """
    Return the differences between a URDF's record (and joints) and the resolution.

    Items the config has a problem with are left out (their difference follows from it).
    """
    return _Comparison(resolution, actual, root).problems()


class _Comparison:
    def __init__(self, resolution: Resolution, actual: AssemblyRecord, root):
        self.config = resolution.config
        self.resolution = resolution
        self.expected = resolution.record
        self.actual = actual
        self.root = root
        self.troubled = {p.path[:2] for p in resolution.problems if p.path}
        base = self.config.base_name
        self.entries = {}  # (of, slot) -> (index, entry)
        self.placements = []  # (index, entry)
        for index, entry in enumerate(self.config.entries):
            if not isinstance(entry, dict) or ('parts', index) in self.troubled:
                continue
            if 'slot' in entry:
                self.entries.setdefault((entry.get('of', base), entry['slot']), (index, entry))
            else:
                self.placements.append((index, entry))
        self.adhoc = {(s.get('of', base), s.get('name')): index
                      for index, s in enumerate(self.config.adhoc_slots)
                      if isinstance(s, dict) and ('slots', index) not in self.troubled}
        self.found: list[Problem] = []

    def problem(self, path, message: str) -> None:
        self.found.append(self.config.problem(path, f'{message}: {NOT_FROM_THIS_CONFIG}',
                                              rule='record-differs'))

    def problems(self) -> list[Problem]:
        expected, actual = self.expected, self.actual
        if not expected.parts:  # the config's own problems stopped its resolution
            return self.found
        if (actual.base.type, actual.base.name) != (expected.base.type, expected.base.name):
            self.problem(('base',), f"the URDF's base is {actual.base.name} "
                         f"({actual.base.type}) but the config's is {expected.base.name} "
                         f'({expected.base.type})')
            return self.found  # everything else hangs off the base
        self.slots()
        self.placed()
        if self.found or self.resolution.problems:
            return self.found  # the rest compares a clean resolution only
        self.frames_and_order()
        if not self.found and self.root is not None:
            self.joints()
        return self.found

    def slots(self) -> None:
        expected, actual = self.expected, self.actual
        wanted = {(s.of, s.name) for s in expected.slots}
        present = {(s.of, s.name) for s in actual.slots}
        types = {p.name: p.type for p in actual.parts}
        occupants = {(p.of, p.slot): p for p in expected.parts if p.slot}
        fitted = {(p.of, p.slot): p for p in actual.parts if p.slot}
        order = list(dict.fromkeys([(s.of, s.name) for s in expected.slots]
                                   + [(s.of, s.name) for s in actual.slots]))
        for of, slot in order:
            if (of, slot) in self.adhoc and ('slots', self.adhoc[(of, slot)]) in self.troubled:
                continue
            if (of, slot) not in present:
                path, label = self.slot_source(of, slot)
                self.problem(path, f'{label}slot {slot} of {of} is not in the URDF')
                continue
            if (of, slot) not in wanted:
                self.problem(None, f'the URDF has slot {slot} on {of}, which neither its part '
                             f'type {types.get(of)} nor the config declares')
                continue
            self.occupant(of, slot, occupants.get((of, slot)), fitted.get((of, slot)))

    def slot_source(self, of: str, slot: str) -> tuple:
        if (of, slot) in self.adhoc:
            index = self.adhoc[(of, slot)]
            return ('slots', index), entry_label('slots', index, self.config.adhoc_slots[index]) \
                + ': '
        return None, ''

    def occupant(self, of, slot, wanted, fitted) -> None:
        def shown(part):
            return (part.type, part.name) if part else ('none', None)

        if shown(wanted) == shown(fitted):
            return
        if (of, slot) in self.entries:
            index, entry = self.entries[(of, slot)]
            label = entry_label('parts', index, entry)
            if shown(wanted)[0] != shown(fitted)[0]:
                self.problem(('parts', index, 'type'), f'{label}: the config fits '
                             f'{shown(wanted)[0]} but the URDF has {shown(fitted)[0]} in slot '
                             f'{slot} of {of}')
            else:
                self.problem(('parts', index), f'{label}: the config names the occupant '
                             f'{wanted.name} but the URDF names it {fitted.name}')
        elif fitted is None:
            self.problem(None, f'the URDF leaves slot {slot} of {of} empty, where the config '
                         f'keeps the default ({wanted.type})')
        else:
            default = 'none' if wanted is None else wanted.type if wanted.name == slot else \
                f'{wanted.type} named {wanted.name}'
            self.problem(None, f'the URDF has {fitted.name} ({fitted.type}) in slot {slot} of '
                         f'{of}, where the config keeps the default ({default})')

    def placed(self) -> None:
        """Free placements, the k-th of a name against the k-th (names may repeat)."""
        expected, actual = {}, {}
        for part in self.expected.parts:
            if part.is_placement:
                expected.setdefault(part.name, []).append(part)
        for part in self.actual.parts:
            if part.is_placement:
                actual.setdefault(part.name, []).append(part)
        seen: dict = {}
        for index, entry in enumerate(self.config.entries):
            if not isinstance(entry, dict) or 'slot' in entry:
                continue
            name = entry.get('name')
            if not isinstance(name, str):
                continue  # a problem of the config, named already
            nth = seen[name] = seen.get(name, -1) + 1
            if ('parts', index) in self.troubled:
                continue
            label = entry_label('parts', index, entry)
            wanted = _nth(expected.get(name), nth)
            placed = _nth(actual.get(name), nth)
            if placed is None:
                self.problem(('parts', index), f'{label}: {name} is not placed in the URDF')
            elif wanted is not None and (placed.type, placed.parent) != (wanted.type,
                                                                         wanted.parent):
                self.problem(('parts', index), f'{label}: the config places a {wanted.type} on '
                             f'{wanted.parent} but the URDF has a {placed.type} on '
                             f'{placed.parent}')
        for name, parts in actual.items():
            for part in parts[len(expected.get(name, [])):]:
                self.problem(None, f'the URDF places {part.name} ({part.type}) on {part.parent}, '
                             'which the config does not')

    def frames_and_order(self) -> None:
        expected, actual = self.expected, self.actual
        for kind, wanted, present in (('parts', expected.parts, actual.parts),
                                      ('slots', expected.slots, actual.slots),
                                      ('frames', expected.frames, actual.frames)):
            if wanted != present:
                first = next((i for i, (w, p) in enumerate(zip(wanted, present)) if w != p),
                             min(len(wanted), len(present)))
                self.problem(None, f'the URDF records other {kind} than the config resolves '
                             f'to, from record #{first + 1} on '
                             f'({_record_text(wanted, first)} expected, '
                             f'{_record_text(present, first)} found)')
                return

    def joints(self) -> None:
        """
        Compare joint types, ends and origins with the resolution's.

        In document order (names may repeat in a config with problems), numbers compared as
        numbers.
        """
        from .urdf_writer import urdf_tree

        expected = list(urdf_tree(self.resolution).iter('joint'))
        children = {joint.find('child').get('link') for joint in expected}
        root_link = self.expected.base.name if self.expected.parts else None  # the base's link
        carried = root_link is not None and root_link + ROOT_INERTIA_SUFFIX not in children
        actual = [joint for joint in self.root.findall('joint')  # the composition's carrier
                  if not (carried and is_root_inertia_joint(joint, root_link))]
        sources = self.pose_sources()
        for wanted, joint in zip(expected, actual):
            name = wanted.get('name')
            if _joint_shape(joint) != _joint_shape(wanted):
                self.problem(None, f'joint {joint.get("name")} is not the joint the config '
                             f'resolves to there ({_joint_text(joint)} instead of '
                             f'{_joint_text(wanted)})')
                return
            for key in ('xyz', 'rpy'):
                want = wanted.find('origin').get(key)
                origin = joint.find('origin')
                text = origin.get(key, '0 0 0') if origin is not None else '0 0 0'
                if _same_numbers(want, text):
                    continue
                if name in sources:
                    path, label = sources[name]
                    self.problem(path + (key,), f'{label}: {key} is '
                                 f'{[float(v) for v in want.split()]} in the config but '
                                 f'{text!r} in the URDF')
                else:
                    self.problem(None, f'joint {name}: {key} is {text!r} in the URDF but '
                                 f'{want!r} from the part data')
            self.compare_motion(name, wanted, joint)
        if len(expected) != len(actual):
            self.problem(None, f'the URDF has {len(actual)} joints where the config resolves to '
                         f'{len(expected)}')

    def compare_motion(self, name: str, wanted, joint) -> None:
        """
        Say where a moving joint's axis or limits differ from what the config resolves to.

        An attribute left out counts as URDF's default (axis 1 0 0, lower and upper 0); the
        mistake is located at the config's own slot when one of its ad hoc slots moves it.
        """
        for tag, keys in (('axis', ('xyz',)), ('limit', MOTION_LIMIT_KEYS)):
            want, found = wanted.find(tag), joint.find(tag)
            if want is None and found is None:
                continue
            for key in keys:
                text = _attribute(found, tag, key)
                expect = _attribute(want, tag, key)
                if expect == text or (expect is not None and text is not None
                                      and _same_numbers(expect, text)):
                    continue
                shown_text = 'missing' if text is None else repr(text)
                shown_expect = 'none' if expect is None else repr(expect)
                index = self.adhoc_slot_of(wanted.find('child').get('link'))
                if index is not None:
                    label = entry_label('slots', index, self.config.adhoc_slots[index])
                    self.problem(('slots', index), f'{label}: joint {name} <{tag} {key}> is '
                                 f'{shown_text} in the URDF but {shown_expect} in the config')
                else:
                    self.problem(None, f'joint {name}: <{tag} {key}> is {shown_text} in the '
                                 f'URDF but {shown_expect} from the part data')

    def adhoc_slot_of(self, instance: str) -> int | None:
        """Return the index of the config's ad hoc slot ``instance`` sits in, None if none."""
        part = next((p for p in self.expected.parts if p.name == instance), None)
        return self.adhoc.get((part.of, part.slot)) if part is not None and part.slot else None

    def pose_sources(self) -> dict:
        """Joint name -> (config path, label) for the poses the config gives."""
        sources = {}
        for index, entry in self.placements:
            sources[f"{entry.get('name')}_joint"] = (('parts', index),
                                                     entry_label('parts', index, entry))
        for (of, name), index in self.adhoc.items():
            sources[f'{of}_{name}_joint'] = (('slots', index), entry_label(
                'slots', index, self.config.adhoc_slots[index]))
        return sources


def _nth(items, index):
    return items[index] if items and index < len(items) else None


#: A moving joint's <limit> attributes (URDF: lower and upper, effort, velocity).
MOTION_LIMIT_KEYS = ('lower', 'upper', 'effort', 'velocity')
#: What URDF takes for an attribute left out (ros/urdfdom 5.0.0, urdf_parser/src/joint.cpp:
#: axis 1 0 0, lower and upper 0; effort and velocity have none).
MOTION_DEFAULTS = {('axis', 'xyz'): '1 0 0', ('limit', 'lower'): '0', ('limit', 'upper'): '0'}


def _attribute(element, tag: str, key: str) -> str | None:
    """Return an axis or limit attribute, URDF's default when the element or it is left out."""
    value = None if element is None else element.get(key)
    return MOTION_DEFAULTS.get((tag, key)) if value is None else value


def _same_numbers(expected: str, actual: str) -> bool:
    try:
        wanted = [float(v) for v in expected.split()]
        found = [float(v) for v in actual.split()]
    except ValueError:
        return False
    return len(found) == len(wanted) and all(abs(a - w) <= 1e-9 for a, w in zip(found, wanted))


def _joint_shape(joint) -> tuple:
    ends = {e.tag: e.get('link') for e in joint if e.tag in ('parent', 'child')}
    return joint.get('name'), joint.get('type'), ends.get('parent'), ends.get('child')


def _joint_text(joint) -> str:
    name, kind, parent, child = _joint_shape(joint)
    return f'{name}: {kind} from {parent} to {child}'


def _record_text(records, index: int) -> str:
    if index >= len(records):
        return 'nothing'
    record = records[index]
    return ' '.join(f'{k}={v}' for k, v in vars(record).items() if v and not k.startswith('_'))
