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
Gazebo (gz sim) composition: the resolved URDF plus ``<gazebo>`` extension blocks.

From the part data (never the type names): a Thruster system per propeller, the sensor blocks
(sensor_blocks.py), and for the vehicle a JointStatePublisher, an OdometryPublisher and the
Hydrodynamics system with the base part's coefficients. Every element written is one its system
reads (elements.py); anything else is refused. Massless links that carry a moving joint get
``CARRIER_MASS``: SDFormat's URDF converter drops a massless link and everything below it
(sdformat issue 199). The output is deterministic: blocks in record order, numbers by ``repr``.
"""

from __future__ import annotations

from dataclasses import dataclass
import math
from xml.etree import ElementTree

from . import added_mass, elements, gz_xml
from .elements import (HYDRODYNAMICS, JOINT_POSITION_CONTROLLER, JOINT_STATE_PUBLISHER,
                       ODOMETRY_PUBLISHER, THRUSTER)
from .sensor_blocks import sensor_blocks
from ..assembly.catalogue import Catalogue
from ..assembly.record import AssemblyRecord, ROOT_INERTIA_SUFFIX
from ..assembly.resolution import SPINNING_JOINTS
from ..errors import ConfigError
from ..model.topics import VehicleTopics
from ..physics import propulsion
from ..physics.added_mass import added_mass as gazebo_added_mass
from ..physics.water import SEA_WATER_DENSITY

ADDED_MASS_PREFIXES = tuple(f'{force}Dot' for force in 'xyzkmn')

CARRIER_MASS = 1e-5  # kg, given to massless links that carry a moving joint (see above)
CARRIER_INERTIA = 1e-12  # kg m^2


@dataclass(frozen=True)
class GzRelease:
    """What differs between the Gazebo releases the composition can target."""

    name: str
    sensor_frame_tag: str  # the sensor element naming the frame id of its messages
    ros_distro: str  # the ROS 2 release paired with it (documentation, launch messages)


GZ_RELEASES = {
    # gz-sensors 8 reads a custom <gz_frame_id>; SDFormat 15 (Ionic) made <frame_id> part of
    # the sensor spec and deprecated the custom element.
    'harmonic': GzRelease('harmonic', 'gz_frame_id', 'jazzy'),
    'ionic': GzRelease('ionic', 'frame_id', 'kilted'),
    'jetty': GzRelease('jetty', 'frame_id', 'lyrical'),
}
DEFAULT_GZ_RELEASE = 'harmonic'


def gz_release(name: str | None = DEFAULT_GZ_RELEASE) -> GzRelease:
    """Return the GzRelease of a Gazebo release name (any case); ConfigError lists the valid."""
    if name is None:
        name = DEFAULT_GZ_RELEASE
    key = name.strip().lower() if isinstance(name, str) else None
    if key not in GZ_RELEASES:
        raise ConfigError(f"unknown Gazebo release {name!r}; valid: {', '.join(GZ_RELEASES)} "
                          f'(default {DEFAULT_GZ_RELEASE})')
    return GZ_RELEASES[key]


def compose_tree(root: ElementTree.Element, record: AssemblyRecord, names: VehicleTopics,
                 catalogue: Catalogue, release: GzRelease, current=None,
                 extra: tuple = (), water: float = SEA_WATER_DENSITY,
                 camera=None) -> ElementTree.Element:
    """
    Return a new ``<robot>``: the URDF's elements, carrier links with a mass, the blocks.

    ``root`` (the resolved URDF) is left as it is; its elements are shared, not copied.
    ``names``: the vehicle's topics (model/topics.py, of ``record``). ``current``: a water
    current (x, y, z in m/s, world frame) for the Hydrodynamics system. ``extra``: more
    ``<gazebo>`` blocks (an autopilot's), checked like the others. ``water``: the density of
    the config's water (kg/m^3), the Thrusters' fluid density. ``camera``: a
    sensor_blocks.CameraSetting for every camera, instead of its part's size and rate.
    """
    joints = {j.get('name'): j.get('type') for j in root.findall('joint')}
    limits = propulsion.thrust_limits(record, catalogue)
    blocks = [thruster_block(t, catalogue[t.type].propeller, joints, limits[t.instance], water)
              for t in names.thrusters]
    blocks += sensor_blocks(names, catalogue, release, camera)
    blocks += [joint_control_block(control, joint) for control in names.joint_controls
               for joint in control.joints]
    hydrodynamics = catalogue[record.base.type].hydrodynamics
    blocks += vehicle_blocks(names, hydrodynamics, current)
    if added := gazebo_added_mass(hydrodynamics):
        blocks.append(added_mass.block(names.root_link, added))
    blocks += extra
    for block in blocks:
        unread = elements.unread(block[0])
        if unread:  # a bug here, not in the input: every element must be one Gazebo reads
            raise AssertionError(f"composed elements no Gazebo system reads: {', '.join(unread)}")
    composed = ElementTree.Element(root.tag, root.attrib)
    if any(gz_xml.uses_gz_prefix(block) for block in blocks):
        composed.set(f'xmlns:{gz_xml.GZ_PREFIX}', gz_xml.GZ_NAMESPACE)
    carriers = {id(link) for link in carrier_links(root)}
    composed.extend(_with_mass(child) if id(child) in carriers else child
                    for child in with_root_inertia_split(root, names.root_link))
    composed.extend(blocks)
    return composed


def root_inertia_split(root: ElementTree.Element, link: ElementTree.Element) -> list:
    """
    Return the root link without its ``<inertial>``, and a child link on a fixed joint with it.

    robot_state_publisher's kdl_parser warns about any inertial on the root link, as KDL cannot
    use one (ros/kdl_parser 2.11.0, kdl_parser.cpp, treeFromUrdfModel); SDFormat's URDF
    conversion lumps a fixed joint's child into its parent before it looks at masses
    (gazebosim/sdformat sdformat14_14.9.0, src/parser_urdf.cc, InitModelString:
    ReduceFixedJoints, then CreateSDF; ReduceInertialToParent creates the parent's inertial),
    so Gazebo's root link gets exactly this mass, centre and inertia back, and the root stays
    the base part's link (seed 000). The new link is ``<root>_inertia``.
    """
    inertial = link.find('inertial')
    if inertial is None:
        return [link]
    name = f"{link.get('name')}{ROOT_INERTIA_SUFFIX}"
    if any(other.get('name') == name for other in root.findall('link')):
        raise ConfigError(f"a link is named {name}, the name the root link's inertia takes "
                          '(robot_state_publisher cannot use an inertia on the root): rename '
                          'the slot, frame or instance that makes it')
    bare = ElementTree.Element(link.tag, link.attrib)
    bare.extend(child for child in link if child is not inertial)
    carrier = ElementTree.Element('link', name=name)
    carrier.append(inertial)
    joint = ElementTree.Element('joint', name=f'{name}_joint', type='fixed')
    ElementTree.SubElement(joint, 'parent', link=link.get('name'))
    ElementTree.SubElement(joint, 'child', link=name)
    ElementTree.SubElement(joint, 'origin', xyz='0 0 0', rpy='0 0 0')
    return [bare, carrier, joint]


def with_root_inertia_split(robot: ElementTree.Element, root_link: str) -> ElementTree.Element:
    """Return a copy of ``robot`` whose root link's inertia rides on ``<root>_inertia``."""
    copy = ElementTree.Element(robot.tag, robot.attrib)
    copy.text, copy.tail = robot.text, robot.tail
    for child in robot:
        if child.tag == 'link' and child.get('name') == root_link:
            copy.extend(root_inertia_split(robot, child))
        else:
            copy.append(child)
    return copy


def carrier_links(root: ElementTree.Element) -> list:
    """
    Return the massless links that are the parent of a moving joint (CARRIER_MASS, above).

    Without a mass the URDF-to-SDF conversion would drop them and what hangs below.
    """
    parents = {j.find('parent').get('link') for j in root.findall('joint')
               if j.get('type') != 'fixed' and j.find('parent') is not None}
    return [link for link in root.findall('link')
            if link.get('name') in parents and link.find('inertial') is None]


def _with_mass(link: ElementTree.Element) -> ElementTree.Element:
    """Return a copy of a massless link with CARRIER_MASS and a negligible inertia."""
    carrier = ElementTree.Element(link.tag, link.attrib)
    carrier.extend(link)
    inertial = ElementTree.SubElement(carrier, 'inertial')
    ElementTree.SubElement(inertial, 'mass', value=repr(CARRIER_MASS))
    ElementTree.SubElement(inertial, 'inertia', ixx=repr(CARRIER_INERTIA), ixy='0', ixz='0',
                           iyy=repr(CARRIER_INERTIA), iyz='0', izz=repr(CARRIER_INERTIA))
    return carrier


def current_vector(value) -> tuple | None:
    """
    Return a water current as three finite numbers (m/s), or None for none.

    Given as a sequence or a string 'x y z' (commas allowed); None or an empty string is no
    current. ConfigError names what was given.
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    items = value.replace(',', ' ').split() if isinstance(value, str) else list(value)
    try:
        vector = tuple(float(v) for v in items)
    except (TypeError, ValueError):
        vector = ()
    if len(vector) != 3 or not all(math.isfinite(v) for v in vector):
        raise ConfigError(f'water current {value!r}: give three finite numbers, x y z in m/s in '
                          "the world frame, e.g. '0.5 0 0'")
    return vector


def thruster_block(names, propeller, joints: dict, limits,
                   water: float = SEA_WATER_DENSITY) -> ElementTree.Element:
    """
    Return the Thruster system of one propeller, with its installed thrust limits.

    The limits come from physics/propulsion.py, the sign of the coefficient from
    catalogue.Propeller. Propeller spin: with ``<velocity_control>`` the Thruster sets the
    joint's velocity to the commanded thrust's spin speed each step, exact at any step size;
    without it a torque PID with p 0.1 diverges above about a 4.7 ms step for the M200's
    estimated 2.35e-4 kg m^2 (gazebosim/gz-sim gz-sim8_8.14.0, src/systems/thruster/Thruster.cc,
    Configure and PreUpdate).
    """
    if joints.get(names.joint) not in SPINNING_JOINTS:  # build refuses it first, with its line
        raise AssertionError(f'propeller {names.instance} reached the composition without a '
                             f'joint that spins ({names.joint}: {joints.get(names.joint)})')
    return gz_xml.gazebo(gz_xml.plugin(THRUSTER, [
        ('namespace', names.namespace),
        ('joint_name', names.joint),
        ('topic', names.topic),
        ('thrust_coefficient', propeller.signed_thrust_coefficient),
        ('fluid_density', water),
        ('propeller_diameter', propeller.diameter),
        ('velocity_control', True),
        ('max_thrust_cmd', round(limits.maximum, 6)),
        ('min_thrust_cmd', round(limits.minimum, 6)),
    ]))


def joint_control_block(control, joint: str) -> ElementTree.Element:
    """
    Return the JointPositionController of one joint of a part's joint control.

    Without a PID (``use_velocity_commands``: no gains to tune per joint and vehicle): each
    step the joint's velocity is set to reach the target, at most its URDF velocity limit
    (JOINT_POSITION_CC); the joint's position limits hold it in range. Starts at 0. One per
    joint, all on the control's topic: a controller of several joints steers them all by the
    first one's position (PreUpdate), so the others would drift.
    """
    return gz_xml.gazebo(gz_xml.plugin(JOINT_POSITION_CONTROLLER, [
        ('joint_name', joint),
        ('topic', control.topic),
        ('use_velocity_commands', 'true'),
        ('cmd_max', control.velocity),
        ('initial_position', 0.0),
    ]))


def vehicle_blocks(names, hydrodynamics: dict, current=None) -> list:
    """
    Return joint states, odometry and (with the base's coefficients) hydrodynamics.

    Added mass is not sent: Hydrodynamics applies it as an explicit force from the previous
    step's acceleration and warns of "known numerical instabilities" (gazebosim/gz-sim
    gz-sim8_8.14.0, src/systems/hydrodynamics/Hydrodynamics.cc, PreUpdate and Configure); it
    diverges once the added mass nears the body's mass, as the BlueBoat's heave added mass
    does. The block sets ``disable_added_mass``.
    """
    blocks = [
        gz_xml.gazebo(gz_xml.plugin(JOINT_STATE_PUBLISHER,
                                    [('topic', names.gz_joint_state_topic)])),
        gz_xml.gazebo(gz_xml.plugin(ODOMETRY_PUBLISHER, [
            ('odom_topic', names.gz_odometry_topic),
            ('tf_topic', names.gz_tf_topic),
            ('odom_frame', names.odom_frame),
            ('robot_base_frame', names.base_frame),
            ('dimensions', 3),
        ])),
    ]
    damping = [(key, value) for key, value in hydrodynamics.items()
               if not key.startswith(ADDED_MASS_PREFIXES)]
    current = current_vector(current)
    if current is not None and not damping:
        raise ConfigError('a water current needs the Hydrodynamics system, and the base part '
                          'has no hydrodynamics coefficients to give it')
    if damping:
        blocks.append(gz_xml.gazebo(gz_xml.plugin(HYDRODYNAMICS, [
            ('link_name', names.root_link),
            ('disable_added_mass', 'true'),
            *damping,
            *([('default_current', ' '.join(repr(v) for v in current))] if current else []),
        ])))
    return blocks
