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
What Gazebo makes of robot_description.urdf, and the water world as SDFormat reads it.

The converted model is checked against the build's record, the part data, our own forward
kinematics and the bridge. The conversion checked is Harmonic's own, SDFormat 14 (``import
sdformat14``, gz_support.py), which gz-sim 8 loads a URDF with; Debian's ``ign sdf`` (SDFormat
12.3, the Fortress-era converter, in any clone) is a second check of what an older converter
would drop: the thruster joints below the massless slot links (composition.CARRIER_MASS) and
the world's validity.
"""

from __future__ import annotations

import math
from xml.etree import ElementTree

from bluerobotics_parts.build import build_gazebo
from bluerobotics_parts.formats.sensor_kinds import KINDS
from bluerobotics_parts.gazebo import gz_xml
from bluerobotics_parts.gazebo.composition import carrier_links, CARRIER_MASS
from bluerobotics_parts.gazebo.sensor_blocks import BLOCKS
from bluerobotics_parts.model import kinematics
from bluerobotics_parts.model.topics import vehicle_topics
from conftest import REPO, run, SHIPPED_CONFIGS, tool, write_config
import gz_support
import numpy as np
import pytest
import yaml

# Our own configs beside the shipped ones: T200s, no Ping and a free placement together, and
# the two ways of renaming a vehicle.
OWN = {
    't200_no_ping_free_placement': """\
parts:
  - {slot: motor_port, type: t200_thruster_ccw}
  - {slot: motor_stbd, type: t200_thruster_cw}
  - {slot: ping_mount, type: none}
  - {type: blueboat_antenna_mast, name: aft_mast, xyz: [-0.3, 0, 0.2]}
""",
    'renamed_in_config': 'name: boat2\n',
}
CASES = [(p, None) for p in SHIPPED_CONFIGS] + [(k, None) for k in OWN] + \
        [(REPO / 'config' / 'blueboat.yaml', 'boat3')]
IDS = [p.relative_to(REPO / 'config').as_posix() for p, _ in CASES[:len(SHIPPED_CONFIGS)]] + \
      list(OWN) + ['blueboat.yaml --name boat3']
WORLD = REPO / 'config' / 'worlds' / 'water.sdf'


def build_case(param, folder):
    config, name = param
    if isinstance(config, str):
        config = write_config(folder, OWN[config])
    result = build_gazebo(config, name=name)
    path = folder / 'robot_description.urdf'
    path.write_text(result.urdf, encoding='utf-8')
    return result, path


@pytest.fixture(scope='module', params=CASES, ids=IDS)
def case(request, tmp_path_factory):
    """
    Build a case: the build, its URDF file, and SDFormat 14's model of it.

    The model both as objects and as the element tree ``gz sdf -p`` prints.
    """
    sdformat14 = gz_support.sdformat14()
    result, path = build_case(request.param, tmp_path_factory.mktemp('sdf'))
    root = sdformat14.Root()
    root.load(str(path))  # raises SDFErrorsException on any error: 0 errors here
    printed = gz_xml.fromstring(gz_support.gz_sdf_print(path)).find('model')
    return result, path, root.model(), printed


def propellers(result):
    return [p.name for p in result.resolved.record.parts
            if result.catalogue[p.type].propeller is not None]


def turning(result) -> dict:
    """Return the links that turn, by their joint: each thruster's rotor (or whole propeller)."""
    vehicle = result.vehicle
    return {vehicle.actuators[name].joint: vehicle.joints[vehicle.actuators[name].joint].child
            for name in propellers(result)}


def moving(result) -> dict:
    """Return the links below a joint that moves, by their joint: rotors, a tilting camera..."""
    return {j.name: j.child for j in result.vehicle.joints.values() if j.type != 'fixed'}


def host(result, link: str) -> str:
    """Return the link a link is lumped into: the nearest up the tree that moves, or the root."""
    vehicle = result.vehicle
    while link != vehicle.root_link:
        joint = vehicle.joints[vehicle.links[link].parent_joint]
        if joint.type != 'fixed':
            return link
        link = joint.parent
    return link


