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
Kinds of values a config or a part file holds, declared once for the loader and the schema.

config.py and part_format.py declare each key's kind with these (``PROPELLER_FIELDS`` ...);
their checkers take the keys, and for plain values the check (``Kind.complaint``), from those
declarations, and assembly/schema.py turns them into JSON Schema (draft-07, what the YAML
language server reads). A kind's schema never refuses what its check accepts;
test/assembly/test_schema.py holds the two together over mutations of every shipped file.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
import re
from typing import Callable

from .vectors import DECIMAL, is_number
from ..errors import shown

DRAFT = 'http://json-schema.org/draft-07/schema#'


@dataclass(frozen=True)
class Kind:
    """A kind of value: its JSON Schema fragment and, for a plain value, the loader's check."""

    schema: dict
    check: Callable | None = None  # value -> complaint ('must be ..., got 1') or None
    fields: dict = field(default_factory=dict)  # a mapping's keys -> their kinds
    role: str = ''  # a check only the value's owner can make ('frame': one of its part's)

    def complaint(self, value) -> str | None:
        """Return what is wrong with ``value`` ('must be a number, got 'x''), or None."""
        return self.check(value) if self.check else None

    def described(self, text: str) -> 'Kind':
        """Return the kind with a description (shown by editors on hover and completion)."""
        return replace(self, schema={**self.schema, 'description': text})

    def or_empty(self) -> 'Kind':
        """Return the kind that also takes an empty YAML value (``slots:`` alone: none)."""
        return replace(self, schema={**self.schema, 'type': [self.schema['type'], 'null']})

    def forbidding(self, *values) -> 'Kind':
        """Return the kind without ``values`` (a part type is a name, but not none)."""
        refused = [{'enum': list(values)}] + ([self.schema['not']] if 'not' in self.schema
                                              else [])
        check = self.check

        def narrower(value):
            return 'must not be ' + ' or '.join(values) if value in values else check(value)

        return replace(self, schema={**self.schema, 'not': {'anyOf': refused}}, check=narrower)


#: The largest magnitude of a number of part data. The units are SI (kg, m, N, Hz) and the parts
#: are carried by hand: a value beyond it is a slip (1e300 N), and every figure from it noise.
PART_LIMIT = 1e9
PART_LIMIT_TEXT = '1e9'  # as a reader writes it


def is_real(value) -> bool:
    """Return whether ``value`` is a number of part data: vectors.py's rule, text excluded."""
    return not isinstance(value, str) and is_number(value) and abs(value) <= PART_LIMIT


def _past_limit(value) -> bool:
    """Whether ``value`` is a number (not text) beyond PART_LIMIT."""
    return not isinstance(value, str) and is_number(value) and abs(value) > PART_LIMIT


def not_a_number(value) -> str:
    """Return why ``value`` is not a number of part data (say ``must be ...``)."""
    if _past_limit(value):
        return f'must be within -{PART_LIMIT_TEXT} and {PART_LIMIT_TEXT}, got {shown(value)}'
    if isinstance(value, str) and DECIMAL.match(value.strip()):
        if re.search('[eE]', value) and not re.fullmatch(r'\s*[+-]?\d+\.\d*[eE][+-]\d+\s*',
                                                         value):
            return (f'must be a number, got the text {shown(value)}: YAML 1.1 reads an '
                    'exponent as a number only with a point and a sign (1.0e+3, 2.0e-3)')
        return f'must be a number, got the text {shown(value)} (write it without quotes)'
    return f'must be a number, got {shown(value)}'


def beyond(value) -> str:
    """Return ' within ...' when a list holds a number past PART_LIMIT (else nothing)."""
    past = isinstance(value, list) and any(map(_past_limit, value))
    return f' within -{PART_LIMIT_TEXT} and {PART_LIMIT_TEXT}' if past else ''


def number(positive: bool = False, nonnegative: bool = False) -> Kind:
    def check(value):
        if not is_real(value):
            return not_a_number(value)
        if positive and value <= 0:
            return f'must be positive, got {shown(value)}'
        if nonnegative and value < 0:
            return f'must not be negative, got {shown(value)}'
        return None

    low = {'exclusiveMinimum': 0} if positive else {'minimum': 0 if nonnegative else -PART_LIMIT}
    schema = {'type': 'number', **low, 'maximum': PART_LIMIT}
    return Kind(schema, check)


