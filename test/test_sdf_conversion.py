"""What Gazebo makes of robot_description.urdf: SDFormat's URDF-to-SDF conversion (``ign sdf -p``,
the conversion gz sim runs on spawn), checked against the manifest, the part data, our own
forward kinematics and the bridge; and the water world as SDFormat reads it."""

from __future__ import annotations

import math
from xml.etree import ElementTree

from bluerobotics_parts import kinematics
from bluerobotics_parts.build import build
from bluerobotics_parts.gazebo import CARRIER_MASS
from bluerobotics_parts.topics import vehicle_topics
from conftest import REPO, run, SHIPPED_CONFIGS, tool, write_config
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

# SDFormat before 13.5 / 12.7 (Debian 12 has 12.3) stops at a link without mass even when a
# fixed joint lumps it away, dropping every link and joint below it (sdformat issue 199);
# Harmonic's SDFormat 14 lumps such links and keeps what hangs below them. The resolver's slot
# links are massless, so on the old converter the propellers' joints vanish.


def to_sdf(path) -> ElementTree.Element:
    result = run([tool('ign'), 'sdf', '-p', path])
    assert result.returncode == 0, result.stderr
    return ElementTree.fromstring(result.stdout)


@pytest.fixture(scope='module', params=CASES, ids=IDS)
def case(request, tmp_path_factory):
    config, name = request.param
    folder = tmp_path_factory.mktemp('sdf')
    if isinstance(config, str):
        config = write_config(folder, OWN[config])
    result = build(config, name=name)
    path = folder / 'robot_description.urdf'
    path.write_text(result.urdf, encoding='utf-8')
    return result, path, to_sdf(path)


def propellers(result):
    return [p.name for p in result.resolved.manifest.parts
            if result.catalogue[p.type].propeller is not None]


def thrusters(model):
    return [p for p in model.findall('plugin') if p.get('name') == 'gz::sim::systems::Thruster']


def expected_name(config, name) -> str:
    if name:
        return name
    if isinstance(config, str):
        return yaml.safe_load(OWN[config]).get('name', 'blueboat')
    return (yaml.safe_load(config.read_text(encoding='utf-8')) or {}).get('name', 'blueboat')


def test_it_converts_to_a_model(case, request):
    result, _, sdf = case
    (model,) = sdf.findall('model')
    assert model.get('name') == result.name == expected_name(*request.node.callspec.params['case'])
    links = [link.get('name') for link in model.findall('link')]
    assert result.vehicle.root_link in links
    # Everything hung on fixed joints is lumped into the root link, mass included: all but the
    # spinning propeller links (and the 10 mg carriers, see gazebo.CARRIER_MASS).
    base = model.find(f"link[@name='{result.vehicle.root_link}']")
    spinning = sum(result.vehicle.links[name].mass for name in result.vehicle.actuators)
    assert float(base.findtext('inertial/mass')) == pytest.approx(
        result.vehicle.total_mass - spinning, abs=1e-4)


def test_one_thruster_per_fitted_propeller(case):
    result, _, sdf = case
    found = [p.findtext('joint_name') for p in thrusters(sdf.find('model'))]
    assert found and found == [f'{name}_joint' for name in propellers(result)]


def test_every_thruster_joint_exists_in_the_sdf(case):
    _assert_thruster_joints(case[0], case[2].find('model'))


def test_the_gazebo_model_keeps_the_vehicles_mass(case):
    """All mass lumps into the root link, and nothing is dropped: the converted mass is the
    URDF's, plus the 10 mg given to each massless link that carries a propeller joint."""
    result, _, sdf = case
    model = sdf.find('model')
    converted = sum(float(m.text) for m in model.iter('mass'))
    carriers = sum(1 for a in result.vehicle.actuators.values()
                   if result.vehicle.links[result.vehicle.joints[a.joint].parent].mass == 0.0)
    assert converted == pytest.approx(result.vehicle.total_mass + carriers * CARRIER_MASS,
                                      abs=1e-6)


