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

"""The Gazebo composition: what each part's data puts into the URDF's <gazebo> blocks."""

from __future__ import annotations

import math
from xml.etree import ElementTree

from bluerobotics_parts.assembly.catalogue import shipped
from bluerobotics_parts.assembly.pipeline import resolve_config
from bluerobotics_parts.build import build_gazebo
from bluerobotics_parts.errors import BlueRoboticsPartsError, ConfigError
from bluerobotics_parts.gazebo import composition as gazebo, elements as gazebo_elements
from bluerobotics_parts.model import kinematics
from bluerobotics_parts.model.vehicle import Vehicle
from bluerobotics_parts.physics import propulsion
from conftest import CONFIG_DIR, run, SHIPPED_CONFIGS, tool, write_config
import pytest

THRUSTER = 'gz::sim::systems::Thruster'


def compose(config, name=None, version='harmonic'):
    return build_gazebo(config, name=name, gz_release=version).urdf


def plugins(root, name):
    return [p for p in root.iter('plugin') if p.get('name') == name]


def params(plugin) -> dict:
    return {child.tag: child.text for child in plugin}


@pytest.fixture(scope='module')
def default():
    text = compose(CONFIG_DIR / 'blueboat.yaml')
    return text, ElementTree.fromstring(text.encode())


# -- releases ------------------------------------------------------------------------------------

def test_gz_releases_name_the_sensor_frame_tag():
    assert gazebo.gz_release().name == 'harmonic'
    assert gazebo.gz_release('harmonic').sensor_frame_tag == 'gz_frame_id'
    assert gazebo.gz_release('Ionic').sensor_frame_tag == 'frame_id'
    assert gazebo.gz_release('jetty').sensor_frame_tag == 'frame_id'


@pytest.mark.parametrize('bad', ['fortress', 'garden', '', 'harmonic2'])
def test_an_unknown_release_lists_the_valid_ones(bad):
    with pytest.raises(ConfigError) as caught:
        gazebo.gz_release(bad)
    assert repr(bad) in str(caught.value)
    assert 'valid: harmonic, ionic, jetty' in str(caught.value)


# -- what is composed ----------------------------------------------------------------------------

def test_the_ros_description_is_kept_and_still_parses(default, tmp_path):
    """
    Same links and joints, but for the root link's inertia, which moves to a child.

    The other change a composition may make inside is the token mass of a massless link that
    carries a turning joint (so Gazebo's conversion keeps the joint); the M200s' rotors turn
    on the motors' own links, which have mass, so the boat's links are as they were.
    """
    text, root = default
    plain = resolve_config(CONFIG_DIR / 'blueboat.yaml').urdf
    assert text.rstrip().endswith('</robot>')
    path = tmp_path / 'composed.urdf'
    path.write_text(text, encoding='utf-8')
    result = run([tool('check_urdf'), path])  # robot_state_publisher's parser
    assert result.returncode == 0, result.stdout + result.stderr
    composed, original = Vehicle.from_urdf(text), Vehicle.from_urdf(plain)
    split = composed.joints.pop('base_link_inertia_joint')
    assert (split.type, split.parent, split.child, split.xyz) == (
        'fixed', 'base_link', 'base_link_inertia', (0.0, 0.0, 0.0))
    assert composed.joints == original.joints
    carriers = {j.parent for j in original.joints.values() if j.type != 'fixed'}
    assert carriers == {'motor_port', 'motor_stbd'}
    assert all(original.links[name].mass > 0 for name in carriers)
    inertia = composed.links.pop('base_link_inertia')
    root, before = composed.links.pop('base_link'), original.links.pop('base_link')
    assert (inertia.mass, inertia.com, inertia.inertia) == (before.mass, before.com,
                                                            before.inertia)
    assert root.mass == 0 and composed.links == original.links


def test_the_root_link_has_no_inertial_for_robot_state_publisher(default):
    """
    kdl_parser warns about any <inertial> on the root (ros/kdl_parser 2.11.0, kdl_parser.cpp).

    Gazebo gets the mass back: SDFormat lumps the fixed child into the root (the gz tests
    compare the converted model's root inertial with the part's, test_added_mass_in_gazebo).
    """
    _, root = default
    (base,) = [link for link in root.findall('link') if link.get('name') == 'base_link']
    assert base.find('inertial') is None
    assert base.find('visual') is not None and base.find('collision') is not None


