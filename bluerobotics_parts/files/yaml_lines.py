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
YAML loading that remembers where things are and refuses duplicate keys.

PyYAML silently keeps the last of two equal keys in a mapping; a config that says
``type: t200_thruster_ccw`` and later ``type: none`` in one entry is a mistake we report (every
repeated key of a document at once). Every value's 1-based line is kept in a map keyed by its
path (``("parts", 2, "type")``), so later checks can say ``my_boat.yaml:12: ...``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import gc
from pathlib import Path
import re

import yaml

from .inputs import read_text, YAML_LIMIT
from ..errors import AssemblyError, ConfigError, Problem, shown

Path_ = tuple  # a path into the document: keys and list indices


@dataclass
class LocatedDocument:
    """Plain Python data (dicts, lists, scalars) plus the line of every key and item."""

    data: object
    file: str
    lines: dict = field(default_factory=dict)
    text: str = field(default='', repr=False)  # the file's text, as read (load_file)

    def line(self, path: Path_) -> int | None:
        """Return the line of ``path``, or of its nearest located ancestor."""
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
        node = _compose(text, file)
    except yaml.reader.ReaderError as error:  # a character YAML refuses: no mark, a position
        raise ConfigError(f'not valid YAML: {_reader_problem(error)}', file=file,
                          line=text.count('\n', 0, error.position) + 1) from None
    except yaml.YAMLError as error:
        mark = getattr(error, 'problem_mark', None)
        problem = getattr(error, 'problem', None) or str(error)
        context = getattr(error, 'context', None)
        problem = f'{context}, {problem}' if context else problem
        if 'nesting depth' in problem:  # libyaml's own limit
            raise ConfigError('nested too deeply to be a config', file=file,
                              line=mark.line + 1 if mark else None) from None
        raise ConfigError(_syntax_message(problem, text, mark), file=file,
                          line=mark.line + 1 if mark else None) from None
    except RecursionError:
        raise ConfigError('nested too deeply to be a config', file=file, line=1) from None
    lines: dict = {}
    if node is None:
        return LocatedDocument(None, file, lines)
    lines[()] = node.start_mark.line + 1
    builder = _Builder(file, lines)
    try:
        data = builder.construct(node, ())
    except RecursionError:
        raise ConfigError('nested too deeply to be a config', file=file,
                          line=lines[()]) from None
    if builder.duplicates:  # the document is ambiguous: nothing after this would be reliable
        raise AssemblyError(builder.duplicates)
    return LocatedDocument(data, file, lines)


#: PyYAML's words for a syntax mistake -> what it means in a config, most specific first.
SYNTAX_PROBLEMS = (
    ("expected ',' or '}'", "a { } mapping is not closed: a ',' or '}' is missing"),
    ("expected ',' or ']'", "a [ ] list is not closed: a ',' or ']' is missing"),
    ("expected '-' indicator", "this line does not line up with the list's '- ' items above"),
    ('mapping values are not allowed', "a ': ' where no key can start: quote the value, or "
                                       'start the key on a line of its own'),
    ("could not find expected ':'", "a key without its ': ' (or a value on a line of its "
                                    'own)'),
    ("'\\t' that cannot start", 'a tab: YAML indents with spaces only'),
    ('did not find expected key', 'this line does not line up with the keys above it'),
    ('expected <block end>', 'this line does not line up with the lines above it'),
    ('unexpected end of stream', 'the file ends inside quotes or an open [ ] / { }'),
    ('found unknown escape character', 'an unknown \\ escape in a "double-quoted" string: '
                                       "use 'single quotes' or \\\\"),
    ('found undefined alias', 'an alias (*name) with no anchor (&name) before it'),
)


def _syntax_message(problem: str, text: str, mark) -> str:
    """
    Return a YAML syntax mistake in plain words, then its line with a caret at its column.

    PyYAML's own words follow in brackets, for a search.
    """
    plain = next((words for found, words in SYNTAX_PROBLEMS if found in problem), None)
    lines = text.splitlines()
    if mark is not None and 0 <= mark.line < len(lines) and \
            lines[mark.line][mark.column:mark.column + 1] == '\t':
        plain = 'a tab: YAML indents with spaces only'
    message = f'not valid YAML: {plain} (YAML: {problem})' if plain else \
        f'not valid YAML: {problem}'
    if mark is None:
        return message
    if not 0 <= mark.line < len(lines):
        return f'{message}, at the end of the file'
    shown = lines[mark.line].expandtabs(1)
    if len(shown) > 120:  # a long line: the part around the column
        start = max(0, mark.column - 60)
        shown, column = shown[start:start + 120], mark.column - start
    else:
        column = mark.column
    return f'{message}, column {mark.column + 1}:\n    {shown}\n    {" " * column}^'