def thrusters(model):
    return [p for p in model.findall('plugin') if p.get('name') == 'gz::sim::systems::Thruster']


def expected_name(config, name) -> str:
    if name:
        return name
    if isinstance(config, str):
        return yaml.safe_load(OWN[config]).get('name', 'blueboat')
    return (yaml.safe_load(config.read_text(encoding='utf-8')) or {}).get('name', 'blueboat')


def pose(value) -> kinematics.Pose:
    """Return a gz.math7 Pose3d as a kinematics.Pose."""
    rot = value.rot()
    return kinematics.Pose.from_xyz_rpy((value.pos().x(), value.pos().y(), value.pos().z()),
                                        (rot.roll(), rot.pitch(), rot.yaw()))


def same_pose(a: kinematics.Pose, b: kinematics.Pose, angle=1e-6):
    assert np.allclose(a.translation, b.translation, atol=1e-6)
    assert np.allclose(a.rotation, b.rotation, atol=angle)


def test_it_loads_with_no_errors_as_one_model(case, request):
    result, _, model, xml = case
    assert model.name() == result.name == expected_name(*request.node.callspec.params['case'])
    links = sorted(model.link_by_index(i).name() for i in range(model.link_count()))
    # every fixed joint is lumped into the link above it; the links that move stay links
    assert links == sorted([result.vehicle.root_link] + list(moving(result).values()))
    # ... mass included: all but what hangs from the moving links (and the 10 mg carriers,
    # see composition.CARRIER_MASS)
    below = sum(link.mass for name, link in result.vehicle.links.items()
                if host(result, name) != result.vehicle.root_link)
    assert float(xml.find(f"link[@name='{result.vehicle.root_link}']/inertial/mass").text) == \
        pytest.approx(result.vehicle.total_mass - below, abs=1e-4)


def test_one_thruster_per_fitted_propeller(case):
    result, _, _, xml = case
    found = [p.findtext('joint_name') for p in thrusters(xml)]
    assert found and found == list(turning(result))
    assert all(p.findtext('velocity_control') == 'true' for p in thrusters(xml))


def test_thruster_joints_are_revolute_about_the_thrust_axis(case):
    """
    Turn each continuous joint into a revolute one (+/-1e16 limits).

    Its child is the rotor, its axis the part's +x, and it sits where our kinematics puts it.
    """
    sdformat14 = gz_support.sdformat14()
    result, _, model, _ = case
    poses = kinematics.link_poses(result.vehicle)
    for joint_name, name in turning(result).items():
        joint = model.joint_by_name(joint_name)
        assert joint is not None, joint_name
        assert joint.type() == sdformat14.JointType.REVOLUTE
        assert joint.child_name() == name and joint.parent_name() == result.vehicle.root_link
        axis = joint.axis(0).xyz()
        origin, expected_axis = kinematics.joint_frame(result.vehicle, poses, joint_name)
        placed = pose(joint.semantic_pose().resolve('__model__'))
        same_pose(placed, poses[name])
        world_axis = kinematics.rotate(placed.rotation, (axis.x(), axis.y(), axis.z()))
        assert np.allclose(world_axis, expected_axis, atol=1e-9)
        assert joint.axis(0).upper() >= 1e15 and joint.axis(0).lower() <= -1e15


def test_the_gazebo_model_keeps_the_vehicles_mass(case):
    """
    All mass lumps into the root link, and nothing is dropped.

    the converted mass is the URDF's, plus the 10 mg given to each massless link that carries a
    propeller joint.
    """
    result, _, _, xml = case
    converted = sum(float(m.text) for m in xml.iter('mass'))
    carriers = len(carrier_links(ElementTree.fromstring(result.resolved.urdf)))
    assert converted == pytest.approx(result.vehicle.total_mass + carriers * CARRIER_MASS,
                                      abs=1e-6)