def test_one_thruster_per_propeller_with_the_part_data(default):
    _, root = default
    found = {params(p)['joint_name']: params(p) for p in plugins(root, THRUSTER)}
    assert sorted(found) == ['motor_port_rotor_joint', 'motor_stbd_rotor_joint']  # what turns
    fraction = shipped()['blueboat_chassis'].data['installed_thrust']['fraction']
    for instance, part_type in (('motor_port', 'm200_weedless_prop_ccw'),
                                ('motor_stbd', 'm200_weedless_prop_cw')):
        propeller = shipped()[part_type].propeller
        values = found[f'{instance}_rotor_joint']
        assert values['namespace'] == 'blueboat'
        assert values['topic'] == f'{instance}/thrust'
        assert abs(float(values['thrust_coefficient'])) == propeller.thrust_coefficient
        assert float(values['propeller_diameter']) == propeller.diameter == 0.112
        # the installed limits: the boat's 8.2 kgf static thrust shared by its two M200s
        assert propeller.max_thrust == 55.2 and propeller.min_thrust == -27.6  # bench
        assert float(values['max_thrust_cmd']) == pytest.approx(55.2 * fraction, abs=1e-6)
        assert float(values['max_thrust_cmd']) == pytest.approx(8.2 * 9.80665 / 2, rel=1e-3)
        assert float(values['min_thrust_cmd']) == pytest.approx(-27.6 * fraction, abs=1e-6)
        assert float(values['fluid_density']) == 1025.0
        assert values['velocity_control'] == 'true'
    thruster = plugins(root, THRUSTER)[0]
    assert thruster.get('filename') == 'gz-sim-thruster-system'


def test_a_base_without_installed_thrust_gives_the_bench_figures(tmp_path):
    slots = ('slots:\n  motor: {xyz: [-0.4, 0, 0], accepts: [t200_thruster_cw], '
             'default: t200_thruster_cw, collision: false}\n')
    (tmp_path / 'raft.yaml').write_text(RAFT + slots, encoding='utf-8')
    config = write_config(tmp_path, 'part_files: [raft.yaml]\nbase: {type: raft}\n')
    (thruster,) = plugins(ElementTree.fromstring(compose(config).encode()), THRUSTER)
    assert (float(params(thruster)['max_thrust_cmd']),
            float(params(thruster)['min_thrust_cmd'])) == (51.5, -39.9)


@pytest.mark.parametrize('config', ['blueboat.yaml', 'examples/t200.yaml'])
def test_thrust_coefficient_sign_follows_the_rotation(config):
    """
    Spin the propeller the way gz does, w = sign(T Kt) sqrt(...), for forward thrust.

    Looking from astern, the sense must be the part's rotation (cw seen from astern).
    """
    text = compose(CONFIG_DIR / config)
    vehicle = Vehicle.from_urdf(text)
    poses = kinematics.link_poses(vehicle)
    rotations = []
    for plugin in plugins(ElementTree.fromstring(text.encode()), THRUSTER):
        values = params(plugin)
        joint = values['joint_name']
        actuator = next(a for a in vehicle.actuators.values() if a.joint == joint)
        _, axis = kinematics.joint_frame(vehicle, poses, joint)
        assert axis[0] > 0.99  # the thrust axis points forward
        spin = math.copysign(1.0, 1.0 * float(values['thrust_coefficient']))  # thrust T = +1 N
        # Looking forward from astern, a positive angular velocity about +x is clockwise.
        seen_from_astern = 'cw' if spin * axis[0] > 0 else 'ccw'
        assert seen_from_astern == actuator.rotation, joint
        rotations.append(seen_from_astern)
    assert sorted(rotations) == ['ccw', 'cw']  # port and starboard are mirrored


def test_the_coefficient_rule():
    cw = shipped()['m200_weedless_prop_cw'].propeller
    ccw = shipped()['t200_thruster_ccw'].propeller
    assert cw.signed_thrust_coefficient == cw.thrust_coefficient > 0
    assert ccw.signed_thrust_coefficient == -ccw.thrust_coefficient < 0


