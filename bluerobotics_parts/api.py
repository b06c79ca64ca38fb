"""Compose a vehicle in Python instead of YAML: from a test, a notebook or a fleet generator.

An ``Assembly`` holds config data, the same structure a YAML config has, and nothing else:
``to_dict`` / ``to_yaml`` give a config the loader accepts, and ``build`` resolves it through
the pipeline every entry point takes. Each change is made on a copy, checked, and kept only if
the check passes, so an Assembly never holds a config the strict loader rejects, nor a mistake
a call can already know about (an unknown type, a type a known slot does not accept, a slot
configured twice, a duplicate name). Those early checks walk the instances the part catalogue
predicts; the walk only decides whether to refuse a call. What gets built always comes from the
resolver.

Mutating methods return the Assembly, so calls chain::

    boat = (Assembly(name="boat2")
            .fit("motor_port", "t200_thruster_ccw")
            .empty("ping_mount")
            .place("blueboat_antenna_mast", "aft_mast", xyz=(-0.3, 0, 0.2)))
    urdf = boat.build()
"""

from __future__ import annotations

import copy
from pathlib import Path

import yaml

from . import catalogue as catalogue_module
from . import config as config_module
from .assembly import key_problems, name_problems
from .atomic import write_text_atomically
from .config import entry_label
from .errors import AssemblyError, ConfigError
from .manifest import FrameRecord, Manifest, PartRecord, SlotRecord
from .pipeline import resolve_config, Resolved
from .vehicle import Vehicle

__all__ = ['Assembly']