def _assert_thruster_joints(result, model):
    joints = {j.get('name'): j for j in model.findall('joint')}
    plugins = thrusters(model)
    assert len(plugins) == len(propellers(result))
    for plugin in plugins:
        joint = joints.get(plugin.findtext('joint_name'))
        assert joint is not None, f"{plugin.findtext('joint_name')} not in {sorted(joints)}"
        assert joint.get('type') == 'revolute'  # continuous, as SDFormat writes it
        instance = plugin.findtext('joint_name')[:-len('_joint')]
        assert joint.findtext('child') == instance
        assert [float(v) for v in joint.findtext('axis/xyz').split()] == [1.0, 0.0, 0.0]


def test_the_echosounder_is_lumped_onto_the_base_at_its_beam_frame(case):
    result, _, sdf = case
    names = vehicle_topics(result.resolved.manifest, result.catalogue, result.name)
    sensors = {s.get('name'): (link.get('name'), s)
               for link in sdf.find('model').findall('link') for s in link.findall('sensor')}
    assert sorted(sensors) == sorted(e.instance for e in names.echosounders)
    poses = kinematics.link_poses(result.vehicle)
    for echo in names.echosounders:
        link, sensor = sensors[echo.instance]
        assert link == result.vehicle.root_link
        # SDFormat 12 writes the lumped pose as the sensor's <pose>, in the base link frame.
        values = [float(v) for v in sensor.findtext('pose').split()]
        written = kinematics.Pose.from_xyz_rpy(values[:3], values[3:])
        expected = poses[echo.link]
        assert np.allclose(written.translation, expected.translation, atol=1e-6)
        # Its angles are printed to 6 significant digits (pi/2 as 1.5708): 1e-5 is that.
        assert np.allclose(written.rotation, expected.rotation, atol=1e-5)
        assert sensor.findtext('topic') == echo.gz_scan_topic
        assert sensor.findtext('gz_frame_id') == echo.frame_id


def test_gz_topics_of_the_model_are_the_bridge_topics(case):
    result, _, sdf = case
    model = sdf.find('model')
    published = {}
    for plugin in model.findall('plugin'):
        kind = plugin.get('name')
        if kind == 'gz::sim::systems::Thruster':
            published[f"/{plugin.findtext('namespace')}/{plugin.findtext('topic')}"] = 'ROS_TO_GZ'
        elif kind == 'gz::sim::systems::JointStatePublisher':
            published[plugin.findtext('topic')] = 'GZ_TO_ROS'
        elif kind == 'gz::sim::systems::OdometryPublisher':
            published[plugin.findtext('odom_topic')] = 'GZ_TO_ROS'
            published[plugin.findtext('tf_topic')] = 'GZ_TO_ROS'
    for sensor in model.iter('sensor'):
        published[sensor.findtext('topic')] = 'GZ_TO_ROS'
    bridged = {e['gz_topic_name']: e['direction'] for e in yaml.safe_load(result.bridge_yaml)
               if e['gz_topic_name'] != '/clock'}  # the clock comes from the server
    assert published == bridged
    assert all(topic.startswith(('/model/' + result.name + '/', '/' + result.name + '/'))
               for topic in published)


def test_removing_the_ping_removes_sensor_and_bridge_entry(tmp_path):
    config = write_config(tmp_path, 'parts:\n  - {slot: ping_mount, type: none}\n')
    result = build(config)
    path = tmp_path / 'robot_description.urdf'
    path.write_text(result.urdf, encoding='utf-8')
    assert list(to_sdf(path).iter('sensor')) == []
    assert 'LaserScan' not in result.bridge_yaml
    assert '/ping/' not in result.bridge_yaml


# -- the world -----------------------------------------------------------------------------------

WORLD = REPO / 'config' / 'worlds' / 'water.sdf'


def test_the_world_is_valid_sdformat():
    result = run([tool('ign'), 'sdf', '-k', WORLD])
    assert result.returncode == 0, result.stdout + result.stderr
    assert 'Valid.' in result.stdout


def test_the_world_has_sea_water_below_zero_and_a_seabed_at_20_m():
    world = to_sdf(WORLD).find('world')
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
