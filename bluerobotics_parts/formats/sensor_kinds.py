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
The sensor registry: every kind of sensor (and light) a part can carry, in one table.

A part carries a sensor by having its kind's section in its part data (``imu:``, ``navsat:``,
``camera:``, ...: docs/PARTS.md), never by its type name, so a user's part works the same way.
Per kind, ``KINDS`` says:

* the section's keys and what each must be (part_format.py checks them from here);
* its streams: ``/<vehicle>/<instance>/<what>`` topics with their ROS type and, for bridged
  ones, the gz type (every pair is in ros_gz_bridge's table, ``BRIDGE_PAIRS``) and direction;
* the ``<sensor>`` (or ``<light>``) block Gazebo gets on the sensor's link (gazebo.py appends
  it; gazebo_elements.py tables every element written, with its source);
* the world systems its sensor needs (the shipped worlds load them; test_sensors.py checks);
* the ROS node that publishes its ROS-only streams (a converter), the RViz display, and what
  the vehicle model records.

The bridge (bridge.py), the launch plan, the RViz view, ``build``'s summary, ``tree`` and the
vehicle model iterate over this table and the names topics.py computes from it; no other
module names a sensor kind. Topic and frame names come from topics.py only.

Sources (tags as the package targets): gazebosim/gz-sensors gz-sensors8_8.2.2 (src/*Sensor.cc),
gazebosim/gz-sim gz-sim8_8.14.0 (src/systems/*), gazebosim/sdformat sdformat14_14.9.0
(sdf/1.11/*.sdf and src/*.cc), gazebosim/ros_gz branch jazzy (ros_gz_bridge/README.md and
ros_gz_bridge/ros_gz_bridge/mappings.py, commit 739cb42a), ros2/rviz branch jazzy
(rviz_default_plugins/plugins_description.xml, commit 591594ee).
"""

from __future__ import annotations

from dataclasses import dataclass
import math
from typing import Callable
from xml.etree import ElementTree

from . import value_kinds as kinds
from ..gazebo import gz_xml
from ..physics.echosounder import RayGrid

GZ_TO_ROS = 'GZ_TO_ROS'
ROS_TO_GZ = 'ROS_TO_GZ'

# Every (ROS type, gz type) pair the package bridges: each is a row of ros_gz_bridge's type
# table (gazebosim/ros_gz jazzy, ros_gz_bridge/README.md; the same pairs in
# ros_gz_bridge/ros_gz_bridge/mappings.py). test_sensors.py holds every bridge entry to it.
BRIDGE_PAIRS = frozenset({
    ('rosgraph_msgs/msg/Clock', 'gz.msgs.Clock'),
    ('sensor_msgs/msg/JointState', 'gz.msgs.Model'),
    ('nav_msgs/msg/Odometry', 'gz.msgs.Odometry'),
    ('tf2_msgs/msg/TFMessage', 'gz.msgs.Pose_V'),
    ('std_msgs/msg/Float64', 'gz.msgs.Double'),
    ('sensor_msgs/msg/PointCloud2', 'gz.msgs.PointCloudPacked'),
    ('sensor_msgs/msg/LaserScan', 'gz.msgs.LaserScan'),
    ('sensor_msgs/msg/Imu', 'gz.msgs.IMU'),
    ('sensor_msgs/msg/MagneticField', 'gz.msgs.Magnetometer'),
    ('sensor_msgs/msg/NavSatFix', 'gz.msgs.NavSat'),
    ('sensor_msgs/msg/Image', 'gz.msgs.Image'),
    ('sensor_msgs/msg/CameraInfo', 'gz.msgs.CameraInfo'),
})

# World systems sensors need (gz-sim8_8.14.0 src/systems/<dir>/CMakeLists.txt gz_add_system
# gives gz-sim-<dir>-system; GZ_ADD_PLUGIN the class). Sensors renders (cameras, lidars).
SENSORS_SYSTEM = ('gz-sim-sensors-system', 'gz::sim::systems::Sensors')
IMU_SYSTEM = ('gz-sim-imu-system', 'gz::sim::systems::Imu')
MAGNETOMETER_SYSTEM = ('gz-sim-magnetometer-system', 'gz::sim::systems::Magnetometer')
NAVSAT_SYSTEM = ('gz-sim-navsat-system', 'gz::sim::systems::NavSat')


#: The kinds of a sensor section's values (value_kinds: part_format checks them, schema.py
#: describes them). A FRAME key names one of the part's frames.
FRAME = kinds.frame_name()
COUNT = kinds.integer(1, 100000)


def _positive(unit: str) -> kinds.Kind:
    return kinds.number(positive=True).described(unit)


def _nonnegative(unit: str) -> kinds.Kind:
    return kinds.number(nonnegative=True).described(unit)


@dataclass(frozen=True)
class Stream:
    """
    One topic of a sensor, ``/<vehicle>/<instance>/<what>`` on the ROS side.

    ``gz_type`` None: not bridged, published by the kind's converter node. ``gz_suffix``: where
    gz publishes it below that name (the gpu_lidar's point cloud: ``<topic>/points``).
    """

    what: str
    ros_type: str
    gz_type: str | None = None
    gz_suffix: str = ''
    direction: str = GZ_TO_ROS
    lazy: bool = True


@dataclass(frozen=True)
class SensorKind:
    """One kind of sensor (or light) a part section describes; see the module doc."""

    section: str
    what: str  # the sensor's word: its gz name <instance>_<what>, the vehicle key <i>/<what>
    fields: dict  # key -> value_kinds.Kind
    optional: tuple = ()  # keys a section may leave out; every other key is required
    ordered: tuple = ()  # (low, high) keys: low must be below high
    streams: tuple = ()
    block: Callable | None = None  # (SensorTopics, values, release) -> Element, or None
    world_systems: tuple = ()
    converter: str | None = None  # the console script publishing its ROS-only streams
    converter_parameters: Callable | None = None  # (SensorTopics, values, root pose) -> dict
    rviz: tuple = ()  # (display class, stream what) pairs
    category: str = 'sensor'  # 'sensor' or 'light'

    @property
    def required(self) -> tuple:
        """Return the keys a section must have."""
        return tuple(key for key in self.fields if key not in self.optional)

    @property
    def frame_keys(self) -> tuple:
        """Return the keys naming a frame of the part."""
        return tuple(key for key, kind in self.fields.items() if kind.role == 'frame')


# -- block builders --------------------------------------------------------------------------


def _sensor(names, kind: str, values: dict, release, topic: str) -> ElementTree.Element:
    """
    Return a ``<sensor>`` at its link's origin with the elements every sensor takes.

    Not ``<always_on>`` nor ``<visualize>``: the SDF spec has them, but nothing in gz-sensors
    8 or gz-sim 8 reads them (gz-sensors8_8.2.2 src/Sensor.cc, Sensor::Load: "what to do with
    <always_on>?"); gz-sim updates a sensor only while something subscribes to it.
    """
    sensor = ElementTree.Element('sensor', name=names.sensor_name, type=kind)
    gz_xml.children(sensor, [('pose', '0 0 0 0 0 0'),
                             ('update_rate', float(values['update_rate'])),
                             ('topic', topic), (release.sensor_frame_tag, names.frame_id)])
    return sensor


def _gaussian(stddev: float) -> list:
    return [('mean', 0.0), ('stddev', float(stddev))]


def _noise(parent: ElementTree.Element, tag: str, stddev: float) -> None:
    """Append ``<tag><noise type="gaussian">`` with zero mean (sdf/1.11/noise.sdf)."""
    noise = ElementTree.SubElement(ElementTree.SubElement(parent, tag), 'noise',
                                   type='gaussian')
    gz_xml.children(noise, _gaussian(stddev))


def white_noise_stddev(density: float, rate: float) -> float:
    """
    Return the per-sample standard deviation of white noise of a given density.

    A datasheet's noise density (per square root of hertz) over the band up to the Nyquist
    frequency of the sample rate: sigma = density * sqrt(rate / 2). That the sensor's filter
    passes exactly that band is an assumption (NOTES.md).
    """
    return density * math.sqrt(rate / 2.0)


def imu_block(names, values: dict, release) -> ElementTree.Element:
    """
    Return the IMU: gyro and accelerometer noise per axis, orientation in ENU.

    gz-sensors8 ImuSensor::Load reads the six noises through sdf::Imu; localization ENU makes
    the orientation relative to East-North-Up (ImuSensor::SetWorldFrameOrientation), the
    world frame of REP 103, whatever the world's heading.
    """
    sensor = _sensor(names, 'imu', values, release, names.gz_topic)
    imu = ElementTree.SubElement(sensor, 'imu')
    gz_xml.children(ElementTree.SubElement(imu, 'orientation_reference_frame'),
                    [('localization', 'ENU')])
    rate = float(values['update_rate'])
    for tag, density in (('angular_velocity', values['gyro_noise_density']),
                         ('linear_acceleration', values['accel_noise_density'])):
        group = ElementTree.SubElement(imu, tag)
        for axis in 'xyz':
            _noise(group, axis, white_noise_stddev(float(density), rate))
    return sensor


def magnetometer_block(names, values: dict, release) -> ElementTree.Element:
    """Return the magnetometer: the same noise on each axis (tesla, see the world's system)."""
    sensor = _sensor(names, 'magnetometer', values, release, names.gz_topic)
    magnetometer = ElementTree.SubElement(sensor, 'magnetometer')
    for axis in 'xyz':
        _noise(magnetometer, axis, float(values['noise_stddev']))
    return sensor


#: The mean radius of the Earth (IUGG), m: turns a horizontal distance into an angle.
EARTH_RADIUS = 6371008.8


def horizontal_noise_degrees(metres: float) -> float:
    """
    Return the NavSat horizontal noise gz-sensors 8 needs for ``metres`` of position noise.

    Whatever sdf/1.11/navsat.sdf says ("meters"), gz-sensors8_8.2.2 src/NavSatSensor.cc,
    NavSatSensor::Update, applies the horizontal noise to the latitude and the longitude in
    degrees (``SetLatitude(GZ_DTOR(noise->Apply(Latitude().Degree())))``; gazebosim/gz-sensors
    issue 325): so the part's metres become the angle they subtend at the Earth's centre. The
    latitude error is then right; the longitude error (the same angle of longitude) is
    cos(latitude) smaller in metres (0.83 at the shipped worlds' 33.8 deg N).
    """
    return math.degrees(metres / EARTH_RADIUS)


def navsat_block(names, values: dict, release) -> ElementTree.Element:
    """Return the GNSS receiver: horizontal noise as an angle (above), vertical in metres."""
    sensor = _sensor(names, 'navsat', values, release, names.gz_topic)
    sensing = ElementTree.SubElement(ElementTree.SubElement(sensor, 'navsat'),
                                     'position_sensing')
    _noise(sensing, 'horizontal', horizontal_noise_degrees(float(values['horizontal_stddev'])))
    _noise(sensing, 'vertical', float(values['vertical_stddev']))
    return sensor


def camera_block(names, values: dict, release) -> ElementTree.Element:
    """
    Return the camera: looking along its link's +x, images stamped in the optical frame.

    gz's camera looks along +x (gz-sensors8 CameraSensor.cc); ``<optical_frame_id>`` (SDF 1.11
    camera.sdf, read by CameraSensor::PopulateInfo) names the REP 103 optical frame (z
    forward) in the Image and CameraInfo headers. CameraInfo goes to ``<camera_info_topic>``.
    """
    sensor = _sensor(names, 'camera', values, release, names.gz_topic)
    camera = ElementTree.SubElement(sensor, 'camera')
    gz_xml.children(camera, [
        ('camera_info_topic', names.gz['camera_info']),
        ('horizontal_fov', float(values['horizontal_fov'])),
        ('image', [('width', int(values['width'])), ('height', int(values['height'])),
                   ('format', 'R8G8B8')]),
        ('clip', [('near', float(values['clip_near'])), ('far', float(values['clip_far']))]),
        ('optical_frame_id', names.frame_ids['optical_frame']),
    ])
    return sensor


def echosounder_block(names, values: dict, release) -> ElementTree.Element:
    """
    Return the echosounder: a gpu_lidar whose rays fill its cone along its beam frame's +x.

    A square grid of ``samples`` x ``samples`` rays over the beam width on both axes
    (echosounder.RayGrid); gz-sensors publishes its cloud on ``<topic>/points``
    (GpuLidarSensor::Load).
    """
    grid = RayGrid(float(values['beam_width']), int(values.get('samples', 1)))
    sensor = _sensor(names, 'gpu_lidar', values, release, names.gz_topic)
    lidar = ElementTree.SubElement(sensor, 'lidar')
    scan = ElementTree.SubElement(lidar, 'scan')
    for axis in ('horizontal', 'vertical'):
        gz_xml.children(ElementTree.SubElement(scan, axis), [
            ('samples', grid.samples), ('resolution', 1), ('min_angle', -grid.half),
            ('max_angle', grid.half)])
    _lidar_range(lidar, values)
    return sensor


def _lidar_range(lidar: ElementTree.Element, values: dict) -> None:
    gz_xml.children(ElementTree.SubElement(lidar, 'range'),
                    [('min', float(values['range_min'])), ('max', float(values['range_max']))])


def scanning_sonar_block(names, values: dict, release) -> ElementTree.Element:
    """
    Return the scanning sonar: one gpu_lidar row over the whole turn, a LaserScan.

    ``samples`` rays from -pi, one step (2 pi / samples) apart, so the last is one step short
    of +pi and no direction is measured twice; one row in the horizontal plane.
    """
    samples = int(values['samples'])
    step = 2.0 * math.pi / samples
    sensor = _sensor(names, 'gpu_lidar', values, release, names.gz_topic)
    lidar = ElementTree.SubElement(sensor, 'lidar')
    gz_xml.children(ElementTree.SubElement(ElementTree.SubElement(lidar, 'scan'), 'horizontal'),
                    [('samples', samples), ('resolution', 1), ('min_angle', -math.pi),
                     ('max_angle', -math.pi + (samples - 1) * step)])
    _lidar_range(lidar, values)
    return sensor


def light_block(names, values: dict, release) -> ElementTree.Element:
    """
    Return a spot light shining along its link's +x (sdf/1.11/light.sdf, src/Light.cc).

    The angles are full cone angles ("angle covered by the ... cone"); on at start.
    """
    light = ElementTree.Element('light', name=names.sensor_name, type='spot')
    gz_xml.children(light, [
        ('pose', '0 0 0 0 0 0'), ('cast_shadows', False), ('light_on', True),
        ('intensity', float(values['intensity'])), ('direction', '1 0 0'),
        ('attenuation', [('range', float(values['range'])), ('constant', 1.0),
                         ('linear', 0.0), ('quadratic', 0.0)]),
        ('spot', [('inner_angle', float(values['inner_angle'])),
                  ('outer_angle', float(values['outer_angle'])),
                  ('falloff', float(values['falloff']))]),
    ])
    return light


# -- converter parameters ------------------------------------------------------------------------


def converter_parameters(names, values: dict, root_pose) -> dict:
    """
    Return the parameters of a sensor's converter node (launch_plan starts it).

    ``root_pose``: the sensor link's pose in the vehicle's root link (kinematics.Pose).
    """
    kind = KINDS[names.kind]
    if kind.converter is None:
        raise KeyError(f'sensor kind {names.kind} has no converter')
    return kind.converter_parameters(names, values, root_pose)


def _range_parameters(names, values: dict, root_pose) -> dict:
    """Return scan_to_range's parameters (range_node.py reads them)."""
    return {'scan_topic': names.ros['scan'], 'range_topic': names.ros['range'],
            'frame_id': names.frame_id, 'field_of_view': float(values['beam_width']),
            'min_range': float(values['range_min']), 'max_range': float(values['range_max'])}


def _pressure_parameters(names, values: dict, root_pose) -> dict:
    """Return pose_to_pressure's parameters (pressure_node.py reads them)."""
    return {'odometry_topic': names.odometry_topic, 'pressure_topic': names.ros['pressure'],
            'frame_id': names.frame_id, 'offset': list(root_pose.translation),
            'max_pressure': float(values['max_pressure']),
            'update_rate': float(values['update_rate'])}


# -- the registry --------------------------------------------------------------------------------

_RATE = {'update_rate': _positive('Hz: messages (scans, images, fixes) a second')}
_RANGE = {'range_min': _nonnegative('m: nearest measurable range'),
          'range_max': _positive('m: farthest measurable range')}

KINDS = {kind.section: kind for kind in (
    SensorKind(
        'echosounder', 'scan',
        {'frame': FRAME.described("the part's frame the beam leaves from, +x along it"),
         'frequency': _positive('Hz (documentation)'),
         'beam_width': _positive('rad: the full cone angle'), **_RANGE, **_RATE,
         'samples': COUNT.described('rays per axis of the square grid over the cone')},
        optional=('frequency', 'samples'), ordered=(('range_min', 'range_max'),),
        streams=(Stream('scan', 'sensor_msgs/msg/PointCloud2', 'gz.msgs.PointCloudPacked',
                        gz_suffix='/points'),
                 Stream('range', 'sensor_msgs/msg/Range')),
        block=echosounder_block, world_systems=(SENSORS_SYSTEM,),
        converter='scan_to_range', converter_parameters=_range_parameters,
        rviz=(('rviz_default_plugins/Range', 'range'),)),
    SensorKind(
        'imu', 'imu',
        {'frame': FRAME, **_RATE,
         'gyro_noise_density': _nonnegative('rad/s/sqrt(Hz): angular rate noise density'),
         'accel_noise_density': _nonnegative('m/s^2/sqrt(Hz): acceleration noise density')},
        streams=(Stream('imu', 'sensor_msgs/msg/Imu', 'gz.msgs.IMU'),),
        block=imu_block, world_systems=(IMU_SYSTEM,)),
    SensorKind(
        'magnetometer', 'magnetic_field',
        {'frame': FRAME, **_RATE,
         'noise_stddev': _nonnegative('T: per-sample standard deviation on each axis')},
        streams=(Stream('magnetic_field', 'sensor_msgs/msg/MagneticField',
                        'gz.msgs.Magnetometer'),),
        block=magnetometer_block, world_systems=(MAGNETOMETER_SYSTEM,)),
    SensorKind(
        'navsat', 'fix',
        {'frame': FRAME, **_RATE,
         'horizontal_stddev': _nonnegative('m: horizontal position noise'),
         'vertical_stddev': _nonnegative('m: vertical position noise')},
        streams=(Stream('fix', 'sensor_msgs/msg/NavSatFix', 'gz.msgs.NavSat'),),
        block=navsat_block, world_systems=(NAVSAT_SYSTEM,)),
    SensorKind(
        'camera', 'image',
        {'frame': FRAME.described("the part's frame the camera looks along (+x)"),
         'optical_frame': FRAME.described("the part's REP 103 optical frame (z forward)"),
         **_RATE, 'horizontal_fov': _positive('rad'),
         'width': COUNT.described('pixels'), 'height': COUNT.described('pixels'),
         'clip_near': _positive('m'), 'clip_far': _positive('m')},
        ordered=(('clip_near', 'clip_far'),),
        streams=(Stream('image', 'sensor_msgs/msg/Image', 'gz.msgs.Image'),
                 Stream('camera_info', 'sensor_msgs/msg/CameraInfo', 'gz.msgs.CameraInfo')),
        block=camera_block, world_systems=(SENSORS_SYSTEM,),
        rviz=(('rviz_default_plugins/Image', 'image'),)),
    SensorKind(
        'scanning_sonar', 'scan',
        {'frame': FRAME.described("the part's frame the head turns about (its z)"),
         'frequency': _positive('Hz (documentation)'), **_RATE, **_RANGE,
         'samples': COUNT.described('rays over the whole turn')},
        optional=('frequency',), ordered=(('range_min', 'range_max'),),
        streams=(Stream('scan', 'sensor_msgs/msg/LaserScan', 'gz.msgs.LaserScan'),),
        block=scanning_sonar_block, world_systems=(SENSORS_SYSTEM,),
        rviz=(('rviz_default_plugins/LaserScan', 'scan'),)),
    SensorKind(
        # gz has no water pressure sensor: the converter computes the pressure at the
        # sensor's depth from the vehicle's odometry (pressure.py); no gz block.
        'pressure', 'pressure',
        {'frame': FRAME.described("the part's frame at its pressure port"), **_RATE,
         'max_pressure': _positive('Pa: the highest pressure it reports')},
        streams=(Stream('pressure', 'sensor_msgs/msg/FluidPressure'),),
        converter='pose_to_pressure', converter_parameters=_pressure_parameters,
        rviz=(('rviz_default_plugins/FluidPressure', 'pressure'),)),
    SensorKind(
        'light', 'light',
        {'frame': FRAME.described("the part's frame the light shines along (+x)"),
         'intensity': _positive("gz's relative scale"), 'range': _positive('m'),
         'inner_angle': _nonnegative('rad: full angle of the bright cone'),
         'outer_angle': _positive('rad: full angle of the whole cone'),
         'falloff': _nonnegative('between the cones')},
        block=light_block, category='light'),
)}

SECTIONS = tuple(KINDS)


def kind(section: str) -> SensorKind:
    """Return the registry entry of a part-data section."""
    return KINDS[section]


def world_systems() -> list:
    """Return every world system some sensor kind needs, once each, in registry order."""
    found = []
    for entry in KINDS.values():
        found += [system for system in entry.world_systems if system not in found]
    return found