def test_echosounder_is_a_gpu_lidar_cone_on_its_beam_frame(default):
    _, root = default
    (block,) = [g for g in root.findall('gazebo') if g.find("sensor[@type='gpu_lidar']")
                is not None]
    assert block.get('reference') == 'ping_beam'
    sensor = block.find('sensor')
    echo = shipped()['ping_singlebeam'].sensor_sections['echosounder']
    assert (sensor.get('name'), sensor.get('type')) == ('ping_scan', 'gpu_lidar')
    assert [float(v) for v in sensor.findtext('pose').split()] == [0.0] * 6
    assert sensor.findtext('topic') == '/blueboat/ping/scan'
    assert sensor.findtext('gz_frame_id') == 'blueboat/ping_beam'
    assert sensor.find('frame_id') is None
    # the spec's <always_on> and <visualize>: no gz-sensors 8 or gz-sim 8 code reads them
    assert sensor.find('always_on') is None and sensor.find('visualize') is None
    assert float(sensor.findtext('update_rate')) == echo['update_rate']
    for axis in ('horizontal', 'vertical'):  # a square grid over the cone, both axes
        scan = sensor.find(f'lidar/scan/{axis}')
        assert int(scan.findtext('samples')) == echo['samples'] == 9
        assert int(scan.findtext('resolution')) == 1
        low, high = float(scan.findtext('min_angle')), float(scan.findtext('max_angle'))
        assert (low, high) == (-echo['beam_width'] / 2, echo['beam_width'] / 2)
        assert math.degrees(high - low) == pytest.approx(25.0)  # the Ping2's published beam
    assert float(sensor.findtext('lidar/range/min')) == echo['range_min'] == 0.5
    assert float(sensor.findtext('lidar/range/max')) == echo['range_max'] == 100.0


def test_ionic_writes_frame_id():
    root = ElementTree.fromstring(compose(CONFIG_DIR / 'blueboat.yaml', version='ionic').encode())
    sensor = root.find('gazebo/sensor')
    assert sensor.findtext('frame_id') == 'blueboat/ping_beam'
    assert sensor.find('gz_frame_id') is None


def test_vehicle_systems(default):
    _, root = default
    (joint_states,) = plugins(root, 'gz::sim::systems::JointStatePublisher')
    assert joint_states.get('filename') == 'gz-sim-joint-state-publisher-system'
    assert params(joint_states) == {'topic': '/model/blueboat/joint_state'}
    (odometry,) = plugins(root, 'gz::sim::systems::OdometryPublisher')
    assert odometry.get('filename') == 'gz-sim-odometry-publisher-system'
    assert params(odometry) == {'odom_topic': '/model/blueboat/odometry',
                                'tf_topic': '/model/blueboat/tf',
                                'odom_frame': 'blueboat/odom',
                                'robot_base_frame': 'blueboat/base_link', 'dimensions': '3'}


def test_hydrodynamics_on_the_root_link_from_the_base_part(default):
    _, root = default
    (hydro,) = plugins(root, 'gz::sim::systems::Hydrodynamics')
    assert hydro.get('filename') == 'gz-sim-hydrodynamics-system'
    values = params(hydro)
    assert values.pop('link_name') == 'base_link'
    assert values.pop('disable_added_mass') == 'true'
    assert 'water_density' not in values  # no 8.x release uses it (composition.py)
    assert 'default_current' not in values  # still water unless a current is given
    data = shipped()['blueboat_chassis'].hydrodynamics
    damping = {k: v for k, v in data.items() if 'Dot' not in k}
    assert {k: float(v) for k, v in values.items()} == damping
    # every axis' own term resists its motion; the two couplings are the drift lifts' levers
    assert all(v < 0 for k, v in damping.items() if 'xyzkmn'.index(k[0]) == 'UVWPQR'.index(k[1]))
    assert sorted(k for k in damping if 'xyzkmn'.index(k[0]) != 'UVWPQR'.index(k[1])) == [
        'nVabsU', 'yRabsU']
    assert len(damping) == 16


def test_a_renamed_base_carries_the_hydrodynamics(tmp_path):
    root = ElementTree.fromstring(compose(write_config(tmp_path, 'base: {name: hull}\n')).encode())
    (hydro,) = plugins(root, 'gz::sim::systems::Hydrodynamics')
    assert hydro.findtext('link_name') == 'hull'
    (odometry,) = plugins(root, 'gz::sim::systems::OdometryPublisher')
    assert odometry.findtext('robot_base_frame') == 'blueboat/hull'


