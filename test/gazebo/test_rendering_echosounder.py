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
The Ping2 echosounder rendered by a real Gazebo: its range against the geometry below it.

Six BlueBoats (the shipped config, each under its own name, so its own topics) float 60 m
apart in one rendering world without gravity, each over terrain made for it: flat seabeds 2 m
and 15 m down, seabeds sloping 8 deg (inside the 12.5 deg half cone) and 20 deg (outside it),
a shelf whose edge is just inside the cone, a block only the grid's corner rays see (17.6 deg
off the beam, outside the cone), and one over water deeper than the 100 m range. Each boat's
point cloud (gz-sensors' gpu_lidar) goes through the conversion ``scan_to_range`` runs
(``RangeReading.from_cloud``, the bridge's field types) and is held against the distance
computed here from the sensor's pose (the URDF's kinematics) and the terrain: the nearest
return inside the cone, as a single-beam echosounder reports the first echo.

Needs a rendering Gazebo Harmonic (render_support); skips elsewhere with the reason.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

from bluerobotics_parts.build import build_gazebo
from bluerobotics_parts.model.kinematics import link_poses, rotate
from bluerobotics_parts.sensing.echosounder import RangeReading, RangeSpec
from conftest import CONFIG_DIR
import pytest
import render_support

SPACING = 60.0  # m between boats: no cone (25 deg, 100 m) reaches a neighbour's terrain
TOLERANCE = 0.02  # of the distance (the 2%)
HALF_CONE = math.radians(12.5)
KEPT = 3  # clouds per boat
# ros_gz_bridge (ros_gz, branch jazzy, ros_gz_bridge/src/convert/sensor_msgs.cpp) maps gz's
# PointCloudPacked FLOAT32 (6, gz-msgs10 pointcloud_packed.proto) to PointField FLOAT32 (7).
GZ_TO_ROS_DATATYPE = {6: 7, 7: 8}


def sensor_origin(build, spawn):
    """Return the echosounder's world position and beam axis (the link's +x) at ``spawn``."""
    (ping,) = [s for s in build.topics.sensors if s.kind == 'echosounder']
    pose = link_poses(build.vehicle)[ping.link]
    return (tuple(spawn[i] + pose.translation[i] for i in range(3)),
            rotate(pose.rotation, (1.0, 0.0, 0.0)), ping)


def slope_distance(origin, axis_angle_limit, slope, plane_height):
    """
    Return the nearest return inside the cone from a plane sloping ``slope`` rad about y.

    The plane passes ``plane_height`` m below the origin, straight down. The perpendicular
    from the origin meets it ``slope`` rad off the vertical: inside the cone, that is the
    nearest echo; outside, the cone's edge nearest the perpendicular is (its ray at the half
    angle in the plane of the slope: the grid has that ray).
    """
    perpendicular = plane_height * math.cos(slope)
    if slope <= axis_angle_limit:
        return perpendicular
    return perpendicular / math.cos(slope - axis_angle_limit)


# name -> (terrain, expected range as a function of the sensor's height above z = 0)
def terrain(name, x):
    """Return the static models under boat ``name`` at x, and its expected range(origin)."""
    box = render_support.box
    if name == 'flat_2m':
        return [box(f'{name}_bed', (30, 30, 1), (x, 0, -2.5, 0, 0, 0))], lambda o: o[2] + 2.0
    if name == 'flat_15m':
        return [box(f'{name}_bed', (40, 40, 1), (x, 0, -15.5, 0, 0, 0))], lambda o: o[2] + 15.0
    if name in ('slope_8', 'slope_20'):
        slope = math.radians(float(name.split('_')[1]))
        # a 1 m thick slab whose top passes 6 m below z = 0 straight under the boat
        centre_z = -6.0 - 0.5 / math.cos(slope)
        return ([box(f'{name}_bed', (40, 40, 1), (x, 0, centre_z, 0, slope, 0))],
                lambda o: slope_distance(o, HALF_CONE, slope,
                                         o[2] + 6.0 + (o[0] - x) * math.tan(slope)))
    if name == 'shelf_inside':
        # a shelf 5 m below the sensor whose edge is 11 deg off the beam: the 12.5 deg ray hits
        def shelf(o):
            return 5.0 / math.cos(HALF_CONE)
        return [None], shelf  # placed once the sensor's height is known (below)
    if name == 'corner_only':
        return [None], lambda o: math.inf
    if name == 'deep':
        return [box(f'{name}_bed', (60, 60, 1), (x, 0, -110.5, 0, 0, 0))], lambda o: math.inf
    raise KeyError(name)


BOATS = ('flat_2m', 'flat_15m', 'slope_8', 'slope_20', 'shelf_inside', 'corner_only', 'deep')


@pytest.fixture(scope='module')
def readings():
    """Run the world once: each boat's kept clouds, its sensor origin and expected range."""
    render_support.require()
    models, topics, expected = [], {}, {}
    for index, name in enumerate(BOATS):
        x = index * SPACING
        build = build_gazebo(CONFIG_DIR / 'blueboat.yaml', name=name)
        spawn = (x, 0.0, 0.0)
        origin, axis, ping = sensor_origin(build, spawn)
        assert axis[2] < -0.999, f'the Ping looks down: its beam axis is {axis}'
        solids, expect = terrain(name, x)
        depth = 5.0  # below the sensor, for the shelf and the corner block
        if name == 'shelf_inside':
            edge = depth * math.tan(math.radians(11.0))  # inside 12.5, outside the 9.4 ray
            solids = [render_support.box(f'{name}_shelf', (30, 30, 1),
                                         (origin[0] + edge + 15, origin[1], origin[2] - depth
                                          - 0.5, 0, 0, 0))]
        if name == 'corner_only':
            # both offsets beyond tan(11.3 deg) of the depth: only the (12.5, 12.5) deg rays
            # (17.6 deg off the beam) reach it
            edge = depth * 0.205
            solids = [render_support.box(f'{name}_block', (10, 10, 1),
                                         (origin[0] + edge + 5, origin[1] + edge + 5,
                                          origin[2] - depth - 0.5, 0, 0, 0))]
        models += solids + [render_support.vehicle_model(build.urdf, (*spawn, 0, 0, 0))]
        topics[name] = (ping.gz['scan'], 'pointcloud_packed_pb2', 'PointCloudPacked')
        values = build.vehicle.sensors[ping.key].values
        expected[name] = (expect(origin), RangeSpec.from_part(values), origin)
    (phase,) = render_support.observe(render_support.world_sdf(models), topics,
                                      [{'skip': 2, 'keep': KEPT}])
    return {name: ([render_support.parse('pointcloud_packed_pb2', 'PointCloudPacked', m)
                    for m in phase[name]], *expected[name]) for name in BOATS}


def as_bridged(cloud):
    """Return a gz cloud with the fields the ROS PointCloud2 has after the bridge."""
    fields = [SimpleNamespace(name=f.name, offset=f.offset,
                              datatype=GZ_TO_ROS_DATATYPE.get(f.datatype, -1))
              for f in cloud.field]
    return SimpleNamespace(width=cloud.width, height=cloud.height, point_step=cloud.point_step,
                           row_step=cloud.row_step, is_bigendian=cloud.is_bigendian,
                           fields=fields, data=cloud.data)


def ranges_of(readings, name):
    clouds, expected, spec, origin = readings[name]
    assert len(clouds) == KEPT, f'{name}: {len(clouds)} clouds kept of {KEPT}'
    return [RangeReading.from_cloud(as_bridged(c), spec).range for c in clouds], expected


@pytest.mark.parametrize('name', ['flat_2m', 'flat_15m'])
def test_over_a_flat_seabed_it_reads_the_depth_below_the_transducer(readings, name):
    got, expected = ranges_of(readings, name)
    assert all(abs(r - expected) <= TOLERANCE * expected for r in got), (got, expected)


@pytest.mark.parametrize('name', ['slope_8', 'slope_20'])
def test_over_a_slope_it_reads_the_nearest_return_in_its_cone(readings, name):
    got, expected = ranges_of(readings, name)
    assert all(abs(r - expected) <= TOLERANCE * expected for r in got), (got, expected)


def test_a_shelf_just_inside_the_cone_is_seen_at_the_cone_edge(readings):
    got, expected = ranges_of(readings, 'shelf_inside')
    assert all(abs(r - expected) <= TOLERANCE * expected for r in got), (got, expected)


def test_what_only_the_grid_corners_see_is_outside_the_cone(readings):
    """The square grid's corner rays (17.6 deg off the beam) see it; the Ping does not."""
    clouds, _, spec, _ = readings['corner_only']
    from bluerobotics_parts.sensing.echosounder import cloud_ranges

    every_ray = [r for r in cloud_ranges(as_bridged(clouds[-1])) if math.isfinite(r)]
    assert every_ray, 'the block is where the corner rays reach: the world is not as planned'
    got, _ = ranges_of(readings, 'corner_only')
    assert got == [math.inf] * len(got)


def test_past_its_maximum_range_it_reads_plus_infinity(readings):
    got, _ = ranges_of(readings, 'deep')
    assert got == [math.inf] * len(got)
