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
The kinds of sensor (and light) a part can carry, as data: one per part-file section.

A part carries a sensor by having its kind's section (``imu:``, ``navsat:``, ``camera:``...:
docs/PARTS.md), never by its type name. Per kind: the section's keys and value kinds (checked by
part_format.py, described by assembly/schema.py), its streams (``/<vehicle>/<instance>/<what>``,
ROS type, and the gz type where gz publishes it), the console script publishing its ROS-only
streams, its RViz displays (ros2/rviz branch jazzy, rviz_default_plugins/plugins_description.xml,
commit 591594ee). Gazebo blocks: gazebo/sensor_blocks.py; converter parameters:
ros/nodes/converters.py; topic names: model/topics.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import value_kinds as kinds

#: A bridge entry's direction, in ros_gz_bridge's words.
GZ_TO_ROS = 'GZ_TO_ROS'
ROS_TO_GZ = 'ROS_TO_GZ'

#: The kinds of a sensor section's values. A FRAME key names one of the part's frames.
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
    converter: str | None = None  # the console script publishing its ROS-only streams
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
        converter='scan_to_range',
        rviz=(('rviz_default_plugins/Range', 'range'),)),
    SensorKind(
        'imu', 'imu',
        {'frame': FRAME, **_RATE,
         'gyro_noise_density': _nonnegative('rad/s/sqrt(Hz): angular rate noise density'),
         'accel_noise_density': _nonnegative('m/s^2/sqrt(Hz): acceleration noise density')},
        streams=(Stream('imu', 'sensor_msgs/msg/Imu', 'gz.msgs.IMU'),)),
    SensorKind(
        'magnetometer', 'magnetic_field',
        {'frame': FRAME, **_RATE,
         'noise_stddev': _nonnegative('T: per-sample standard deviation on each axis')},
        streams=(Stream('magnetic_field', 'sensor_msgs/msg/MagneticField',
                        'gz.msgs.Magnetometer'),)),
    SensorKind(
        'navsat', 'fix',
        {'frame': FRAME, **_RATE,
         'horizontal_stddev': _nonnegative('m: horizontal position noise'),
         'vertical_stddev': _nonnegative('m: vertical position noise')},
        streams=(Stream('fix', 'sensor_msgs/msg/NavSatFix', 'gz.msgs.NavSat'),)),
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
        rviz=(('rviz_default_plugins/Image', 'image'),)),
    SensorKind(
        'scanning_sonar', 'scan',
        {'frame': FRAME.described("the part's frame the head turns about (its z)"),
         'frequency': _positive('Hz (documentation)'), **_RATE, **_RANGE,
         'samples': COUNT.described('rays over the whole turn')},
        optional=('frequency',), ordered=(('range_min', 'range_max'),),
        # the whole circle from Gazebo; the converter steps a head through it, a beam a step
        streams=(Stream('scan', 'sensor_msgs/msg/LaserScan', 'gz.msgs.LaserScan'),
                 Stream('beam', 'sensor_msgs/msg/LaserScan')),
        converter='scan_to_ping360',
        rviz=(('rviz_default_plugins/LaserScan', 'scan'),)),
    SensorKind(
        # ros_gz bridges marine_acoustic_msgs/Dvl from Jazzy's ros_gz 1.0.22 on (gazebosim/
        # ros_gz pull request 789, "Bridge DVL messages"; rosdistro pull request 50418)
        'dvl', 'velocity',
        {'frame': FRAME.described("the part's frame the beams fan out below (its -z), +x "
                                  'ahead'),
         **_RATE, 'beams': COUNT.described('beams, evenly about z from 45 deg (at least 3)'),
         'beam_tilt': _positive('rad: each beam from the frame -z'),
         'beam_aperture': _positive('rad: full angle of each beam'), **_RANGE,
         'velocity_stddev': _nonnegative('m/s: noise on each beam velocity')},
        ordered=(('range_min', 'range_max'),),
        streams=(Stream('velocity', 'marine_acoustic_msgs/msg/Dvl',
                        'gz.msgs.DVLVelocityTracking'),)),
    SensorKind(
        # gz has no water pressure sensor: the converter computes it from the odometry
        'pressure', 'pressure',
        {'frame': FRAME.described("the part's frame at its pressure port"), **_RATE,
         'max_pressure': _positive('Pa: the highest pressure it reports'),
         'depth_resolution': _positive('m: the smallest change of depth it resolves (the '
                                       "noise ArduPilot SITL's simulated depth sensor is given)")},
        optional=('depth_resolution',),
        streams=(Stream('pressure', 'sensor_msgs/msg/FluidPressure'),),
        converter='pose_to_pressure',
        rviz=(('rviz_default_plugins/FluidPressure', 'pressure'),)),
    SensorKind(
        'light', 'light',
        {'frame': FRAME.described("the part's frame the light shines along (+x)"),
         'intensity': _positive("gz's relative scale"), 'range': _positive('m'),
         'inner_angle': _nonnegative('rad: full angle of the bright cone'),
         'outer_angle': _positive('rad: full angle of the whole cone'),
         'falloff': _nonnegative('between the cones')},
        category='light'),
)}

SECTIONS = tuple(KINDS)


def kind(section: str) -> SensorKind:
    """Return the registry entry of a part-data section."""
    return KINDS[section]
