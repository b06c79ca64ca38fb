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
The vehicle model: a resolved URDF as flat name maps plus topology queries.

It answers "which joint drives motor_port?", "which part carries ping_beam?", "what lies
between the mount and the beam?" from the URDF and its assembly record alone (nothing
re-resolves a config), every value a float in SI units, with one exception type per way a
query can fail, so a caller walking up the tree can tell "this is the root" (NoParentJoint)
from "no such link" (UnknownLink). Its conventions: ``Vehicle``.
"""

from __future__ import annotations

from dataclasses import dataclass
import math
from xml.etree import ElementTree

from . import topics
from .urdf_tree import floats, require_link, tree, unique
from ..assembly import catalogue as part_catalogue, record as assembly_record
from ..errors import (BlueRoboticsPartsError, NoParentJoint, NotAnAncestor, UnknownJoint,
                      UnknownLink, UnknownPart, UnknownSlot, VehicleError)
from ..formats.sensor_kinds import KINDS

# -- records -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Link:
    name: str
    parent_joint: str | None  # None for the root
    child_joints: tuple  # joint names, document order
    mass: float  # kg (0.0 for a massless frame link)
    com: tuple  # centre of mass in the link frame, m
    inertia: tuple  # (ixx, ixy, ixz, iyy, iyz, izz) about the com, kg m^2
    part: str  # the part instance the link belongs to


@dataclass(frozen=True)
class Joint:
    name: str
    type: str  # noqa: A003 (the part type)
    parent: str  # link
    child: str  # link
    xyz: tuple  # m
    rpy: tuple  # rad
    axis: tuple | None  # None for fixed / floating; URDF's default (1, 0, 0) otherwise
    limits: Limits | None = None  # a revolute or prismatic joint's <limit>

    @property
    def origin(self) -> tuple:
        return self.xyz, self.rpy


@dataclass(frozen=True)
class Limits:
    """A joint's <limit>: its range (rad or m), effort (N m or N) and velocity (per second)."""

    lower: float
    upper: float
    effort: float
    velocity: float


@dataclass(frozen=True)
class Part:
    name: str  # instance name, also its link
    type: str  # noqa: A003 (the part type)
    parent: str | None  # link its joint hangs from; None for the base
    of: str | None  # carrying instance, for a slot's occupant
    slot: str | None  # slot it fills, for a slot's occupant
    link: str
    joint: str | None  # its own joint; None for the base


@dataclass(frozen=True)
class Slot:
    key: str  # "<of>/<name>"
    of: str
    name: str
    link: str  # "<of>_<name>", the slot frame
    occupant: str | None  # instance name, None when empty


@dataclass(frozen=True)
class Actuator:
    """A fitted propeller part and the joint that spins it."""

    name: str
    joint: str | None
    type: str  # noqa: A003 (the part type)
    rotation: str  # cw / ccw, seen from astern while pushing forward
    diameter: float  # m
    max_thrust: float  # N
    min_thrust: float  # N (negative: reverse)
    thrust_coefficient: float  # the gz Thruster's: the part's Kt, + for cw, - for ccw
    max_angular_velocity: float | None  # rad/s at max_thrust (the part data's rpm, in SI)


@dataclass(frozen=True)
class Sensor:
    """
    A sensor (or light) of a fitted part: one section of its kind (formats/sensor_kinds.py).

    Keyed ``<instance>/<what>`` (``ping/scan``, ``navigator/imu``), like its ROS topic
    ``/<vehicle>/<instance>/<what>``.
    """

    name: str  # "<instance>/<what>"
    kind: str  # the part-data section: echosounder, imu, magnetometer, navsat, camera, ...
    part: str  # the instance carrying it
    type: str  # noqa: A003 (the part type)
    link: str  # the link it sits on: its section's frame
    frames: dict  # the section's other frame keys -> links (a camera's optical frame)
    values: dict  # its part data, SI units (provenance notes left out)

    @property
    def frame(self) -> str:
        """Return the link it sits on (an echosounder's beam starts there, along +x)."""
        return self.link


