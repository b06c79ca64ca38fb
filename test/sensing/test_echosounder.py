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

"""The Ping's scan -> Range conversion: what one scan reports, and the sensor's stated cone."""

from __future__ import annotations

from dataclasses import dataclass
import math

import struct

from bluerobotics_parts.assembly import catalogue
from bluerobotics_parts.errors import EchosounderError
from bluerobotics_parts.sensing.echosounder import (cloud_ranges, RangeReading, RangeSpec, RayGrid,
                                                    scan_to_range, ULTRASOUND)
import pytest

INF = math.inf


@pytest.mark.parametrize('ranges, expected', [
    ([20.0, 19.5, 21.0], 19.5),  # the nearest echo across the beam wins
    ([INF, 12.25, INF], 12.25),  # rays that saw nothing do not hide the one that did
    ([-INF, 7.0, INF], 7.0),  # a too-close ray does not hide a valid echo
    ([0.2, 3.0], 3.0),  # a finite value below range_min is not a valid echo either
    ([0.5, 4.0], 0.5),  # range_min itself is measurable
    ([100.0, 150.0], 100.0),  # so is range_max; beyond it is nothing
    ([float('nan'), 8.0], 8.0),  # NaN rays (erroneous) are skipped
])
def test_the_nearest_valid_echo(ranges, expected):
    assert scan_to_range(ranges, 0.5, 100.0) == expected


@pytest.mark.parametrize('ranges, expected', [
    ([INF, INF, INF], INF),  # open water: no detection within range
    ([150.0, 101.0], INF),  # beyond range_max counts as no detection
    ([-INF, INF], -INF),  # only a detection too close to measure
    ([0.1, 0.3], -INF),
])
def test_no_valid_echo_follows_rep_117(ranges, expected):
    assert scan_to_range(ranges, 0.5, 100.0) == expected


@pytest.mark.parametrize('ranges', [[], [float('nan')] * 3])
def test_a_scan_without_usable_rays_reports_nothing(ranges):
    assert math.isnan(scan_to_range(ranges, 0.5, 100.0))
    spec = RangeSpec(0.4, 0.5, 100.0)
    assert RangeReading.from_scan(ranges, spec) is None


def test_a_reading_carries_the_cone_and_interval():
    spec = RangeSpec(field_of_view=0.436, min_range=0.5, max_range=100.0)
    reading = RangeReading.from_scan([INF, 42.0, 41.5], spec)
    assert reading == RangeReading(ULTRASOUND, 0.436, 0.5, 100.0, 41.5)
    assert RangeReading.from_scan([INF], spec).range == INF


def test_the_shipped_ping_gives_its_datasheet_cone():
    ping = catalogue.shipped()['ping_singlebeam'].sensor_sections['echosounder']
    spec = RangeSpec.from_part(ping)
    assert spec.field_of_view == pytest.approx(math.radians(25))  # Ping2 beam width
    assert (spec.min_range, spec.max_range) == (0.5, 100.0)
    assert spec.reading([0.4, 0.45]) == -INF  # inside the Ping's blanking distance


@pytest.mark.parametrize('kwargs, words', [
    ({'field_of_view': 0.0, 'min_range': 0.5, 'max_range': 10.0}, 'field_of_view'),
    ({'field_of_view': 4.0, 'min_range': 0.5, 'max_range': 10.0}, '(0, pi]'),
    ({'field_of_view': 0.4, 'min_range': 10.0, 'max_range': 10.0}, 'below max_range'),
    ({'field_of_view': 0.4, 'min_range': -1.0, 'max_range': 10.0}, 'min_range'),
    ({'field_of_view': 0.4, 'min_range': 0.5, 'max_range': INF}, 'max_range must be a finite'),
    ({'field_of_view': True, 'min_range': 0.5, 'max_range': 10.0}, 'field_of_view must be'),
])
def test_a_spec_that_describes_no_ranger_is_refused(kwargs, words):
    with pytest.raises(EchosounderError, match=None) as caught:
        RangeSpec(**kwargs)
    assert words in str(caught.value)


# -- the cone: a square grid of rays, bridged as a point cloud ----------------------------------

PING = catalogue.shipped()['ping_singlebeam'].sensor_sections['echosounder']


def test_the_grid_covers_the_cone_on_both_axes():
    grid = RayGrid(PING['beam_width'], PING['samples'])
    angles = [math.degrees(a) for a in grid.angles()]
    assert len(angles) == 9
    assert (angles[0], angles[-1]) == (pytest.approx(-12.5), pytest.approx(12.5))
    assert angles[4] == pytest.approx(0.0)  # a ray on the axis
    inside = grid.in_cone()
    assert len(inside) == 81 and sum(inside) == 49
    assert inside[40]  # the axis
    assert not inside[0] and not inside[8] and not inside[72] and not inside[80]  # corners
    assert inside[4] and inside[36] and inside[44] and inside[76]  # 12.5 deg off, on an axis
    assert RayGrid(0.4, 1).angles() == [0.0] and RayGrid(0.4, 1).in_cone() == [True]


@dataclass
class Field:
    name: str
    offset: int
    datatype: int
    count: int = 1


