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
Point clouds of the Ping's cone, laid out as gz-sensors lays out a gpu_lidar's cloud.

The echosounder is composed as a square grid of rays over its cone (echosounder.RayGrid) and
bridged as sensor_msgs/msg/PointCloud2 (x, y, z float32; one row per vertical angle and one
column per horizontal angle, both in RayGrid's order; an infinite range as an infinite x, as
echosounder.cloud_ranges reads it). The tests of scan_to_range publish these clouds.
"""

import math
import struct

from bluerobotics_parts.sensing.echosounder import RayGrid

#: A 3 x 3 grid over the cone: these positions (row-major) lie inside it, the corners do not.
CONE_POSITIONS = (4, 1, 3, 5, 7)
#: What the corners of a 3 x 3 grid report in ``on_axis``: nearer than any test value and in
#: range, so a conversion that counted rays outside the cone would report it.
OUTSIDE_THE_CONE = 0.75


def in_cone(*ranges) -> list:
    """Return the 9 ranges of a 3 x 3 grid: ``ranges`` on the rays in the cone (+inf after)."""
    grid = [OUTSIDE_THE_CONE] * 9
    for position in CONE_POSITIONS:
        grid[position] = math.inf
    for position, value in zip(CONE_POSITIONS, ranges):
        grid[position] = value
    return grid


def cone_cloud(message_types, ranges, field_of_view: float, stamp=(0, 0),
               frame_id: str = 'gz_name_of_the_link'):
    """
    Return a PointCloud2 with one point per ray of a square grid (``ranges`` row-major).

    ``message_types`` is (PointCloud2, PointField) from sensor_msgs.msg.
    """
    cloud_type, field_type = message_types
    samples = math.isqrt(len(ranges))
    assert samples * samples == len(ranges), 'a square grid of rays'
    angles = RayGrid(field_of_view, samples).angles()
    data = b''
    for index, distance in enumerate(ranges):
        v, h = angles[index // samples], angles[index % samples] if samples else 0.0
        if math.isfinite(distance):
            point = (distance * math.cos(v) * math.cos(h), distance * math.cos(v) * math.sin(h),
                     distance * math.sin(v))
        elif math.isinf(distance):
            point = (distance, 0.0, 0.0)
        else:
            point = (math.nan, math.nan, math.nan)
        data += struct.pack('<fff', *point)
    cloud = cloud_type()
    cloud.header.stamp.sec, cloud.header.stamp.nanosec = stamp
    cloud.header.frame_id = frame_id
    cloud.width = cloud.height = samples
    cloud.point_step, cloud.row_step = 12, 12 * samples
    cloud.is_bigendian = False
    cloud.is_dense = False
    cloud.fields = [field_type(name=name, offset=4 * i, datatype=field_type.FLOAT32, count=1)
                    for i, name in enumerate('xyz')]
    cloud.data = data
    return cloud