class Vehicle:
    """
    Flat maps of a resolved vehicle and the queries over its tree.

    * Every map is keyed by name; ``links`` and ``joints`` are in traversal order (depth first
      from the root, children in document order), so iterating them is deterministic.
    * ``slots`` is keyed ``"<of>/<slot>"`` (see ``slot_key``): unambiguous, unlike the slot
      link name ``<of>_<slot>``, since names never contain ``/``.
    * Queries return records (Link, Joint, Part, Slot); paths are lists of names, links and
      joints interleaved. An unknown name anywhere raises the Unknown* error of what was asked
      for; ``path_to`` takes a link or a joint and raises UnknownLink for a name that is
      neither.
    """

    def __init__(self, name, root, links, joints, parts, slots, actuators, sensors, lights=None):
        self.name = name
        self._root = root
        self.links: dict[str, Link] = links
        self.joints: dict[str, Joint] = joints
        self.parts: dict[str, Part] = parts
        self.slots: dict[str, Slot] = slots
        self.actuators: dict[str, Actuator] = actuators
        self.sensors: dict[str, Sensor] = sensors  # "<instance>/<what>" -> Sensor
        self.lights: dict[str, Sensor] = lights or {}  # the same, for lights

    @classmethod
    def from_urdf(cls, urdf: str | bytes, folder=None) -> 'Vehicle':
        """
        Build the model from resolved URDF text (with its record).

        Raises VehicleError when the links and joints are not one tree; RecordError without a
        record. ``folder``: the URDF file's folder, for the record's relative part file paths.
        """
        robot = assembly_record.parse_urdf(urdf)
        record = assembly_record.read(robot, folder)
        return cls.from_tree(robot, record, part_catalogue.catalogue(
            [path for _, path in record.part_files]))

    @classmethod
    def from_tree(cls, robot: ElementTree.Element, record, catalogue,
                  names=None) -> 'Vehicle':
        """
        Build the model from a URDF tree already parsed (or written).

        With its record, the part catalogue it was resolved with and, from a build, its topic
        names (model/topics.py): nothing is read or named again.
        """
        return _build(robot, record, catalogue, names)

    def __repr__(self) -> str:
        return (f'<Vehicle {self.name}: {len(self.links)} links, {len(self.joints)} joints, '
                f'{len(self.parts)} parts>')

    @property
    def root_link(self) -> str:
        return self._root

    @property
    def total_mass(self) -> float:
        return sum(link.mass for link in self.links.values())

    # -- getters

    def link(self, name: str) -> Link:
        return _get(self.links, name, lambda: UnknownLink(name, self.links))

    def joint(self, name: str) -> Joint:
        return _get(self.joints, name, lambda: UnknownJoint(name, self.joints))

    def part(self, name: str) -> Part:
        return _get(self.parts, name, lambda: UnknownPart(name, self.parts))

    def slot(self, of: str, name: str) -> Slot:
        key = slot_key(of, name)
        return _get(self.slots, key, lambda: UnknownSlot(of, name, key, self.slots))

    # -- topology

    def links_in_order(self) -> list[Link]:
        """Root first; every link after its parent (depth first, children in document order)."""
        return list(self.links.values())

    def joints_in_order(self) -> list[Joint]:
        """Return the joints in the same traversal: each as its child link is reached."""
        return list(self.joints.values())

    def parent_joint(self, link: str) -> Joint:
        joint = self.link(link).parent_joint
        if joint is None:
            raise NoParentJoint(link)
        return self.joints[joint]

    def child_joints(self, link: str) -> list[Joint]:
        return [self.joints[name] for name in self.link(link).child_joints]

    def path_to(self, name: str) -> list[str]:
        """Root to a link or a joint, links and joints interleaved."""
        if name in self.links:
            return self._root_path(name)
        if name in self.joints:
            return self._root_path(self.joints[name].parent) + [name]
        raise UnknownLink(name, set(self.links) | set(self.joints), what='link or joint')

    def path_between(self, source_link: str, target_link: str) -> list[str]:
        """
        Return the path from ``source_link`` down to ``target_link``.

        The source must be an ancestor of the target (or the target itself), otherwise
        NotAnAncestor names the common ancestor.
        """
        self.link(source_link)
        path = self._root_path(self.link(target_link).name)
        links_on_path = path[0::2]
        if source_link in links_on_path:
            return path[2 * links_on_path.index(source_link):]
        above_source = set(self._root_path(source_link)[0::2])
        common = next(link for link in reversed(links_on_path) if link in above_source)
        raise NotAnAncestor(source_link, target_link, common)

    def _root_path(self, link: str) -> list[str]:
        path = [link]
        while (joint := self.links[path[-1]].parent_joint) is not None:
            path += [joint, self.joints[joint].parent]
        return path[::-1]

    # -- parts

    def occupant(self, slot_of: str, slot_name: str) -> Part | None:
        """Return the part filling a slot, None when it is empty."""
        occupant = self.slot(slot_of, slot_name).occupant
        return None if occupant is None else self.parts[occupant]

    def slots_of(self, instance: str) -> list[Slot]:
        """Return the slots a part instance carries, filled or not, in record order."""
        self.part(instance)
        return [slot for slot in self.slots.values() if slot.of == instance]

    def part_of(self, link: str) -> Part:
        """Return the instance a link belongs to (its own link, slot frames, named frames)."""
        return self.parts[self.link(link).part]


# -- building ------------------------------------------------------------------------------------


def slot_key(of: str, name: str) -> str:
    """Return the key of a slot in ``Vehicle.slots``: ``<of>/<name>`` (names never hold /)."""
    return f'{of}/{name}'


def _get(mapping: dict, key: str, error):
    if key in mapping:
        return mapping[key]
    raise error()


