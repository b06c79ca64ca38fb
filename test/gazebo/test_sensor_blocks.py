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
The sensor parts: each by its composition and by what Harmonic's SDFormat 14 makes of it.

The headless Gazebo here has no sensors (no rendering, no gz-sensors), so a sensor is checked
as far as it can be without running it: the sensor kinds (formats/sensor_kinds.py) against
ros_gz_bridge's type table, the composed blocks against the part data and the element tables,
SDFormat 14's model of the composed URDF, the bridge entries, the shipped worlds' systems, and
what removing a part removes. What stays unverified until a full Gazebo runs them:
docs/LIMITATIONS.md ("Sensors").
"""

from __future__ import annotations

import math
from xml.etree import ElementTree

from bluerobotics_parts.assembly.catalogue import shipped
from bluerobotics_parts.build import build_gazebo
from bluerobotics_parts.formats.sensor_kinds import KINDS
from bluerobotics_parts.gazebo import elements as gazebo_elements, sensor_blocks
from bluerobotics_parts.gazebo.bridge import BRIDGE_PAIRS
from bluerobotics_parts.model import kinematics
from bluerobotics_parts.model.topics import vehicle_topics
from bluerobotics_parts.model.vehicle import Vehicle
from conftest import CONFIG_DIR, SHIPPED_CONFIGS, write_config
import gz_support
import numpy as np
import pytest
import yaml

EXAMPLES = CONFIG_DIR / 'examples'
WORLDS = sorted((CONFIG_DIR / 'worlds').glob('*.sdf'))


@pytest.fixture(scope='module')
def boat():
    return build_gazebo(CONFIG_DIR / 'blueboat.yaml')


@pytest.fixture(scope='module')
def rov():
    return build_gazebo(EXAMPLES / 'bluerov2_sensors.yaml')


@pytest.fixture(scope='module')
def camera_boat():
    return build_gazebo(EXAMPLES / 'payload_camera.yaml')


def entries(result) -> dict:
    return {e['ros_topic_name']: e for e in yaml.safe_load(result.bridge_yaml)}


def blocks(result) -> dict:
    """Return the composed sensor and light elements by name, with their <gazebo> reference."""
    root = ElementTree.fromstring(result.urdf.encode())
    found = {}
    for block in root.findall('gazebo'):
        for element in list(block):
            if element.tag in ('sensor', 'light'):
                found[element.get('name')] = (block.get('reference'), element)
    return found


def sdf_model(result, tmp_path):
    sdformat14 = gz_support.sdformat14()
    path = tmp_path / 'robot_description.urdf'
    path.write_text(result.urdf, encoding='utf-8')
    root = sdformat14.Root()
    root.load(str(path))  # raises on any error
    return root.model()


def root_pose(result, link) -> kinematics.Pose:
    return kinematics.link_poses(result.vehicle)[link]


def sdf_pose(value) -> kinematics.Pose:
    rot = value.rot()
    return kinematics.Pose.from_xyz_rpy((value.pos().x(), value.pos().y(), value.pos().z()),
                                        (rot.roll(), rot.pitch(), rot.yaw()))


# -- the registry ------------------------------------------------------------------------------

def test_every_bridged_stream_is_a_pair_of_the_jazzy_bridge_table():
    for kind in KINDS.values():
        for stream in kind.streams:
            if stream.gz_type is not None:
                assert (stream.ros_type, stream.gz_type) in BRIDGE_PAIRS, (kind.section, stream)


@pytest.mark.parametrize('config', SHIPPED_CONFIGS, ids=lambda p: p.name)
def test_every_bridge_entry_of_every_shipped_config_is_in_the_table(config):
    for entry in yaml.safe_load(build_gazebo(config).bridge_yaml):
        assert (entry['ros_type_name'], entry['gz_type_name']) in BRIDGE_PAIRS, entry
        assert entry['direction'] in ('GZ_TO_ROS', 'ROS_TO_GZ')


@pytest.mark.parametrize('config', SHIPPED_CONFIGS, ids=lambda p: p.name)
def test_every_sensor_element_written_is_one_its_system_reads(config):
    """Each composed sensor and light against its table (gazebo/elements.py, with sources)."""
    for _, element in blocks(build_gazebo(config)).values():
        assert gazebo_elements.unread(element) == [], element.get('name')


def test_white_noise_over_the_nyquist_band():
    assert sensor_blocks.white_noise_stddev(1.0, 200.0) == pytest.approx(10.0)
    assert sensor_blocks.white_noise_stddev(0.0, 50.0) == 0.0


# -- the BlueBoat: IMU, magnetometer and GNSS without a config line ---------------------------

def test_the_default_boat_has_imu_magnetometer_and_gnss(boat):
    bridged = entries(boat)
    assert bridged['/blueboat/navigator/imu']['ros_type_name'] == 'sensor_msgs/msg/Imu'
    assert bridged['/blueboat/navigator/imu']['gz_type_name'] == 'gz.msgs.IMU'
    assert bridged['/blueboat/navigator/magnetic_field']['gz_type_name'] == \
        'gz.msgs.Magnetometer'
    assert bridged['/blueboat/gnss/fix']['ros_type_name'] == 'sensor_msgs/msg/NavSatFix'
    for topic in ('/blueboat/navigator/imu', '/blueboat/navigator/magnetic_field',
                  '/blueboat/gnss/fix'):
        assert bridged[topic]['gz_topic_name'] == topic
        assert bridged[topic]['direction'] == 'GZ_TO_ROS' and bridged[topic]['lazy'] is True
    assert set(boat.vehicle.sensors) == {'ping/scan', 'navigator/imu',
                                         'navigator/magnetic_field', 'gnss/fix'}


def test_the_imu_block_carries_the_datasheet_noise(boat):
    link, imu = blocks(boat)['navigator_imu']
    assert link == 'navigator_imu' and imu.get('type') == 'imu'
    data = shipped()['navigator_flight_controller'].sensor_sections['imu']
    rate = data['update_rate']
    assert float(imu.findtext('update_rate')) == rate
    gyro = 4e-3 * math.pi / 180 * math.sqrt(rate / 2)  # 4 mdps/sqrt(Hz), ICM-20602
    accel = 100e-6 * 9.80665 * math.sqrt(rate / 2)  # 100 ug/sqrt(Hz)
    for axis in 'xyz':
        assert float(imu.findtext(f'imu/angular_velocity/{axis}/noise/stddev')) == \
            pytest.approx(gyro, rel=1e-3)
        assert float(imu.findtext(f'imu/linear_acceleration/{axis}/noise/stddev')) == \
            pytest.approx(accel, rel=1e-3)
        assert imu.find(f'imu/angular_velocity/{axis}/noise').get('type') == 'gaussian'
    assert imu.findtext('imu/orientation_reference_frame/localization') == 'ENU'
    assert imu.findtext('topic') == '/blueboat/navigator/imu'
    assert imu.findtext('gz_frame_id') == 'blueboat/navigator_imu'


def test_sdformat14_puts_imu_magnetometer_and_gnss_where_their_frames_are(boat, tmp_path):
    model = sdf_model(boat, tmp_path)
    link = model.link_by_name('base_link')
    found = {link.sensor_by_index(i).name(): link.sensor_by_index(i)
             for i in range(link.sensor_count())}
    assert set(found) == {'ping_scan', 'navigator_imu', 'navigator_magnetic_field', 'gnss_fix'}
    for name, frame in (('navigator_imu', 'navigator_imu'),
                        ('navigator_magnetic_field', 'navigator_imu'),
                        ('gnss_fix', 'gnss_antenna')):
        placed = sdf_pose(found[name].semantic_pose().resolve('__model__'))
        assert np.allclose(placed.translation, root_pose(boat, frame).translation, atol=1e-6)
        assert np.allclose(placed.rotation, root_pose(boat, frame).rotation, atol=1e-5)
    imu = found['navigator_imu'].imu_sensor()
    assert imu.angular_velocity_x_noise().std_dev() == pytest.approx(
        4e-3 * math.pi / 180 * math.sqrt(100.0), rel=1e-3)
    assert imu.localization() == 'ENU'
    navsat = found['gnss_fix'].nav_sat_sensor()
    # 2.5 m of the part data as the angle gz-sensors 8 applies to latitude and longitude
    assert navsat.horizontal_position_noise().std_dev() == pytest.approx(2.5 / 111195.08, 1e-6)
    assert navsat.vertical_position_noise().std_dev() == 5.0
    magnetometer = found['navigator_magnetic_field'].magnetometer_sensor()
    assert magnetometer.x_noise().std_dev() == pytest.approx(4e-8)


def test_the_example_without_them_has_no_imu_gnss_sensor_or_entry(tmp_path):
    result = build_gazebo(EXAMPLES / 'no_imu_gnss.yaml')
    assert not [t for t in entries(result) if '/navigator/' in t or '/gnss/' in t]
    assert set(blocks(result)) == {'ping_scan'}
    link = sdf_model(result, tmp_path).link_by_name('base_link')
    assert [link.sensor_by_index(i).name() for i in range(link.sensor_count())] == ['ping_scan']


def test_the_shipped_parts_keep_the_boat_mass_and_centre_of_gravity(boat):
    """
    The Navigator and GNSS come out of the chassis's published mass, not on top of it.

    The vehicle's mass and centre of gravity are what they were before the two parts existed:
    the chassis at 14.15 kg at the hulls' centroid (0.027, 0, 0.059) with the other parts.
    """
    vehicle = boat.vehicle
    poses = kinematics.link_poses(vehicle)
    total = sum(link.mass for link in vehicle.links.values())
    moment = np.sum([np.array(poses[name].apply(link.com)) * link.mass
                     for name, link in vehicle.links.items()], axis=0)
    others = [(name, link) for name, link in vehicle.links.items()
              if name not in ('base_link', 'navigator', 'gnss')]
    before_mass = 14.15 + sum(link.mass for _, link in others)
    before = (np.array([0.027, 0.0, 0.059]) * 14.15 + np.sum(
        [np.array(poses[name].apply(link.com)) * link.mass for name, link in others], axis=0))
    assert total == pytest.approx(before_mass) == pytest.approx(17.05)
    assert np.allclose(moment / total, before / before_mass, atol=2e-6)


# -- the camera ---------------------------------------------------------------------------------

def test_the_camera_on_the_payload_bracket(camera_boat, tmp_path):
    bridged = entries(camera_boat)
    assert bridged['/blueboat/camera/image']['gz_type_name'] == 'gz.msgs.Image'
    assert bridged['/blueboat/camera/camera_info']['ros_type_name'] == \
        'sensor_msgs/msg/CameraInfo'
    link, camera = blocks(camera_boat)['camera_image']
    assert link == 'camera_lens'
    assert camera.findtext('camera/optical_frame_id') == 'blueboat/camera_optical'
    # its messages use the optical frame id: no gz_frame_id, which SDFormat 14 warns about
    assert camera.find('gz_frame_id') is None and camera.find('frame_id') is None
    assert {b.findtext('gz_frame_id') for n, (_, b) in blocks(camera_boat).items()
            if n != 'camera_image' and b.tag == 'sensor'} >= {'blueboat/navigator_imu'}
    assert camera.findtext('camera/camera_info_topic') == '/blueboat/camera/camera_info'
    model = sdf_model(camera_boat, tmp_path)
    sensor = model.link_by_name('base_link').sensor_by_name('camera_image')
    optics = sensor.camera_sensor()
    assert optics.horizontal_fov().radian() == pytest.approx(math.radians(80))
    assert (optics.image_width(), optics.image_height()) == (1920, 1080)
    assert optics.optical_frame_id() == 'blueboat/camera_optical'
    assert sensor.topic() == '/blueboat/camera/image'
    placed = sdf_pose(sensor.semantic_pose().resolve('__model__'))
    assert np.allclose(placed.translation, root_pose(camera_boat, 'camera_lens').translation,
                       atol=1e-6)


def test_the_optical_frame_follows_rep_103(camera_boat):
    """Turn z forward (the lens frame's +x, where gz's camera looks), x right, y down."""
    lens = root_pose(camera_boat, 'camera_lens')
    optical = root_pose(camera_boat, 'camera_optical')
    assert np.allclose(lens.translation, optical.translation)
    relative = np.array(lens.inverse().compose(optical).rotation)
    assert np.allclose(relative @ [0, 0, 1], [1, 0, 0], atol=1e-9)  # z: forward
    assert np.allclose(relative @ [1, 0, 0], [0, -1, 0], atol=1e-9)  # x: right
    assert np.allclose(relative @ [0, 1, 0], [0, 0, -1], atol=1e-9)  # y: down


# -- the BlueROV2: camera, pressure, lights, Ping360 --------------------------------------------

def test_the_rov_carries_its_sensors_and_lights(rov):
    assert set(rov.vehicle.sensors) == {'hd_camera/image', 'sonar/scan', 'navigator/imu',
                                        'navigator/magnetic_field', 'depth/pressure',
                                        'scanning_sonar/scan'}
    assert set(rov.vehicle.lights) == {'light_port/light', 'light_stbd/light'}
    bridged = entries(rov)
    assert bridged['/bluerov2/scanning_sonar/scan']['ros_type_name'] == \
        'sensor_msgs/msg/LaserScan'
    assert bridged['/bluerov2/hd_camera/image']['gz_topic_name'] == '/bluerov2/hd_camera/image'
    # the pressure is not bridged: the converter publishes it (pressure.py)
    assert '/bluerov2/depth/pressure' not in bridged
    assert not [name for name, (_, e) in blocks(rov).items() if 'depth' in name]


def test_the_lights_are_spot_lights_on_their_lenses(rov, tmp_path):
    link, light = blocks(rov)['light_port_light']
    assert link == 'light_port_lens' and light.get('type') == 'spot'
    assert gazebo_elements.unread(light) == []
    model = sdf_model(rov, tmp_path)
    base = model.link_by_name('base_link')
    lights = {base.light_by_index(i).name(): base.light_by_index(i)
              for i in range(base.light_count())}
    assert set(lights) == {'light_port_light', 'light_stbd_light'}
    spot = lights['light_port_light']
    assert spot.spot_outer_angle().radian() == pytest.approx(math.radians(135))
    assert spot.light_on() is True
    placed = sdf_pose(spot.semantic_pose().resolve('__model__'))
    expected = root_pose(rov, 'light_port_lens')
    assert np.allclose(placed.translation, expected.translation, atol=1e-6)
    # it shines along the lens frame's +x, which points forward on the ROV
    direction = np.array(placed.rotation) @ [spot.direction().x(), spot.direction().y(),
                                             spot.direction().z()]
    assert np.allclose(direction, [1, 0, 0], atol=1e-6)


def test_the_ping360_is_a_full_turn_of_rays(rov, tmp_path):
    model = sdf_model(rov, tmp_path)
    sensor = model.link_by_name('base_link').sensor_by_name('scanning_sonar_scan')
    lidar = sensor.lidar_sensor()
    assert lidar.horizontal_scan_samples() == 400
    step = 2 * math.pi / 400
    assert lidar.horizontal_scan_min_angle().radian() == pytest.approx(-math.pi)
    assert lidar.horizontal_scan_max_angle().radian() == pytest.approx(math.pi - step)
    assert lidar.vertical_scan_samples() == 1
    assert (lidar.range_min(), lidar.range_max()) == (0.75, 50.0)
    placed = sdf_pose(sensor.semantic_pose().resolve('__model__'))
    assert np.allclose(placed.translation,
                       root_pose(rov, 'scanning_sonar_head').translation, atol=1e-6)


def test_removing_a_sensor_part_removes_its_sensor_and_entries(tmp_path):
    config = write_config(tmp_path, 'name: bluerov2\nbase: {type: bluerov2_frame}\nparts:\n'
                                    '  - {slot: camera, type: none}\n'
                                    '  - {slot: light_port, type: none}\n'
                                    '  - {slot: navigator, type: none}\n')
    result = build_gazebo(config)
    assert not [t for t in entries(result) if '/hd_camera/' in t or '/navigator/' in t]
    assert set(blocks(result)) == {'light_stbd_light'}
    assert 'depth/pressure' in result.vehicle.sensors


# -- the worlds -----------------------------------------------------------------------------------

@pytest.mark.parametrize('world', WORLDS, ids=lambda p: p.name)
def test_each_world_loads_the_systems_the_sensors_need_and_is_somewhere(world):
    root = ElementTree.parse(world).getroot().find('world')
    plugins = {p.get('name'): p for p in root.findall('plugin')}
    for system in sensor_blocks.world_systems():
        assert plugins[system.name].get('filename') == system.filename
    for name, plugin in plugins.items():  # what the world configures, the system reads
        if name in gazebo_elements.PLUGINS:
            assert gazebo_elements.unread(plugin) == [], name
    magnetometer = plugins['gz::sim::systems::Magnetometer']
    assert magnetometer.findtext('use_units_gauss') == 'false'  # tesla, as ROS has it
    assert magnetometer.findtext('use_earth_frame_ned') == 'false'  # ENU
    place = root.find('spherical_coordinates')
    assert place.findtext('world_frame_orientation') == 'ENU'
    assert float(place.findtext('latitude_deg')) == pytest.approx(33.85, abs=0.01)
    assert float(place.findtext('longitude_deg')) == pytest.approx(-118.40, abs=0.01)


@pytest.mark.parametrize('world', WORLDS, ids=lambda p: p.name)
def test_sdformat14_reads_the_world_position(world):
    sdformat14 = gz_support.sdformat14()
    root = sdformat14.Root()
    root.load(str(world))
    place = root.world_by_index(0).spherical_coordinates()
    assert place.latitude_reference().degree() == pytest.approx(33.8468)
    assert place.longitude_reference().degree() == pytest.approx(-118.3985)


def test_the_vehicle_model_records_every_sensor_by_its_topic_key(rov):
    names = vehicle_topics(rov.resolved.record, rov.catalogue, rov.name)
    assert sorted(s.key for s in names.sensors) == sorted(
        list(rov.vehicle.sensors) + list(rov.vehicle.lights))
    pressure = rov.vehicle.sensors['depth/pressure']
    assert (pressure.kind, pressure.part, pressure.link) == ('pressure', 'depth', 'depth_port')
    assert pressure.values['max_pressure'] == 3e6
    assert Vehicle.from_urdf(rov.urdf).sensors.keys() == rov.vehicle.sensors.keys()
