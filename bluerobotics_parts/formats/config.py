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
The strict config loader: the file's shape and value types, with every mistake at once.

It reads the YAML with line numbers (yaml_lines.py refuses duplicate keys, tags and surprising
numbers) and checks what each value must be (mappings, strings, valid link names, booleans,
existing part files...). The assembly rules (required keys, vectors, types a slot accepts...)
are assembly/resolution.py's alone. Each problem is a Problem with ``file:line``; an item with
a shape problem is marked broken, so the resolution skips what only follows from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import math
import os
from pathlib import Path
import re
import stat

from . import value_kinds as kinds
from . import vectors, water
from .joint_motion import given_limits, JOINTS, LIMITS_FIELDS, LIMITS_KEYS, limits_problems
from ..errors import AssemblyError, ConfigError, Problem, shown as _show
from ..files.inputs import file_kind
from ..files.yaml_lines import load_file, LocatedDocument

DEFAULT_VEHICLE_NAME = 'blueboat'
DEFAULT_BASE_TYPE = 'blueboat_chassis'
DEFAULT_BASE_NAME = 'base_link'

# The keys each level of a config may have, in the order the docs list them.
TOP_KEYS = ('name', 'base', 'parts', 'slots', 'part_files', 'water')
BASE_KEYS = ('type', 'name')
SLOT_ENTRY_KEYS = ('slot', 'of', 'type', 'name')
PLACEMENT_KEYS = ('type', 'name', 'parent', 'xyz', 'rpy')
ADHOC_SLOT_KEYS = ('of', 'name', 'xyz', 'rpy', 'accepts', 'default', 'collision', 'joint', 'axis',
                   'limits')
SLOT_JOINTS = JOINTS  # as a part's slots (joint_motion.py)
# The keys each needs (resolution.py says so, naming what is missing).
SLOT_ENTRY_REQUIRED = ('slot', 'type')
PLACEMENT_REQUIRED = ('type', 'name')
ADHOC_SLOT_REQUIRED = ('name',)

# ROS names: a vehicle name becomes a namespace and a TF prefix, an instance a link name.
NAME_PATTERN = re.compile(r'^[A-Za-z][A-Za-z0-9_]*$')
#: Longer names are refused: a link name becomes file and topic names downstream.
NAME_LIMIT = 200
#: Words xacro reads as a boolean (as written) or a number (in any case): not names.
BOOLEAN_WORDS = ('true', 'True', 'false', 'False')
NUMBER_WORDS = ('inf', 'infinity', 'nan')