def test_parts_with_nothing_to_simulate_add_nothing():
    count = {}
    for config in ('blueboat.yaml', 'examples/mast_and_payload.yaml', 'examples/no_ping.yaml'):
        root = ElementTree.fromstring(compose(CONFIG_DIR / config).encode())
        count[config] = len(root.findall('gazebo'))
    # two thrusters + one echosounder + IMU, magnetometer and GNSS + joint states, odometry,
    # hydrodynamics, added mass
    assert count == {'blueboat.yaml': 10, 'examples/mast_and_payload.yaml': 10,
                     'examples/no_ping.yaml': 9}


def test_output_is_deterministic(default):
    text, _ = default
    assert compose(CONFIG_DIR / 'blueboat.yaml') == text


def test_a_thruster_with_a_rotor_on_a_turning_slot_is_refused(tmp_path):
    """Only the T200's rotor turns: on a continuous slot its body would spin freely."""
    config = write_config(tmp_path, 'slots:\n  - {name: spare, xyz: [0, 0, 0.3], '
                                    'accepts: [t200_thruster_cw],\n     default: '
                                    't200_thruster_cw, joint: continuous}\n')
    with pytest.raises(BlueRoboticsPartsError) as caught:
        build_gazebo(config)
    message = str(caught.value)
    assert message.startswith(f'{config}:2: propeller spare (t200_thruster_cw) hangs on a '
                              'continuous joint (slot spare of base_link, whose joint is '
                              'continuous), but only its rotor frame rotor turns')
    assert 'joint: fixed' in message


def test_a_thruster_with_a_rotor_turns_wherever_it_is_fixed(tmp_path):
    """A free placement (fixed) is enough: its rotor frame has the joint that turns."""
    config = write_config(tmp_path, 'parts:\n  - {type: m200_weedless_prop_cw, name: spare, '
                                    'xyz: [0.2, 0, 0.1]}\n')
    result = build_gazebo(config)
    assert 'spare_rotor_joint' in [t.joint for t in result.topics.thrusters]


#: A propeller that turns as a whole: no rotor frame, so it needs a continuous slot.
WHOLE_PROPELLER = """\
type: prop
inertial: {mass: 0.1, mass_unverified: test}
propeller: {rotation: cw, diameter: 0.1, max_thrust: 10, min_thrust: -5,
            thrust_coefficient: 0.01}
"""


@pytest.mark.parametrize('text, line, expected', [
    ('base: {type: prop}\n', 2,
     'the base base_link (prop) is a propeller that turns as a whole'),
    ('slots:\n  - {name: spare, xyz: [0, 0, 0.3], accepts: [prop],\n'
     '     default: prop}\n', 3,
     'propeller spare (prop) turns as a whole (it has no rotor frame) but hangs on a fixed '
     'joint (slot spare of base_link, whose joint is fixed)'),
])
def test_a_propeller_that_cannot_spin_is_refused_at_its_line(tmp_path, text, line, expected):
    (tmp_path / 'prop.yaml').write_text(WHOLE_PROPELLER, encoding='utf-8')
    config = write_config(tmp_path, 'part_files: [prop.yaml]\n' + text)
    with pytest.raises(BlueRoboticsPartsError) as caught:
        build_gazebo(config)
    assert str(caught.value).startswith(f'{config}:{line}: {expected}')


def test_a_propeller_that_turns_as_a_whole_spins_on_a_continuous_slot(tmp_path):
    (tmp_path / 'prop.yaml').write_text(WHOLE_PROPELLER, encoding='utf-8')
    config = write_config(tmp_path, 'part_files: [prop.yaml]\nslots:\n  - {name: spare, '
                                    'xyz: [0, 0, 0.3], accepts: [prop], default: prop, '
                                    'joint: continuous}\n')
    result = build_gazebo(config)
    assert [t.joint for t in result.topics.thrusters if t.instance == 'spare'] == ['spare_joint']


def test_a_spare_propeller_is_fine_in_the_ros_description(tmp_path):
    """Only Gazebo needs a thruster to spin; the plain URDF may carry a spare one."""
    config = write_config(tmp_path, 'parts:\n  - {type: m200_weedless_prop_cw, name: spare, '
                                    'xyz: [0.2, 0, 0.1]}\n')
    assert 'name="spare"' in resolve_config(config).urdf


# -- the hydrodynamics section of part data ------------------------------------------------------

