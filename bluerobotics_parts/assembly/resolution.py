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
The resolution of a config into an assembly: the rules of seed 000, each written once.

``resolve(config)`` walks the config as the xacro resolver (urdf/assembly.xacro) does and
returns the resolved assembly in document order with every problem found, not only the first.
Each Problem has a stage: ``expansion`` for what the xacro resolver also refuses (it stops at
the first, with the same words: ``ASSEMBLY ERROR: ...``), ``check`` for what only the whole
result shows, ``load`` for the file's shape (formats/config.py, formats/part_format.py). The
walk goes on past a problem where it can, and skips what only follows from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from . import catalogue as catalogue_module, hints
from .record import AssemblyRecord, LinkRecord, PartRecord
from ..errors import did_you_mean, in_line_order, Problem, shown
from ..formats import vectors
from ..formats.config import (ADHOC_SLOT_KEYS, BASE_KEYS, Config, entry_label, PLACEMENT_KEYS,
                              PLACEMENT_REQUIRED, SLOT_ENTRY_KEYS, SLOT_JOINTS, TOP_KEYS)
from ..formats.joint_motion import LIMITED_JOINTS, LIMITS_KEYS

EXPANSION, CHECK, LOAD = 'expansion', 'check', 'load'
#: What starts the message of a problem the xacro resolver also stops at (the design's contract,
#: docs/DESIGN.md, "Two resolvers, one answer": expansion errors contain it), in both
#: resolvers' words.
ASSEMBLY_ERROR = 'ASSEMBLY ERROR: '
#: Rules about a reference to an instance or link that does not exist (yet): the API lets a
#: caller add the instance later.
REFERENCE_RULES = ('no-instance', 'no-link')


# -- what the resolution produces --------------------------------------------------------------

@dataclass(frozen=True)
class Instance:
    """A fitted part: its record, and the joint it hangs on."""

    type: str  # noqa: A003 (the part type, as the record names it)
    name: str
    parent: str  # the link its joint hangs from; '' for the base
    joint: str  # 'fixed', 'continuous', 'revolute' or 'prismatic'; '' for the base
    xyz: str  # the joint origin as the URDF writes it
    rpy: str
    collision: bool  # False: its slot drops the occupant's collision geometry
    of: str = ''
    slot: str = ''
    axis: str = ''  # a moving joint's axis when its slot gives one; '' the occupant's own
    limit: tuple = ()  # a revolute or prismatic joint's (lower, upper, effort, velocity)

    @property
    def record(self) -> PartRecord:
        return PartRecord(self.type, self.name, self.parent, self.of, self.slot)


@dataclass(frozen=True)
class Mount:
    """
    A slot or a named frame of an instance: a link at a pose, on a fixed joint.

    A frame may instead turn (``joint`` continuous about ``axis``: a thruster's rotor) and
    carry mass (``inertial``, the part data's mapping); a slot never does.
    """

    kind: str  # 'slot' or 'frame'
    of: str
    name: str
    xyz: str
    rpy: str
    joint: str = 'fixed'
    axis: str = ''  # written only for a joint that moves
    inertial: dict | None = field(default=None, compare=False)
    limit: tuple = ()  # a revolute or prismatic joint's (lower, upper, effort, velocity)

    @property
    def link(self) -> str:
        return f'{self.of}_{self.name}'

    @property
    def record(self) -> LinkRecord:
        return LinkRecord(self.of, self.name, self.link)


@dataclass(frozen=True)
class PartFile:
    type: str  # noqa: A003 (the part type, as the record names it)
    path: str  # as the config names it: absolute, or the config's folder + '/' + relative


@dataclass
class Resolution:
    """The resolved assembly in document order, and every problem (in the order found)."""

    config: Config
    catalogue: catalogue_module.Catalogue
    name: str  # the vehicle name
    items: list = field(default_factory=list)  # Instance, Mount, PartFile in document order
    problems: list = field(default_factory=list)
    complete: bool = True  # False when a problem stopped the walk before the end
    #: instance name -> what fitted each instance of that name, in order: ('config', path)
    #: for the config's base, entry or ad hoc slot default; ('part', part, slot) for a part's
    #: slot default
    origins: dict = field(default_factory=dict)

    def problem_at(self, instance: str, message: str, stage: str = 'check',
                   rule: str = '') -> Problem:
        """Return a Problem located where the config (else a part file) fits ``instance``."""
        return _located(self.config, _origin(self.origins.get(instance)), message, stage, rule)

    @property
    def instances(self) -> list[Instance]:
        return [item for item in self.items if isinstance(item, Instance)]

    @cached_property
    def record(self) -> AssemblyRecord:
        """Return the record the URDF carries, without writing it (once the walk is done)."""
        parts, slots, frames, files = [], [], [], []
        for item in self.items:
            if isinstance(item, Instance):
                parts.append(item.record)
            elif isinstance(item, Mount):
                (slots if item.kind == 'slot' else frames).append(item.record)
            else:
                files.append((item.type, Path(item.path)))
        return AssemblyRecord(self.name, tuple(parts), tuple(slots), tuple(frames),
                              tuple(files))

    def sorted_problems(self) -> list[Problem]:
        """
        Return the problems as users see them.

        The config's in line order, then each part file's; a problem found twice (an instance
        expanded twice) once.
        """
        return in_line_order(self.problems, self.config.file)

    def first_expansion_problem(self) -> Problem | None:
        """Return the problem the xacro resolver stops at (None: it resolves the config)."""
        return next((p for p in self.problems if p.stage == EXPANSION), None)


