"""The strict config loader used by every entry point.

It reads the YAML with line numbers and refuses duplicate keys, then checks the shape and
value types of every known key: the top level and each entry are mappings, ``xyz``/``rpy``
are three numbers, names and types are strings, ``collision`` is a boolean, and so on. Key
*names* are the assembly check's business (``assembly.key_problems``), so that one place lists
what is valid. Messages read ``my_boat.yaml:12: parts entry #2 (slot mast): ...``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import math
import os
from pathlib import Path
import re
import stat

from .errors import ConfigError
from .inputs import file_kind
from .yaml_lines import load_file, load_text, LocatedDocument

DEFAULT_VEHICLE_NAME = 'blueboat'
DEFAULT_BASE_TYPE = 'blueboat_chassis'
DEFAULT_BASE_NAME = 'base_link'

# The keys each level of a config may have, in the order the docs list them.
TOP_KEYS = ('name', 'base', 'parts', 'slots', 'part_files')
BASE_KEYS = ('type', 'name')
SLOT_ENTRY_KEYS = ('slot', 'of', 'type', 'name')
PLACEMENT_KEYS = ('type', 'name', 'parent', 'xyz', 'rpy')
ADHOC_SLOT_KEYS = ('of', 'name', 'xyz', 'rpy', 'accepts', 'default', 'collision', 'joint')
SLOT_JOINTS = ('fixed', 'continuous')

# ROS names: a vehicle name becomes a namespace and a TF prefix, an instance a link name.
NAME_PATTERN = re.compile(r'^[A-Za-z][A-Za-z0-9_]*$')


@dataclass
class Config:
    """A loaded config: the plain data, where it came from, and the line of every item."""

    data: dict
    file: str = '<config>'
    lines: dict = field(default_factory=dict)
    from_file: bool = False  # data is exactly what ``file`` holds (so xacro may read the file)

    @property
    def folder(self) -> Path:
        """Relative paths inside the config (part_files) are relative to this folder: the
        folder the config was named in (a symbolic link is not followed, as xacro does not)."""
        return Path(self.file).absolute().parent if self.file and not self.file.startswith('<') \
            else Path.cwd()

    @property
    def name(self) -> str:
        return self.data.get('name') or DEFAULT_VEHICLE_NAME

    @property
    def base_type(self) -> str:
        return (self.data.get('base') or {}).get('type') or DEFAULT_BASE_TYPE

    @property
    def base_name(self) -> str:
        return (self.data.get('base') or {}).get('name') or DEFAULT_BASE_NAME

    @property
    def entries(self) -> list:
        return list(self.data.get('parts') or [])

    @property
    def adhoc_slots(self) -> list:
        return list(self.data.get('slots') or [])

    @property
    def part_files(self) -> list[Path]:
        """The user's part files, absolute."""
        return [Path(os.path.normpath(self.folder / p)) for p in self.data.get('part_files') or []]

    def line(self, path) -> int | None:
        return LocatedDocument(self.data, self.file, self.lines).line(path)

    def where(self, path) -> str:
        """``file:line`` of an item, for messages."""
        line = self.line(path)
        return f'{self.file}:{line}' if line else self.file

    def error(self, path, message: str) -> ConfigError:
        """A ConfigError located at ``path``; a config built in Python has no file to name."""
        if self.file.startswith('<'):
            return ConfigError(message)
        return ConfigError(message, file=self.file, line=self.line(path))


def entry_label(section: str, index: int, entry) -> str:
    """How messages name an entry: ``parts entry #3 (slot mast)``; the same wording as the
    resolver's, so a reader sees one vocabulary."""
    label = f'{section} entry #{index + 1}'
    if isinstance(entry, dict):
        if isinstance(entry.get('slot'), str):
            label += f" (slot {entry['slot']})"
        elif 'slot' not in entry and isinstance(entry.get('name'), str):
            label += f" ({entry['name']})"
    return label


def load(path: str | Path) -> Config:
    """Load and check a config file. An empty file is the default vehicle."""
    config = _checked(load_file(path, 'config'))
    config.from_file = True
    return config


def loads(text: str, file: str = '<string>') -> Config:
    return _checked(load_text(text, file))


def from_dict(data: dict, file: str = '<dict>') -> Config:
    """Check a config given as Python data (no line numbers to report)."""
    return _checked(LocatedDocument(data, file, {}))


def _checked(doc: LocatedDocument) -> Config:
    data = {} if doc.data is None else doc.data
    config = Config(data, doc.file, doc.lines)
    _check_shape(config)
    return config