@dataclass
class Config:
    """
    A loaded config: the plain data, where it came from, the line of every item.

    ``problems`` lists what is wrong with its shape (empty for a usable file).
    """

    data: dict
    file: str = '<config>'
    lines: dict = field(default_factory=dict)
    problems: list = field(default_factory=list)  # shape and value-type problems
    broken: set = field(default_factory=set)  # paths of items with such a problem

    @property
    def from_file(self) -> bool:
        """Whether the config was read from a file (so messages can name ``file:line``)."""
        return not self.file.startswith('<')

    @property
    def folder_text(self) -> str:
        """
        Return the folder part_files are relative to, as text.

        The folder the config was named in (a symbolic link is not followed, as xacro does
        not), else the working folder.
        """
        if self.from_file:
            return str(Path(self.file).absolute()).rsplit('/', 1)[0] or '/'
        return str(Path.cwd())

    @property
    def folder(self) -> Path:
        return Path(self.folder_text)

    @property
    def name(self) -> str:
        name = self.data.get('name') if isinstance(self.data, dict) else None
        return name if isinstance(name, str) and name else DEFAULT_VEHICLE_NAME

    @property
    def base(self) -> dict:
        base = self.data.get('base') if isinstance(self.data, dict) else None
        return base if isinstance(base, dict) else {}

    @property
    def base_type(self) -> str:
        value = self.base.get('type')
        return value if isinstance(value, str) and value else DEFAULT_BASE_TYPE

    @property
    def base_name(self) -> str:
        value = self.base.get('name')
        return value if isinstance(value, str) and value else DEFAULT_BASE_NAME

    @property
    def water(self) -> float:
        """Return the density of the water it dives in, kg/m^3 (formats/water.py; sea water)."""
        value = self.data.get('water') if isinstance(self.data, dict) else None
        return water.density(None if water.problem(value) else value)

    @property
    def entries(self) -> list:
        return self._section('parts')

    @property
    def adhoc_slots(self) -> list:
        return self._section('slots')

    def _section(self, key: str) -> list:
        value = self.data.get(key) if isinstance(self.data, dict) else None
        return list(value) if isinstance(value, list) else []

    def part_file_text(self, item: str) -> str:
        """
        Return a part file as the resolver names it.

        An absolute path as written in the config, or the config's folder + '/' + the
        relative path (not normalised, so the URDF records what the config says).
        """
        return item if item.startswith('/') else f'{self.folder_text}/{item}'

    def part_file_texts(self) -> list[str]:
        """Return the user's part files (strings), as the resolver names them."""
        value = self.data.get('part_files') if isinstance(self.data, dict) else None
        return [self.part_file_text(item) for item in (value if isinstance(value, list) else [])
                if isinstance(item, str) and item]

    @property
    def part_files(self) -> list[Path]:
        """Return the user's part files, absolute and normalised (to read and copy them)."""
        return [Path(os.path.normpath(text)) for text in self.part_file_texts()]

    def checked(self) -> 'Config':
        """Return this config; raise AssemblyError listing its shape problems, if any."""
        if self.problems:
            raise AssemblyError(self.problems)
        return self

    def line(self, path) -> int | None:
        return LocatedDocument(self.data, self.file, self.lines).line(path)

    def problem(self, path, message: str, stage: str = 'check', rule: str = '') -> Problem:
        """Return a Problem located at ``path`` (a config built in Python has no file)."""
        if not self.from_file:
            return Problem(message, stage=stage, rule=rule, path=path)
        return Problem(message, self.file, self.line(path) if path is not None else None,
                       stage=stage, rule=rule, path=path)


def entry_label(section: str, index: int, entry) -> str:
    """How messages name an entry: ``parts entry #3 (slot mast)`` (the resolver's wording)."""
    label = f'{section} entry #{index + 1}'
    if isinstance(entry, dict):
        if 'slot' in entry:
            if isinstance(entry['slot'], str) and entry['slot']:
                label += f" (slot {entry['slot']})"
        elif isinstance(entry.get('name'), str) and entry['name']:
            label += f" ({entry['name']})"
    return label


def read(path: str | Path) -> Config:
    """
    Read a config file and check its shape; its problems are in ``Config.problems``.

    An empty file is the default vehicle. Unreadable or unparsable files raise ConfigError.
    """
    return _checked(load_file(path, 'config'))


def from_data(data, file: str = '<dict>') -> Config:
    """Return a Config of Python data (no lines to report), its shape problems listed."""
    return _checked(LocatedDocument(data, file, {}))


def as_config(value) -> Config:
    """
    Return a Config, its shape problems listed, not raised.

    ``value``: a Config, a path to a config file, plain data (a dict), or None (the shipped
    BlueBoat).
    """
    if value is None:
        from .. import paths

        return read(paths.default_config())
    if isinstance(value, Config):
        return value
    if isinstance(value, dict):
        return from_data(value)
    if isinstance(value, (str, Path)):
        return read(Path(value))
    raise ConfigError(f'a config is a file path, a mapping or None, not {_kind(value)}')


def check_vehicle_name(name) -> str:
    """Return ``name`` if it can name a vehicle (namespace, TF prefix, model); else raise."""
    problem = name_problem(name)
    if problem:
        raise ConfigError(f'vehicle name {_show(name)} cannot be a ROS namespace: {problem}')
    return name


def _checked(doc: LocatedDocument) -> Config:
    data = {} if doc.data is None else doc.data
    config = Config(data, doc.file, doc.lines)
    _Shape(config).check()
    return config