def resolve(config: Config, name: str | None = None,
            shipped: catalogue_module.Catalogue | None = None, part_reader=None) -> Resolution:
    """
    Resolve a loaded config (its shape problems included) against the part library.

    The walk is the xacro resolver's (urdf/assembly.xacro): first the checks of the config as
    a whole (validate.xacro's order), then the base instance and, depth first, its slots (the
    part's own, then the config's ad hoc slots on it), each filled by the config's entry or
    the slot's default; then the user's part files; then the free placements in config order,
    their slots filling too. ``part_reader`` reads a user part file (default
    catalogue.read_user_part; the API passes one that remembers the files it read).
    """
    return _Resolver(config, name, shipped or catalogue_module.shipped(),
                     part_reader or catalogue_module.read_user_part).run()


def unknown_key_problems(config: Config) -> list[Problem]:
    """Unknown keys at any level of the config, each with the keys valid there."""
    found = []

    def unknown(path, mapping, valid, where, hint=''):
        for key in mapping:
            if key not in valid and not isinstance(key, bool):  # a bare on: is named apart
                found.append(config.problem(path + (key,), f'{where}: unknown key {key!r}; '
                                            f'{did_you_mean(key, valid)}valid keys: '
                                            f"{', '.join(valid)}{hint}", rule='unknown-key'))

    if not isinstance(config.data, dict):
        return found
    unknown((), config.data, TOP_KEYS, 'the top level')
    if isinstance(config.data.get('base'), dict):
        unknown(('base',), config.data['base'], BASE_KEYS, 'base')
    for index, entry in enumerate(config.entries):
        if not isinstance(entry, dict):
            continue
        label = entry_label('parts', index, entry)
        if 'slot' in entry:
            unknown(('parts', index), entry, SLOT_ENTRY_KEYS, label,
                    ' (a slot entry takes its pose from the slot; place a part freely with a '
                    'free placement, or declare an ad hoc slot under slots:)')
        else:
            unknown(('parts', index), entry, PLACEMENT_KEYS, label,
                    ' (this is a free placement because it has no slot:)')
    for index, slot in enumerate(config.adhoc_slots):
        if isinstance(slot, dict):
            unknown(('slots', index), slot, ADHOC_SLOT_KEYS, entry_label('slots', index, slot))
    return found


# -- the walk ----------------------------------------------------------------------------------

@dataclass
class _Slot:
    """A slot as the walk sees it: the part's own (from part data) or an ad hoc one."""

    name: str
    xyz: str
    rpy: str
    accepts: list
    default: str
    joint: str
    collision: bool
    where: tuple  # what declares it, for messages: ('config', path) or ('part', part, name)
    axis: str = ''  # a moving joint's axis, as written; '' the occupant's
    limit: tuple = ()  # a revolute or prismatic joint's (lower, upper, effort, velocity)


