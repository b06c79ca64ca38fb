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
Turning the simulated Ping's returns into the single range a sensor_msgs/Range carries.

Gazebo simulates the Ping (single beam, 25 deg cone) as a gpu_lidar with a square grid of rays
over the cone (``RayGrid``). ros_gz's LaserScan conversion keeps only the middle row
(gazebosim/ros_gz, branch jazzy, ros_gz_bridge/src/convert/sensor_msgs.cpp,
``convert_gz_to_ros(gz::msgs::LaserScan)``: "If there are multiple vertical beams, use the one
in the middle") and Range has no bridge at all (ros_gz issue 586), but the point cloud
(``<topic>/points``) is bridged whole (the same file, ``convert_gz_to_ros(PointCloudPacked)``):
``range_node`` turns each cloud into one Range with the arithmetic here, free of ROS.
"""

from __future__ import annotations

from dataclasses import dataclass
import math
import struct

from ..errors import EchosounderError

# sensor_msgs/msg/Range's radiation type ULTRASOUND (repeated so this module needs no ROS):
# the Ping is an acoustic ranger.
ULTRASOUND = 0


def scan_to_range(ranges, range_min: float, range_max: float) -> float:
    """
    Return the range one scan reports: nearest valid echo, -inf, +inf or nan.

    REP 117 semantics, as the Range message documents them, over the rays inside the cone:

    * the nearest echo within ``[range_min, range_max]``: a single-beam echosounder reports the
      first return inside its cone, so the shortest valid ray wins;
    * ``-inf`` when no ray is within range but at least one saw something closer than
      ``range_min`` (a detection too close to measure);
    * ``+inf`` when nothing was detected within range (open water);
    * ``nan`` when the scan has no usable ray at all (empty, or only NaN, REP 117's
      "erroneous"): there is nothing to report, and the node publishes nothing for such a scan.

    Values beyond ``range_max`` count as no detection, whatever the simulator wrote for them.
    """
    nearest = math.inf
    too_close = False
    usable = False
    for value in ranges:
        value = float(value)
        if math.isnan(value):
            continue
        usable = True
        if value < range_min:
            too_close = True
        elif value <= range_max:
            nearest = min(nearest, value)
    if not usable:
        return math.nan
    if math.isfinite(nearest):
        return nearest
    return -math.inf if too_close else math.inf


@dataclass(frozen=True)
class RayGrid:
    """
    A square grid of gpu_lidar rays over a cone's full width on both axes.

    ``samples`` rays per axis, from -half to +half (one ray on the axis when it is odd); the
    composition writes it (gazebo/sensor_blocks.py), the Range conversion reads clouds laid out
    by it.
    """

    beam_width: float  # rad, the cone's full opening angle
    samples: int  # rays per axis

    @property
    def half(self) -> float:
        return self.beam_width / 2 if self.samples > 1 else 0.0

    def angles(self) -> list[float]:
        """Return the ray angles of one axis, in order (horizontal: about z; vertical: up)."""
        if self.samples == 1:
            return [0.0]
        step = 2 * self.half / (self.samples - 1)
        return [-self.half + k * step for k in range(self.samples)]

    def in_cone(self) -> list[bool]:
        """
        Tell, for every ray, row by row (vertical angle outer), whether it lies in the cone.

        In the cone: its angle from the axis, acos(cos v cos h), is at most half the beam width.
        """
        limit = math.cos(self.beam_width / 2) - 1e-12
        angles = self.angles()
        return [math.cos(v) * math.cos(h) >= limit for v in angles for h in angles]


def cloud_ranges(cloud) -> list[float]:
    """
    Return the range of every point of a gpu_lidar point cloud, in the cloud's order.

    ``cloud`` is a sensor_msgs/msg/PointCloud2 (or anything with its fields): ``width``,
    ``height``, ``point_step``, ``row_step``, ``is_bigendian``, ``fields`` (``name``,
    ``offset``, ``datatype``) and ``data``. A finite point's range is its distance from the
    sensor; a point with an infinite x is +/-inf; anything else is NaN.

    The cloud's layout is gz-sensors': ``height`` rows (vertical angles, bottom first) of
    ``width`` points (horizontal angles), each point x, y, z = depth * (cos v cos h,
    cos v sin h, sin v), float32, in the sensor frame (gazebosim/gz-sensors, tag
    gz-sensors8_8.2.2, src/GpuLidarSensor.cc, ``FillPointCloudMsg``). A ray with no return
    within range has depth +inf, one closer than the minimum -inf (rays are masked to +/-inf,
    REP 117), so its x is +/-inf.
    """
    offsets = {f.name: f.offset for f in cloud.fields if f.datatype == FLOAT32}
    if not all(axis in offsets for axis in 'xyz'):
        raise EchosounderError('the point cloud has no float32 x, y and z fields; fields: '
                               + ', '.join(f'{f.name} (type {f.datatype})'
                                           for f in cloud.fields))
    unpack = struct.Struct('>f' if cloud.is_bigendian else '<f').unpack_from
    data = bytes(cloud.data)
    ranges = []
    for row in range(cloud.height):
        for column in range(cloud.width):
            base = row * cloud.row_step + column * cloud.point_step
            if base + cloud.point_step > len(data):
                raise EchosounderError(
                    f'the point cloud has {len(data)} bytes, too few for {cloud.height} rows '
                    f'of {cloud.width} points of {cloud.point_step} bytes')
            x, y, z = (unpack(data, base + offsets[axis])[0] for axis in 'xyz')
            if math.isfinite(x) and math.isfinite(y) and math.isfinite(z):
                ranges.append(math.sqrt(x * x + y * y + z * z))
            elif math.isinf(x):
                ranges.append(x)
            else:
                ranges.append(math.nan)
    return ranges


# sensor_msgs/msg/PointField's datatype for float32 (gz.msgs.PointCloudPacked's FLOAT32 maps to
# it in ros_gz_bridge's conversion).
FLOAT32 = 7


@dataclass(frozen=True)
class RangeSpec:
    """
    What a Range message states about the sensor besides the reading.

    The cone's full opening angle (rad) and the measurable interval (m). Checked on
    construction, so a bad parameter fails when the node starts, not on the first scan.
    """

    field_of_view: float
    min_range: float
    max_range: float

    def __post_init__(self):
        values = {'field_of_view': self.field_of_view, 'min_range': self.min_range,
                  'max_range': self.max_range}
        for key, value in values.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value):
                raise EchosounderError(f'echosounder {key} must be a finite number, got {value!r}')
        if not 0 < self.field_of_view <= math.pi:
            raise EchosounderError(f'echosounder field_of_view must be in (0, pi] rad (the full '
                                   f'opening angle of the beam), got {self.field_of_view!r}')
        if not 0 <= self.min_range < self.max_range:
            raise EchosounderError(f'echosounder min_range ({self.min_range!r}) must be >= 0 and '
                                   f'below max_range ({self.max_range!r})')

    @classmethod
    def from_part(cls, echosounder: dict) -> 'RangeSpec':
        """From a part's ``echosounder`` section (PartType.sensor_sections): beam, range."""
        return cls(field_of_view=float(echosounder['beam_width']),
                   min_range=float(echosounder['range_min']),
                   max_range=float(echosounder['range_max']))

    def reading(self, ranges) -> float:
        """Return the range a scan's rays report, within this sensor's interval."""
        return scan_to_range(ranges, self.min_range, self.max_range)

    def cone_ranges(self, cloud) -> list[float]:
        """
        Return the ranges of a point cloud's rays that lie inside this sensor's cone.

        The cloud is laid out as a square ``RayGrid`` over the field of view (as
        gazebo/sensor_blocks.py composes it).
        """
        if cloud.width != cloud.height:
            raise EchosounderError(
                f'the point cloud is {cloud.width} x {cloud.height} rays; the echosounder is '
                'composed as a square grid over its cone (gazebo/sensor_blocks.py)')
        ranges = cloud_ranges(cloud)
        inside = RayGrid(self.field_of_view, cloud.width).in_cone()
        return [r for r, keep in zip(ranges, inside) if keep]


@dataclass(frozen=True)
class RangeReading:
    """The fields of one sensor_msgs/msg/Range, as plain values."""

    radiation_type: int
    field_of_view: float
    min_range: float
    max_range: float
    range: float  # noqa: A003  (sensor_msgs/msg/Range's field name)

    @classmethod
    def from_scan(cls, ranges, spec: RangeSpec) -> 'RangeReading | None':
        """Return the Range for one scan's rays, or None when it has nothing to report."""
        value = spec.reading(ranges)
        if math.isnan(value):
            return None
        return cls(ULTRASOUND, spec.field_of_view, spec.min_range, spec.max_range, value)

    @classmethod
    def from_cloud(cls, cloud, spec: RangeSpec) -> 'RangeReading | None':
        """
        Return the Range for one point cloud of the Ping's cone (its rays inside the cone).

        None when it has nothing to report.
        """
        return cls.from_scan(spec.cone_ranges(cloud), spec)
