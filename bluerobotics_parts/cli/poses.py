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
Where everything is: ``tree --poses`` and ``tree --format json``.

Each instance, slot frame and part frame of a resolved config, posed in its parent link (its
joint's origin, as TF has it) and in the root link (every joint at zero, model/kinematics.py),
read from the URDF and its record.
"""

from __future__ import annotations

import json
import re

from .report import number_text, pose_text, tree_text
from ..model import kinematics
from ..model.vehicle import Vehicle


def link_poses(resolved) -> dict:
    """Return link -> (parent link or None, pose in the parent link, pose in the root link)."""
    return {link: entry[:3] for link, entry in _posed(resolved).items()}


def _posed(resolved) -> dict:
    """Return link -> (parent link or None, pose in parent, pose in root, its joint or None)."""
    vehicle = Vehicle.from_tree(resolved.tree, resolved.record, resolved.catalogue())
    in_root = kinematics.link_poses(vehicle)
    table = {vehicle.root_link: (None, kinematics.Pose(), in_root[vehicle.root_link], None)}
    for joint in vehicle.joints_in_order():
        table[joint.child] = (joint.parent, kinematics.Pose.from_xyz_rpy(joint.xyz, joint.rpy),
                              in_root[joint.child], joint)
    return table


def _both(parent, in_parent, in_root, joint, root: str) -> str:
    """Return the pose in the root, then in the parent link unless that is its origin."""
    text = f'in {root}: {pose_text(in_root.translation, in_root.rpy)}'
    if parent is not None and parent != root and _pose(in_parent) != _pose(kinematics.Pose()):
        text += f'; in {parent}: {pose_text(in_parent.translation, in_parent.rpy)}'
    return text + motion_text(joint)


def motion_text(joint) -> str:
    """Return how a moving joint moves its child ('' for a fixed one), as the poses show it."""
    if joint is None or joint.type == 'fixed':
        return ''
    axis = ' '.join(number_text(v) for v in joint.axis or (1.0, 0.0, 0.0))
    text = f'; {joint.type} about ({axis})' if joint.type != 'prismatic' else \
        f'; prismatic along ({axis})'
    if joint.limits is not None:
        unit = 'm' if joint.type == 'prismatic' else 'rad'
        limits = joint.limits
        text += (f' from {number_text(limits.lower)} to {number_text(limits.upper)} {unit}, '
                 f'effort {number_text(limits.effort)}, velocity '
                 f'{number_text(limits.velocity)} {unit}/s')
    return text + ' (poses at 0)'


def tree_with_poses(resolved) -> str:
    """Return the tree of ``tree`` with each item's pose in the root link and its parent."""
    table = _posed(resolved)
    root = resolved.record.base.name
    lines = {link: _both(*entry, root) for link, entry in table.items() if entry[0] is not None}
    return tree_text(resolved.record, resolved.catalogue(), poses=lines)


def _pose(pose) -> dict:
    return {'xyz': [float(number_text(v)) for v in pose.translation],
            'rpy': [float(number_text(v)) for v in pose.rpy]}


def tree_json(resolved) -> str:
    """
    Return the resolved assembly as JSON, for scripts.

    ``instances`` (record order: name, type, parent link, of/slot or placed), ``slots`` (of,
    name, link, occupant) and ``frames`` (of, name, link), each with ``pose_in_parent`` and
    ``pose_in_root`` (xyz m, rpy rad, rounded to 0.1 mm / 0.1 mrad; with every joint at 0),
    and, where the link's joint moves, ``joint`` (name, type, axis, and for a revolute or
    prismatic one its limits: lower, upper, effort, velocity).
    """
    table = _posed(resolved)
    record = resolved.record

    def posed(link: str) -> dict:
        parent, in_parent, in_root, joint = table[link]
        found = {'link': link, 'parent_link': parent, 'pose_in_parent': _pose(in_parent),
                 'pose_in_root': _pose(in_root)}
        if joint is not None and joint.type != 'fixed':
            found['joint'] = {'name': joint.name, 'type': joint.type,
                              'axis': list(joint.axis or (1.0, 0.0, 0.0))}
            if joint.limits is not None:
                found['joint']['limits'] = {key: getattr(joint.limits, key) for key in
                                            ('lower', 'upper', 'effort', 'velocity')}
        return found

    occupants = {(p.of, p.slot): p.name for p in record.parts if p.slot}
    document = {
        'vehicle': record.robot_name,
        'root_link': record.base.name,
        'instances': [{'name': p.name, 'type': p.type, 'of': p.of or None,
                       'slot': p.slot or None, 'placed': p.is_placement, **posed(p.name)}
                      for p in record.parts],
        'slots': [{'of': s.of, 'name': s.name, 'occupant': occupants.get((s.of, s.name)),
                   **posed(s.link)} for s in record.slots],
        'frames': [{'of': f.of, 'name': f.name, **posed(f.link)} for f in record.frames],
    }
    text = json.dumps(document, indent=2)
    # a vector on one line: "xyz": [0.1, 0.0, -0.2]
    return re.sub(r'\[\n\s+([^\[\]{}]*?)\n\s+\]',
                  lambda match: '[' + ' '.join(match.group(1).split()) + ']', text) + '\n'


def tree_mermaid(resolved) -> str:
    """
    Return the TF tree as a Mermaid flowchart (what robot_state_publisher and odometry publish).

    One node per URDF link, named by its TF frame (topics.frame_id), the vehicle's odom frame
    above the root (the OdometryPublisher's transform, bridged to /tf); edges carry the joint
    type. Slot frames, empty slots and part frames are styled apart, as the picture draws them.
    """
    from ..model.topics import frame_id

    vehicle = Vehicle.from_tree(resolved.tree, resolved.record, resolved.catalogue())
    name, record = resolved.name, resolved.record
    kinds = {slot.link: 'slot' if slot.occupant else 'empty' for slot in vehicle.slots.values()}
    kinds.update({frame.link: 'frame' for frame in record.frames})
    odom = frame_id(name, 'odom')
    lines = ['graph TD', f'  n__odom(["{odom}"]):::odom',
             f'  n__odom -->|"odometry (gz, /tf)"| n_{vehicle.root_link}']
    for link in vehicle.links_in_order():
        kind = kinds.get(link.name, 'part')
        lines.append(f'  n_{link.name}["{frame_id(name, link.name)}"]:::{kind}')
    for joint in vehicle.joints_in_order():
        lines.append(f'  n_{joint.parent} -->|{joint.type}| n_{joint.child}')
    lines += ['  classDef odom fill:#eef3fb,stroke:#4678c8',
              '  classDef part fill:#ffffff,stroke:#222',
              '  classDef slot fill:#f2f2f2,stroke:#222,stroke-dasharray:3',
              '  classDef empty fill:#ffffff,stroke:#999,stroke-dasharray:3,color:#777',
              '  classDef frame fill:#f6e8f8,stroke:#a03caa']
    return '\n'.join(lines) + '\n'