class _Resolver:
    def __init__(self, config: Config, name: str | None, shipped, part_reader):
        self.config = config
        self.part_reader = part_reader
        self.result = Resolution(config, shipped, name or config.name)
        self.broken = set(config.broken)  # paths of items skipped (a problem of their own)
        self.unsure = set()  # instance names a skipped item might have created
        self.unsure_slots = set()  # (instance, slot) a skipped ad hoc slot might declare
        self.types_unsure = False  # a part file failed to load and its type is not known
        self.unsure_types = set()  # types of part files that failed to load
        self.walked = False

    def run(self) -> Resolution:
        result = self.result
        result.problems.extend(self.config.problems)
        if () in self.broken:  # not even a mapping
            result.complete = False
            return result
        files = self.config.data.get('part_files')
        self.part_file_indexes = [i for i, item in enumerate(files if isinstance(files, list)
                                                             else [])
                                  if ('part_files', i) not in self.broken]
        self.user_parts = [self.part_reader(self.config.part_file_text(files[i]))
                           for i in self.part_file_indexes]
        for user in self.user_parts:
            result.problems.extend(user.problems)
            if user.part is None and isinstance(user.type, str):
                self.unsure_types.add(user.type)
            elif user.part is None:
                self.types_unsure = True
        self.types_unsure |= any(path[0] == 'part_files' for path in self.broken)
        self.validate()
        if ('base',) not in self.broken:
            self.expand()
            self.walked = True
        else:
            result.complete = False
        self.after()
        return result

    def problem(self, path, message, stage=EXPANSION, rule='') -> None:
        if stage == EXPANSION:
            message = ASSEMBLY_ERROR + message
        self.result.problems.append(self.config.problem(path, message, stage, rule))

    # -- the config as a whole (urdf/lib/validate.xacro, same order)

    def validate(self) -> None:
        config = self.config
        self.entries = [(i, e) for i, e in enumerate(config.entries)
                        if ('parts', i) not in self.broken]
        self.adhoc = [(i, s) for i, s in enumerate(config.adhoc_slots)
                      if ('slots', i) not in self.broken]
        for path in self.broken:
            if path[0] == 'parts' and len(path) == 2:
                self.forget_entry(config.entries[path[1]])
            if path[0] == 'slots' and len(path) == 2:
                self.forget_adhoc(config.adhoc_slots[path[1]])
        self.bare_keys()
        self.required_keys()
        self.part_files()
        self.unknown_types()
        self.adhoc_declarations()
        self.vectors()
        self.entries = [(i, e) for i, e in self.entries if ('parts', i) not in self.broken]
        self.adhoc = [(i, s) for i, s in self.adhoc if ('slots', i) not in self.broken]

    def skip(self, section: str, index: int, item) -> None:
        """Leave an entry or ad hoc slot out of the walk (it has a problem of its own)."""
        self.broken.add((section, index))
        (self.forget_entry if section == 'parts' else self.forget_adhoc)(item)

    def forget_entry(self, entry) -> None:
        """Note what a skipped entry might have created, so nothing aimed at it is named."""
        if not isinstance(entry, dict):
            return
        for key in ('name', 'slot'):
            if isinstance(entry.get(key), str):
                self.unsure.add(entry[key])
        of = entry.get('of', self.base_name)
        if isinstance(entry.get('slot'), str) and isinstance(of, str):
            self.unsure_slots.add((of, entry['slot']))

    def forget_adhoc(self, slot) -> None:
        """Note the slot (and default occupant) a skipped ad hoc slot might have declared."""
        if not isinstance(slot, dict):
            return
        of = slot.get('of', self.base_name)
        name = slot.get('name') if isinstance(slot.get('name'), str) else None
        if name is not None:
            self.unsure.add(name)
        if isinstance(of, str):
            self.unsure_slots.add((of, name))
        else:  # on an instance we cannot tell: any slot anywhere may be it
            self.unsure_slots.add((None, None))

    @property
    def base_name(self) -> str:
        return self.config.base_name

    def sections(self):
        """(section, index, entry) of every parts entry, then every ad hoc slot."""
        yield from (('parts', i, e) for i, e in self.entries)
        yield from (('slots', i, s) for i, s in self.adhoc)

    def bare_keys(self) -> None:
        """Name bare on: (or yes:, off:, no:) keys: YAML 1.1 reads them as booleans."""
        for section, index, item in list(self.sections()):
            for key in item:
                if isinstance(key, bool):
                    self.problem((section, index, key), _bare_key_message(
                        entry_label(section, index, item), key), rule='bare-on')
                    self.skip(section, index, item)
        for key in self.config.base:
            if isinstance(key, bool):
                self.problem(('base', key), _bare_key_message('base', key), rule='bare-on')
                self.broken.add(('base',))

    def required_keys(self) -> None:
        for index, entry in self.live_entries():
            if 'slot' in entry and not isinstance(entry.get('type'), str):
                self.problem(('parts', index), f"{entry_label('parts', index, entry)} needs "
                             'type: with a part type (one the slot accepts), or none to leave '
                             'the slot empty', rule='required-key')
                self.skip('parts', index, entry)
        for index, entry in self.live_entries():
            missing = [f'{key}:' for key in PLACEMENT_REQUIRED
                       if not isinstance(entry.get(key), str)]
            if 'slot' not in entry and missing:
                self.problem(('parts', index), f"{entry_label('parts', index, entry)} is a free "
                             f"placement (it has no slot:) and needs {' and '.join(missing)}; to "
                             'fill a slot, give slot: (and of: for a slot not on the base)',
                             rule='required-key')
                self.skip('parts', index, entry)
        for index, entry in self.live_entries():
            if 'slot' not in entry and entry['type'] == 'none':
                self.problem(('parts', index, 'type'), f"{entry_label('parts', index, entry)}: "
                             'type none only empties a slot; a free placement needs a part type',
                             rule='required-key')
                self.skip('parts', index, entry)

    def part_files(self) -> None:
        """User part types next to the library's: a type name may be defined once."""
        combined, clashes = self.result.catalogue.combine(self.user_parts)
        self.result.catalogue = combined
        for index, message in clashes:
            self.problem(('part_files', self.part_file_indexes[index]), message,
                         rule='part-file-clash')
        self.result.problems.extend(combined.reference_problems())

    def unknown_types(self) -> None:
        catalogue = self.result.catalogue
        known = _listing(catalogue.types())
        named = [(('base', 'type'), 'base', self.config.base_type, None, None)]
        named += [(('parts', i, 'type'), entry_label('parts', i, e), e['type'], e.get('slot'),
                   ('parts', i, e))
                  for i, e in self.live_entries() if e['type'] != 'none' or 'slot' not in e]
        named += [(('slots', i, 'accepts'), f"{entry_label('slots', i, s)} accepts", t, None,
                   None) for i, s in self.live_adhoc() for t in s.get('accepts') or []]
        named += [(('slots', i, 'default'), f"{entry_label('slots', i, s)} default",
                   s['default'], True, ('slots', i, s))
                  for i, s in self.live_adhoc() if s.get('default', 'none') != 'none']
        for path, where, type_name, slot, item in named:  # slot: None when none is no choice
            if type_name in catalogue:
                continue
            accepted = self.accepted_by_slot_name(slot)
            candidates = catalogue.types()
            if accepted:
                listing = (f'slot {slot} accepts: {_listing(accepted)}, or none for an empty '
                           'slot (bluerobotics-parts parts lists every type)')
            elif path[0] == 'base' and hints.base_types(catalogue):
                candidates = hints.base_types(catalogue)
                listing = (f'base types: {_listing(candidates)} (bluerobotics-parts parts lists '
                           'every type)')
            else:
                empty = ', or none for an empty slot' if slot is not None else ''
                listing = f'known types: {known}{empty}'
            if not self.types_unsure and type_name not in self.unsure_types:
                self.problem(path, f'unknown part type {type_name!r} in {where}; '
                             f'{did_you_mean(type_name, candidates)}{listing}',
                             rule='unknown-type')
            if path[0] == 'base':
                self.broken.add(('base',))
            elif item is not None and item[0] == 'parts':
                self.skip(*item)
            elif item is not None:
                self.unsure.add(item[2].get('name'))  # its default will not be fitted

    def accepted_by_slot_name(self, slot) -> set:
        """
        Return what the slots of this name accept, on any part type or ad hoc: the choices.

        Read before the slots are placed, so by name alone; a name no slot has gives the empty
        set (the message then lists every type). urdf/lib/validate.xacro has the same rule.
        """
        if not isinstance(slot, str):
            return set()
        catalogue = self.result.catalogue
        found = {t for part in catalogue.types() for name, spec in catalogue[part].slots.items()
                 if name == slot for t in spec.accepts}
        found |= {t for _, s in self.live_adhoc() if s.get('name') == slot
                  for t in (s.get('accepts') or []) if isinstance(t, str)}
        return found

    def adhoc_declarations(self) -> None:
        for index, slot in self.live_adhoc():
            if not isinstance(slot.get('name'), str):
                self.problem(('slots', index), f"{entry_label('slots', index, slot)} needs "
                             "name: (the new slot's name); of: (the carrying instance) "
                             'defaults to the base', rule='required-key')
                self.skip('slots', index, slot)
        for index, slot in self.live_adhoc():
            default, accepts = slot.get('default', 'none'), slot.get('accepts') or []
            if default != 'none' and default in self.result.catalogue and default not in accepts:
                self.problem(('slots', index, 'default'), f"{entry_label('slots', index, slot)} "
                             f'defaults to {default}, which it does not accept; add it to '
                             f"accepts (accepts: {', '.join(accepts) or 'nothing'})",
                             rule='default-not-accepted')
                self.unsure.add(slot['name'])
        for index, slot in self.live_adhoc():
            joint = slot.get('joint', 'fixed')
            if joint not in SLOT_JOINTS:
                self.problem(('slots', index, 'joint'), f"{entry_label('slots', index, slot)}: "
                             f'joint {shown(joint)} is not a slot joint; valid: '
                             f"{', '.join(SLOT_JOINTS)}", rule='slot-joint')

    def vectors(self) -> None:
        """Check the xyz / rpy of the free placements, then of the ad hoc slots."""
        self.poses = {}
        items = [('parts', i, e) for i, e in self.live_entries() if 'slot' not in e]
        items += [('slots', i, s) for i, s in self.live_adhoc()]
        for section, index, item in items:
            for key in ('xyz', 'rpy'):
                vector = vectors.ZERO
                if key in item:
                    vector = vectors.parse(item[key])
                    if vector is None:
                        self.problem((section, index, key), vectors.problem_text(
                            entry_label(section, index, item), key, item[key]), rule='vector')
                        vector = vectors.ZERO
                self.poses[(section, index, key)] = vector.text

    def live_entries(self):
        return [(i, e) for i, e in self.entries if ('parts', i) not in self.broken]

    def live_adhoc(self):
        return [(i, s) for i, s in self.adhoc if ('slots', i) not in self.broken]

    # -- the walk (urdf/lib/assemble.xacro)

    def expand(self) -> None:
        base = self.base_name
        self.by_carrier: dict = {}  # (of, slot) -> [(index, entry)]
        self.aimed_at: dict = {}  # of -> [(index, entry)]
        for index, entry in self.entries:
            if 'slot' in entry:
                of = entry.get('of', base)
                self.by_carrier.setdefault((of, entry['slot']), []).append((index, entry))
                self.aimed_at.setdefault(of, []).append((index, entry))
        self.declared: dict = {}  # of -> [(index, ad hoc slot)]
        for index, slot in self.adhoc:
            self.declared.setdefault(slot.get('of', base), []).append((index, slot))
        self.layouts: dict = {}
        self.result.origins[base] = [('config', ('base', 'type'))]
        self.walk(Instance(self.config.base_type, base, '', '', '0 0 0', '0 0 0', True))
        for user in self.user_parts:
            if isinstance(user.type, str):
                self.result.items.append(PartFile(user.type, user.file_text))
        for index, entry in self.entries:
            if 'slot' not in entry:
                parent = entry.get('parent', base)
                self.result.origins.setdefault(entry['name'], []).append(
                    ('config', ('parts', index)))
                self.walk(Instance(entry['type'], entry['name'], parent, 'fixed',
                                   self.poses[('parts', index, 'xyz')],
                                   self.poses[('parts', index, 'rpy')], True))

    def walk(self, top: Instance) -> None:
        """
        Fit ``top`` and, depth first, what fills its slots.

        An explicit stack (a chain of thousands of slots must not exhaust Python's recursion)
        and the names of the instances above the current one, kept as it goes down and up (so
        a chain stays linear).
        """
        above: list = []  # the instances above, outermost first
        counts: dict = {}  # name -> how many of them have it
        stack = [('instance', top, None)]
        while stack:
            task = stack.pop()
            if task[0] == 'leave':
                counts[above.pop()] -= 1
            elif task[0] == 'instance':
                _, instance, slot = task
                if counts.get(instance.name):
                    self.result.problems.append(self.containment(instance, above, slot))
                    continue
                slots = self.fit(instance)
                above.append(instance.name)
                counts[instance.name] = counts.get(instance.name, 0) + 1
                stack.append(('leave',))
                stack.extend(('slot', instance, slot) for slot in reversed(slots))
            else:
                _, carrier, slot = task
                occupant = self.fill(carrier, slot)
                if occupant is not None:
                    stack.append(('instance', occupant, slot))

    def fit(self, instance: Instance) -> list:
        """Fit one instance: its link and frames; return its slots (its own, then ad hoc)."""
        self.result.items.append(instance)
        own, frames = self.layout(instance.type)
        self.result.items.extend(Mount('frame', instance.name, *frame) for frame in frames)
        slots = list(own)
        names = [s.name for s in own]
        for index, declared in self.declared.get(instance.name, []):
            name = declared['name']
            if name in names:
                earlier = ('its part type ' + instance.type + ' already has' if name in
                           [s.name for s in own] else 'an earlier ad hoc slot also declares')
                listing = _listing(set(names + [s['name'] for _, s in
                                                self.declared[instance.name]]))
                self.problem(('slots', index), f'slots entry #{index + 1} declares slot {name} '
                             f'on {instance.name}, which {earlier}; choose another slot name '
                             f'(slots of {instance.name}: {listing})', rule='slot-clash')
                continue
            names.append(name)
            slots.append(self.adhoc_slot(index, declared))
        for index, entry in self.aimed_at.get(instance.name, []):
            if entry['slot'] not in names and not self.unsure_slots & {
                    (instance.name, entry['slot']), (instance.name, None), (None, None)}:
                hint = hints.slot_hint(self.result.catalogue, entry['slot'], instance.type,
                                       _listing)
                self.problem(('parts', index, 'slot'), f"{entry_label('parts', index, entry)}: "
                             f'{instance.name} ({instance.type}) has no slot '
                             f"{entry['slot']!r}; "
                             f"{'' if hint else did_you_mean(entry['slot'], names)}its "
                             f'slots: {_listing(names)}' + (f'; {hint}' if hint else ''),
                             rule='no-slot')
        for name in names:
            configured = self.by_carrier.get((instance.name, name), [])
            if len(configured) > 1:
                self.problem(('parts', configured[0][0]), f'slot {name} of {instance.name} is '
                             'configured twice: ' + ' and '.join(
                                 entry_label('parts', i, e) for i, e in configured)
                             + '; keep one entry per slot', rule='configured-twice')
        return slots

    def containment(self, instance: Instance, above: list, slot: _Slot) -> Problem:
        """
        Return the problem of a slot whose occupant has the name of an instance above it.

        A repeated name, or a part that would contain itself forever. Located at the entry
        naming the occupant, the ad hoc slot, or the part file's slot default.
        """
        chain = ' > '.join(above + [instance.name])
        message = (f'{ASSEMBLY_ERROR}slot {instance.slot} of {instance.of} would hold an '
                   f'instance named {instance.name}, a name an instance above it already has '
                   f'({chain}): instance names must be unique, and a part cannot contain itself; '
                   'give the occupant another name: or the slot another default')
        entry = self.first_entry(instance.of, instance.slot)
        origin = slot.where if entry is None else ('config', ('parts', entry[0]))
        return _located(self.config, origin, message, EXPANSION, 'contains-itself')

    def fill(self, carrier: Instance, slot: _Slot) -> Instance | None:
        """Fill one slot: its link; return its occupant (None when it stays empty)."""
        self.result.items.append(Mount('slot', carrier.name, slot.name, slot.xyz, slot.rpy))
        entry = self.first_entry(carrier.name, slot.name)
        occupant = slot.default if entry is None else entry[1]['type']
        if entry is not None and occupant != 'none' and occupant not in slot.accepts:
            index, found = entry
            hint = hints.fit_hint(self.result.catalogue, occupant, slot.name, carrier.type,
                                  slot.accepts, _listing)
            self.problem(('parts', index, 'type'), f"{entry_label('parts', index, found)}: slot "
                         f'{slot.name} of {carrier.name} ({carrier.type}) does not accept '
                         f'{occupant}; it accepts: {_listing(slot.accepts)}, or none to leave '
                         'it empty' + (f'; {hint}' if hint else ''), rule='not-accepted')
        if occupant == 'none' or occupant not in self.result.catalogue:
            return None
        attach = self.result.catalogue[occupant].data.get('attach') or {}
        name = slot.name if entry is None else entry[1].get('name', slot.name)
        self.result.origins.setdefault(name, []).append(
            slot.where if entry is None else ('config', ('parts', entry[0])))
        return Instance(occupant, name, f'{carrier.name}_{slot.name}', slot.joint,
                        _part_vector(attach.get('xyz')), _part_vector(attach.get('rpy')),
                        slot.collision, carrier.name, slot.name, slot.axis, slot.limit)

    def first_entry(self, of: str, slot: str):
        found = self.by_carrier.get((of, slot))
        return found[0] if found else None

    def layout(self, type_name: str) -> tuple:
        """Return a part type's own slots and frames, worked out once per type."""
        if type_name not in self.layouts:
            part = self.result.catalogue[type_name]
            data = part.data
            frames = [_frame_layout(name, frame or {}, data)
                      for name, frame in (data.get('frames') or {}).items()]
            own = [_Slot(name, _part_vector(spec.get('xyz')), _part_vector(spec.get('rpy')),
                         list(spec.get('accepts') or []), spec.get('default') or 'none',
                         spec.get('joint') or 'fixed', _true_unless_false(spec.get('collision')),
                         ('part', part, name),
                         _part_vector(spec['axis']) if spec.get('axis') is not None else '',
                         _limit(spec))
                   for name, spec in (data.get('slots') or {}).items()]
            self.layouts[type_name] = (own, frames)
        return self.layouts[type_name]

    def adhoc_slot(self, index: int, slot: dict) -> _Slot:
        default = slot.get('default', 'none')
        accepts = slot.get('accepts') or []
        if default not in self.result.catalogue or default not in accepts:
            default = 'none'  # named above (unknown or not accepted)
        joint = slot.get('joint', 'fixed')
        axis = vectors.parse(slot['axis']) if slot.get('axis') is not None else None
        return _Slot(slot['name'], self.poses[('slots', index, 'xyz')],
                     self.poses[('slots', index, 'rpy')], list(accepts), default,
                     joint if joint in SLOT_JOINTS else 'fixed',
                     _true_unless_false(slot.get('collision')), ('config', ('slots', index)),
                     axis.text if axis is not None else '', _limit(slot))

    # -- what only the whole result shows

    def after(self) -> None:
        config = self.config
        found = unknown_key_problems(config)
        for index, entry in self.entries:
            if 'slot' in entry and entry.get('type') == 'none' and 'name' in entry:
                found.append(config.problem(('parts', index, 'name'), (
                    f"{entry_label('parts', index, entry)}: name: has no effect on an empty "
                    'slot (type none); remove it, or fit a part type'), rule='empty-slot-name'))
        if self.walked:
            found += self.reference_problems()
            found += name_problems(config, self.result.record, self.result.origins)
        self.result.problems.extend(found)

    def empty_slot_hint(self, of: str, item: dict) -> str:
        """
        Return how to fill the empty slot an entry's ``of:`` names, or ''.

        The occupant of a slot is named after it, so ``of: payload`` with the payload slot
        empty aims at what would fill it: name the types that bring the entry's slot.
        """
        record, catalogue = self.result.record, self.result.catalogue
        for slot in record.slots:
            if slot.name != of or record.occupant(slot.of, slot.name) is not None:
                continue
            carrier = record.part(slot.of)
            spec = (catalogue[carrier.type].data.get('slots') or {}).get(slot.name) \
                if carrier is not None and carrier.type in catalogue else None
            accepts = list((spec or {}).get('accepts') or [])
            wanted = [t for t in accepts if t in catalogue
                      and item.get('slot') in (catalogue[t].data.get('slots') or {})]
            if not (wanted or accepts):
                continue
            where = '' if slot.of == self.base_name else f', of: {slot.of}'
            return (f'; {of} is an empty slot of {slot.of}: fill it first, e.g. '
                    f'{{slot: {of}{where}, type: {(wanted or accepts)[0]}}}')
        return ''

    def maybe_link(self, link: str) -> bool:
        """Return whether a link might exist but for a skipped item (or its slot, frame)."""
        return any(link == name or link.startswith(f'{name}_') for name in self.unsure)

    def reference_problems(self) -> list[Problem]:
        """Entries and ad hoc slots whose of:, placements whose parent:, match nothing."""
        config, base = self.config, self.base_name
        record = self.result.record
        instances = {part.name for part in record.parts}
        listing = _listing(instances)
        links = instances | {s.link for s in record.slots} | {f.link for f in record.frames}
        found = []
        for section, index, item in self.sections():
            if section == 'parts' and 'slot' not in item:
                parent = item.get('parent', base)
                if parent not in links and not self.maybe_link(parent):
                    found.append(config.problem(('parts', index, 'parent'), (
                        f"{entry_label('parts', index, item)}: parent: {parent} matches no "
                        f'link; instances: {listing} (slot and frame links such as '
                        'base_link_mast or mast_top work too)'), rule='no-link'))
                continue
            of = item.get('of', base)
            if of not in instances and of not in self.unsure:
                found.append(config.problem((section, index, 'of'), (
                    f'{entry_label(section, index, item)}: of: {of} matches no fitted '
                    f'instance; instances: {listing}' + self.empty_slot_hint(of, item)),
                    rule='no-instance'))
        return found