# -- shape and value types -------------------------------------------------------------------

def _check_shape(config: Config) -> None:
    data = config.data
    if not isinstance(data, dict):
        raise config.error((), 'the config must be a mapping with the keys '
                           + ', '.join(TOP_KEYS) + f' (all optional), not {_kind(data)}')
    for key in data:
        if isinstance(key, bool):
            spelled = 'on: or yes:' if key else 'off: or no:'
            raise config.error((key,), f'the top level has a key that YAML reads as '
                               f"{str(key).lower()} ({spelled}); valid keys: {', '.join(TOP_KEYS)}")
    if 'name' in data:
        _vehicle_name(config, data['name'])
    if 'base' in data:
        base = _mapping(config, ('base',), data['base'], 'base')
        for key in ('type', 'name'):
            if key in base:
                _string(config, ('base', key), base[key], f'base: {key}')
        if 'name' in base:
            _instance_name(config, ('base', 'name'), base['name'], 'base: name')
    for index, entry in enumerate(_list(config, ('parts',), data.get('parts'), 'parts')):
        _check_entry(config, index, entry)
    for index, slot in enumerate(_list(config, ('slots',), data.get('slots'), 'slots')):
        _check_adhoc_slot(config, index, slot)
    for index, item in enumerate(_list(config, ('part_files',), data.get('part_files'),
                                       'part_files')):
        _string(config, ('part_files', index), item, f'part_files item #{index + 1}')
        path = (config.folder / item)
        try:
            mode = path.stat().st_mode
        except OSError:
            raise config.error(('part_files', index),
                               f'part file {item} not found (looked for {path}); paths are '
                               "relative to the config's folder") from None
        if not stat.S_ISREG(mode):
            raise config.error(('part_files', index),
                               f'part file {item} is {file_kind(mode)} ({path}), not a '
                               'regular file; name a part file')


def _check_entry(config: Config, index: int, entry) -> None:
    path = ('parts', index)
    label = entry_label('parts', index, entry)
    entry = _mapping(config, path, entry, label)
    _no_boolean_keys(config, path, entry, label)
    is_slot_entry = 'slot' in entry
    for key in ('slot', 'of', 'type', 'name', 'parent'):
        if key in entry:
            _string(config, path + (key,), entry[key], f'{label}: {key}')
    if 'name' in entry:
        _instance_name(config, path + ('name',), entry['name'], f'{label}: name')
    # With an unknown key in the entry, a "missing" key is most likely misspelt: leave it to
    # the check, which names the unknown key and lists the valid ones.
    misspelt = _has_unknown_keys(entry, SLOT_ENTRY_KEYS if is_slot_entry else PLACEMENT_KEYS)
    if is_slot_entry and 'type' not in entry and not misspelt:
        raise config.error(path, f'{label} needs type: with a part type (one the slot '
                           'accepts), or none to leave the slot empty')
    if is_slot_entry and entry.get('type') == 'none' and 'name' in entry:
        raise config.error(path + ('name',), f'{label}: name: has no effect on an empty slot '
                           '(type none); remove it, or fit a part type')
    if not is_slot_entry and not misspelt:
        missing = [k for k in ('type', 'name') if k not in entry]
        if missing:
            raise config.error(path, f'{label} is a free placement (it has no slot:) and needs '
                               + ' and '.join(f'{k}:' for k in missing)
                               + '; to fill a slot, give slot: (and of: for a slot not on the base)')
        if entry['type'] == 'none':
            raise config.error(path + ('type',), f'{label}: type none only empties a slot; '
                               'a free placement needs a part type')
    for key in ('xyz', 'rpy'):
        if key in entry:
            _vector(config, path + (key,), entry[key], f'{label}: {key}')