# -- shape and value types -------------------------------------------------------------------

class _Shape:
    """The shape checks, collecting every problem into the config."""

    def __init__(self, config: Config):
        self.config = config

    def problem(self, path, message: str, broken=None) -> None:
        self.config.problems.append(self.config.problem(path, message, stage='load'))
        if broken is not None:
            self.config.broken.add(broken)

    def check(self) -> None:
        data = self.config.data
        if not isinstance(data, dict):
            self.problem((), 'the config must be a mapping with the keys '
                         + ', '.join(TOP_KEYS) + f' (all optional), not {_kind(data)}', ())
            return
        for key in data:
            if isinstance(key, bool):
                spelled = 'on: or yes:' if key else 'off: or no:'
                self.problem((key,), 'the top level has a key that YAML reads as '
                             f"{str(key).lower()} ({spelled}); valid keys: {', '.join(TOP_KEYS)}")
        if 'name' in data and self.string(('name',), data['name'], 'name', ('name',)):
            problem = name_problem(data['name'])
            if problem:
                self.problem(('name',), f"name {_show(data['name'])} cannot be a ROS namespace: "
                             f'{problem}', ('name',))
        if 'base' in data:
            self.base(data['base'])
        for index, entry in enumerate(self.sequence(('parts',), data.get('parts'), 'parts')):
            self.entry(index, entry)
        for index, slot in enumerate(self.sequence(('slots',), data.get('slots'), 'slots')):
            self.adhoc_slot(index, slot)
        files = self.sequence(('part_files',), data.get('part_files'), 'part_files')
        for index, item in enumerate(files):
            self.part_file(index, item)
        if 'water' in data and water.problem(data['water']):
            self.problem(('water',), f"water {water.problem(data['water'])}", ('water',))

    def base(self, base) -> None:
        if isinstance(base, str) and NAME_PATTERN.match(base):  # the type alone: say how
            self.problem(('base',), f'base must be a mapping of keys, not a string '
                         f'({_show(base)}); write base: {{type: {base}}}', ('base',))
            return
        if not self.mapping(('base',), base, 'base', ('base',)):
            return
        for key in BASE_KEYS:
            if key in base:
                self.string(('base', key), base[key], f'base: {key}', ('base',))
        if isinstance(base.get('name'), str) and base['name']:
            self.instance_name(('base', 'name'), base['name'], 'base: name', ('base',))

    def entry(self, index: int, entry) -> None:
        path = ('parts', index)
        label = entry_label('parts', index, entry)
        if not self.mapping(path, entry, label, path):
            return
        for key in ('slot', 'of', 'type', 'name', 'parent'):
            if key in entry:
                self.string(path + (key,), entry[key], f'{label}: {key}', path)
        self.bounded(path, entry, label, ('xyz', 'rpy'))
        if isinstance(entry.get('name'), str) and entry['name']:
            self.instance_name(path + ('name',), entry['name'], f'{label}: name', path)

    def adhoc_slot(self, index: int, slot) -> None:
        path = ('slots', index)
        label = entry_label('slots', index, slot)
        if not self.mapping(path, slot, label, path):
            return
        for key in ('of', 'name', 'default'):
            if key in slot:
                self.string(path + (key,), slot[key], f'{label}: {key}', path)
        self.bounded(path, slot, label, ('xyz', 'rpy', 'axis'))
        if isinstance(slot.get('name'), str) and slot['name']:
            self.instance_name(path + ('name',), slot['name'], f'{label}: name', path)
        if 'accepts' in slot:
            accepts = slot['accepts']
            if not isinstance(accepts, list) or not all(isinstance(t, str) and t
                                                        for t in accepts):
                self.problem(path + ('accepts',), f'{label}: accepts must be a list of part '
                             f'types, e.g. [blueboat_antenna_mast]; got {_show(accepts)}', path)
        complaint = KEY_KINDS['collision'].complaint(slot.get('collision', True))
        if complaint:
            self.problem(path + ('collision',), f'{label}: collision {complaint}', path)
        if 'axis' in slot:
            complaint = KEY_KINDS['axis'].complaint(slot['axis'])
            if complaint:
                self.problem(path + ('axis',), f'{label}: axis {complaint}', path)
            elif math.hypot(*vectors.parse(slot['axis']).values) < 1e-9:
                self.problem(path + ('axis',), f'{label}: axis must not be zero', path)
        joint = slot.get('joint', 'fixed')
        if joint in JOINTS or 'limits' in slot:  # an unknown joint: resolution.py says so
            for where, message in limits_problems(joint, given_limits(slot), label):
                self.problem(path + where, message, path)

    def part_file(self, index: int, item) -> None:
        path = ('part_files', index)
        if not self.string(path, item, f'part_files item #{index + 1}', path):
            return
        text = self.config.part_file_text(item)
        try:
            mode = Path(text).stat().st_mode
        except (OSError, ValueError):
            self.problem(path, f'part file {item} not found (looked for '
                         f"{os.path.normpath(text)}); paths are relative to the config's "
                         'folder', path)
            return
        if not stat.S_ISREG(mode):
            self.problem(path, f'part file {item} is {file_kind(mode)} '
                         f'({os.path.normpath(text)}), not a regular file; name a part file',
                         path)

    # -- value helpers

    def bounded(self, path, item, label, keys) -> None:
        """Refuse a vector number past the part files' bound (+/-1e9, value_kinds.py)."""
        for key in keys:
            parsed = vectors.parse(item.get(key)) if key in item else None
            if parsed is not None and any(abs(v) > kinds.PART_LIMIT for v in parsed.values):
                self.problem(path + (key,), f'{label}: {key} numbers must be within '
                             f'-{kinds.PART_LIMIT_TEXT} and {kinds.PART_LIMIT_TEXT} (metres, '
                             f'radians), got {_show(item[key])}', path)

    def mapping(self, path, value, label, broken) -> bool:
        if isinstance(value, dict):
            return True
        self.problem(path, f'{label} must be a mapping of keys, not {_kind(value)} '
                     f'({_show(value)})', broken)
        return False

    def sequence(self, path, value, label) -> list:
        if value is None:
            return []
        if not isinstance(value, list):
            self.problem(path, f"{label}: must be a list (items start with '- '), not "
                         f'{_kind(value)}', path)
            return []
        return value

    def string(self, path, value, label, broken) -> bool:
        if isinstance(value, str) and value:
            return True
        self.problem(path, f'{label} must be a non-empty string, not {_kind(value)} '
                     f'({_show(value)})', broken)
        return False

    def instance_name(self, path, value, label, broken) -> None:
        problem = name_problem(value)
        if problem:
            self.problem(path, f'{label} {_show(value)} is not a valid link name: {problem}',
                         broken)