# -- names used twice, and placements inside themselves ----------------------------------------

def name_problems(config: Config, record: AssemblyRecord,
                  origins: dict | None = None) -> list[Problem]:
    """
    Return the names used twice, and free placements hung inside their own subtree.

    Instances, slot links and frame links all become links. A repeat that only follows from
    another (the slots of an instance that is there twice) is not reported again. Each is
    located at the config entry naming the link, else where its instance is fitted
    (``origins``, Resolution.origins).
    """
    origins = origins or {}
    found = []
    owner = {p.name: p.name for p in record.parts}
    owner.update({s.link: s.of for s in record.slots})
    owner.update({f.link: f.of for f in record.frames})
    uses: dict = {}  # link name -> [(description, the instance it comes from)]
    for part in record.parts:
        uses.setdefault(part.name, []).append(
            (f"under {part.parent or 'no parent (the root)'}", owner.get(part.parent)))
    for slot in record.slots:
        uses.setdefault(slot.link, []).append((f'slot {slot.name} of {slot.of}', slot.of))
    for frame in record.frames:
        uses.setdefault(frame.link, []).append((f'frame {frame.name} of {frame.of}', frame.of))
    repeated = {name for name, found_uses in uses.items() if len(found_uses) > 1}
    named = _paths_naming(config)
    for link, link_uses in sorted(uses.items()):
        if link not in repeated or all(source in repeated for _, source in link_uses):
            continue
        instances = [what for what, _ in link_uses if what.startswith('under ')]
        if len(instances) == len(link_uses):
            message = (f"{len(link_uses)} instances are named {link} ({', '.join(instances)}); "
                       'instance names become link names and must be unique: give one a '
                       'name: of its own')
        else:
            described = [f'instance {u}' if u.startswith('under ') else u for u, _ in link_uses]
            message = (f'the link name {link} is used {len(link_uses)} times: '
                       + ', '.join(described) + '; link names must be unique: rename the '
                       'instance or the slot')
        if link in named:
            found.append(config.problem(named[link], message, rule='name-twice'))
        else:
            found.append(_located(config, _entry_origin(link_uses, owner.get(link), record,
                                                        origins), message, rule='name-twice'))
    cycles = _cycles({p.name: owner.get(p.parent) for p in record.parts})
    for part in record.parts:
        if part.is_placement and part.name in cycles:
            seen = cycles[part.name]
            found.append(config.problem(named.get(part.name), (
                f'{part.name} is placed on {part.parent}, which is inside {part.name} itself '
                f"({' < '.join(seen + [part.name])}): place it on a link outside its own "
                'subtree'), rule='inside-itself'))
    return found