class Assembly:
    """A vehicle config built in code. ``Assembly()`` is the default BlueBoat.

    ``part_files`` are the user's part files; relative paths are taken from the current
    folder and stored absolute, so the config means the same wherever it is written.
    """

    def __init__(self, name: str | None = None, base_type: str | None = None,
                 base_name: str | None = None, part_files=()):
        data: dict = {}
        if name is not None:
            data['name'] = name
        base = {k: v for k, v in (('type', base_type), ('name', base_name)) if v is not None}
        if base:
            data['base'] = base
        if part_files:
            files = [part_files] if isinstance(part_files, (str, Path)) else list(part_files)
            data['part_files'] = [_absolute(p) for p in _plain(files)]
        self._catalogues: dict = {}
        self._data = self._checked(data)

    # -- other ways in

    @classmethod
    def from_dict(cls, data: dict | None) -> 'Assembly':
        """An Assembly holding a copy of ``data`` (a config as Python data); tuples and numpy
        numbers are turned into plain lists and numbers, relative part_files made absolute."""
        data = _plain(copy.deepcopy(data)) if data is not None else {}
        if isinstance(data, dict) and isinstance(data.get('part_files'), list):
            data['part_files'] = [_absolute(p) if isinstance(p, str) and p else p
                                  for p in data['part_files']]
        assembly = cls.__new__(cls)
        assembly._catalogues = {}
        assembly._data = assembly._checked(data)
        return assembly

    @classmethod
    def from_yaml(cls, path) -> 'Assembly':
        """An Assembly of a config file; messages carry ``file:line``. part_files are taken
        from the file's folder and stored absolute."""
        loaded = config_module.load(Path(path))
        assembly = cls.__new__(cls)
        assembly._catalogues = {}
        assembly._check(loaded)
        data = copy.deepcopy(loaded.data)
        if data.get('part_files'):
            data['part_files'] = [str(p) for p in loaded.part_files]
        assembly._data = data
        return assembly

    # -- changes (each returns self)

    def fit(self, slot: str, type: str, of: str | None = None,
            name: str | None = None) -> 'Assembly':
        """Put a part of ``type`` (or ``none``) in ``slot`` of ``of`` (default: the base);
        the occupant is named ``name``, else after the slot."""
        entry = {'slot': slot}
        if of is not None:
            entry['of'] = of
        entry['type'] = type
        if name is not None:
            entry['name'] = name
        return self._append('parts', entry)

    def empty(self, slot: str, of: str | None = None) -> 'Assembly':
        """Leave ``slot`` of ``of`` (default: the base) empty; its slot frame stays."""
        return self.fit(slot, 'none', of=of)

    def place(self, type: str, name: str, parent: str | None = None, xyz=None,
              rpy=None) -> 'Assembly':
        """Fix a part of ``type`` named ``name`` to ``parent`` (a link; default: the base) at
        ``xyz`` (m) / ``rpy`` (rad); its slots fill with their defaults too."""
        entry = {'type': type, 'name': name}
        for key, value in (('parent', parent), ('xyz', xyz), ('rpy', rpy)):
            if value is not None:
                entry[key] = _plain(value)
        return self._append('parts', entry)

    def add_slot(self, of: str, name: str, xyz=None, rpy=None, accepts=(),
                 default: str | None = None, collision: bool = True,
                 joint: str = 'fixed') -> 'Assembly':
        """Declare an ad hoc slot ``name`` on instance ``of``: it behaves like a part's own
        slot (``default`` fills it unless an entry says otherwise). Only values that differ
        from the resolver's defaults are written."""
        slot = {'of': of, 'name': name}
        for key, value in (('xyz', xyz), ('rpy', rpy)):
            if value is not None:
                slot[key] = _plain(value)
        slot['accepts'] = _plain(list(accepts)) if isinstance(accepts, (list, tuple)) \
            else accepts  # anything else: the loader names it
        if default is not None:
            slot['default'] = default
        if collision is not True:
            slot['collision'] = collision
        if joint != 'fixed':
            slot['joint'] = joint
        return self._append('slots', slot)

    def remove(self, name: str, of: str | None = None) -> 'Assembly':
        """Undo a fit or a placement.

        ``remove(name)`` drops the entry that created instance ``name``; when no entry did, the
        ``empty()`` entry of the slot ``name``. ``remove(slot, of=carrier)`` drops whatever
        entry configures that slot of that carrier. Entries aimed at a removed instance stay
        (it may come back); ``build()`` names them if it does not.
        """
        entries = self._data.get('parts') or []
        if of is None:
            found = [i for i, e in enumerate(entries) if _instance_name(e) == name]
            if not found:
                found = [i for i, e in enumerate(entries)
                         if 'slot' in e and e.get('type') == 'none' and e['slot'] == name]
            what = f'no fit or placement named {name!r}'
        else:
            found = [i for i, e in enumerate(entries)
                     if 'slot' in e and e['slot'] == name and self._of(e) == of]
            what = f'no entry for slot {name!r} of {of}'
        if len(found) != 1:
            if found:  # only empty() entries of equally named slots of several carriers
                raise ConfigError(f'{len(found)} entries empty a slot named {name}: '
                                  + ', '.join(f"{entry_label('parts', i, entries[i])} of "
                                              f'{self._of(entries[i])}' for i in found)
                                  + '; say which with remove(slot, of=carrier)')
            names = [_instance_name(e) or f"{e['slot']} (emptied)" for e in entries]
            raise ConfigError(f"{what}; entries: {', '.join(names) or '(none)'}")
        return self._replace('parts', [e for i, e in enumerate(entries) if i != found[0]])

    def remove_slot(self, of: str, name: str) -> 'Assembly':
        """Undo ``add_slot(of, name)``."""
        slots = self._data.get('slots') or []
        kept = [s for s in slots if not (s.get('name') == name and self._of(s) == of)]
        if len(kept) == len(slots):
            known = ', '.join(f"{self._of(s)}/{s['name']}" for s in slots) or '(none)'
            raise ConfigError(f'no ad hoc slot {name!r} on {of}; ad hoc slots: {known}')
        return self._replace('slots', kept)

    # -- out

    def to_dict(self) -> dict:
        """The config as plain Python data (a copy): what ``to_yaml`` writes."""
        return copy.deepcopy(self._data)

    def to_yaml(self, path) -> Path:
        """Write the config to ``path`` (all or nothing: a failed write leaves what was
        there) and return the path."""
        text = '# Written by bluerobotics_parts.api.Assembly.to_yaml\n' + yaml.safe_dump(
            self._data, sort_keys=False, default_flow_style=None)
        path = Path(path)
        write_text_atomically(path, text)  # OutputError naming the path if it cannot
        return path

    def to_config(self) -> config_module.Config:
        """The loader's Config of this assembly, for the functions that take one (e.g.
        ``build.build`` for the Gazebo artefacts)."""
        return config_module.from_dict(self.to_dict())

    def resolve(self) -> Resolved:
        """Resolve and check: the URDF and the manifest recorded in it."""
        return resolve_config(self.to_config())

    def build(self) -> str:
        """The URDF text (ROS description with the manifest), resolved and checked in memory."""
        return self.resolve().urdf

    def build_vehicle(self) -> Vehicle:
        """The vehicle model (links, joints, parts, slots, actuators, sensors) of ``build()``."""
        return Vehicle.from_urdf(self.build())

    def __eq__(self, other) -> bool:
        if not isinstance(other, Assembly):
            return NotImplemented
        return self._data == other._data

    __hash__ = None  # it changes

    def __repr__(self) -> str:
        config = config_module.Config(self._data)
        fits = sum(1 for e in config.entries if 'slot' in e)
        counts = [(fits, 'fit'), (len(config.entries) - fits, 'placement'),
                  (len(config.adhoc_slots), 'ad hoc slot'), (len(config.part_files), 'part file')]
        return (f'<Assembly {config.name}: {config.base_name} ({config.base_type}), '
                + ', '.join(f"{n} {what}{'s' * (n != 1)}" for n, what in counts
                            if n or what != 'part file') + '>')

    # -- applying a change, and the early checks

    def _append(self, section: str, item: dict) -> 'Assembly':
        return self._replace(section, list(self._data.get(section) or []) + [item])

    def _replace(self, section: str, items: list) -> 'Assembly':
        data = dict(self._data)
        if items:
            data[section] = items
        else:
            data.pop(section, None)
        self._data = self._checked(data)  # raises before anything changes
        return self

    def _of(self, item: dict) -> str:
        return item.get('of') or config_module.Config(self._data).base_name

    def _checked(self, data) -> dict:
        """``data`` if it is a config with no mistake known before resolution; else raise."""
        config = config_module.from_dict(data)  # shapes and value types: ConfigError
        self._check(config)
        return config.data

    def _check(self, config: config_module.Config) -> None:
        """The early checks; messages carry ``file:line`` for a config read from a file."""
        found = key_problems(config)
        if found:
            raise AssemblyError(found)
        files = tuple(str(p) for p in config.part_files)
        if files not in self._catalogues:  # a bad part file: ConfigError with file:line
            self._catalogues = {files: catalogue_module.catalogue(config.part_files)}
        catalogue = self._catalogues[files]
        _check_types(config, catalogue)
        _check_configured_once(config)
        predicted = _predict(config, catalogue)
        found = name_problems(config, predicted)  # the check's own wording, with lines
        if found:
            raise AssemblyError(found)