RAFT = """\
type: raft
inertial:
  mass: 5.0
  mass_unverified: example
collision:
  - box: [1.0, 1.0, 0.2]
    box_unverified: example
"""


def test_a_base_without_hydrodynamics_gets_no_hydrodynamics_system(tmp_path):
    (tmp_path / 'raft.yaml').write_text(RAFT, encoding='utf-8')
    config = write_config(tmp_path, 'part_files: [raft.yaml]\nbase: {type: raft}\n')
    root = ElementTree.fromstring(compose(config).encode())
    assert plugins(root, 'gz::sim::systems::Hydrodynamics') == []
    assert plugins(root, THRUSTER) == []
    assert len(root.findall('gazebo')) == 2  # joint states and odometry


def test_a_user_base_brings_its_own_coefficients(tmp_path):
    (tmp_path / 'raft.yaml').write_text(RAFT + 'hydrodynamics:\n  xUabsU: -40.0\n'
                                        '  xUabsU_unverified: example\n  zDotW: -3.0\n'
                                        '  zDotW_unverified: example\n', encoding='utf-8')
    config = write_config(tmp_path, 'part_files: [raft.yaml]\nbase: {type: raft}\n')
    (hydro,) = plugins(ElementTree.fromstring(compose(config).encode()),
                       'gz::sim::systems::Hydrodynamics')
    assert params(hydro) == {'link_name': 'base_link', 'disable_added_mass': 'true',
                             'xUabsU': '-40.0'}


@pytest.mark.parametrize('section, message', [
    ('  xUabsu: -1.0\n', "hydrodynamics has no coefficient 'xUabsu'; valid: added mass"),
    ('  qU: -1.0\n', "hydrodynamics has no coefficient 'qU'"),
    ('  xU: fast\n', "hydrodynamics xU must be a number, got 'fast'"),
])
def test_hydrodynamics_coefficients_are_checked(tmp_path, section, message):
    from bluerobotics_parts.assembly.catalogue import load_part_file

    path = tmp_path / 'raft.yaml'
    path.write_text(RAFT + 'hydrodynamics:\n' + section, encoding='utf-8')
    with pytest.raises(ConfigError) as caught:
        load_part_file(path, shipped=False)
    assert message in str(caught.value)
    assert str(caught.value).startswith(f'{path}:9: ')


# -- the surge fit and the thrust limits -----------------------------------------------------

def _steady(thrust, linear, quadratic):
    """Bisection on thrust = -(linear u + quadratic u |u|): independent of propulsion.py."""
    low, high = 0.0, 100.0
    for _ in range(200):
        middle = (low + high) / 2
        low, high = (middle, high) if -(linear + quadratic * middle) * middle < thrust else \
            (low, middle)
    return low


def test_full_thrust_of_the_default_m200s_gives_the_published_top_speed():
    """
    Reach 3.0 m/s (Blue Robotics, hull-speed limited) within 3%.

    From both surge terms together, at the boat's published 8.2 kgf static thrust.
    """
    fraction = shipped()['blueboat_chassis'].data['installed_thrust']['fraction']
    assert fraction == pytest.approx(8.2 / (2 * 5.63), abs=1e-4)
    data = shipped()['blueboat_chassis'].hydrodynamics
    thrust = 2 * 55.2 * fraction
    speed = _steady(thrust, data['xU'], data['xUabsU'])
    assert speed == pytest.approx(3.0, rel=0.03)
    assert speed == pytest.approx(3.0, abs=0.005)  # in fact to the millimetre per second
    # the quadratic term alone (the old fit left xU out) would not give it
    assert _steady(thrust, 0.0, data['xUabsU']) > 3.03


def test_each_linear_term_is_its_quadratic_term_at_0_2():
    """The split the part data states (unverified): linear = quadratic x 0.2 m/s (rad/s)."""
    data = shipped()['blueboat_chassis'].hydrodynamics
    for linear, quadratic in (('xU', 'xUabsU'), ('yV', 'yVabsV'), ('nR', 'nRabsR')):
        assert data[linear] == pytest.approx(0.2 * data[quadratic], rel=0.01), linear