@dataclass
class Cloud:
    """
    Test double: the sensor_msgs/PointCloud2 ros_gz_bridge delivers from the Ping's gpu_lidar.

    The sensor cannot run here (no rendering in the headless build).

    Laid out as gz-sensors writes it (gz-sensors8_8.2.2 src/GpuLidarSensor.cc,
    FillPointCloudMsg; fields by gz-msgs10_10.4.0 InitPointCloudPacked, memory aligned: x 0,
    y 4, z 8, intensity 16, ring 24, 32 bytes a point) and as ros_gz jazzy's conversion copies
    it (data and fields unchanged; FLOAT32 -> PointField 7, UINT16 -> 4).
    """

    width: int
    height: int
    data: bytes
    point_step: int = 32
    is_bigendian: bool = False
    fields: tuple = (Field('x', 0, 7), Field('y', 4, 7), Field('z', 8, 7),
                     Field('intensity', 16, 7), Field('ring', 24, 4))

    @property
    def row_step(self) -> int:
        return self.width * self.point_step


def cloud(depths, samples=9, beam_width=PING['beam_width']) -> Cloud:
    """
    Return a cloud whose ray k (row by row) returned ``depths[k]``.

    x, y, z = depth * (cos v cos h, cos v sin h, sin v) in float32, as FillPointCloudMsg
    computes them.
    """
    angles = RayGrid(beam_width, samples).angles()
    data = bytearray()
    for k, depth in enumerate(depths):
        v, h = angles[k // samples], angles[k % samples]
        point = struct.pack('<fff', depth * math.cos(v) * math.cos(h),
                            depth * math.cos(v) * math.sin(h), depth * math.sin(v))
        data += point + bytes(4) + struct.pack('<f', 1.0) + bytes(4) + \
            struct.pack('<H', k // samples) + bytes(6)
    return Cloud(samples, samples, bytes(data))


SPEC = RangeSpec.from_part(PING)


def test_a_cloud_gives_each_rays_range():
    depths = [10.0 + k * 0.25 for k in range(81)]
    assert cloud_ranges(cloud(depths)) == pytest.approx(depths, rel=1e-6)  # float32


def test_the_nearest_return_inside_the_cone_wins():
    depths = [20.0] * 81
    assert RangeReading.from_cloud(cloud(depths), SPEC).range == pytest.approx(20.0)
    depths[0] = 3.0  # a corner, (-12.5, -12.5) deg: 17.6 deg off the axis, outside the cone
    depths[2 * 9 + 0] = 4.0  # (v, h) = (-6.25, -12.5) deg: 14 deg off the axis, outside too
    assert RangeReading.from_cloud(cloud(depths), SPEC).range == pytest.approx(20.0)
    depths[4 * 9 + 0] = 7.5  # (0, -12.5) deg: on the cone's edge, inside
    assert RangeReading.from_cloud(cloud(depths), SPEC).range == pytest.approx(7.5)
    depths[2 * 9 + 2] = 6.25  # (-6.25, -6.25) deg: 8.8 deg off the axis, inside, nearer
    reading = RangeReading.from_cloud(cloud(depths), SPEC)
    assert reading == RangeReading(ULTRASOUND, SPEC.field_of_view, 0.5, 100.0,
                                   pytest.approx(6.25))


def test_no_return_too_close_and_erroneous_rays():
    """
    gz-sensors masks rays to +inf (nothing within range) and -inf (closer than the minimum).

    on the axis (h = 0) y = inf * 0 is NaN, yet the ray reads as its x says.
    """
    assert RangeReading.from_cloud(cloud([INF] * 81), SPEC).range == INF
    depths = [INF] * 81
    depths[40] = -INF  # the axis ray: x = -inf, y = nan
    assert RangeReading.from_cloud(cloud(depths), SPEC).range == -INF
    depths[0] = 0.2  # a too-close finite value outside the cone changes nothing
    assert RangeReading.from_cloud(cloud(depths), SPEC).range == -INF
    assert RangeReading.from_cloud(cloud([float('nan')] * 81), SPEC) is None
    assert RangeReading.from_cloud(Cloud(0, 0, b''), SPEC) is None  # empty


def test_a_cloud_that_is_not_the_composed_grid_is_refused():
    bad = cloud([1.0] * 81)
    with pytest.raises(EchosounderError, match='no float32 x, y and z fields'):
        cloud_ranges(Cloud(9, 9, bad.data, fields=(Field('x', 0, 7), Field('y', 4, 7))))
    with pytest.raises(EchosounderError, match='too few for 9 rows'):
        cloud_ranges(Cloud(9, 9, bad.data[:-1]))
    with pytest.raises(EchosounderError, match='square grid'):
        SPEC.cone_ranges(Cloud(81, 1, bad.data))


def test_a_big_endian_cloud():
    little = cloud([5.0] * 81)
    swapped = bytearray(little.data)
    for k in range(81):
        for offset in (0, 4, 8):
            base = k * 32 + offset
            swapped[base:base + 4] = swapped[base:base + 4][::-1]
    assert cloud_ranges(Cloud(9, 9, bytes(swapped), is_bigendian=True)) == \
        pytest.approx([5.0] * 81)