def _check_adhoc_slot(config: Config, index: int, slot) -> None:
    path = ('slots', index)
    label = entry_label('slots', index, slot)
    slot = _mapping(config, path, slot, label)
    _no_boolean_keys(config, path, slot, label)
    if 'name' not in slot and not _has_unknown_keys(slot, ADHOC_SLOT_KEYS):
        raise config.error(path, f"{label} needs name: (the new slot's name) and of: (the "
                           'carrying instance; default the base)')
    for key in ('of', 'name', 'default'):
        if key in slot:
            _string(config, path + (key,), slot[key], f'{label}: {key}')
    if 'name' in slot:
        _instance_name(config, path + ('name',), slot['name'], f'{label}: name')
    for key in ('xyz', 'rpy'):
        if key in slot:
            _vector(config, path + (key,), slot[key], f'{label}: {key}')
    if 'accepts' in slot:
        accepts = slot['accepts']
        if not isinstance(accepts, list) or not all(isinstance(t, str) for t in accepts):
            raise config.error(path + ('accepts',), f'{label}: accepts must be a list of part '
                               f'types, e.g. [blueboat_antenna_mast]; got {_show(accepts)}')
    if 'collision' in slot and not isinstance(slot['collision'], bool):
        raise config.error(path + ('collision',), f'{label}: collision must be true or false, '
                           f"got {_show(slot['collision'])}")
    if 'joint' in slot and slot['joint'] not in SLOT_JOINTS:
        raise config.error(path + ('joint',), f"{label}: joint {_show(slot['joint'])} is not "
                           f"a slot joint; valid: {', '.join(SLOT_JOINTS)}")
    default = slot.get('default')
    if default not in (None, 'none') and default not in (slot.get('accepts') or []):
        raise config.error(path + ('default',), f'{label} defaults to {default}, which it does '
                           f'not accept; add it to accepts (accepts: '
                           f"{', '.join(slot.get('accepts') or []) or 'nothing'})")


# -- value helpers ---------------------------------------------------------------------------

def _kind(value) -> str:
    if value is None:
        return 'an empty value'
    return {dict: 'a mapping', list: 'a list', str: 'a string', bool: 'a boolean',
            int: 'a number', float: 'a number'}.get(type(value), type(value).__name__)


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + '...'


def _mapping(config, path, value, label) -> dict:
    if not isinstance(value, dict):
        raise config.error(path, f'{label} must be a mapping of keys, not {_kind(value)} '
                           f'({_show(value)})')
    return value


def _list(config, path, value, label) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise config.error(path, f"{label}: must be a list (items start with '- '), not "
                           f'{_kind(value)}')
    return value


def _string(config, path, value, label) -> str:
    if not isinstance(value, str) or not value:
        raise config.error(path, f'{label} must be a non-empty string, not {_kind(value)} '
                           f'({_show(value)})')
    return value


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a link, slot, part type or vehicle, or None if it can.

    Beyond the pattern: xacro reads a macro argument that looks like a boolean or a number
    (true, False, inf, nan, ...) as that value, so such a name would not survive the resolver.
    """
    if not isinstance(name, str) or not NAME_PATTERN.match(name):
        return 'use letters, digits and underscores, starting with a letter'
    if name in ('true', 'True', 'false', 'False') or name.lower() in ('inf', 'infinity', 'nan'):
        return 'xacro would read it as a boolean or a number; choose another word'
    return None


def _instance_name(config, path, value, label) -> None:
    problem = name_problem(value)
    if problem:
        raise config.error(path, f'{label} {value!r} is not a valid link name: {problem}')


def _vehicle_name(config, value) -> None:
    _string(config, ('name',), value, 'name')
    problem = name_problem(value)
    if problem:
        raise config.error(('name',), f'name {value!r} cannot be a ROS namespace: {problem}')


def _vector(config, path, value, label) -> list[float]:
    """Three numbers, from a list or a space-separated string."""
    items = value.split() if isinstance(value, str) else value
    if isinstance(items, list) and len(items) == 3:
        numbers = []
        for item in items:
            if isinstance(item, bool):
                break
            try:
                number = float(item)
            except (TypeError, ValueError, OverflowError):
                break
            if not math.isfinite(number):
                break
            numbers.append(number)
        else:
            return numbers
    raise config.error(path, f'{label} must be three finite numbers (metres / radians) as a '
                       f"list [x, y, z] or a string \"x y z\"; got {_show(value)}")


def parse_vector(value) -> list[float]:
    """Three floats from a config vector already checked by the loader."""
    items = value.split() if isinstance(value, str) else value
    return [float(v) for v in items]


def _has_unknown_keys(mapping: dict, valid) -> bool:
    return any(key not in valid for key in mapping)


def _boolean_key_message(key: bool, where: str) -> str:
    spelled = 'on: (or yes:)' if key else 'off: (or no:)'
    return (f'{where} has a bare {spelled} key, which YAML reads as {str(key).lower()}; '
            "the key naming the carrying instance is of:, e.g. \"of: ping_mount\"")


def _no_boolean_keys(config, path, mapping, label) -> None:
    for key in mapping:
        if isinstance(key, bool):
            raise config.error(path + (key,), _boolean_key_message(key, label))