def test_the_lumped_links_remain_as_frames_where_they_were(case):
    """
    Keep every lumped link (and its joint) as a frame (SDFormat 14).

    The TF frames the ROS side publishes exist in Gazebo too, at the same poses.
    """
    result, _, model, _ = case
    poses = kinematics.link_poses(result.vehicle)
    lumped = set(result.vehicle.links) - {result.vehicle.root_link} - set(moving(result).values())
    assert lumped
    for link in lumped:
        assert model.frame_name_exists(link), link
        placed = model.frame_by_name(link).semantic_pose().resolve('__model__')
        same_pose(pose(placed), poses[link])


def root_sensors(result, model) -> dict:
    """Return the converted model's sensors, by name, with the link each is on."""
    found = {}
    for index in range(model.link_count()):
        link = model.link_by_index(index)
        found.update({link.sensor_by_index(i).name(): link.sensor_by_index(i)
                      for i in range(link.sensor_count())})
    return found


def test_every_sensor_sits_on_the_root_link_at_its_frame(case):
    """
    Lump every sensor into the root link at its frame's pose, with its topic and frame id.

    Every fixed joint is lumped, so each sensor moves into the root link with the pose of
    the link it was written on (our kinematics); sensors of kinds with no gz element (the
    pressure sensor) and lights are not sensors there.
    """
    result, _, model, xml = case
    names = vehicle_topics(result.resolved.record, result.catalogue, result.name)
    sensors = root_sensors(result, model)
    written = [s for s in names.sensors if s.kind in BLOCKS and KINDS[s.kind].category == 'sensor']
    assert sorted(sensors) == sorted(s.sensor_name for s in written)
    poses = kinematics.link_poses(result.vehicle)
    for names_of in written:
        sensor = sensors[names_of.sensor_name]
        # the converter prints the lumped sensor's angles to 6 digits (pi/2 as 1.57079)
        same_pose(pose(sensor.semantic_pose().resolve('__model__')), poses[names_of.link], 1e-5)
        on = [model.link_by_index(i).name() for i in range(model.link_count())
              if model.link_by_index(i).sensor_name_exists(names_of.sensor_name)]
        assert on == [host(result, names_of.link)]  # lumped where its link is
        assert sensor.topic() == names_of.gz_topic
        # gz-sensors 8 reads <gz_frame_id>: SDFormat 14 keeps it (warning: not in the spec);
        # a camera's messages carry its optical frame instead (sensor_blocks.camera_block)
        element = xml.find(f".//sensor[@name='{names_of.sensor_name}']")
        if names_of.kind == 'camera':
            assert element.find('gz_frame_id') is None
            assert element.findtext('camera/optical_frame_id') == \
                names_of.frame_ids['optical_frame']
        else:
            assert element.findtext('gz_frame_id') == names_of.frame_id


def test_the_echosounder_is_its_cone(case):
    result, _, model, _ = case
    names = vehicle_topics(result.resolved.record, result.catalogue, result.name)
    sensors = root_sensors(result, model)
    for echo in [s for s in names.sensors if s.kind == 'echosounder']:
        lidar, part = sensors[f'{echo.instance}_scan'].lidar_sensor(), \
            result.catalogue[echo.type].sensor_sections['echosounder']
        for axis in ('horizontal', 'vertical'):  # the cone: a square grid on both axes
            assert getattr(lidar, f'{axis}_scan_samples')() == part['samples']
            assert getattr(lidar, f'{axis}_scan_min_angle')().radian() == \
                pytest.approx(-part['beam_width'] / 2)
            assert getattr(lidar, f'{axis}_scan_max_angle')().radian() == \
                pytest.approx(part['beam_width'] / 2)
        assert (lidar.range_min(), lidar.range_max()) == (part['range_min'], part['range_max'])


