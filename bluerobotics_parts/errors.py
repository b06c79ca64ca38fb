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

import difflib
import re


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


#: What a printed message line may hold: a longer run of non-blank characters (a 500 KB name;
#: a real path stays whole: PATH_MAX is 4096 bytes, and few reach a thousand) or line is cut,
#: saying how long it was, so a hostile input cannot flood the terminal.
WORD_LIMIT, LINE_LIMIT = 1024, 4096
_LONG_WORD = re.compile(r'\S{%d,}' % (WORD_LIMIT + 1))


def printable(line: str) -> str:
    """Return one line of a message for a terminal: control characters escaped, overlong cut."""
    if not line.isprintable():
        line = ''.join(c if c.isprintable() else repr(c)[1:-1] for c in line)
    line = _LONG_WORD.sub(lambda m: f'{m.group()[:60]}...({len(m.group())} characters)', line)
    return line if len(line) <= LINE_LIMIT else \
        f'{line[:LINE_LIMIT]}...({len(line) - LINE_LIMIT} characters more)'


def _alike(a: str, b: str) -> int:
    """Return how many characters two names share at their start and then at their end."""
    start = ([i for i, (x, y) in enumerate(zip(a, b)) if x != y] + [min(len(a), len(b))])[0]
    a, b = a[start:][::-1], b[start:][::-1]
    return start + ([i for i, (x, y) in enumerate(zip(a, b)) if x != y] + [min(len(a), len(b))])[0]


def did_you_mean(name, candidates) -> str:
    """
    Return ``did you mean X?`` for a name a slip away from one of ``candidates``, else ''.

    A slip: all but at most two characters shared at the start and end (one typed wrong, left
    out, added or two swapped). urdf/lib/helpers.xacro's bp_did_you_mean is the same rule.
    """
    if not isinstance(name, str) or not candidates:
        return ''
    best = max(sorted(candidates), key=lambda c: _alike(name, c))
    close = best != name and _alike(name, best) >= max(len(name), len(best)) - 2
    return f'did you mean {best}? ' if close else ''


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


class OutputError(BlueRoboticsPartsError):
    """
    An output file or folder that cannot be written.

    Permissions, a missing parent, a full disk: nothing is left half-written.
    """


# -- Inputs and the record


class InputError(ConfigError):
    """An input that is not a regular file of an acceptable size, or cannot be read."""


class RecordError(BlueRoboticsPartsError):
    """A URDF without (or with a broken) assembly record."""


class DescriptionError(BlueRoboticsPartsError):
    """A description folder (or file set) that breaks a file rule or its expected identity."""


# -- The vehicle model: one type per way a query can fail. A caller walking up the tree can tell
# "this is the root" (NoParentJoint) from "no such link" (UnknownLink); the Unknown* errors
# suggest close names.


class VehicleError(BlueRoboticsPartsError):
    """A URDF that is not one tree, or a query naming something the vehicle does not have."""


class _UnknownName(VehicleError, LookupError):
    """An unknown name: the message suggests close known names (or says how many there are)."""

    what = 'name'

    def __init__(self, name: str, known, what: str | None = None, hint: str = ''):
        self.name = name
        known = sorted(known)
        self.suggestions = tuple(difflib.get_close_matches(str(name), known, n=3))
        what = what or self.what
        if self.suggestions:
            valid = 'did you mean ' + ', '.join(self.suggestions) + '?'
        elif len(known) <= 12 and not hint:
            valid = f"known: {', '.join(known) or 'none'}"
        else:
            valid = f'no close match among the {len(known)} known {what} names'
        super().__init__(f'unknown {what} {name!r}; {valid}' + (f' ({hint})' if hint else ''))


class UnknownLink(_UnknownName):
    what = 'link'


class UnknownJoint(_UnknownName):
    what = 'joint'


class UnknownPart(_UnknownName):
    what = 'part instance'


class UnknownSlot(_UnknownName):
    """``name`` is the slot key ``<of>/<slot>``; ``of`` and ``slot`` are its halves."""

    what = 'slot'

    def __init__(self, of: str, slot: str, key: str, slots: dict):
        self.of, self.slot = of, slot
        own = sorted(s.name for s in slots.values() if s.of == of)
        hint = f"{of} has slots {', '.join(own)}" if own else ''
        super().__init__(key, slots, hint=hint)


class NoParentJoint(VehicleError):
    """Asked for the parent joint of the root link: the signal that a walk up has ended."""

    def __init__(self, link: str):
        self.name = self.link = link
        super().__init__(f'link {link!r} is the root link: it has no parent joint')


class NotAnAncestor(VehicleError):
    """
    ``path_between`` with a source that is not above the target.

    ``common_ancestor`` is the nearest link above both, the source the caller probably meant.
    """

    def __init__(self, source: str, target: str, common_ancestor: str):
        self.name = self.source = source
        self.target, self.common_ancestor = target, common_ancestor
        super().__init__(f'link {source!r} is not an ancestor of {target!r}; their nearest '
                         f'common ancestor is {common_ancestor!r} (path_between'
                         f'({common_ancestor!r}, {target!r}) gives a path)')


# -- Physics, pictures and the ROS side


class HydrostaticsError(BlueRoboticsPartsError):
    """The vehicle cannot be floated: a geometry we cannot measure, or too heavy to float."""


class StabilityError(BlueRoboticsPartsError):
    """No upright rest found (the vehicle sinks, or the iteration does not settle)."""


class EchosounderError(BlueRoboticsPartsError):
    """Echosounder parameters that cannot describe a ranger."""


class PressureError(BlueRoboticsPartsError):
    """Pressure sensor parameters that cannot describe one."""


class CommandError(BlueRoboticsPartsError):
    """
    A command or reading that is not a number (NaN, infinite): nothing is made from it.

    The allocation raises it for a wrench, effort or throttle with such a component, the
    pressure arithmetic for such a pose; the nodes drop that message with a throttled warning.
    """


class NodeParameterError(BlueRoboticsPartsError):
    """A node parameter outside what the node can take (named, with what would be valid)."""


class SceneError(BlueRoboticsPartsError):
    """A visual that cannot be drawn (a mesh not found or not STL, a geometry we lack)."""


class MissingLibrary(BlueRoboticsPartsError):
    """A library the picture needs is not installed."""


class AutopilotError(BlueRoboticsPartsError):
    """ArduPilot SITL cannot be started: its program or its defaults are not found."""


class LaunchArgumentError(BlueRoboticsPartsError):
    """A launch argument value that cannot be used."""


class ArtefactError(BlueRoboticsPartsError):
    """The artefact folder cannot be written."""
