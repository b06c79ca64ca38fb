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
The BlueROV2's Ping360, camera and tilt, DVL and lights rendered by a real Gazebo.

Each against an expectation computed here from the world's geometry and the URDF's kinematics:
piles at known bearings and distances in the Ping360's scan (the beam a Ping360 angle reads,
``scanning_sonar.beam_range``); the HD camera's image size and rate, and the seabed's share of
the image against the pinhole projection of its far edge as the tilt turns the camera; the DVL
A50's velocity against the vehicle's odometry while gz-sim's VelocityControl moves it at
0.5 m/s, and its beams' lock beyond range; a Lumen's light on the seabed in a dark world,
switched off through ``/world/<world>/light_config`` as docs/ROV.md tells a user to.

Needs a rendering Gazebo Harmonic (render_support); skips elsewhere with the reason.
"""

from __future__ import annotations

import math
from xml.etree import ElementTree

from bluerobotics_parts.build import build_gazebo
from bluerobotics_parts.model.kinematics import link_poses, rotate, transpose
from bluerobotics_parts.sensing.scanning_sonar import beam_range, bearing, GRADIANS
from conftest import CONFIG_DIR, write_config
import pytest
import render_support
from render_support import box, cylinder, observe, parse, vehicle_model, world_sdf

ROV = CONFIG_DIR / 'bluerov2.yaml'
TOLERANCE = 0.02


def sensor(build, kind):
    (found,) = [s for s in build.topics.sensors if s.kind == kind]
    return found


# -- Ping360 ---------------------------------------------------------------------------------

#: (bearing deg from the head's +x, counter-clockwise; distance m to the pile's axis)
PILES = ((30.0, 8.0), (-100.0, 20.0), (171.0, 4.0))
PILE_RADIUS = 0.3


@pytest.fixture(scope='module')
def ping360(tmp_path_factory):
    render_support.require()
    config = write_config(tmp_path_factory.mktemp('ping360'), (
        'name: bluerov2\nbase: {type: bluerov2_frame}\nparts:\n'
        '  - {slot: scanning_sonar, type: ping360}\n'
        '  - {slot: hd_camera, of: camera, type: none}\n'))
    build = build_gazebo(config)
    head = sensor(build, 'scanning_sonar')
    pose = link_poses(build.vehicle)[head.link]
    models = [vehicle_model(build.urdf, (0, 0, 0, 0, 0, 0))]
    for index, (angle, distance) in enumerate(PILES):
        x = pose.translation[0] + distance * math.cos(math.radians(angle))
        y = pose.translation[1] + distance * math.sin(math.radians(angle))
        models.append(cylinder(f'pile_{index}', PILE_RADIUS, 10.0, (x, y, 0, 0, 0, 0)))
    (phase,) = observe(world_sdf(models), {'scan': (head.gz['scan'], 'laserscan_pb2',
                                                    'LaserScan')}, [{'skip': 2, 'keep': 2}])
    assert len(phase['scan']) == 2
    return [parse('laserscan_pb2', 'LaserScan', m) for m in phase['scan']], pose


def gradian_ranges(scan) -> list:
    """Return the range each of the Ping360's 400 head angles reads from a scan."""
    return [beam_range(scan.ranges, scan.angle_min, scan.angle_step, bearing(angle))
            for angle in range(GRADIANS)]


@pytest.mark.parametrize('pile', range(len(PILES)))
def test_a_pile_is_in_the_ping360_beam_at_its_bearing_and_range(ping360, pile):
    scans, head_pose = ping360
    assert rotate(head_pose.rotation, (1.0, 0.0, 0.0))[0] > 0.999, 'the head looks ahead'
    angle, distance = PILES[pile]
    want = distance - PILE_RADIUS  # the pile's face along the line to its axis
    for scan in scans:
        reads = gradian_ranges(scan)
        near = [a for a in range(GRADIANS)
                if abs(((a * 0.9 - angle + 180) % 360) - 180) < 20]  # this pile's side
        nearest = min(near, key=lambda a: reads[a])
        error = abs(((nearest * 0.9 - angle + 180) % 360) - 180)
        assert error <= 0.9, f'pile at {angle} deg read nearest at {nearest * 0.9} deg'
        assert abs(reads[nearest] - want) <= TOLERANCE * want, (reads[nearest], want)