def _cycles(up: dict) -> dict:
    """
    Return each instance that is its own ancestor: name -> the way up back to it.

    ``up``: instance -> the instance it hangs from. One walk over all of them (a chain of
    thousands of placements stays linear).
    """
    state: dict = {}  # name -> 'walking' or 'done'
    found = {}
    for start in up:
        path, name = [], start
        while name in up and name not in state:
            state[name] = 'walking'
            path.append(name)
            name = up[name]
        if name in up and state.get(name) == 'walking':  # the walk met itself: a cycle
            loop = path[path.index(name):]
            for index, member in enumerate(loop):
                found[member] = loop[index:] + loop[:index]
        for member in path:
            state[member] = 'done'
    return found


def _paths_naming(config: Config) -> dict:
    """Link name -> the config entry or ad hoc slot that gives it (the first), for lines."""
    named: dict = {}
    for index, entry in enumerate(config.entries):
        if isinstance(entry, dict):
            name = entry.get('name', entry.get('slot'))
            if isinstance(name, str):
                named.setdefault(name, ('parts', index))
    for index, slot in enumerate(config.adhoc_slots):
        if isinstance(slot, dict) and isinstance(slot.get('name'), str):
            named.setdefault(slot['name'], ('slots', index))
            named.setdefault(f"{slot.get('of', config.base_name)}_{slot['name']}",
                             ('slots', index))
    return named


