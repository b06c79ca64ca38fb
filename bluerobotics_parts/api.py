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
Compose a vehicle in Python instead of YAML: from a test, a notebook or a fleet generator.

An ``Assembly`` holds config data and nothing else: ``to_dict`` / ``to_yaml`` give a config the
loader accepts, and ``build`` resolves it through the pipeline every entry point takes. Each
change is resolved on a copy and kept only if it has no mistake a call can know about, with the
message the config file would get; only references to instances a later call may add wait for
``build``.
"""

from __future__ import annotations

import copy
from pathlib import Path

import yaml

from .assembly.catalogue import read_user_part
from .assembly.pipeline import resolve_config, Resolved
from .assembly.resolution import REFERENCE_RULES, Resolution, resolve
from .errors import AssemblyError, ConfigError
from .files.atomic import check_not_inputs, write_text_atomically
from .formats import config as config_module
from .formats.config import entry_label

__all__ = ['Assembly']


class Assembly:
    """
    A vehicle config built in code. ``Assembly()`` is the default BlueBoat.

    ``part_files`` are the user's part files; relative paths are taken from the current
    folder and stored absolute, so the config means the same wherever it is written.

    Mutating methods return the Assembly, so calls chain::

        boat = (Assembly(name='boat2')
                .fit('motor_port', 't200_thruster_ccw')
                .empty('ping_mount')
                .place('blueboat_antenna_mast', 'aft_mast', xyz=(-0.3, 0, 0.2)))
        urdf = boat.build()
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
            files = [part_files] if isinstance(part_files, (str, Path)) else part_files
            if not isinstance(files, (list, tuple)):
                raise ConfigError('part_files must be a path or a list of paths, not '
                                  f'{type(part_files).__name__}')
            data['part_files'] = [_absolute(p) for p in _plain(list(files))]
        self._parts: dict = {}  # part file -> (size, mtime, UserPart): read once
        self._data = self._checked(data)

    # -- other ways in

    @classmethod
    def from_dict(cls, data: dict | None) -> 'Assembly':
        """
        Return an Assembly holding a copy of ``data`` (a config as Python data).

        Tuples and numpy numbers become plain lists and numbers; relative part_files are
        made absolute.
        """
        data = _plain(copy.deepcopy(data)) if data is not None else {}
        if isinstance(data, dict) and isinstance(data.get('part_files'), list):
            data['part_files'] = [_absolute(p) if isinstance(p, str) and p else p
                                  for p in data['part_files']]
        assembly = cls.__new__(cls)
        assembly._parts = {}
        assembly._data = assembly._checked(data)
        return assembly

    @classmethod
    def from_yaml(cls, path) -> 'Assembly':
        """
        Return an Assembly of a config file; messages carry ``file:line``.

        part_files are taken from the file's folder and stored absolute.
        """
        loaded = config_module.read(Path(path))
        assembly = cls.__new__(cls)
        assembly._parts = {}
        assembly._check(loaded)
        data = copy.deepcopy(loaded.data)
        if data.get('part_files'):
            data['part_files'] = [str(p) for p in loaded.part_files]
        assembly._data = data
        return assembly

    # -- changes (each returns self)

    def fit(self, slot: str, type: str, of: str | None = None,  # noqa: A002 (the config key)
            name: str | None = None) -> 'Assembly':
        """
        Put a part of ``type`` (or ``'none'``) in ``slot`` of ``of`` (default: the base).

        The occupant is named ``name``, else after the slot.
        """
        if type is None:
            raise ConfigError(f'fit({slot!r}, None): the type is a part type, or the word '
                              f"'none' to leave the slot empty (as empty({slot!r}) does)")
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

    def place(self, type: str, name: str, parent: str | None = None,  # noqa: A002
              xyz=None, rpy=None) -> 'Assembly':
        """
        Fix a part of ``type`` named ``name`` to ``parent`` (a link; default: the base).

        It sits at ``xyz`` (m) / ``rpy`` (rad); its slots fill with their defaults too.
        """
        entry = {'type': type, 'name': name}
        for key, value in (('parent', parent), ('xyz', xyz), ('rpy', rpy)):
            if value is not None:
                entry[key] = _plain(value)
        return self._append('parts', entry)

    def add_slot(self, of: str | None = None, name: str | None = None, xyz=None, rpy=None,
                 accepts=(), default: str | None = None, collision: bool = True,
                 joint: str = 'fixed', axis=None, limits=None) -> 'Assembly':
        """
        Declare an ad hoc slot ``name`` on instance ``of`` (default: the base, as in YAML).

        It behaves like a part's own slot (``default`` fills it unless an entry says
        otherwise; ``joint`` revolute or prismatic with ``axis`` and ``limits``, a mapping of
        lower, upper, effort, velocity). Only values that differ from the resolver's defaults
        are written.
        """
        if name is None:
            raise ConfigError("add_slot needs name= (the new slot's name); of= names the "
                              'carrying instance (default: the base)')
        slot = {} if of is None else {'of': of}
        slot['name'] = name
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
        if axis is not None:
            slot['axis'] = _plain(axis)
        if limits is not None:
            slot['limits'] = _plain(limits)
        return self._append('slots', slot)

    def remove(self, name: str, of: str | None = None) -> 'Assembly':
        """
        Undo a fit or a placement.

        ``remove(name)`` drops the entry that created instance ``name``; when no entry did, the
        ``empty()`` entry of the slot ``name``. ``remove(slot, of=carrier)`` drops whatever
        entry configures that slot of that carrier. Entries aimed at a removed instance stay
        (it may come back); ``build()`` names them if it does not. A default occupant is not
        an entry: the message says which ``empty()`` call leaves its slot empty.
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
            if of is None:
                self._refuse_default_occupant(name)
            names = [_instance_name(e) or f"{e['slot']} (emptied)" for e in entries]
            raise ConfigError(f"{what}; entries: {', '.join(names) or '(none)'}")
        return self._replace('parts', [e for i, e in enumerate(entries) if i != found[0]])

    def remove_slot(self, of: str | None = None, name: str | None = None) -> 'Assembly':
        """Undo ``add_slot(of, name)`` (``of`` defaults to the base, as there)."""
        of = of or self._base_name()
        slots = self._data.get('slots') or []
        kept = [s for s in slots if not (s.get('name') == name and self._of(s) == of)]
        if len(kept) == len(slots):
            known = ', '.join(f"{self._of(s)}/{s['name']}" for s in slots) or '(none)'
            raise ConfigError(f'no ad hoc slot {name!r} on {of}; ad hoc slots: {known}')
        return self._replace('slots', kept)

    # -- out

    def to_dict(self) -> dict:
        """Return the config as plain Python data (a copy): what ``to_yaml`` writes."""
        return copy.deepcopy(self._data)

    def to_yaml(self, path) -> Path:
        """
        Write the config to ``path`` and return the path.

        All or nothing: a failed write leaves what was there.
        """
        text = '# Written by bluerobotics_parts.api.Assembly.to_yaml\n' + yaml.safe_dump(
            self._data, sort_keys=False, default_flow_style=None)
        path = Path(path)
        # the part files it lists (absolute here; relative ones from the written file's folder)
        check_not_inputs([path], {path.parent / str(f): f'the part file {f} it lists'
                                  for f in self._data.get('part_files') or ()})
        write_text_atomically(path, text)  # OutputError naming the path if it cannot
        return path

    def to_config(self) -> config_module.Config:
        """Return the loader's Config of this assembly, for the functions that take one."""
        return config_module.from_data(self.to_dict()).checked()

    def resolve(self) -> Resolved:
        """Resolve and check: the URDF (tree and text) and the record written in it."""
        return resolve_config(self.to_config())

    def build(self) -> str:
        """Return the URDF text (ROS description with the record), resolved and checked."""
        return self.resolve().urdf

    def build_vehicle(self):
        """Return the vehicle model (links, joints, parts, slots, actuators, sensors)."""
        from .model.vehicle import Vehicle

        resolved = self.resolve()
        return Vehicle.from_tree(resolved.tree, resolved.record, resolved.catalogue())

    def build_gazebo(self, gz_release: str = 'harmonic', name: str | None = None):
        """
        Return the whole build (build.Build), Gazebo composition included.

        The URDF with the Gazebo systems (``.urdf``), the bridge YAML (``.bridge_yaml``), the
        vehicle model, the record.
        """
        from .build import build_gazebo

        return build_gazebo(self.to_config(), name=name, gz_release=gz_release)

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

    # -- applying a change, and the checks

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

    def _base_name(self) -> str:
        return config_module.Config(self._data).base_name

    def _of(self, item: dict) -> str:
        return item.get('of') or self._base_name()

    def _checked(self, data) -> dict:
        """Return ``data`` if it is a config with no mistake a call can know; else raise."""
        config = config_module.from_data(data)
        self._check(config)
        return config.data

    def _check(self, config: config_module.Config) -> Resolution:
        """
        Resolve; raise AssemblyError with every problem a call can know about.

        References to instances or links that a later call may add are left for ``build``.
        Messages carry ``file:line`` for a file's config.
        """
        resolution = resolve(config, part_reader=self._read_part)
        found = [p for p in resolution.sorted_problems() if p.rule not in REFERENCE_RULES]
        if found:
            raise AssemblyError(found)
        return resolution

    def _read_part(self, file_text: str):
        """Return a user part file as read, read again only when it changed on disk."""
        try:
            info = Path(file_text).stat()
            stamp = (info.st_size, info.st_mtime_ns)
        except (OSError, ValueError):
            return read_user_part(file_text)
        cached = self._parts.get(file_text)
        if cached is None or cached[0] != stamp:
            cached = self._parts[file_text] = (stamp, read_user_part(file_text))
        return cached[1]

    def _refuse_default_occupant(self, name: str) -> None:
        """``remove(name)`` of an instance no entry made: say how to empty its slot."""
        resolution = resolve(config_module.from_data(self._data),
                             part_reader=self._read_part)
        occupant = next((i for i in resolution.instances if i.name == name and i.slot), None)
        if occupant is None:
            return
        base = self._base_name()
        call = f'empty({occupant.slot!r})' if occupant.of == base else \
            f'empty({occupant.slot!r}, of={occupant.of!r})'
        carrier = next((i for i in resolution.instances if i.name == occupant.of and i.slot),
                       None)
        also = ''
        if carrier is not None and carrier.of == base:
            also = (f' (or empty({carrier.slot!r}) to remove {carrier.name} with what it '
                    'holds)')
        raise ConfigError(f'{name} is not an entry of this assembly but the default occupant '
                          f'of slot {occupant.slot} of {occupant.of}: {call} leaves that slot '
                          f'empty{also}')


# -- small helpers -----------------------------------------------------------------------------

def _instance_name(entry: dict) -> str | None:
    """Return the instance an entry creates (None for an empty slot)."""
    if 'slot' not in entry:
        return entry.get('name')
    return None if entry.get('type') == 'none' else entry.get('name') or entry['slot']


def _absolute(path) -> str:
    """Return a part file's absolute path; anything the loader refuses (a NUL byte) as given."""
    if not isinstance(path, (str, Path)) or '\0' in str(path):
        return path
    return str(Path(path).expanduser().resolve())


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