def published_topics(model) -> dict:
    """
    Return what the converted model publishes or subscribes in gz: topic -> (gz type, direction).

    The rules are gz's, from its sources (gz-sim8_8.14.0 systems; gz-sensors8_8.2.2 sensors):
    a Thruster listens on /<namespace>/<topic>; a gpu_lidar publishes its LaserScan on <topic>
    and its cloud on <topic>/points (GpuLidarSensor::Load); a camera its Image on <topic> and
    CameraInfo on <camera_info_topic> (CameraSensor::Load); IMU, magnetometer and NavSat
    sensors one message on <topic>.
    """
    published = {}
    for plugin in model.findall('plugin'):
        kind = plugin.get('name')
        if kind == 'gz::sim::systems::Thruster':
            published[f"/{plugin.findtext('namespace')}/{plugin.findtext('topic')}"] = (
                'gz.msgs.Double', 'ROS_TO_GZ')
        elif kind == 'gz::sim::systems::JointStatePublisher':
            published[plugin.findtext('topic')] = ('gz.msgs.Model', 'GZ_TO_ROS')
        elif kind == 'gz::sim::systems::JointPositionController':
            published[plugin.findtext('topic')] = ('gz.msgs.Double', 'ROS_TO_GZ')
        elif kind == 'gz::sim::systems::OdometryPublisher':
            published[plugin.findtext('odom_topic')] = ('gz.msgs.Odometry', 'GZ_TO_ROS')
            published[plugin.findtext('tf_topic')] = ('gz.msgs.Pose_V', 'GZ_TO_ROS')
    single = {'imu': 'gz.msgs.IMU', 'magnetometer': 'gz.msgs.Magnetometer',
              'navsat': 'gz.msgs.NavSat'}
    for sensor in model.iter('sensor'):
        topic, kind = sensor.findtext('topic'), sensor.get('type')
        if sensor.get(f'{{{gz_xml.GZ_NAMESPACE}}}type') == 'dvl':  # DopplerVelocityLog.cc, Load
            published[topic] = ('gz.msgs.DVLVelocityTracking', 'GZ_TO_ROS')
        elif kind == 'gpu_lidar':
            published[topic] = ('gz.msgs.LaserScan', 'GZ_TO_ROS')
            published[topic + '/points'] = ('gz.msgs.PointCloudPacked', 'GZ_TO_ROS')
        elif kind == 'camera':
            published[topic] = ('gz.msgs.Image', 'GZ_TO_ROS')
            published[sensor.findtext('camera/camera_info_topic')] = ('gz.msgs.CameraInfo',
                                                                      'GZ_TO_ROS')
        else:
            published[topic] = (single[kind], 'GZ_TO_ROS')
    return published


def test_gz_topics_of_the_model_are_the_bridge_topics(case):
    """Bridge each gz topic the model has with its type, and only those; every sensor once."""
    result, _, _, model = case
    published = published_topics(model)
    bridged = {e['gz_topic_name']: (e['gz_type_name'], e['direction'])
               for e in yaml.safe_load(result.bridge_yaml)
               if e['gz_topic_name'] != '/clock'}  # the clock comes from the server
    assert bridged.items() <= published.items()
    assert {t for t in published if not t.endswith(('/scan', '/points'))} <= set(bridged)
    for sensor in model.iter('sensor'):  # the scanning sonar's scan, the echosounder's cloud
        topic = sensor.findtext('topic')
        assert topic in bridged or topic + '/points' in bridged, topic
    assert all(topic.startswith(('/model/' + result.name + '/', '/' + result.name + '/'))
               for topic in published)


def test_removing_the_ping_removes_sensor_and_bridge_entry(tmp_path):
    sdformat14 = gz_support.sdformat14()
    config = write_config(tmp_path, 'parts:\n  - {slot: ping_mount, type: none}\n')
    result = build_gazebo(config)
    path = tmp_path / 'robot_description.urdf'
    path.write_text(result.urdf, encoding='utf-8')
    root = sdformat14.Root()
    root.load(str(path))
    link = root.model().link_by_name('base_link')
    assert not [link.sensor_by_index(i) for i in range(link.sensor_count())
                if link.sensor_by_index(i).name() == 'ping_scan']
    assert link.sensor_count() == 3  # the IMU, the magnetometer and the GNSS stay
    assert 'PointCloud' not in result.bridge_yaml
    assert '/ping/' not in result.bridge_yaml