def _reader_problem(error) -> str:
    """Return a ReaderError's problem without its position line (the message gives the line)."""
    character = error.character
    shown = f'#x{character:04x}' if isinstance(character, int) else repr(character)
    return f'unacceptable character {shown}: {error.reason}'


def load_file(path: str | Path, what: str = 'file') -> LocatedDocument:
    """Load a YAML file: a regular file of at most inputs.YAML_LIMIT bytes."""
    text = read_text(path, YAML_LIMIT, what)
    document = load_text(text, str(path))
    document.text = text
    return document


#: Values a document may hold (aliases counted each time they are used) before it is refused:
#: a real config has a few hundred, 3,000 free placements about 40,000; an alias "bomb" of a
#: few lines would expand to billions, and a long flat list would take seconds to compose.
MAX_VALUES = 100_000


# libyaml when it is there: about 9 times faster than PyYAML's own parser and composer.
_LOADER = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)
_NODE_EVENTS = (yaml.ScalarEvent, yaml.AliasEvent, yaml.SequenceStartEvent,
                yaml.MappingStartEvent)


def _compose(text: str, file: str):
    """
    Return the node tree of one document (None if empty), or refuse a too-large one.

    The events are counted first (cheap, and stoppable half way): libyaml's composer cannot
    be stopped, and a long list would otherwise cost seconds and hundreds of megabytes before
    any check ran. Nodes only: what a node becomes is decided by _Builder, never by a
    loader's registrations.
    """
    count = 0
    for event in yaml.parse(text, Loader=_LOADER):
        if isinstance(event, _NODE_EVENTS):
            count += 1
            if count > MAX_VALUES:
                raise ConfigError(_too_large(), file=file, line=event.start_mark.line + 1)
    collecting = gc.isenabled()
    gc.disable()  # node trees hold no cycles; collecting while they grow is quadratic
    try:
        return yaml.compose(text, Loader=_LOADER)
    finally:
        if collecting:
            gc.enable()


def _too_large() -> str:
    return (f'more than {MAX_VALUES:,} values (counting each use of an alias): too large to '
            'be a config or part file')


MERGE_TAG = 'tag:yaml.org,2002:merge'
# The scalar tags a config or part file may carry, and what makes each. Nothing else: xacro
# (and any other library) registers tags such as !radians on PyYAML's global SafeLoader, whose
# constructors evaluate their text; a document that uses one must be refused, not evaluated.
_SAFE = yaml.constructor.SafeConstructor
#: Python refuses to print integers of more than 4,300 digits and cannot make floats of ones
#: above about 309; no count or dimension needs more than a handful.
MAX_INTEGER_DIGITS = 30
_SCALAR_TAGS = {
    'tag:yaml.org,2002:null': _SAFE.construct_yaml_null,
    'tag:yaml.org,2002:bool': _SAFE.construct_yaml_bool,
    'tag:yaml.org,2002:int': _SAFE.construct_yaml_int,
    'tag:yaml.org,2002:float': _SAFE.construct_yaml_float,
    'tag:yaml.org,2002:str': _SAFE.construct_yaml_str,
}
_SEQUENCE_TAG = 'tag:yaml.org,2002:seq'
_MAPPING_TAG = 'tag:yaml.org,2002:map'
# YAML 1.1 integers and floats that do not read as written: octal (010 is 8), hexadecimal,
# binary and base-60 (1:30 is 90).
_NOT_PLAIN_NUMBER = re.compile(
    r'^[-+]?(0[0-7_]+|0[bx].*|[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?)$')