def name_problem(name) -> str | None:
    """
    Return why ``name`` cannot name a link, slot, frame, part type or vehicle, or None.

    Beyond the pattern: xacro reads a property that looks like a boolean or a number (true,
    False, inf, nan, ...) as that value, so such a name would not survive the resolver.
    """
    if not isinstance(name, str) or not NAME_PATTERN.match(name):
        return 'use letters, digits and underscores, starting with a letter'
    if len(name) > NAME_LIMIT:
        return f'at most {NAME_LIMIT} characters'
    if name in BOOLEAN_WORDS or name.lower() in NUMBER_WORDS:
        return 'xacro would read it as a boolean or a number; choose another word'
    return None


def _any_case(word: str) -> str:
    return ''.join(f'[{c.upper()}{c.lower()}]' for c in word)


#: A name (vehicle, instance, slot, frame, part type) as value_kinds sees it: name_problem's
#: rule, its JSON Schema built from the same constants.
_NOT_NAMES = '^(' + '|'.join(list(BOOLEAN_WORDS) + [_any_case(w) for w in NUMBER_WORDS]) + ')$'
NAME = kinds.pattern(NAME_PATTERN.pattern, lambda value: name_problem(value),
                     maxLength=NAME_LIMIT, **{'not': {'pattern': _NOT_NAMES}})