# -- the second check: Debian's SDFormat 12 (ign sdf) ---------------------------------------

# SDFormat before 13.5 / 12.7 (Debian 12 has 12.3) stops at a link without mass even when a
# fixed joint lumps it away, dropping every link and joint below it (sdformat issue 199);
# Harmonic's SDFormat 14 lumps such links and keeps what hangs below them. The resolver's slot
# links are massless, so without the carrier mass the propellers' joints would vanish there.

def ign_sdf(path) -> ElementTree.Element:
    result = run([tool('ign'), 'sdf', '-p', path])
    assert result.returncode == 0, result.stderr
    return gz_xml.fromstring(result.stdout)  # a DVL has gz: elements, undeclared in SDF


@pytest.mark.parametrize('param', CASES, ids=IDS)
def test_sdformat12_keeps_the_thruster_joints(param, tmp_path):
    result, path = build_case(param, tmp_path)
    model = ign_sdf(path).find('model')
    joints = {j.get('name'): j for j in model.findall('joint')}
    assert len(thrusters(model)) == len(propellers(result))
    for plugin in thrusters(model):
        joint = joints.get(plugin.findtext('joint_name'))
        assert joint is not None, f"{plugin.findtext('joint_name')} not in {sorted(joints)}"
        assert joint.get('type') == 'revolute'


def test_the_world_is_valid_for_sdformat12():
    result = run([tool('ign'), 'sdf', '-k', WORLD])
    assert result.returncode == 0, result.stdout + result.stderr
    assert 'Valid.' in result.stdout


# -- the world -----------------------------------------------------------------------------------

def test_the_world_has_sea_water_below_zero_and_a_seabed_at_20_m():
    sdformat14 = gz_support.sdformat14()
    root = sdformat14.Root()
    root.load(str(WORLD))  # 0 errors
    world = ElementTree.fromstring(root.to_string()).find('world')
    assert world.get('name') == 'water'
    assert float(world.findtext('physics/max_step_size')) == 0.004
    assert float(world.findtext('physics/real_time_factor')) == 1.0
    systems = {p.get('name'): p for p in world.findall('plugin')}
    assert set(systems) >= {'gz::sim::systems::Physics', 'gz::sim::systems::UserCommands',
                            'gz::sim::systems::SceneBroadcaster', 'gz::sim::systems::Sensors',
                            'gz::sim::systems::Buoyancy'}
    assert systems['gz::sim::systems::Sensors'].findtext('render_engine') == 'ogre2'
    graded = systems['gz::sim::systems::Buoyancy'].find('graded_buoyancy')
    assert float(graded.findtext('default_density')) == 1025.0
    assert float(graded.findtext('density_change/above_depth')) == 0.0
    assert float(graded.findtext('density_change/density')) == 1.0
    seabed = world.find("model[@name='seabed']")
    assert seabed.findtext('static') == 'true'
    centre = float(seabed.findtext('pose').split()[2])
    height = float(seabed.findtext('link/collision/geometry/box/size').split()[2])
    assert math.isclose(centre + height / 2, -20.0)
    surface = world.find("model[@name='water_surface']")
    assert surface.find('link/collision') is None
    assert 0 < float(surface.findtext('link/visual/transparency')) < 1
    assert world.find('light') is not None


def test_the_buoyancy_model_uses_the_worlds_densities():
    """physics/water.py's water and air are the shipped world's graded densities."""
    from bluerobotics_parts.physics import water

    graded = ElementTree.parse(WORLD).getroot().find(
        "world/plugin[@name='gz::sim::systems::Buoyancy']/graded_buoyancy")
    assert float(graded.findtext('default_density')) == water.SEA_WATER_DENSITY
    assert float(graded.findtext('density_change/density')) == water.AIR_DENSITY
    assert float(graded.findtext('density_change/above_depth')) == 0.0