def _build(robot: ElementTree.Element, recorded, catalogue, names) -> Vehicle:
    link_elements = unique(robot.findall('link'), 'link')
    joints = {name: _joint(element) for name, element in
              unique(robot.findall('joint'), 'joint').items()}
    root, order = tree(link_elements, joints)
    parent_joint = {joint.child: joint.name for joint in joints.values()}
    children = {name: [] for name in link_elements}
    for joint in joints.values():
        children[joint.parent].append(joint.name)

    for record in recorded.parts:
        require_link(record.name, link_elements, f'part {record.name}')
    parts = {r.name: Part(r.name, r.type, r.parent or None, r.of or None, r.slot or None, r.name,
                          parent_joint.get(r.name)) for r in recorded.parts}
    for record in recorded.slots + recorded.frames:
        require_link(record.link, link_elements, f"the record's {record.name} of {record.of}")
        if record.of not in parts:
            raise VehicleError(f'the record has {record.name} of {record.of!r}, which is '
                               'not a recorded part instance')
    occupants = {slot_key(r.of, r.slot): r.name for r in recorded.parts if r.slot}
    slots = {slot_key(r.of, r.name): Slot(slot_key(r.of, r.name), r.of, r.name, r.link,
                                          occupants.get(slot_key(r.of, r.name)))
             for r in recorded.slots}

    owner = {record.link: record.of for record in recorded.slots + recorded.frames}
    owner.update((name, name) for name in parts)
    links = {}
    for name in order:  # parents first, so a link nobody claims inherits its parent's part
        joint = parent_joint.get(name)
        part = owner.get(name) or (links[joints[joint].parent].part if joint else
                                   recorded.base.name)
        links[name] = _link(link_elements[name], joint, tuple(children[name]), part)
    ordered_joints = {links[name].parent_joint: joints[links[name].parent_joint]
                      for name in order[1:]}
    actuators, sensors, lights = _devices(recorded, parts, catalogue, names)
    return Vehicle(recorded.robot_name or robot.get('name', ''), root, links, ordered_joints,
                   parts, slots, actuators, sensors, lights)


def _devices(recorded, parts: dict, catalogue, names) -> tuple[dict, dict, dict]:
    """Actuators, sensors and lights from the part data of each instance (user parts too)."""
    actuators, sensors, lights = {}, {}, {}
    for part in parts.values():
        if part.type not in catalogue:
            raise VehicleError(f'part {part.name} has type {part.type}, which neither the '
                               "shipped library nor the URDF's recorded part files define")
        if (propeller := catalogue[part.type].propeller) is not None:
            joint = propeller.joint(part.name) if propeller.rotor or part.joint else None
            actuators[part.name] = Actuator(
                part.name, joint, part.type, propeller.rotation, propeller.diameter,
                propeller.max_thrust, propeller.min_thrust, propeller.signed_thrust_coefficient,
                None if propeller.max_rpm is None else propeller.max_rpm * 2.0 * math.pi / 60.0)
    try:
        found = names.sensors if names is not None else topics.sensors_of(
            recorded.robot_name or 'vehicle', recorded, catalogue)
    except BlueRoboticsPartsError as error:
        raise VehicleError(str(error)) from None
    for sensor in found:
        values = catalogue[sensor.type].sensor_sections[sensor.kind]
        record = Sensor(sensor.key, sensor.kind, sensor.instance, sensor.type, sensor.link,
                        dict(sensor.frame_links),
                        {key: _si(value) for key, value in values.items()})
        target = lights if KINDS[sensor.kind].category == 'light' else sensors
        target[sensor.key] = record
    return actuators, sensors, lights


def _si(value):
    """Return a part-data number as a float (frame names and other text as they are)."""
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) \
        else value


def _joint(element) -> Joint:
    name, kind = element.get('name'), element.get('type', '')
    ends = [element.find(end) for end in ('parent', 'child')]
    if any(end is None or not end.get('link') for end in ends):
        raise VehicleError(f'joint {name!r} needs <parent link=.../> and <child link=.../>')
    origin = element.find('origin')
    axis = element.find('axis')
    what = f'joint {name}'
    limit = element.find('limit')
    limits = Limits(*(floats(limit, key, 1, f'{what} limit', default=(0.0,))[0]
                      for key in ('lower', 'upper', 'effort', 'velocity'))) \
        if limit is not None and kind in ('revolute', 'prismatic') else None
    return Joint(name, kind, ends[0].get('link'), ends[1].get('link'),
                 floats(origin, 'xyz', 3, what), floats(origin, 'rpy', 3, what),
                 floats(axis, 'xyz', 3, what, default=(1.0, 0.0, 0.0)) if axis is not None
                 else None if kind in ('fixed', 'floating') else (1.0, 0.0, 0.0), limits)


def _link(element, parent_joint, child_joints, part) -> Link:
    inertial = element.find('inertial')
    mass, com, inertia = 0.0, (0.0, 0.0, 0.0), (0.0,) * 6
    if inertial is not None:
        what = f"link {element.get('name')}"
        mass = floats(inertial.find('mass'), 'value', 1, what, default=(0.0,))[0]
        com = floats(inertial.find('origin'), 'xyz', 3, what)
        moments = inertial.find('inertia')
        inertia = tuple(floats(moments, key, 1, what, default=(0.0,))[0]
                        for key in ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'))
    return Link(element.get('name'), parent_joint, child_joints, mass, com, inertia, part)
