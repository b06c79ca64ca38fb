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
How a slot or a frame may move: its joint kind and, for a limited joint, its limits.

One rule for a part's slots and frames (part_format.py) and a config's ad hoc slots
(config.py): URDF's joint types less floating and planar, and the ``<limit>`` that URDF
requires of a revolute or prismatic joint (ros/urdfdom, urdf_parser/src/joint.cpp,
parseJoint): lower below upper, effort and velocity positive.
"""

from __future__ import annotations

from . import value_kinds as kinds
from ..errors import shown

#: fixed: rigid; continuous: turns without end (a propeller); the limited ones need limits.
JOINTS = ('fixed', 'continuous', 'revolute', 'prismatic')
LIMITED_JOINTS = ('revolute', 'prismatic')
_POSITIVE = kinds.number(positive=True)
LIMITS_FIELDS = {'lower': kinds.number().described('rad (revolute) or m (prismatic)'),
                 'upper': kinds.number().described('rad or m, above lower'),
                 'effort': _POSITIVE.described('N m or N, the most the actuator exerts'),
                 'velocity': _POSITIVE.described('rad/s or m/s, the fastest it moves')}
LIMITS_KEYS = tuple(LIMITS_FIELDS)
NEEDS_LIMITS = '{lower, upper, effort, velocity} (rad or m, N m or N, per second)'
#: limits_problems' first rules as JSON Schema: limits with a limited joint and only then
#: (copy it before changing it: several schemas take it).
LIMITS_SCHEMA_RULE = {
    'if': {'properties': {'joint': {'enum': list(LIMITED_JOINTS)}}, 'required': ['joint']},
    'then': {'required': ['limits']},
    'else': {'not': {'required': ['limits']}},
}


#: ``limits`` given as null, told apart from left out (None): item.get('limits', None) is
#: None either way, so callers pass ``given_limits(item)``.
NULL = object()


def given_limits(item: dict):
    """Return a slot's or frame's limits: None when left out, NULL when written as null."""
    return NULL if 'limits' in item and item['limits'] is None else item.get('limits')


def limits_problems(joint, limits, what: str, notes=None) -> list:
    """
    Return (sub-path, message) for each way ``limits`` does not fit ``joint``.

    ``what`` names the slot or frame. ``notes``: (is_note, hint) where extra keys may be notes
    (a part file's ``<key>_source``): is_note(key) says which, the hint is added to the
    message naming an unknown key. The sub-paths start at the slot or frame.
    """
    is_note, hint = notes or ((lambda key: False), '')
    if limits is NULL:  # written and empty (``limits:`` or ``limits: null``), as the schema says
        return [(('limits',), f'{what} limits must be a mapping {NEEDS_LIMITS}, got null')]
    if joint in LIMITED_JOINTS and limits is None:
        return [(('joint',), f'{what}: a {joint} joint needs limits: {NEEDS_LIMITS}')]
    if limits is None:
        return []
    if joint not in LIMITED_JOINTS:
        return [(('limits',), f'{what}: limits apply to a revolute or prismatic joint, not '
                              f'{shown(joint)}')]
    if not isinstance(limits, dict):
        return [(('limits',), f'{what} limits must be a mapping')]
    found = [(('limits', key), f'{what} limits has no key {shown(key)}; valid keys: '
                               f"{', '.join(LIMITS_KEYS)}{hint}")
             for key in limits if key not in LIMITS_FIELDS and not is_note(key)]
    for key, kind in LIMITS_FIELDS.items():
        if key not in limits:
            found.append((('limits',), f'{what} limits need {key}'))
        elif kind.complaint(limits[key]):
            found.append((('limits', key), f'{what} limits {key} {kind.complaint(limits[key])}'))
    low, high = limits.get('lower'), limits.get('upper')
    if kinds.is_real(low) and kinds.is_real(high) and not low < high:
        found.append((('limits', 'lower'), f'{what} limits: lower must be below upper (got '
                                           f'{float(low):g} and {float(high):g})'))
    return found