class _Builder:
    """Plain data from a node tree, by tag, with the line of every value."""

    def __init__(self, file: str, lines: dict):
        self.file = file
        self.lines = lines
        self.count = 0
        self.constructor = _SAFE()  # only its methods are used, never its registry
        self.duplicates: list[Problem] = []

    def construct(self, node, path):
        self.count += 1
        if self.count > MAX_VALUES:
            raise ConfigError(_too_large(), file=self.file, line=node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            self._tag(node, _MAPPING_TAG)
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            self._tag(node, _SEQUENCE_TAG)
            items = []
            for index, item_node in enumerate(node.value):
                self.lines[path + (index,)] = item_node.start_mark.line + 1
                items.append(self.construct(item_node, path + (index,)))
            return items
        return self.scalar(node)

    def _mapping(self, node, path):
        result = {}
        first_seen = {}
        # Merge keys (<<: *anchor) copy another mapping's pairs in first; the mapping's own
        # keys may override them (YAML's rule), but not repeat each other.
        own = len([k for k, _ in node.value if k.tag != MERGE_TAG])
        try:
            self.constructor.flatten_mapping(node)
        except yaml.YAMLError as error:
            raise ConfigError(f"cannot merge: {getattr(error, 'problem', error)}",
                              file=self.file, line=node.start_mark.line + 1) from None
        merged = len(node.value) - own
        for position, (key_node, value_node) in enumerate(node.value):
            if not isinstance(key_node, yaml.ScalarNode):
                raise ConfigError('a mapping key must be a plain scalar', file=self.file,
                                  line=key_node.start_mark.line + 1)
            key = self.scalar(key_node)
            line = key_node.start_mark.line + 1
            if key in first_seen and first_seen[key] is not None:  # None: merged, overridable
                self.duplicates.append(Problem(
                    f'duplicate key {_show(key)} (first given on line {first_seen[key]}); '
                    'YAML would silently keep only the last one: remove one of them',
                    self.file, line, stage='load', rule='duplicate-key'))
                self.construct(value_node, path + (key,))  # counted, and checked for tags
                continue
            first_seen[key] = None if position < merged else line
            self.lines[path + (key,)] = line
            result[key] = self.construct(value_node, path + (key,))
        return result

    def _tag(self, node, expected: str) -> None:
        if node.tag != expected:
            raise ConfigError(f'unsupported YAML tag {_shown_tag(node.tag)!r}; configs and '
                              'part files hold plain mappings, lists, strings, numbers and '
                              'booleans', file=self.file, line=node.start_mark.line + 1)

    def scalar(self, node):
        line = node.start_mark.line + 1
        make = _SCALAR_TAGS.get(node.tag)
        if make is None:
            shown = _shown_tag(node.tag)
            hint = (' (a date or time; quote it to keep it as text)' if shown == 'timestamp'
                    else '')
            raise ConfigError(f'unsupported YAML tag {shown!r} on {_show(node.value)}{hint}; '
                              'configs and part files hold plain strings, numbers and '
                              'booleans: tags such as !radians or !degrees are not evaluated',
                              file=self.file, line=line)
        if node.tag in ('tag:yaml.org,2002:int', 'tag:yaml.org,2002:float') and \
                _NOT_PLAIN_NUMBER.match(node.value):
            raise ConfigError(f'{node.value!r} is a YAML 1.1 base-60, octal, hexadecimal or '
                              'binary number, which reads as something else than written; '
                              'write a plain decimal number (or quote it as text)',
                              file=self.file, line=line)
        if node.tag == 'tag:yaml.org,2002:int' and len(node.value) > MAX_INTEGER_DIGITS:
            raise ConfigError(f'an integer of {len(node.value):,} digits is not a plausible '
                              f'value here (at most {MAX_INTEGER_DIGITS} digits)',
                              file=self.file, line=line)
        try:
            return make(self.constructor, node)
        except (yaml.YAMLError, ValueError, OverflowError) as error:
            raise ConfigError(f'cannot read value {_show(node.value)}: {error}', file=self.file,
                              line=line) from None


def _shown_tag(tag: str) -> str:
    """Return a tag as it was written: !!int for YAML's own, !name for a local one."""
    standard = 'tag:yaml.org,2002:'
    return tag[len(standard):] if tag.startswith(standard) else tag


def _show(key) -> str:
    """Return a value for a message, cut short (a 5,000-digit number would fill a screen)."""
    text = shown(key) if not isinstance(key, str) else f"'{key}'"
    return text if len(text) <= 60 else text[:57] + '...'
