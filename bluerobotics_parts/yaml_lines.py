"""YAML loading that remembers where things are and refuses duplicate keys.

PyYAML silently keeps the last of two equal keys in a mapping; a config that says
``type: t200_thruster_ccw`` and later ``type: none`` in one entry is a mistake we report. Every
value's 1-based line is kept in a map keyed by its path (``("parts", 2, "type")``), so later
checks can say ``my_boat.yaml:12: ...``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .errors import ConfigError

Path_ = tuple  # a path into the document: keys and list indices


@dataclass
class LocatedDocument:
    """Plain Python data (dicts, lists, scalars) plus the line of every key and item."""

    data: object
    file: str
    lines: dict = field(default_factory=dict)

    def line(self, path: Path_) -> int | None:
        """The line of ``path``, or of its nearest located ancestor."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get(())

    def error(self, path: Path_, message: str) -> ConfigError:
        return ConfigError(message, file=self.file, line=self.line(path))


def load_text(text: str, file: str = '<string>') -> LocatedDocument:
    """Parse one YAML document. An empty document is None."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as error:
        mark = getattr(error, 'problem_mark', None)
        problem = getattr(error, 'problem', None) or str(error)
        context = getattr(error, 'context', None)
        problem = f'{context}, {problem}' if context else problem
        raise ConfigError(f'not valid YAML: {problem}', file=file,
                          line=mark.line + 1 if mark else None) from None
    except RecursionError:
        raise ConfigError('nested too deeply to be a config', file=file, line=1) from None
    lines: dict = {}
    if node is None:
        return LocatedDocument(None, file, lines)
    lines[()] = node.start_mark.line + 1
    try:
        data = _construct(node, (), lines, file)
    except RecursionError:
        raise ConfigError('nested too deeply to be a config', file=file,
                          line=lines[()]) from None
    return LocatedDocument(data, file, lines)


def load_file(path: str | Path) -> LocatedDocument:
    path = Path(path)
    try:
        text = path.read_text(encoding='utf-8')
    except FileNotFoundError:
        raise ConfigError('no such file', file=str(path)) from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f'cannot read: {error}', file=str(path)) from None
    return load_text(text, str(path))


_scalar_loader = yaml.SafeLoader('')
MERGE_TAG = 'tag:yaml.org,2002:merge'


def _construct(node, path, lines, file):
    if isinstance(node, yaml.MappingNode):
        result = {}
        first_seen = {}
        # Merge keys (<<: *anchor) copy another mapping's pairs in first; the mapping's own
        # keys may override them (YAML's rule), but not repeat each other.
        own = len([k for k, _ in node.value if k.tag != MERGE_TAG])
        try:
            _scalar_loader.flatten_mapping(node)
        except yaml.YAMLError as error:
            raise ConfigError(f"cannot merge: {getattr(error, 'problem', error)}", file=file,
                              line=node.start_mark.line + 1) from None
        merged = len(node.value) - own
        for position, (key_node, value_node) in enumerate(node.value):
            if not isinstance(key_node, yaml.ScalarNode):
                raise ConfigError('a mapping key must be a plain scalar', file=file,
                                  line=key_node.start_mark.line + 1)
            key = _scalar(key_node, file)
            line = key_node.start_mark.line + 1
            if key in first_seen and first_seen[key] is not None:  # None: merged, overridable
                raise ConfigError(
                    f'duplicate key {_show(key)} (first given on line {first_seen[key]}); '
                    'YAML would silently keep only the last one: remove one of them',
                    file=file, line=line)
            first_seen[key] = None if position < merged else line
            lines[path + (key,)] = line
            result[key] = _construct(value_node, path + (key,), lines, file)
        return result
    if isinstance(node, yaml.SequenceNode):
        items = []
        for index, item_node in enumerate(node.value):
            lines[path + (index,)] = item_node.start_mark.line + 1
            items.append(_construct(item_node, path + (index,), lines, file))
        return items
    return _scalar(node, file)


def _scalar(node, file):
    try:
        return _scalar_loader.construct_object(node, deep=True)
    except yaml.YAMLError as error:
        raise ConfigError(f'cannot read value: {error}', file=file,
                          line=node.start_mark.line + 1) from None


def _show(key) -> str:
    return repr(key) if not isinstance(key, str) else f"'{key}'"
