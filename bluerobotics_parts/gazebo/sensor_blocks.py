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
The ``<sensor>`` and ``<light>`` block of each sensor kind, and the world systems it needs.

Sources (the tags the package targets): gazebosim/gz-sensors gz-sensors8_8.2.2
(src/*Sensor.cc), gazebosim/gz-sim gz-sim8_8.14.0 (src/systems/*), gazebosim/sdformat
sdformat14_14.9.0 (sdf/1.11/*.sdf and src/*.cc); elements.py tables every element written.
"""

from __future__ import annotations

from dataclasses import dataclass
import math
import re
from typing import Callable
from xml.etree import ElementTree

from . import gz_xml
from .elements import (DVL_SYSTEM, IMU_SYSTEM, MAGNETOMETER_SYSTEM, NAVSAT_SYSTEM,
                       SENSORS_SYSTEM)
from ..errors import ConfigError
from ..sensing.echosounder import RayGrid


@dataclass(frozen=True)
class SensorBlock:
    """How Gazebo simulates one sensor kind: its block builder and the world systems it needs."""

    build: Callable  # (SensorTopics, values, GzRelease) -> the <sensor> or <light> element
    world_systems: tuple = ()


def _sensor(names, kind: str, values: dict, release, topic: str,
            frame: bool = True) -> ElementTree.Element:
    """
    Return a ``<sensor>`` at its link's origin with the elements every sensor takes.

    ``frame``: whether to name the frame id of its messages with the release's element (a
    camera names its optical frame instead, below).

    Not ``<always_on>`` nor ``<visualize>``: the SDF spec has them, but nothing in gz-sensors
    8 or gz-sim 8 reads them (gz-sensors8_8.2.2 src/Sensor.cc, Sensor::Load: "what to do with
    <always_on>?"); gz-sim updates a sensor only while something subscribes to it.
    """
    sensor = ElementTree.Element('sensor', name=names.sensor_name, type=kind)
    gz_xml.children(sensor, [('pose', '0 0 0 0 0 0'),
                             ('update_rate', float(values['update_rate'])),
                             ('topic', topic)]
                    + ([(release.sensor_frame_tag, names.frame_id)] if frame else []))
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
    passes exactly that band is an assumption (docs/LIMITATIONS.md, "Sensors").
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
    No ``<gz_frame_id>``: the camera's messages do not use it (gz-sensors8_8.2.2,
    CameraSensor.cc: the optical frame id, else the sensor's frame), and SDFormat 14 warns about
    it on every load, as it is not in the SDF 1.11 spec (sdformat14_14.9.0 src/parser.cc,
    readXml).
    """
    sensor = _sensor(names, 'camera', values, release, names.gz_topic, frame=False)
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


def dvl_block(names, values: dict, release) -> ElementTree.Element:
    """
    Return the DVL: gz-sensors 8's custom sensor (``type="custom" gz:type="dvl"``).

    ``beams`` piston beams, each ``beam_tilt`` from the frame's -z, spread evenly about z from
    45 deg (ahead to port, as a Water Linked A50's four), bottom tracking always on with
    Gaussian noise on each beam's velocity; the velocity is reported in the part's frame
    (REP 103: x ahead, z up; gz-sensors DopplerVelocityLog.hh: the sensor frame is x forward,
    y left, z up, beams below). It renders (gz-sim's Sensors and DVL systems, a render engine)
    and computes only while its topic has a subscriber (DopplerVelocityLog.cc, Update).
    """
    sensor = _sensor(names, 'custom', values, release, names.gz_topic)
    sensor.set('gz:type', 'dvl')
    beams = int(values['beams'])
    tilt, aperture = float(values['beam_tilt']), float(values['beam_aperture'])
    arrangement = ElementTree.Element('arrangement', degrees='false')
    for index in range(beams):
        beam = ElementTree.SubElement(arrangement, 'beam', id=str(index))
        gz_xml.children(beam, [('aperture', aperture),
                               ('rotation', math.pi / 4 + 2 * math.pi * index / beams),
                               ('tilt', tilt)])
    dvl = ElementTree.SubElement(sensor, 'gz:dvl')
    gz_xml.children(dvl, [('type', 'piston')])
    dvl.append(arrangement)
    bottom = ElementTree.SubElement(ElementTree.SubElement(dvl, 'tracking'), 'bottom_mode')
    gz_xml.children(bottom, [('when', 'always')])
    noise = ElementTree.SubElement(bottom, 'noise', type='gaussian')
    gz_xml.children(noise, _gaussian(float(values['velocity_stddev'])))
    gz_xml.children(dvl, [('minimum_range', float(values['range_min'])),
                          ('maximum_range', float(values['range_max']))])
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


#: Per part-data section (formats/sensor_kinds.py), how Gazebo simulates it. A kind without
#: an entry has no Gazebo element (the pressure sensor: its converter computes it).
BLOCKS = {
    'echosounder': SensorBlock(echosounder_block, (SENSORS_SYSTEM,)),
    'imu': SensorBlock(imu_block, (IMU_SYSTEM,)),
    'magnetometer': SensorBlock(magnetometer_block, (MAGNETOMETER_SYSTEM,)),
    'navsat': SensorBlock(navsat_block, (NAVSAT_SYSTEM,)),
    'camera': SensorBlock(camera_block, (SENSORS_SYSTEM,)),
    'scanning_sonar': SensorBlock(scanning_sonar_block, (SENSORS_SYSTEM,)),
    'dvl': SensorBlock(dvl_block, (SENSORS_SYSTEM, DVL_SYSTEM)),
    'light': SensorBlock(light_block),
}


@dataclass(frozen=True)
class CameraSetting:
    """
    The image size and rate every camera of a vehicle renders at, instead of its part's.

    The knob for a slow simulation: on a machine without a GPU the BlueROV2's 1920 x 1080 at
    30 Hz is most of what rendering costs (docs/LIMITATIONS.md, "Sensors"). The part's field
    of view stays, so a smaller image sees the same scene, coarser.
    """

    width: int
    height: int
    update_rate: float | None = None  # Hz; None: the part's

    def applied(self, values: dict) -> dict:
        """Return a camera section's values with this size (and rate)."""
        changed = dict(values, width=self.width, height=self.height)
        if self.update_rate is not None:
            changed['update_rate'] = self.update_rate
        return changed


CAMERA_SIZE = (16, 7680)  # pixels a side: from a thumbnail to 8K
CAMERA_RATE = (0.1, 240.0)  # Hz
CAMERA_FORM = 'WIDTHxHEIGHT or WIDTHxHEIGHT@RATE, e.g. 640x360 or 640x360@15'


def camera_setting(value) -> CameraSetting | None:
    """
    Return the camera setting a text gives (``640x360`` or ``640x360@15``), None for none.

    ConfigError names the text and the valid form and bounds.
    """
    if value is None or isinstance(value, CameraSetting):
        return value
    text = str(value).strip()
    if not text:
        return None
    found = re.fullmatch(r'(\d{1,5})\s*[xX]\s*(\d{1,5})(?:\s*@\s*(\d+(?:\.\d*)?|\.\d+))?', text)
    problem = None
    if not found:
        problem = f'give {CAMERA_FORM} (pixels, Hz)'
    else:
        width, height = int(found.group(1)), int(found.group(2))
        rate = float(found.group(3)) if found.group(3) else None
        low, high = CAMERA_SIZE
        if not (low <= width <= high and low <= height <= high):
            problem = f'width and height must be {low} to {high} pixels'
        elif rate is not None and not CAMERA_RATE[0] <= rate <= CAMERA_RATE[1]:
            problem = f'the rate must be {CAMERA_RATE[0]:g} to {CAMERA_RATE[1]:g} Hz'
    if problem:
        raise ConfigError(f'camera {text!r}: {problem}')
    return CameraSetting(width, height, rate)


def sensor_blocks(names, catalogue, release, camera: CameraSetting | None = None) -> list:
    """
    Return the ``<gazebo reference=link>`` block of every sensor and light, record order.

    ``camera``: every camera's image size and rate instead of its part's (``camera_setting``).
    """
    blocks = []
    for sensor in names.sensors:
        block = BLOCKS.get(sensor.kind)
        if block is not None:
            values = catalogue[sensor.type].sensor_sections[sensor.kind]
            if sensor.kind == 'camera' and camera is not None:
                values = camera.applied(values)
            blocks.append(gz_xml.gazebo(block.build(sensor, values, release),
                                        reference=sensor.link))
    return blocks


def world_systems() -> list:
    """Return every world system some sensor kind needs, once each, in registry order."""
    found = []
    for block in BLOCKS.values():
        found += [system for system in block.world_systems if system not in found]
    return found