# -- the resolver's messages, mirrored (urdf/lib/validate.xacro, urdf/lib/assemble.xacro) ------

def _error(config, path: tuple, message: str) -> ConfigError:
    """Located like the config path locates the resolver's messages: at the entry named."""
    if config.file.startswith('<'):
        return ConfigError(message)
    return ConfigError(message, file=config.file, line=config.line(path))


def _check_types(config, catalogue) -> None:
    """Every part type named anywhere exists; the first one that does not, in the resolver's
    order and wording."""
    named = [(('base', 'type'), config.base_type, False)]  # (path, type, may be none)
    named += [(('parts', i), e.get('type'), 'slot' in e) for i, e in enumerate(config.entries)
              if e.get('type') != 'none' or 'slot' not in e]
    named += [(('slots', i, 'accepts'), t, False) for i, s in enumerate(config.adhoc_slots)
              for t in s.get('accepts') or []]
    named += [(('slots', i, 'default'), s['default'], True)
              for i, s in enumerate(config.adhoc_slots) if s.get('default') not in (None, 'none')]
    for path, part_type, none_ok in named:
        if part_type not in catalogue:
            section, where = path[0], 'base'
            if section != 'base':
                where = entry_label(section, path[1], config.data[section][path[1]])
                where += f' {path[2]}' if len(path) > 2 else ''
            raise _error(config, path[:2], f'unknown part type {part_type!r} in {where}; known '
                         f'types: {_sorted_listing(catalogue.types())}'
                         + (', or none for an empty slot' if none_ok else ''))


def _check_configured_once(config) -> None:
    """At most one entry per slot of a carrier (``of:`` omitted means the base)."""
    by_slot: dict = {}
    for index, entry in enumerate(config.entries):
        if 'slot' in entry:
            key = (entry.get('of') or config.base_name, entry['slot'])
            by_slot.setdefault(key, []).append(index)
    for (of, slot), indices in by_slot.items():
        if len(indices) > 1:
            raise _error(config, ('parts', indices[0]), f'slot {slot} of {of} is configured '
                         'twice: ' + ' and '.join(entry_label('parts', i, config.entries[i])
                                                  for i in indices)
                         + '; keep one entry per slot')


