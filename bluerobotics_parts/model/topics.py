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
Every topic and frame name of a vehicle, computed here and nowhere else.

The Gazebo composition, bridge.yaml, the launch and the scan-to-range node all read these
names, so the two sides of the bridge cannot drift apart. Every name is namespaced by the
vehicle name (never the world's, nor how Gazebo lumps links), so several vehicles can share one
world. Thrusters and sensors come from the part data (a ``propeller`` section, or a sensor
kind's section), never from type names, so a user's part works the same way. The table of
names is at ``vehicle_topics``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..assembly.catalogue import Catalogue
from ..assembly.record import AssemblyRecord
from ..errors import AssemblyError, BlueRoboticsPartsError, Problem
from ..formats.config import check_vehicle_name
from ..formats.sensor_kinds import KINDS

CLOCK_TOPIC = '/clock'


@dataclass(frozen=True)
class ThrusterTopics:
    instance: str
    type: str  # noqa: A003 (the part type)
    joint: str  # the continuous joint the Thruster system turns (Propeller.joint)
    namespace: str  # the Thruster system's <namespace>: the vehicle name
    topic: str  # the Thruster system's <topic>, relative: "<instance>/thrust"
    gz_topic: str  # what gz makes of them: "/<namespace>/<topic>"
    ros_topic: str
    throttle_topic: str  # ROS only, the allocator's: "/<namespace>/<instance>/throttle"


@dataclass(frozen=True)
class SensorTopics:
    """The names of one sensor (or light) of a part: one per registry section it has."""

    key: str  # "<instance>/<what>": the vehicle model's key
    kind: str  # its part-data section (sensor_kinds.KINDS)
    instance: str
    type: str  # noqa: A003 (the part type)
    sensor_name: str  # "<instance>_<what>": the gz <sensor> (or <light>) name
    link: str  # the link it sits on (its section's frame)
    frame_id: str  # "<name>/<link>": the frame id of its messages
    gz_topic: str  # the gz sensor's <topic>: "/<name>/<instance>/<what>"
    ros: dict  # stream -> ROS topic, "/<name>/<instance>/<stream>"
    gz: dict  # bridged stream -> gz topic (the ROS name plus the stream's gz suffix)
    frame_links: dict  # the section's other frame keys -> link (a camera's optical frame)
    frame_ids: dict  # the same keys -> frame id
    odometry_topic: str  # the vehicle's odometry (ROS), for a converter that derives from it


@dataclass(frozen=True)
class JointControlTopics:
    """A position-controlled joint (a part's ``joint_controls``): what commands it."""

    instance: str  # the part that declares it
    name: str  # its name there: the topic's last word
    joints: tuple  # the URDF joints it moves, alike (a pair of jaws), or one
    velocity: float  # the joints' velocity limit (rad/s or m/s): how fast they are moved
    topic: str  # "/<vehicle>/<instance>/<name>", the same on both sides (Float64 / Double)


@dataclass(frozen=True)
class VehicleTopics:
    name: str
    root_link: str
    thrusters: tuple  # of ThrusterTopics, record order
    gz_joint_state_topic: str
    ros_joint_state_topic: str
    gz_odometry_topic: str
    ros_odometry_topic: str
    gz_tf_topic: str  # the OdometryPublisher's odom -> base transform
    ros_tf_topic: str
    odom_frame: str
    base_frame: str
    clock_topic: str = CLOCK_TOPIC
    sensors: tuple = ()  # of SensorTopics, record order, registry order within a part
    joint_controls: tuple = ()  # of JointControlTopics, record order

    def frame(self, link: str) -> str:
        """Return the TF frame id of a URDF link of this vehicle."""
        return frame_id(self.name, link)

    def of_category(self, category: str) -> tuple:
        """Return the sensors (``sensor``) or the lights (``light``), record order."""
        return tuple(s for s in self.sensors if KINDS[s.kind].category == category)


def frame_id(name: str, link: str) -> str:
    return f'{name}/{link}'


def ros_odometry_topic(name: str) -> str:
    """Return the vehicle's odometry topic on the ROS side."""
    return f'/{name}/odometry'


def ros_joint_state_topic(name: str) -> str:
    """Return the vehicle's joint states topic on the ROS side."""
    return f'/{name}/joint_states'


def vehicle_topics(record: AssemblyRecord, catalogue: Catalogue,
                   name: str | None = None) -> VehicleTopics:
    """
    Return the names for the vehicle recorded in ``record``.

    ``name`` defaults to the URDF's robot name. Raises ConfigError for a name that cannot be a
    ROS namespace. The names (gz -> ROS where bridged):

        thrust command   /<name>/<instance>/thrust          ROS and gz (std_msgs/Float64, N)
        joint position   /<name>/<instance>/<control>       ROS and gz (Float64, rad or m: a
                         part's joint_controls, e.g. the camera mount's tilt)
        throttle         /<name>/<instance>/throttle        ROS only (Float64, -1 to 1: the
                         thrust_allocator turns it into thrust with the part's curve)
        echosounder      /<name>/<instance>/scan/points (gz) -> /<name>/<instance>/scan (ROS)
                         (PointCloud2: the whole cone; gz's LaserScan on
                         /<name>/<instance>/scan is not bridged: ros_gz would keep one row of
                         it, sensing/echosounder.py)
                         /<name>/<instance>/range           ROS only (Range, from the converter)
        joint states     /model/<name>/joint_state (gz)  -> /<name>/joint_states (ROS)
        odometry         /model/<name>/odometry (gz)     -> /<name>/odometry (ROS)
        odom -> base TF  /model/<name>/tf (gz)           -> /tf (ROS)
        other sensors    /<name>/<instance>/<what> on both sides (gz adds a stream's suffix, if
                         any), one per stream of its kind (formats/sensor_kinds.py): imu,
                         magnetic_field, fix, image + camera_info, scan, pressure
        clock            /clock
        TF frames        <name>/<link> (robot_state_publisher's frame_prefix "<name>/"), and
                         <name>/odom for the odometry's fixed frame

    A sensor's gz name is ``<instance>_<what>`` and the vehicle model's key ``<instance>/<what>``.
    Two streams of the vehicle on one topic (a joint control named ``thrust`` on a propeller,
    or named like one of its part's sensor streams) raise AssemblyError naming both, at the
    part file's line.
    """
    name = check_vehicle_name(record.robot_name if name is None else name)
    thrusters = []
    for part in record.parts:
        data = _part_type(catalogue, part)
        # a base turns only through a rotor frame: it has no joint of its own
        if data.propeller is not None and (data.propeller.rotor or not part.is_base):
            topic = f'{part.name}/thrust'
            gz_topic = f'/{name}/{topic}'
            thrusters.append(ThrusterTopics(part.name, part.type,
                                            data.propeller.joint(part.name), name,
                                            topic, gz_topic, gz_topic,
                                            f'/{name}/{part.name}/throttle'))
    root = record.base.name
    sensors = sensors_of(name, record, catalogue)
    controls = joint_controls_of(name, record, catalogue)
    shared = shared_topics(record, catalogue, thrusters, sensors, controls)
    if shared:
        raise AssemblyError(shared)
    return VehicleTopics(
        name=name, root_link=root, thrusters=tuple(thrusters),
        sensors=sensors, joint_controls=controls,
        gz_joint_state_topic=f'/model/{name}/joint_state',
        ros_joint_state_topic=ros_joint_state_topic(name),
        gz_odometry_topic=f'/model/{name}/odometry',
        ros_odometry_topic=ros_odometry_topic(name),
        gz_tf_topic=f'/model/{name}/tf', ros_tf_topic='/tf',
        odom_frame=frame_id(name, 'odom'), base_frame=frame_id(name, root))


def shared_topics(record: AssemblyRecord, catalogue: Catalogue, thrusters, sensors,
                  controls) -> list:
    """
    Return a Problem for each stream on a topic an earlier stream of the vehicle already has.

    A stream's topics are its ROS and gz names; two streams on one would be read by two
    consumers (a Thruster and a JointPositionController on ``/<v>/<instance>/thrust``) and
    bridged twice. The problem is at the later stream's line in its part file, and names the
    earlier one with its own.
    """
    types = {part.name: part.type for part in record.parts}
    streams = []  # (the part-data path of what owns it, its instance, what it is, its topics)
    for t in thrusters:
        streams += [(('propeller',), t.instance, f'the thrust command of {t.instance}',
                     {t.ros_topic, t.gz_topic}),
                    (('propeller',), t.instance, f'the throttle of {t.instance}',
                     {t.throttle_topic})]
    for s in sensors:  # the gz sensor's own topic too: one owner's topics never clash
        streams += [((s.kind,), s.instance, f'the {s.kind} stream {what} of {s.instance}',
                     {topic, s.gz.get(what, topic), s.gz_topic}) for what, topic in s.ros.items()]
    streams += [(('joint_controls', c.name), c.instance,
                 f'joint control {c.name} of {c.instance}', {c.topic}) for c in controls]
    problems, seen = [], {}
    for path, instance, label, topics in streams:
        data = catalogue[types[instance]]
        where = (data.file_text or str(data.file), data.lines.get(path))
        for topic in sorted(topics):
            owner = (instance, path)
            if topic in seen and seen[topic][0] != owner:
                _, other, (file, line) = seen[topic]
                advice = '; give the joint control another name' \
                    if path[0] == 'joint_controls' else ''
                problems.append(Problem(
                    f'{label} would share the topic {topic} with {other} '
                    f"({file}{f':{line}' if line else ''}): one topic carries one stream"
                    f'{advice}', *where, rule='shared-topic'))
            seen.setdefault(topic, (owner, label, where))
    return problems


def joint_controls_of(name: str, record: AssemblyRecord, catalogue: Catalogue) -> tuple:
    """
    Return the position-controlled joints of the fitted parts, record order.

    A control of a slot moves its occupant's joint (``<occupant>_joint``), and is left out
    while the slot is empty; a control of frames moves each ``<instance>_<frame>_joint``.
    """
    found = []
    for part in record.parts:
        data = _part_type(catalogue, part).data
        for control, target in (data.get('joint_controls') or {}).items():
            if 'slot' in target:
                occupant = record.occupant(part.name, target['slot'])
                if occupant is None:
                    continue
                joints, spec = (f'{occupant.name}_joint',), data['slots'][target['slot']]
            else:
                frames = target.get('frames') or [target['frame']]
                joints = tuple(f'{part.name}_{frame}_joint' for frame in frames)
                spec = data['frames'][frames[0]]
            found.append(JointControlTopics(part.name, control, joints,
                                            float(spec['limits']['velocity']),
                                            f'/{name}/{part.name}/{control}'))
    return tuple(found)


def sensors_of(name: str, record: AssemblyRecord, catalogue: Catalogue) -> tuple:
    """Return the SensorTopics of every sensor and light of the vehicle, record order."""
    return tuple(sensor_topics(name, record, part, section, values)
                 for part in record.parts
                 for section, values in _part_type(catalogue, part).sensor_sections.items())


def sensor_topics(name: str, record: AssemblyRecord, part, section: str,
                  values: dict) -> SensorTopics:
    """
    Return the names of the sensor that section ``section`` of a part's data describes.

    ``values``: the section (sensor_kinds.KINDS[section] says its keys); its frame keys name
    frames of the part, which the record has as links. Raises when the record lacks one.
    """
    kind = KINDS[section]
    frames = {f.name: f.link for f in record.frames_of(part.name)}
    links = {}
    for key in kind.frame_keys:
        if key not in values:
            continue
        if values[key] not in frames:
            recorded = ', '.join(frames) or 'none'
            raise BlueRoboticsPartsError(
                f'{section} of {part.name} ({part.type}) is on frame {values[key]!r}, but the '
                f'URDF records no such frame of {part.name}; recorded: {recorded}')
        links[key] = frames[values[key]]
    link = links.pop('frame')
    base = f'/{name}/{part.name}'
    ros = {stream.what: f'{base}/{stream.what}' for stream in kind.streams}
    gz = {stream.what: ros[stream.what] + stream.gz_suffix for stream in kind.streams
          if stream.gz_type is not None}
    return SensorTopics(
        key=f'{part.name}/{kind.what}', kind=section, instance=part.name, type=part.type,
        sensor_name=f'{part.name}_{kind.what}', link=link, frame_id=frame_id(name, link),
        gz_topic=f'{base}/{kind.what}', ros=ros, gz=gz,
        frame_links=links, frame_ids={key: frame_id(name, value) for key, value in links.items()},
        odometry_topic=ros_odometry_topic(name))


def _part_type(catalogue: Catalogue, part):
    if part.type not in catalogue:
        raise BlueRoboticsPartsError(
            f'part {part.name} has type {part.type}, which neither the shipped library nor the '
            f"URDF's recorded part files define; known types: {', '.join(catalogue.types())}")
    return catalogue[part.type]