def test_between_the_piles_the_ping360_reads_open_water(ping360):
    scans, _ = ping360
    reads = gradian_ranges(scans[-1])
    for angle in (-150.0, -45.0, 90.0):
        assert reads[round((angle % 360) / 0.9) % GRADIANS] == math.inf


# -- camera and tilt -----------------------------------------------------------------------------

SEABED_DEPTH = 3.0  # m below the camera
SEABED_HALF = 100.0  # m, half the seabed's side: its far edge makes the horizon


@pytest.fixture(scope='module')
def camera():
    """Run the shipped BlueROV2 over a bright seabed on black, its tilt at 0 then down."""
    render_support.require()
    build = build_gazebo(ROV)
    lens = sensor(build, 'camera')
    (tilt,) = build.topics.joint_controls
    angle = 0.25  # rad, down (docs/TOPICS.md); the kinematics must agree (checked below)
    spawn_z = 0.0
    models = [vehicle_model(build.urdf, (0, 0, spawn_z, 0, 0, 0)),
              box('seabed', (2 * SEABED_HALF, 2 * SEABED_HALF, 1),
                  (0, 0, spawn_z - SEABED_DEPTH - 0.5, 0, 0, 0), colour=(1, 1, 1))]
    phases = observe(world_sdf(models), {'image': (lens.gz['image'], 'image_pb2', 'Image')},
                     [{'publish': [[tilt.topic, 'double_pb2', 'Double', {'data': 0.0}]],
                       'skip': 1, 'keep': 3},
                      {'publish': [[tilt.topic, 'double_pb2', 'Double', {'data': angle}]],
                       'skip': 45, 'keep': 2}], timeout=900)
    images = [[parse('image_pb2', 'Image', m) for m in phase['image']] for phase in phases]
    return build, lens, tilt, angle, images