_WALK_LIMIT = 100_000


def _predict(config, catalogue) -> Manifest:
    """The manifest the resolver will record, walked from the catalogue in its document order
    (each instance, then its slots' occupants depth first; the base, then the placements).
    Raises on an ad hoc slot clashing with another slot of its carrier and on an occupant its
    slot does not accept. A name met twice is expanded again, as the resolver does, except
    inside its own subtree (a cycle the resolver would recurse into forever); the walk stops
    at ``_WALK_LIMIT`` records, which only repeated names can reach."""
    base = config.base_name
    entries = {(e.get('of') or base, e['slot']): (i, e)
               for i, e in enumerate(config.entries) if 'slot' in e}  # one per slot: checked
    adhoc: dict = {}
    for index, slot in enumerate(config.adhoc_slots):
        adhoc.setdefault(slot.get('of') or base, []).append((slot['name'], slot, index))
    parts, slots, frames, layout = [], [], [], {}
    # (type, instance, parent link, carrier, slot, ancestors); placements after the base's tree
    pending = [(e['type'], e['name'], e.get('parent') or base, '', '', frozenset())
               for e in reversed(config.entries) if 'slot' not in e]
    pending.append((config.base_type, base, '', '', '', frozenset()))
    while pending and len(parts) < _WALK_LIMIT:
        part_type, instance, parent, of, slot_name, ancestors = pending.pop()
        parts.append(PartRecord(part_type, instance, parent, of, slot_name))
        if instance in ancestors or part_type not in catalogue:
            continue
        if part_type not in layout:  # frame names and own slots, once per type
            part = catalogue[part_type]
            layout[part_type] = (list(part.frames),
                                 {n: (s.accepts, s.default) for n, s in part.slots.items()})
        frame_names, own = layout[part_type]
        frames += [FrameRecord(instance, f, f'{instance}_{f}') for f in frame_names]
        declared = adhoc.get(instance, [])
        declared_names = [n for n, _, _ in declared]
        for slot, _, index in declared:
            if slot in own or declared_names.count(slot) > 1:
                which = (f'its part type {part_type} already has' if slot in own
                         else 'another ad hoc slot also declares')
                raise _error(config, ('slots', index), f'slots entry #{index + 1} declares '
                             f'slot {slot} on {instance}, which {which}; choose another slot '
                             f'name (slots of {instance}: '
                             f'{_sorted_listing(set(own) | set(declared_names))})')
        specs = list(own.items()) + [(n, (s.get('accepts') or [], s.get('default') or 'none'))
                                     for n, s, _ in declared]
        children = []
        for slot, (accepts, default) in specs:
            link = f'{instance}_{slot}'
            slots.append(SlotRecord(instance, slot, link))
            index, entry = entries.get((instance, slot), (None, None))
            occupant = default if entry is None else entry['type']
            if entry is not None and occupant != 'none' and occupant not in accepts:
                raise _error(config, ('parts', index), f"{entry_label('parts', index, entry)}: "
                             f'slot {slot} of {instance} ({part_type}) does not accept '
                             f'{occupant}; it accepts: {_sorted_listing(accepts)}, or none to '
                             'leave it empty')
            if occupant != 'none':
                name = slot if entry is None else entry.get('name') or slot
                children.append((occupant, name, link, instance, slot, ancestors | {instance}))
        pending += reversed(children)
    return Manifest(config.name, tuple(parts), tuple(slots), tuple(frames), ())


# -- small helpers -----------------------------------------------------------------------------

def _sorted_listing(names) -> str:
    """The resolver's listing: sorted, comma-separated, ``(none)`` when empty."""
    return ', '.join(sorted(str(n) for n in names)) if len(names) else '(none)'


def _instance_name(entry: dict) -> str | None:
    """The instance an entry creates: a placement's name, a fit's name or slot; None for an
    empty slot."""
    if 'slot' not in entry:
        return entry.get('name')
    return None if entry.get('type') == 'none' else entry.get('name') or entry['slot']


def _absolute(path) -> str:
    return str(Path(path).expanduser().resolve()) if isinstance(path, (str, Path)) else path


def _plain(value):
    """Plain YAML-safe data: tuples and arrays become lists, numpy numbers Python numbers."""
    if hasattr(value, 'tolist') and not isinstance(value, (str, bytes)):
        value = value.tolist()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    return value