def test_the_yaw_drag_is_its_stated_estimate():
    """
    nRabsR.

    cross-flow drag of both hulls turning (Cd 1.0, draft 0.054 m) plus each hull's half of the
    surge drag at the hull's lever, as the part data's note derives it.
    """
    data = shipped()['blueboat_chassis'].hydrodynamics
    dimensions = shipped()['blueboat_chassis'].data['dimensions']
    length, lever = dimensions['hull_length'], dimensions['hull_y']
    crossflow = -0.5 * 1025 * 1.0 * 0.054 * length ** 4 / 16
    assert data['nRabsR'] == pytest.approx(crossflow + data['xUabsU'] * lever ** 3, abs=0.01)
    assert data['yVabsV'] == pytest.approx(-0.5 * 1025 * 1.0 * 2 * length * 0.054, rel=0.01)


def test_propulsion_agrees_with_the_hand_calculation():
    limits = propulsion.thrust_limits(resolve_config(CONFIG_DIR / 'blueboat.yaml').record,
                                      shipped())
    assert sorted(limits) == ['motor_port', 'motor_stbd']
    data = shipped()['blueboat_chassis'].hydrodynamics
    forward = sum(limit.maximum for limit in limits.values())
    assert propulsion.steady_speed(forward, data['xU'], data['xUabsU']) == pytest.approx(
        _steady(forward, data['xU'], data['xUabsU']), abs=1e-6)
    backward = sum(limit.minimum for limit in limits.values())
    assert propulsion.steady_speed(backward, data['xU'], data['xUabsU']) == pytest.approx(
        -_steady(-backward, data['xU'], data['xUabsU']), abs=1e-6)


# -- a water current -----------------------------------------------------------------------------

def test_a_current_reaches_the_hydrodynamics_system(tmp_path):
    """
    Give Hydrodynamics the current as <default_current> (world frame, m/s).

    The system subtracts it from the link's velocity (gz-sim8_8.14.0 Hydrodynamics.cc,
    Configure and PreUpdate).
    """
    for given in ('0.5 0 0', [0.5, 0, 0], (0.5, 0.0, 0.0), '0.5, 0, 0'):
        result = build_gazebo(CONFIG_DIR / 'blueboat.yaml', current=given)
        (hydro,) = plugins(ElementTree.fromstring(result.urdf.encode()),
                           'gz::sim::systems::Hydrodynamics')
        assert hydro.findtext('default_current') == '0.5 0.0 0.0'
    assert build_gazebo(CONFIG_DIR / 'blueboat.yaml', current='').urdf == \
        build_gazebo(CONFIG_DIR / 'blueboat.yaml').urdf


@pytest.mark.parametrize('bad', ['0.5 0', 'fast', '1 2 3 4', 'nan 0 0', [1, 2]])
def test_a_malformed_current_is_refused(bad):
    with pytest.raises(ConfigError) as caught:
        build_gazebo(CONFIG_DIR / 'blueboat.yaml', current=bad)
    assert 'water current' in str(caught.value) and "e.g. '0.5 0 0'" in str(caught.value)


def test_a_current_needs_the_hydrodynamics_system(tmp_path):
    (tmp_path / 'raft.yaml').write_text(RAFT, encoding='utf-8')
    config = write_config(tmp_path, 'part_files: [raft.yaml]\nbase: {type: raft}\n')
    with pytest.raises(ConfigError, match='no hydrodynamics coefficients'):
        build_gazebo(config, current='0.5 0 0')


# -- every element is one Gazebo reads ---------------------------------------------------------

@pytest.mark.parametrize('config', SHIPPED_CONFIGS, ids=lambda p: p.name)
@pytest.mark.parametrize('version', ['harmonic', 'ionic'])
def test_every_composed_element_is_in_the_table(config, version):
    built = build_gazebo(config, gz_release=version, current='0.1 0.2 0')
    root = ElementTree.fromstring(built.urdf.encode())
    blocks = list(root.iter('plugin')) + list(root.iter('sensor'))
    assert blocks
    for block in blocks:
        assert gazebo_elements.unread(block) == [], block.get('name') or block.get('type')