# -- what a fitted part must hang on -----------------------------------------------------------

#: Joints a propeller can spin on: gz-sim's Thruster turns its joint (gazebosim/gz-sim tag
#: gz-sim8_8.14.0, src/systems/thruster/Thruster.cc, Thruster::Configure looks up
#: ``joint_name``; PreUpdate sets its velocity), and a fixed joint is lumped away by the
#: URDF-to-SDF conversion.
SPINNING_JOINTS = ('continuous', 'revolute')


def drive_problems(resolution: Resolution) -> list[Problem]:
    """
    Return the propellers that cannot spin as fitted.

    A part with a ``propeller`` section is a thruster wherever it is fitted (model/topics.py
    gives it a command topic, gazebo/composition.py a Thruster system). With a ``rotor``
    frame (the T200, the M200) only that frame turns, so the part itself must sit still: on a
    fixed joint, a base too. Without one the whole part turns, so it needs a slot with
    ``joint: continuous``. The ROS description alone does not care (a spare propeller may be
    carried), so the build asks this, not the resolution. Located where the config or the
    part file fits it.
    """
    found = []
    for instance in resolution.instances:
        part = resolution.catalogue.parts.get(instance.type)
        propeller = part.data.get('propeller') if part is not None else None
        if not isinstance(propeller, dict):
            continue
        rotor = propeller.get('rotor')
        where = (f'slot {instance.slot} of {instance.of}, whose joint is {instance.joint}'
                 if instance.slot else f'a free placement on {instance.parent} (fixed)')
        if rotor and instance.joint in SPINNING_JOINTS:
            message = (f'propeller {instance.name} ({instance.type}) hangs on a '
                       f'{instance.joint} joint ({where}), but only its rotor frame {rotor} '
                       'turns: on a joint that turns the whole thruster would spin freely; '
                       'fit it in a slot with joint: fixed (the default)')
        elif rotor:
            continue
        elif not instance.parent:
            message = (f'the base {instance.name} ({instance.type}) is a propeller that turns '
                       'as a whole: it needs a joint to spin, so fit it in a slot with joint: '
                       'continuous on another base, or give it a rotor frame')
        elif instance.joint not in SPINNING_JOINTS:
            message = (f'propeller {instance.name} ({instance.type}) turns as a whole (it has '
                       f'no rotor frame) but hangs on a {instance.joint} joint ({where}): its '
                       'Thruster needs a joint that turns; fit it in a slot with joint: '
                       'continuous (an ad hoc slot), or give the part a rotor frame')
        else:
            continue
        found.append(resolution.problem_at(instance.name, message, rule='drive-joint'))
    return found


