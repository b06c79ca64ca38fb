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

"""Reading a URDF's links and joints as one tree, with clear errors when it is not one."""

from __future__ import annotations

import difflib
import math

from ..errors import VehicleError


def tree(links: dict, joints: dict) -> tuple[str, list[str]]:
    """Return the root and the links depth first; VehicleError unless the joints form one tree."""
    if not links:
        raise VehicleError('the URDF has no links')
    parent_of = {}
    for joint in joints.values():
        for end in (joint.parent, joint.child):
            require_link(end, links, f'joint {joint.name}')
        if joint.child in parent_of:
            raise VehicleError(f'link {joint.child!r} has two parent joints, '
                               f'{parent_of[joint.child]!r} and {joint.name!r}: a URDF is a '
                               'tree, every link but the root has exactly one')
        parent_of[joint.child] = joint.name
    roots = [name for name in links if name not in parent_of]
    if len(roots) > 1:
        raise VehicleError(f"{len(roots)} root links ({', '.join(roots)}): a URDF is one tree; "
                           'every link but the root needs a parent joint')
    if not roots:
        raise VehicleError('no root link: every link is the child of a joint, so the joints '
                           f'form a cycle ({cycle(next(iter(links)), parent_of, joints)})')
    children = {name: [] for name in links}
    for joint in joints.values():
        children[joint.parent].append(joint.child)
    order, stack = [], [roots[0]]
    while stack:
        name = stack.pop()
        order.append(name)
        stack.extend(reversed(children[name]))
    if len(order) < len(links):
        stray = next(name for name in links if name not in set(order))
        raise VehicleError(f'links not reachable from the root {roots[0]!r}: the joints form a '
                           f'cycle ({cycle(stray, parent_of, joints)})')
    return roots[0], order


def cycle(start: str, parent_of: dict, joints: dict) -> str:
    """Return ``a -> b -> a`` (parent to child) for the cycle above ``start``."""
    seen = [start]
    while (link := joints[parent_of[seen[-1]]].parent) not in seen:
        seen.append(link)
    loop = seen[seen.index(link):]
    return ' -> '.join(reversed(loop + [loop[0]])) if len(loop) > 1 else f'{link} -> {link}'


def unique(elements, tag: str) -> dict:
    found = {}
    for element in elements:
        name = element.get('name')
        if not name:
            raise VehicleError(f'a <{tag}> without a name')
        if name in found:
            raise VehicleError(f'two <{tag}> elements are named {name!r}')
        found[name] = element
    return found


def require_link(name: str, links: dict, who: str) -> None:
    if name not in links:
        close = difflib.get_close_matches(name, list(links), n=3)
        raise VehicleError(f'{who} names link {name!r}, which the URDF does not define'
                           + (f" (close: {', '.join(close)})" if close else ''))


def floats(element, attribute: str, count: int, what: str, default=(0.0, 0.0, 0.0)) -> tuple:
    text = element.get(attribute) if element is not None else None
    if text is None:
        return tuple(default)
    try:
        values = tuple(float(v) for v in text.split())
    except ValueError:
        values = ()
    if len(values) != count or not all(math.isfinite(v) for v in values):
        raise VehicleError(f'{what}: {attribute}={text!r} is not {count} finite number(s)')
    return values
