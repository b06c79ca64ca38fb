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
Where in the catalogue a slot or a part is, for the messages of a slot that is not there.

A newcomer writes ``{slot: dvl, type: dvl_a50}`` on the BlueROV2 (the DVL's slot is the payload
skid's), ``thruster_7`` on the standard frame (the Heavy's), ``sonar`` without a ROV base, or a
propeller of the wrong hand. The resolution's messages (resolution.py) end with what these
return: which part types have the slot and how to reach them (a base: ``base: {type: ...}``;
another part: the slot it goes in, then ``of:``), where a part fits, and why a slot takes the
other propeller hand. urdf/lib/helpers.xacro has the same rules with the same words
(bp_slot_hint, bp_fit_hint), so both resolvers stop with the same message.
"""

from __future__ import annotations

#: A base part is one with Gazebo hydrodynamics: the root of a vehicle (the BlueBoat's chassis,
#: the BlueROV2 frames).
BASE_SECTION = 'hydrodynamics'
#: At most this many part types are described in one hint (the rest counted).
SHOWN = 3


def base_types(catalogue) -> list:
    """Return the part types that are a vehicle's base, sorted."""
    return [t for t in catalogue.types() if catalogue[t].data.get(BASE_SECTION)]


def places(catalogue, type_name: str) -> list:
    """Return (slot, carrier type) of every catalogue slot that accepts ``type_name``, sorted."""
    return sorted((name, carrier) for carrier in catalogue.types()
                  for name, spec in (catalogue[carrier].data.get('slots') or {}).items()
                  if type_name in (spec.get('accepts') or []))


def places_text(pairs: list, listing) -> str:
    """Return ``slot payload of bluerov2_frame, bluerov2_heavy_frame or slot ...``."""
    slots = sorted({slot for slot, _ in pairs})
    shown = [f'slot {slot} of ' + listing([c for s, c in pairs if s == slot])
             for slot in slots[:SHOWN]]
    more = f' or {len(slots) - SHOWN} more slots' if len(slots) > SHOWN else ''
    return ' or '.join(shown) + more


def slot_hint(catalogue, slot: str, carrier_type: str, listing) -> str:
    """
    Return where a slot the carrier lacks is in the catalogue ('' when nowhere).

    ``listing``: the resolver's bounded listing of names (resolution._listing).
    """
    owners = [t for t in catalogue.types() if t != carrier_type
              and slot in (catalogue[t].data.get('slots') or {})]
    if not owners:
        return ''
    bases = [t for t in owners if catalogue[t].data.get(BASE_SECTION)]
    others = [t for t in owners if not catalogue[t].data.get(BASE_SECTION)]
    near = [t for t in others if any(c == carrier_type for _, c in places(catalogue, t))]
    far = [t for t in others if t not in near]
    shown = (near + far)[:SHOWN]
    clauses = [_owner_clause(catalogue, t, listing) for t in near if t in shown]
    if bases:
        clauses.append(f"of the base{'s' if len(bases) > 1 else ''} {listing(bases)} "
                       f'(start the config with base: {{type: {bases[0]}}})')
    clauses += [_owner_clause(catalogue, t, listing) for t in far if t in shown]
    if len(others) > SHOWN:
        clauses.append(f'of {len(others) - SHOWN} more part types')
    return f'{slot} is a slot ' + ' and '.join(clauses)


def _owner_clause(catalogue, type_name: str, listing) -> str:
    """Return ``of T, which goes in slot S of C (how to fit it, then of: S)``."""
    pairs = places(catalogue, type_name)
    if not pairs:
        return (f'of {type_name}, which no slot takes (place it freely, then give this entry '
                'of: its name)')
    first, carrier = pairs[0]
    default = (catalogue[carrier].data['slots'][first].get('default') or 'none') == type_name
    how = (f'there by default: give this entry of: {first}' if default else
           f'fit it with {{slot: {first}, type: {type_name}}}, then give this entry of: '
           f'{first}')
    return f'of {type_name}, which goes in {places_text(pairs, listing)} ({how})'


def fit_hint(catalogue, type_name: str, slot: str, carrier_type: str, accepts,
             listing) -> str:
    """
    Return why a slot refuses a part and where it fits ('' when nothing is to be said).

    A propeller of the hand the slot does not take: the slot takes the other hand, since the
    two propellers of a pair turn opposite ways so that their torques cancel. Then the slots
    that take the part: on this carrier if any, else anywhere (with the base to choose when
    they are all bases').
    """
    if type_name not in catalogue:
        return ''
    clauses = []
    hand = (catalogue[type_name].data.get('propeller') or {}).get('rotation')
    hands = sorted({(catalogue[t].data.get('propeller') or {}).get('rotation')
                    for t in accepts if t in catalogue} - {None})
    if hand and hands and hand not in hands:
        clauses.append(f"slot {slot} takes {'/'.join(hands)} propellers and {type_name} turns "
                       f'{hand}: the two propellers of a pair turn opposite ways, so that their '
                       'torques cancel')
    pairs = [pair for pair in places(catalogue, type_name) if pair != (slot, carrier_type)]
    here = [pair for pair in pairs if pair[1] == carrier_type]
    shown = here or pairs
    if shown:
        bases = sorted({c for _, c in shown})
        base = (f' (start the config with base: {{type: {bases[0]}}})'
                if not here and all(catalogue[c].data.get(BASE_SECTION) for c in bases) else '')
        clauses.append(f'{type_name} goes in {places_text(shown, listing)}{base}')
    else:
        clauses.append(f'no slot takes {type_name}: place it freely (an entry without slot:, '
                       'with name: and xyz:)')
    return '; '.join(clauses)