def _entry_origin(link_uses, instance: str, record: AssemblyRecord, origins: dict):
    """
    Return the config entry behind a name no entry gives: the nearest one up a carrier chain.

    ``link_uses``' sources are the instances the name comes from; each is climbed through
    its carriers (``of``) until a config entry (not the base) fitted one. Else the first
    origin of ``instance``.
    """
    carriers: dict = {}
    for part in record.parts:
        carriers.setdefault(part.name, []).append(part.of)
    queue = [source for _, source in link_uses if source]
    seen = set(queue)
    while queue:
        name = queue.pop(0)
        for origin in origins.get(name, ()):
            if origin[0] == 'config' and origin[1][0] != 'base':
                return origin
        for carrier in carriers.get(name, ()):
            if carrier and carrier not in seen:
                seen.add(carrier)
                queue.append(carrier)
    return _origin(origins.get(instance))


def _origin(origins) -> tuple | None:
    """Return the first of an instance's origins in the config, else its first one."""
    if not origins:
        return None
    return next((origin for origin in origins if origin[0] == 'config'), origins[0])


def _located(config: Config, origin, message: str, stage: str = CHECK,
             rule: str = '') -> Problem:
    """Return a Problem at an origin: ('config', path), ('part', part, slot), or None."""
    if origin is not None and origin[0] == 'part':
        _, part, slot = origin  # the file as read (its lines), not the normalised path
        return Problem(message, part.file_text or str(part.file),
                       part.lines.get(('slots', slot, 'default')), stage=stage, rule=rule)
    return config.problem(origin[1] if origin is not None else None, message, stage, rule)


