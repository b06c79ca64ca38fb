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
The package's exception types and the Problem record.

One base class, so commands can turn any of them into messages instead of a traceback. A
config can have several independent mistakes: each is a Problem (message, file, line), and
AssemblyError carries all of them at once.
"""

from __future__ import annotations


def located(message: str, file: str | None = None, line: int | None = None) -> str:
    """Return ``file:line: message``, or as much of the location as is known."""
    if file and line:
        return f'{file}:{line}: {message}'
    if file:
        return f'{file}: {message}'
    return message


def shown(value, limit: int = 60) -> str:
    """Return a short repr of a value for messages (at most ``limit`` characters)."""
    try:
        text = repr(value)
    except ValueError:  # an integer too long to print (Python refuses beyond 4300 digits)
        return 'a number too long to print'
    return text if len(text) <= limit else text[:limit - 3] + '...'


class Problem:
    """
    One mistake, with where it is when known.

    ``stage`` says who can see it: ``load`` (the file's shape and value types, config.py and
    part_format.py), ``expansion`` (what the xacro resolver also refuses, ``ASSEMBLY ERROR``),
    ``check`` (what only the whole result shows: names used twice, references that match
    nothing, unknown keys). ``rule`` names the rule, for callers that treat some rules apart
    (the API defers references to instances that may be added later); ``path`` is the item
    it is about (``('parts', 2, 'type')``), when known.

    Equal (and hashed) by message, file and line: the same mistake found twice is one. A plain
    class, not a dataclass: importing dataclasses costs a command 10 ms (it imports inspect),
    more than a cached build spends on anything else.
    """

    __slots__ = ('message', 'file', 'line', 'stage', 'rule', 'path')

    def __init__(self, message: str, file: str | None = None, line: int | None = None,
                 stage: str = 'check', rule: str = '', path: tuple | None = None):
        for name, value in (('message', message), ('file', file), ('line', line),
                            ('stage', stage), ('rule', rule), ('path', path)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError(f'a Problem cannot be changed ({name})')

    def _key(self) -> tuple:
        return (self.message, self.file, self.line)

    def __eq__(self, other) -> bool:
        return isinstance(other, Problem) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f'Problem(message={self.message!r}, file={self.file!r}, line={self.line!r}, '
                f'stage={self.stage!r}, rule={self.rule!r}, path={self.path!r})')

    def __str__(self) -> str:
        return located(self.message, self.file, self.line)


def in_line_order(problems, first_file: str | None = None) -> list:
    """
    Return the problems without repeats, in line order.

    ``first_file``'s (and those without a file) first, then each other file's, in the order
    the files first appear.
    """
    ranks = {first_file: 0, None: 0}
    unique = list(dict.fromkeys(problems))
    for problem in unique:
        ranks.setdefault(problem.file, len(ranks))
    return sorted(unique, key=lambda p: (ranks[p.file], p.line is None, p.line or 0))


class BlueRoboticsPartsError(Exception):
    """Base of every error this package raises on bad input."""


class ConfigError(BlueRoboticsPartsError):
    """
    A config (or part file) that cannot be used: syntax, shape, types, a broken rule.

    ``str()`` gives ``file:line: message`` when the location is known.
    """

    def __init__(self, message: str, file: str | None = None, line: int | None = None):
        self.message = message
        self.file = file
        self.line = line
        super().__init__(located(message, file, line))


class AssemblyError(ConfigError):
    """
    Every problem of a config (or of a config against a URDF), one per line.

    ``problems`` lists them (Problem records, in line order); ``message``, ``file`` and
    ``line`` are the first one's, so code written for a single ConfigError still works.
    """

    def __init__(self, problems):
        self.problems = list(problems)
        first = self.problems[0] if self.problems else Problem('(no problem given)')
        self.message = getattr(first, 'message', str(first))
        self.file = getattr(first, 'file', None)
        self.line = getattr(first, 'line', None)
        Exception.__init__(self, '\n'.join(str(p) for p in self.problems))


#: The name earlier versions raised for mistakes the xacro expansion found; the Python
#: resolution reports them now, as AssemblyError.
ResolveError = AssemblyError


class OutputError(BlueRoboticsPartsError):
    """
    An output file or folder that cannot be written.

    Permissions, a missing parent, a full disk: nothing is left half-written.
    """
