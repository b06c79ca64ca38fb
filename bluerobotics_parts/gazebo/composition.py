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

What each recorded part gets comes from its part data (never from its type name):

* a propeller: a ``gz::sim::systems::Thruster`` on its joint, thrust commands in newtons on
  the topic from topics.py, the installed thrust limits (propulsion.py), diameter and thrust
  coefficient from the part data, and ``velocity_control`` (below);
* a sensor or light (a section of the sensor registry, sensors.py: the echosounder's
  ``gpu_lidar`` cone, IMU, magnetometer, GNSS, camera, scanning sonar, spot light): its
  ``<sensor>`` / ``<light>`` on the link of its frame, at the frame's origin (``sensor_blocks``);
* the vehicle: a JointStatePublisher and an OdometryPublisher with explicit topics, and the
  Hydrodynamics system on the root link with the base part's ``hydrodynamics`` coefficients
  and, when given, a water current (``default_current``, m/s in the world frame).

Every element written into a plugin or sensor is one its system reads: gazebo_elements.py has
the table (element, meaning, unit, source file at the release tag) and ``compose`` refuses to
write anything else. (An earlier version wrote ``<water_density>`` into Hydrodynamics: gz-sim
8.0 to 8.11 stored it without using it, 8.12 and later do not read it; gazebosim/gz-sim,
src/systems/hydrodynamics/Hydrodynamics.cc at tags gz-sim8_8.0.0, gz-sim8_8.11.0 and
gz-sim8_8.12.0, Hydrodynamics::Configure.)

Thrust coefficient sign. The part data's ``rotation`` is the sense the propeller turns, seen
from astern, while it pushes the vessel forward. Every propeller joint's axis is the part's
+x, pointing forward. gz's Thruster spins the joint at w = sign(T * Kt) sqrt(|T| / (rho Kt
D^4)), so forward thrust (T > 0) with Kt > 0 turns the propeller positively about +x, which
(right-hand rule, thumb pointing forward, away from an observer astern) is clockwise seen
from astern. Hence ``cw`` -> +Kt and ``ccw`` -> -Kt. The force itself is T along the joint
axis whatever the sign of Kt; the sign only sets which way the propeller visibly spins.

Propeller spin. Without ``<velocity_control>`` the Thruster turns the propeller with a PID on
a torque (p 0.1 unless ``<p_gain>`` says otherwise; gazebosim/gz-sim tag gz-sim8_8.14.0,
src/systems/thruster/Thruster.cc, Thruster::Configure and PreUpdate), an explicit loop whose
gain over the spin inertia sets a largest stable step: for the M200's estimated 2.35e-4 kg m^2
any step above about 4.7 ms diverges. With ``<velocity_control>true`` the system sets the
joint's velocity command (JointVelocityCmd) to the spin speed of the commanded thrust every
step, which the physics engine meets exactly, at any step size; the thrust force is the same.

Added mass is not sent to Gazebo: gz-sim's Hydrodynamics system applies it as an explicit
force from the previous step's acceleration (``stateDot = (state - prevState) / dt``, then
``- Ma * stateDot``; gazebosim/gz-sim tag gz-sim8_8.14.0,
src/systems/hydrodynamics/Hydrodynamics.cc, Hydrodynamics::PreUpdate), and Configure warns
that "plugin-based added mass has known numerical instabilities" (deprecated for DART in
favour of ``<fluid_added_mass>``). It goes unstable once the added mass nears the body's mass,
which the BlueBoat's heave added mass does (part data: about 17.6 kg for a 17 kg boat).
Harmonic's replacement, SDF 1.11's ``<fluid_added_mass>`` inside ``<inertial>``, has no URDF
spelling. The block therefore sets
``disable_added_mass`` and carries only the damping terms.

Massless links that carry a moving joint. A slot is a massless link, and SDFormat's URDF
converter (12.3 here; sdformat issue 199) does not lump a massless link: it drops it with
everything below it, so each propeller's continuous joint would vanish from the Gazebo model.
The composed URDF gives exactly those links a negligible mass (``CARRIER_MASS``: 10 mg, above
the 1e-6 kg SDFormat counts as none), so they are lumped into their parent like any other
fixed child and the joints they carry survive. The ROS description (the resolved URDF) keeps
its massless slots; test_sdf_conversion.py checks the joints in the converted model.