# -- small rules ---------------------------------------------------------------------------------

def _bare_key_message(label: str, key: bool) -> str:
    spelled = 'on: (or yes:)' if key else 'off: (or no:)'
    return (f'{label} has a bare {spelled} key, which YAML reads as {str(key).lower()}; '
            'the key naming the carrying instance is of:, e.g. "of: ping_mount"')


def _part_vector(value) -> str:
    """Return a vector of part data (a list of numbers, see part_format) as written."""
    return ' '.join(str(item) for item in value) if value is not None else '0 0 0'


def _frame_layout(name: str, frame: dict, data: dict) -> tuple:
    """Return a frame's Mount fields after kind and owner (a moving one's axis: the part's)."""
    joint = _or(frame.get('joint'), 'fixed')
    axis = _part_vector(_or(frame.get('axis'), _or(data.get('axis'), [1, 0, 0]))) \
        if joint != 'fixed' else ''
    return (name, _part_vector(frame.get('xyz')), _part_vector(frame.get('rpy')), joint, axis,
            frame.get('inertial'), _limit(frame))


def _limit(item: dict) -> tuple:
    """Return a slot's or frame's limits as URDF writes them (lower, upper, effort, velocity)."""
    limits = item.get('limits')
    if not isinstance(limits, dict) or item.get('joint') not in LIMITED_JOINTS:
        return ()
    return tuple(str(limits.get(key)) for key in LIMITS_KEYS)


def _or(value, default):
    return default if value is None else value


def _true_unless_false(value) -> bool:
    return value if isinstance(value, bool) else True


#: A listing in a message names at most this many, each cut to NAME_SHOWN characters: a big
#: config's many problems must not each list all of it (urdf/lib/helpers.xacro: bp_listing).
LISTED, NAME_SHOWN = 24, 60


def _listing(names) -> str:
    """Sorted, comma-separated, ``(none)`` when empty, bounded: the resolver's listing."""
    if not len(names):
        return '(none)'
    shown = [n if len(n) <= NAME_SHOWN else n[:NAME_SHOWN - 3] + '...'
             for n in sorted(str(n) for n in names)]
    more = len(shown) - LISTED
    return ', '.join(shown[:LISTED]) + (f' and {more} more' if more > 0 else '')