def test_the_table_refuses_what_no_system_reads_and_what_we_never_write():
    """
    ``water_density``: Hydrodynamics reads none in 8.12+; ``xUU``: read, but never written.

    gz-sim8_8.14.0 src/systems/hydrodynamics/Hydrodynamics.cc, Hydrodynamics::Configure, reads
    the quadratic terms ``<xUU>`` as well as ``<xUabsU>`` and warns that the former "may cause
    instabilities": the table lists only the ``abs`` form, so the composition cannot write it.
    """
    plugin = ElementTree.fromstring(
        '<plugin name="gz::sim::systems::Hydrodynamics"><link_name>b</link_name>'
        '<water_density>1025</water_density><xUabsU>-1</xUabsU><xUabsQ>-1</xUabsQ>'
        '<xUU>-1</xUU></plugin>')
    assert gazebo_elements.unread(plugin) == ['gz::sim::systems::Hydrodynamics: water_density',
                                              'gz::sim::systems::Hydrodynamics: xUU']
    sensor = ElementTree.fromstring('<sensor type="gpu_lidar"><lidar><scan><horizontal>'
                                    '<samples>3</samples><noise/></horizontal></scan></lidar>'
                                    '<frame>x</frame></sensor>')
    assert gazebo_elements.unread(sensor) == ['gpu_lidar sensor: lidar/scan/horizontal/noise',
                                              'gpu_lidar sensor: frame']
    assert gazebo_elements.unread(ElementTree.fromstring('<plugin name="x::Y"/>')) == \
        ['x::Y: no table of the elements it reads']


def test_every_table_entry_names_its_source():
    tables = [*gazebo_elements.PLUGINS.values(), *gazebo_elements.SENSOR_TYPES.values()]
    for table in tables:
        for element, (meaning, unit, source) in table.items():
            assert meaning and unit and source, element
            # a Gazebo source, or the package's own system (the ESC system's elements)
            assert any(tag in source for tag in ('gz-sim8_8.14.0', 'sdformat1', 'gz-sensors',
                                                 'ardupilot_gazebo main 082a0fe2',
                                                 'bluerobotics_parts gazebo/esc_system.py')), \
                source


def test_the_launch_argument_current_reaches_the_build(tmp_path):
    """
    Parse vehicle.launch.py's current:="x y z" (launch_arguments' table).

    It becomes the vector build() composes as <default_current>; a malformed one names the
    argument.
    """
    from bluerobotics_parts.ros.launch import arguments as launch_arguments, plan as launch_plan

    names = [a.name for a in launch_arguments.ARGUMENTS]
    assert 'current' in names
    assert launch_arguments.parse_arguments({'current': '0.5 0 0'})['current'] == (0.5, 0.0, 0.0)
    assert launch_arguments.parse_arguments({})['current'] is None
    with pytest.raises(launch_arguments.LaunchArgumentError) as caught:
        launch_arguments.parse_arguments({'current': '0.5 north'})
    assert "launch argument current:='0.5 north'" in str(caught.value)
    plan = launch_plan.plan({'current': '0.25 -0.1 0', 'gazebo': 'false'},
                            environ={'ROS_HOME': str(tmp_path)})
    hydro = ElementTree.parse(plan.urdf_file).getroot().find(
        "gazebo/plugin[@name='gz::sim::systems::Hydrodynamics']")
    assert hydro.findtext('default_current') == '0.25 -0.1 0.0'


def test_a_propeller_a_user_part_fits_is_located_in_the_part_file_as_read(tmp_path):
    """``lnk/../parts/pod.yaml`` is the file the system opens: its line, under that name."""
    pod = ('type: pod\ninertial: {mass: 1.0, mass_unverified: test}\nslots:\n  spare:\n'
           '    accepts: [t200_thruster_cw]\n    default: t200_thruster_cw\n'
           '    joint: continuous\n')
    (tmp_path / 'other' / 'sub').mkdir(parents=True)
    (tmp_path / 'other' / 'parts').mkdir()
    (tmp_path / 'other' / 'parts' / 'pod.yaml').write_text(pod, encoding='utf-8')
    (tmp_path / 'parts').mkdir()
    (tmp_path / 'parts' / 'pod.yaml').write_text('# not this one\n' * 3 + pod,
                                                 encoding='utf-8')
    (tmp_path / 'lnk').symlink_to(tmp_path / 'other' / 'sub')
    config = write_config(tmp_path, 'part_files: [lnk/../parts/pod.yaml]\nparts:\n'
                                    '  - {type: pod, name: pod, xyz: [0, 0, 0.3]}\n')
    with pytest.raises(BlueRoboticsPartsError) as caught:
        build_gazebo(config)
    assert str(caught.value).startswith(f'{tmp_path}/lnk/../parts/pod.yaml:6: propeller spare')