def integer(minimum: int, maximum: int) -> Kind:
    def check(value):
        if isinstance(value, bool) or not isinstance(value, int) or \
                not minimum <= value <= maximum:
            return f'must be an integer from {minimum} to {maximum}'
        return None

    return Kind({'type': 'integer', 'minimum': minimum, 'maximum': maximum}, check)


def choice(values, wording: str = '', hint: str = '') -> Kind:
    """One of ``values``; the complaint says ``must be <wording><hint>``."""
    values = tuple(values)
    wording = wording or 'one of ' + ', '.join(values)

    def check(value):
        return None if isinstance(value, str) and value in values else \
            f'must be {wording}{hint}'

    return Kind({'enum': list(values)}, check)


def boolean() -> Kind:
    def check(value):
        return None if isinstance(value, bool) else f'must be true or false, got {shown(value)}'

    return Kind({'type': 'boolean'}, check)


#: Characters text written into URDF attributes must not hold (a newline would not survive).
CONTROL = re.compile(r'[\x00-\x1f\x7f]')


def text() -> Kind:
    """Non-empty text without control characters (it goes into URDF attributes)."""
    def check(value):
        ok = isinstance(value, str) and value and not CONTROL.search(value)
        return None if ok else 'must be non-empty text'

    return Kind({'type': 'string', 'minLength': 1, 'pattern': r'^[^\x00-\x1f\x7f]*$'}, check)


def frame_name() -> Kind:
    """
    Return the kind of a key naming one of its part's frames.

    Only the part knows its frames: part_format checks the name against them (any value that
    is not one is refused there, with the frames listed); the schema asks for text.
    """
    return Kind({'type': 'string', 'minLength': 1}, role='frame').described(
        "one of the part's frames")


def string() -> Kind:
    """Return the kind of non-empty text: how a config names slots, instances and types."""
    def check(value):
        return None if isinstance(value, str) and value else 'must be a non-empty string'

    return Kind({'type': 'string', 'minLength': 1}, check)


def vector(positive: bool = False) -> Kind:
    """Three numbers as a list (part data; a config's vectors are config.VECTOR)."""
    def check(value):
        if not isinstance(value, list) or len(value) != 3 or not all(map(is_real, value)):
            return f'must be a list of three numbers{beyond(value)}, got {shown(value)}'
        if positive and min(value) <= 0:
            return 'sizes must be positive'
        return None

    low = {'exclusiveMinimum': 0} if positive else {'minimum': -PART_LIMIT}
    item = {'type': 'number', **low, 'maximum': PART_LIMIT}
    return Kind({'type': 'array', 'items': item, 'minItems': 3, 'maxItems': 3}, check)


def pattern(regex: str, check: Callable, **schema) -> Kind:
    """Return the kind of a string matching ``regex`` (ECMA-262 and Python alike)."""
    return Kind({'type': 'string', 'pattern': regex, **schema}, check)


def anything() -> Kind:
    """Return the kind of a value the loader does not check (free notes, dimensions)."""
    return Kind({})


def list_of(item: Kind, **schema) -> Kind:
    return Kind({'type': 'array', 'items': item.schema, **schema})


def mapping(fields: dict, required=(), annotations: str | None = None,
            exactly_one_of=(), rule: dict | None = None) -> Kind:
    """
    Return the kind of a mapping with the keys of ``fields`` (and notes), nothing else.

    ``annotations``: a regular expression of note keys (``mass_source``) also allowed.

    ``exactly_one_of``: keys of which exactly one must be present (a geometry's shape).
    ``rule``: a JSON Schema if/then/else between keys (a limited joint needs its limits).
    """
    schema = {'type': 'object',
              'properties': {key: kind.schema for key, kind in fields.items()},
              'additionalProperties': False}
    if annotations:
        schema['patternProperties'] = {annotations: {}}
    if required:
        schema['required'] = list(required)
    if exactly_one_of:
        schema['oneOf'] = [{'required': [key]} for key in exactly_one_of]
    if rule:
        schema.update(copy.deepcopy(rule))
    return Kind(schema, fields=dict(fields))


def named(name: Kind, value: Kind) -> Kind:
    """Return the kind of a mapping from names to values of one kind (slots, frames)."""
    return Kind({'type': 'object', 'propertyNames': name.schema,
                 'additionalProperties': value.schema})


def keyed(regex: str, value: Kind, annotations: str | None = None) -> Kind:
    """Return the kind of a mapping with keys matching ``regex`` (hydrodynamics)."""
    properties = {regex: value.schema}
    if annotations:
        properties[annotations] = {}
    return Kind({'type': 'object', 'patternProperties': properties,
                 'additionalProperties': False})