def _kind(value) -> str:
    if value is None:
        return 'an empty value'
    return {dict: 'a mapping', list: 'a list', str: 'a string', bool: 'a boolean',
            int: 'a number', float: 'a number'}.get(type(value), type(value).__name__)


# -- what each key holds (value_kinds), for the loader and schema.py's JSON Schema ----------

def _vector_kind() -> kinds.Kind:
    number = vectors.DECIMAL.pattern.replace(r'\d', '[0-9]')
    word = number[1:-1]  # unanchored
    item = {'anyOf': [{'type': 'number'}, {'type': 'string', 'pattern': number}]}
    return kinds.Kind(
        {'anyOf': [{'type': 'array', 'items': item, 'minItems': 3, 'maxItems': 3},
                   {'type': 'string', 'pattern': rf'^\s*{word}(\s+{word}){{2}}\s*$'}]},
        lambda value: None if vectors.parse(value) else f'must be {vectors.SHAPE}')


VECTOR = _vector_kind()
#: Every config key means one thing wherever it appears: its kind. The loader checks these
#: here (_Shape) and in resolution.py (vectors, part types, joints).
KEY_KINDS = {
    'name': NAME, 'type': kinds.string(), 'slot': kinds.string(), 'of': kinds.string(),
    'parent': kinds.string(), 'xyz': VECTOR, 'rpy': VECTOR,
    'accepts': kinds.list_of(kinds.Kind({'type': 'string', 'minLength': 1})),
    'default': kinds.string(), 'collision': kinds.boolean(), 'joint': kinds.choice(SLOT_JOINTS),
    'axis': VECTOR, 'limits': kinds.mapping(LIMITS_FIELDS, required=LIMITS_KEYS),
    'water': water.KIND,
}
#: What an editor shows for each key, by where it is (the levels of schema.py's schema).
KEY_HELP = {
    'top': {'name': 'vehicle name: Gazebo model name, ROS namespace, TF prefix (default '
                    'blueboat)',
            'base': 'the root part: its type and instance name (default blueboat_chassis, '
                    'base_link)',
            'parts': 'slot entries (slot:, what fills a slot) and free placements (no slot:)',
            'slots': 'ad hoc slots: mount points of your own',
            'part_files': "your own part files, relative to this config's folder",
            'water': 'the water it dives in: sea (1025 kg/m^3, the default), fresh (997) or a '
                     'density in kg/m^3; info, build and the launch follow it'},
    'base': {'type': 'part type of the root part', 'name': 'its instance (and root link) '
             'name'},
    'entry': {'slot': 'the slot to fill (a slot entry); without it the entry is a free '
                      'placement',
              'of': 'the instance carrying the slot (default: the base)',
              'type': 'a part type the slot accepts, or none to leave it empty',
              'name': "the occupant's instance name (default: the slot name)",
              'parent': 'free placement: the link it hangs from (default: the base)',
              'xyz': 'free placement: position in the parent link, m (list or "x y z")',
              'rpy': 'free placement: roll, pitch, yaw in the parent link, rad'},
    'slot': {'of': 'the instance that carries the slot (default: the base)',
             'name': 'slot name (its link is <of>_<name>)',
             'xyz': 'position in the carrying instance, m (list or "x y z")',
             'rpy': 'roll, pitch, yaw in the carrying instance, rad',
             'accepts': 'part types that fit', 'default': 'the occupant (default: none)',
             'collision': 'false: the occupant gets no <collision>',
             'joint': "the occupant's joint: fixed, continuous, or revolute or prismatic "
                      'within limits',
             'axis': "a moving joint's axis in the slot frame (default: the occupant's)",
             'limits': 'a revolute or prismatic joint: lower, upper (rad or m), effort, '
                       'velocity'},
}