def bright_rows(image) -> float:
    """Return the share of the image's rows whose middle pixel is lit (the seabed)."""
    data, width = image.data, image.width
    lit = 0
    for row in range(image.height):
        middle = (row * width + width // 2) * 3
        if sum(data[middle:middle + 3]) > 3 * 40:
            lit += 1
    return lit / image.height


def predicted_share(build, lens, tilt, angle, values) -> float:
    """
    Return the share of the middle column's rows that see the seabed (pinhole camera, no roll).

    A row's ray meets the seabed when it points down, lands inside the seabed's far edge and
    lies within the far clip plane (its depth along the optical axis up to ``clip_far``).
    """
    poses = link_poses(build.vehicle, {tilt.joints[0]: angle})
    pose = poses[lens.link]
    axis = rotate(pose.rotation, (1.0, 0.0, 0.0))
    below = math.asin(-axis[2])  # the optical axis's depression
    height = SEABED_DEPTH + pose.translation[2]  # camera above the seabed (spawned at 0)
    reach = SEABED_HALF - pose.translation[0]  # to the seabed's far edge ahead
    width, rows = values['width'], values['height']
    focal = (width / 2) / math.tan(values['horizontal_fov'] / 2)
    seen = 0
    for row in range(int(rows)):
        depression = below + math.atan((row + 0.5 - rows / 2) / focal)  # image y is down
        if depression <= 0:
            continue
        ahead = height / math.tan(depression)
        depth = (height / math.sin(depression)) * math.cos(depression - below)
        seen += ahead <= reach and depth <= values['clip_far']
    return seen / rows


def test_the_camera_gives_images_at_its_size_and_rate_in_its_optical_frame(camera):
    build, lens, _, _, images = camera
    values = build.vehicle.sensors[lens.key].values
    for image in images[0]:
        assert (image.width, image.height) == (values['width'], values['height'])
        assert len(image.data) == image.width * image.height * 3
        assert max(image.data) > 0, 'an image with something in it'
        frames = {d.value[0] for d in image.header.data if d.key == 'frame_id'}
        assert frames == {lens.frame_ids['optical_frame']}
    stamps = [i.header.stamp.sec + i.header.stamp.nsec * 1e-9 for i in images[0]]
    steps = [b - a for a, b in zip(stamps, stamps[1:])]
    assert all(abs(step - 1 / values['update_rate']) < 0.005 for step in steps), steps


def test_tilting_down_brings_the_seabed_into_the_frame_where_the_tilt_says(camera):
    build, lens, tilt, angle, images = camera
    values = build.vehicle.sensors[lens.key].values
    level, down = bright_rows(images[0][-1]), bright_rows(images[1][-1])
    want_level = predicted_share(build, lens, tilt, 0.0, values)
    want_down = predicted_share(build, lens, tilt, angle, values)
    assert want_down > want_level + 0.2, 'the test tilts the camera down'
    assert abs(level - want_level) < 0.03, (level, want_level)
    assert abs(down - want_down) < 0.03, (down, want_down)


# -- DVL -----------------------------------------------------------------------------------------

SPEED = 0.5  # m/s ahead


def velocity_control(name: str) -> ElementTree.Element:
    """gz-sim's VelocityControl: the model's body velocity from /model/<name>/cmd_vel."""
    return ElementTree.fromstring(
        f"<plugin filename='gz-sim-velocity-control-system' "
        f"name='gz::sim::systems::VelocityControl'><topic>/model/{name}/cmd_vel</topic>"
        '</plugin>')


@pytest.fixture(scope='module')
def dvl():
    render_support.require()
    build = build_gazebo(CONFIG_DIR / 'examples' / 'bluerov2_payload.yaml')
    unit = sensor(build, 'dvl')
    name = build.topics.name
    near = 4.0  # m of water under the ROV over the first seabed; the second is beyond range
    values = build.vehicle.sensors[unit.key].values
    far = values['range_max'] + 20.0
    deep = build_gazebo(CONFIG_DIR / 'examples' / 'bluerov2_payload.yaml', name='deep')
    models = [vehicle_model(build.urdf, (0, 0, 0, 0, 0, 0), [velocity_control(name)]),
              vehicle_model(deep.urdf, (400, 0, 0, 0, 0, 0)),
              box('seabed', (300, 40, 1), (0, 0, -near - 0.5, 0, 0, 0)),
              box('deep_seabed', (100, 100, 1), (400, 0, -far - 0.5, 0, 0, 0))]
    command = [f'/model/{name}/cmd_vel', 'twist_pb2', 'Twist', {'linear': {'x': SPEED}}]
    topics = {'dvl': (unit.gz_topic, 'dvl_velocity_tracking_pb2', 'DVLVelocityTracking'),
              'odometry': (build.topics.gz_odometry_topic, 'odometry_pb2', 'Odometry'),
              'deep': (sensor(deep, 'dvl').gz_topic, 'dvl_velocity_tracking_pb2',
                       'DVLVelocityTracking')}
    (phase,) = observe(world_sdf(models, dvl=True), topics,
                       [{'publish': [command], 'skip': 20, 'keep': 10}], timeout=900)
    return build, unit, {k: [parse(*topics[k][1:], m) for m in v] for k, v in phase.items()}


def test_the_dvl_reads_the_odometrys_velocity_over_the_seabed(dvl):
    build, unit, messages = dvl
    pose = link_poses(build.vehicle)[unit.link]
    odometry = messages['odometry'][-1].twist.linear
    assert abs(odometry.x - SPEED) < 0.05 * SPEED, 'VelocityControl moves it at 0.5 m/s'
    # the base's velocity in the DVL's frame (no rotation of the base: it only translates)
    want = rotate(transpose(pose.rotation), (odometry.x, odometry.y, odometry.z))
    readings = []
    for message in messages['dvl']:
        assert all(beam.locked for beam in message.beams), 'every beam on the seabed'
        got = message.velocity.mean
        readings.append((got.x, got.y, got.z))
        # one reading carries the beams' noise (velocity_stddev per beam): 10% each
        assert math.dist(readings[-1], want) <= 0.1 * SPEED, (readings[-1], want)
    mean = [sum(axis) / len(readings) for axis in zip(*readings)]
    assert math.dist(mean, want) <= 0.05 * SPEED, (mean, want)


def test_beyond_its_range_the_dvl_has_no_lock(dvl):
    _, _, messages = dvl
    for message in messages['deep']:
        assert message.beams and not any(beam.locked for beam in message.beams)


# -- lights --------------------------------------------------------------------------------------

@pytest.fixture(scope='module')
def lights():
    """
    Run two BlueROV2s in the dark, cameras down at a seabed: every Lumen on, then the first's off.

    Switched off by their scoped names (docs/ROV.md), as a user does it.
    """
    render_support.require()
    builds = [build_gazebo(ROV, name=name) for name in ('first', 'second')]
    models = [vehicle_model(build.urdf, (20 * index, 0, 0, 0, 0, 0))
              for index, build in enumerate(builds)]
    sdf = ElementTree.fromstring(world_sdf(models + [box('seabed', (80, 40, 1),
                                                         (10, 0, -2.5, 0, 0, 0),
                                                         colour=(0.8, 0.8, 0.8))], lit=False))
    topics, down = {}, []
    for build in builds:
        lens = sensor(build, 'camera')
        shrink(sdf, build.topics.name, lens.sensor_name)
        topics[build.topics.name] = (lens.gz['image'], 'image_pb2', 'Image')
        (tilt,) = build.topics.joint_controls
        down.append([tilt.topic, 'double_pb2', 'Double', {'data': 0.8}])
    first = builds[0]
    off = []
    for lumen in first.topics.of_category('light'):
        values = first.vehicle.lights[lumen.key].values
        off.append(['/world/sensing/light_config', 'light_pb2', 'Light', {
            'name': f'{first.topics.name}::{first.topics.root_link}::{lumen.sensor_name}',
            'type': 'SPOT', 'is_light_off': True, 'intensity': values['intensity'],
            'range': values['range'], 'spot_inner_angle': values['inner_angle'],
            'spot_outer_angle': values['outer_angle'], 'spot_falloff': values['falloff'],
            'attenuation_constant': 1.0, 'direction': {'x': 1},
            'diffuse': {'r': 1, 'g': 1, 'b': 1, 'a': 1},
            'specular': {'r': 1, 'g': 1, 'b': 1, 'a': 1}}])
    phases = observe(ElementTree.tostring(sdf), topics,
                     [{'publish': down, 'skip': 30, 'keep': 1},
                      {'publish': down + off, 'skip': 10, 'keep': 1}], timeout=900)
    return {name: [parse('image_pb2', 'Image', phase[name][-1]) for phase in phases]
            for name in topics}


def shrink(sdf, model, camera_name):
    """Make a camera 160 x 90 (the test reads brightness; the full size costs minutes)."""
    for element in sdf.iter('model'):
        if element.get('name') != model:
            continue
        for camera in element.iter('sensor'):
            if camera.get('name') == camera_name:
                camera.find('camera/image/width').text = '160'
                camera.find('camera/image/height').text = '90'


def mean_brightness(image) -> float:
    return sum(image.data) / len(image.data)


def test_the_lumens_light_the_seabed_in_the_dark_and_switch_off_one_vehicle_at_a_time(lights):
    (first_on, first_off), (second_on, second_off) = (
        [mean_brightness(image) for image in lights[name]] for name in ('first', 'second'))
    assert first_on > 50 and second_on > 50, (first_on, second_on)
    assert first_off < 5, f'the first ROV lights off: {first_off:.1f} of 255 (on: {first_on:.1f})'
    assert abs(second_off - second_on) < 5, 'the second ROV keeps its lights on'


def test_the_camera_setting_renders_that_size_at_that_rate():
    """``camera:=320x180@10`` (launch) / ``build --camera``: what Gazebo then renders."""
    render_support.require()
    build = build_gazebo(ROV, camera='320x180@10')
    lens = sensor(build, 'camera')
    (phase,) = observe(world_sdf([vehicle_model(build.urdf, (0, 0, 0, 0, 0, 0))]),
                       {'image': (lens.gz['image'], 'image_pb2', 'Image')},
                       [{'skip': 1, 'keep': 3}])
    images = [parse('image_pb2', 'Image', m) for m in phase['image']]
    assert {(i.width, i.height) for i in images} == {(320, 180)}
    stamps = [i.header.stamp.sec + i.header.stamp.nsec * 1e-9 for i in images]
    assert all(abs(b - a - 0.1) < 0.005 for a, b in zip(stamps, stamps[1:])), stamps