The composition is an XML tree (``compose_tree``): the resolved URDF's elements, shared with
the writer's tree and never changed, the carrier links as new elements, and the blocks;
``compose`` writes it with the URDF writer, so the composed text is laid out as the plain one.
The output is deterministic: blocks in record order, numbers printed by ``repr``, no dates.
"""

from __future__ import annotations

from dataclasses import dataclass
import math
from xml.etree import ElementTree

from . import elements as gazebo_elements, gz_xml
from ..assembly.catalogue import Catalogue
from ..assembly.record import AssemblyRecord, parse_urdf
from ..assembly.urdf_writer import urdf_text as written
from ..errors import BlueRoboticsPartsError, ConfigError
from ..formats import sensor_kinds as sensors
from ..model import topics as topic_names
from ..physics import propulsion

SEA_WATER_DENSITY = 1025.0  # kg/m^3, standard (PART_FACTS.md)

THRUSTER = ('gz-sim-thruster-system', 'gz::sim::systems::Thruster')
JOINT_STATE_PUBLISHER = ('gz-sim-joint-state-publisher-system',
                         'gz::sim::systems::JointStatePublisher')
ODOMETRY_PUBLISHER = ('gz-sim-odometry-publisher-system', 'gz::sim::systems::OdometryPublisher')
HYDRODYNAMICS = ('gz-sim-hydrodynamics-system', 'gz::sim::systems::Hydrodynamics')

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


def compose(urdf_text: str, record: AssemblyRecord, catalogue: Catalogue, vehicle_name: str,
            release: GzRelease, current=None, root: ElementTree.Element | None = None) -> str:
    """
    Return the URDF text with the Gazebo extension blocks inside ``<robot>`` (compose_tree).

    ``root``: the parsed ``urdf_text`` when the caller has it (it is not parsed again).
    """
    root = parse_urdf(urdf_text) if root is None else root
    return written(compose_tree(root, record, catalogue, vehicle_name, release, current))


def compose_tree(root: ElementTree.Element, record: AssemblyRecord, catalogue: Catalogue,
                 vehicle_name: str, release: GzRelease, current=None) -> ElementTree.Element:
    """
    Return a new ``<robot>``: the URDF's elements, carrier links with a mass, the blocks.

    ``root`` (the resolved URDF) is left as it is; its elements are shared, not copied.
    ``current``: a water current (x, y, z in m/s, world frame) for the Hydrodynamics system.
    """
    names = topic_names.vehicle_topics(record, catalogue, vehicle_name)
    joints = {j.get('name'): j.get('type') for j in root.findall('joint')}
    limits = propulsion.thrust_limits(record, catalogue)
    blocks = [thruster_block(t, catalogue[t.type].propeller, joints, limits[t.instance])
              for t in names.thrusters]
    blocks += sensor_blocks(names, catalogue, release)
    blocks += vehicle_blocks(names, catalogue[record.base.type].hydrodynamics, current)
    for block in blocks:
        unread = gazebo_elements.unread(block[0])
        if unread:  # a bug here, not in the input: every element must be one Gazebo reads
            raise AssertionError(f"composed elements no Gazebo system reads: {', '.join(unread)}")
    composed = ElementTree.Element(root.tag, root.attrib)
    carriers = {id(link) for link in carrier_links(root)}
    composed.extend(_with_mass(child) if id(child) in carriers else child for child in root)
    composed.extend(blocks)
    return composed


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


def thrust_coefficient(propeller) -> float:
    """Return the Thruster's signed coefficient (see the module doc): cw +Kt, ccw -Kt."""
    return propeller.signed_thrust_coefficient


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


def thruster_block(names, propeller, joints: dict, limits) -> ElementTree.Element:
    """Return the Thruster system of one propeller, with its installed thrust limits."""
    kind = joints.get(names.joint)
    if kind is None:
        raise BlueRoboticsPartsError(f'propeller {names.instance} ({names.type}): the URDF has no '
                                     f'joint {names.joint} for its Thruster system')
    if kind not in ('continuous', 'revolute'):
        raise BlueRoboticsPartsError(
            f'propeller {names.instance} ({names.type}) hangs on a {kind} joint '
            f'({names.joint}); its Thruster system needs a joint that turns: fit it in a slot '
            "with joint: continuous (the BlueBoat's motor slots, or an ad hoc slot)")
    return _gazebo(_plugin(THRUSTER, [
        ('namespace', names.namespace),
        ('joint_name', names.joint),
        ('topic', names.topic),
        ('thrust_coefficient', thrust_coefficient(propeller)),
        ('fluid_density', SEA_WATER_DENSITY),
        ('propeller_diameter', propeller.diameter),
        ('velocity_control', True),
        ('max_thrust_cmd', round(limits.maximum, 6)),
        ('min_thrust_cmd', round(limits.minimum, 6)),
    ]))


def sensor_blocks(names, catalogue: Catalogue, release: GzRelease) -> list:
    """
    Return the ``<gazebo reference=link>`` block of every sensor and light of the vehicle.

    One per section of the sensor registry a fitted part has (sensors.KINDS), in record
    order; a kind without a Gazebo element (the pressure sensor: sensors.py) gives none.
    """
    blocks = []
    for sensor in names.sensors:
        kind = sensors.KINDS[sensor.kind]
        if kind.block is None:
            continue
        values = catalogue[sensor.type].sensor_sections[sensor.kind]
        blocks.append(_gazebo(kind.block(sensor, values, release), reference=sensor.link))
    return blocks


def vehicle_blocks(names, hydrodynamics: dict, current=None) -> list:
    """Return joint states, odometry and (with the base's coefficients) hydrodynamics."""
    blocks = [
        _gazebo(_plugin(JOINT_STATE_PUBLISHER, [('topic', names.gz_joint_state_topic)])),
        _gazebo(_plugin(ODOMETRY_PUBLISHER, [
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
        blocks.append(_gazebo(_plugin(HYDRODYNAMICS, [
            ('link_name', names.root_link),
            ('disable_added_mass', 'true'),
            *damping,
            *([('default_current', ' '.join(repr(v) for v in current))] if current else []),
        ])))
    return blocks


# -- XML -----------------------------------------------------------------------------------------

_gazebo, _plugin, _children, _text = gz_xml.gazebo, gz_xml.plugin, gz_xml.children, gz_xml.text
