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
The vehicle model's errors: one type per way a query can fail, all VehicleError.

A caller walking up the tree can tell "this is the root" (NoParentJoint) from "no such link"
(UnknownLink); the Unknown* errors suggest close names.
"""

from __future__ import annotations

import difflib

from ..errors import BlueRoboticsPartsError


def slot_key(of: str, name: str) -> str:
    """Return the key of a slot in ``Vehicle.slots``."""
    return f'{of}/{name}'


# -- the model -----------------------------------------------------------------------------------


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

    def __init__(self, of: str, slot: str, slots: dict):
        self.of, self.slot = of, slot
        own = sorted(s.name for s in slots.values() if s.of == of)
        hint = f"{of} has slots {', '.join(own)}" if own else ''
        super().__init__(slot_key(of, slot), slots, hint=hint)


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
