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

"""Topic and frame names: one computation, namespaced by the vehicle name, driven by part data."""

from __future__ import annotations

from bluerobotics_parts.assembly.pipeline import resolve_config
from bluerobotics_parts.errors import BlueRoboticsPartsError, ConfigError
from bluerobotics_parts.model.topics import vehicle_topics
from conftest import CONFIG_DIR, write_config
import pytest

# A part of the user's own that drives the boat: only its propeller data makes it a thruster.
OWN_PROPELLER = """\
type: bow_tunnel_drive
inertial:
  mass: 0.3
  mass_unverified: example
visual:
  - cylinder: {radius: 0.03, length: 0.1}
    cylinder_unverified: example
propeller:
  rotation: cw
  diameter: 0.05
  diameter_unverified: example
  max_thrust: 10.0
  max_thrust_unverified: example
  min_thrust: -10.0
  min_thrust_unverified: example
  thrust_coefficient: 0.01
  thrust_coefficient_unverified: example
"""


def names_of(config, name=None):
    resolved = resolve_config(config, name=name)
    return vehicle_topics(resolved.record, resolved.catalogue(), name)


@pytest.fixture(scope='module')
def default():
    return names_of(CONFIG_DIR / 'blueboat.yaml')


def test_default_thrusters(default):
    assert [(t.instance, t.joint, t.namespace, t.topic, t.gz_topic, t.ros_topic)
            for t in default.thrusters] == [
        ('motor_port', 'motor_port_rotor_joint', 'blueboat', 'motor_port/thrust',
         '/blueboat/motor_port/thrust', '/blueboat/motor_port/thrust'),
        ('motor_stbd', 'motor_stbd_rotor_joint', 'blueboat', 'motor_stbd/thrust',
         '/blueboat/motor_stbd/thrust', '/blueboat/motor_stbd/thrust'),
    ]
    for thruster in default.thrusters:  # gz's rule for a Thruster with <topic> set
        assert thruster.gz_topic == f'/{thruster.namespace}/{thruster.topic}'


def echosounders(names) -> list:
    return [sensor for sensor in names.sensors if sensor.kind == 'echosounder']


def test_default_echosounder(default):
    (ping,) = echosounders(default)
    assert (ping.instance, ping.link, ping.frame_id) == ('ping', 'ping_beam', 'blueboat/ping_beam')
    assert ping.gz_topic == ping.ros['scan'] == '/blueboat/ping/scan'
    # gz-sensors publishes the gpu_lidar's point cloud on <topic>/points (GpuLidarSensor::Load)
    assert ping.gz['scan'] == '/blueboat/ping/scan/points'
    assert ping.ros['range'] == '/blueboat/ping/range'


def test_vehicle_level_names(default):
    assert default.gz_joint_state_topic == '/model/blueboat/joint_state'
    assert default.ros_joint_state_topic == '/blueboat/joint_states'
    assert default.gz_odometry_topic == '/model/blueboat/odometry'
    assert default.ros_odometry_topic == '/blueboat/odometry'
    assert (default.odom_frame, default.base_frame) == ('blueboat/odom', 'blueboat/base_link')
    assert default.clock_topic == '/clock'
    assert default.frame('motor_port') == 'blueboat/motor_port'


def test_every_name_follows_the_vehicle_name(tmp_path):
    for names in (names_of(CONFIG_DIR / 'blueboat.yaml', name='boat2'),
                  names_of(write_config(tmp_path, 'name: boat2\n'))):
        assert names.name == 'boat2'
        assert [t.gz_topic for t in names.thrusters] == ['/boat2/motor_port/thrust',
                                                         '/boat2/motor_stbd/thrust']
        assert {t.namespace for t in names.thrusters} == {'boat2'}
        assert echosounders(names)[0].frame_id == 'boat2/ping_beam'
        assert echosounders(names)[0].gz_topic == '/boat2/ping/scan'
        assert names.gz_joint_state_topic == '/model/boat2/joint_state'
        assert names.gz_odometry_topic == '/model/boat2/odometry'
        assert names.base_frame == 'boat2/base_link'


@pytest.mark.parametrize('bad', ['2boat', 'my-boat', 'boat/two', '', 'boat two'])
def test_a_name_that_cannot_be_a_namespace_is_refused(bad):
    resolved = resolve_config(CONFIG_DIR / 'blueboat.yaml')
    with pytest.raises(ConfigError) as caught:
        vehicle_topics(resolved.record, resolved.catalogue(), bad)
    assert repr(bad) in str(caught.value)
    assert 'letters, digits and underscores, starting with a letter' in str(caught.value)


def test_no_ping_no_echosounder_and_instances_name_the_topics(tmp_path):
    names = names_of(CONFIG_DIR / 'examples' / 'no_ping.yaml')
    assert echosounders(names) == []
    assert len(names.thrusters) == 2
    moved = names_of(CONFIG_DIR / 'examples' / 'ping_at_bow.yaml')
    (ping,) = echosounders(moved)
    assert (ping.instance, ping.link, ping.gz_topic) == ('bow_ping', 'bow_ping_beam',
                                                         '/blueboat/bow_ping/scan')
    renamed = names_of(write_config(tmp_path, 'parts:\n  - {slot: motor_port, '
                                    'type: m200_weedless_prop_ccw, name: left_motor}\n'))
    assert [(t.instance, t.joint, t.gz_topic) for t in renamed.thrusters][0] == (
        'left_motor', 'left_motor_rotor_joint', '/blueboat/left_motor/thrust')


def test_a_thruster_is_whatever_has_propeller_data(tmp_path):
    (tmp_path / 'drive.yaml').write_text(OWN_PROPELLER, encoding='utf-8')
    config = write_config(tmp_path, """\
part_files: [drive.yaml]
slots:
  - {name: bow_tunnel, xyz: [0.5, 0, 0], rpy: [0, 0, 1.5707963267948966],
     accepts: [bow_tunnel_drive], default: bow_tunnel_drive, joint: continuous,
     collision: false}
""")
    names = names_of(config)
    assert [t.instance for t in names.thrusters] == ['motor_port', 'motor_stbd', 'bow_tunnel']
    assert names.thrusters[-1].gz_topic == '/blueboat/bow_tunnel/thrust'


def test_a_renamed_base_is_the_base_frame(tmp_path):
    names = names_of(write_config(tmp_path, 'base: {name: hull}\n'))
    assert names.root_link == 'hull'
    assert names.base_frame == 'blueboat/hull'


def test_a_type_missing_from_the_catalogue_is_named():
    from bluerobotics_parts.assembly.catalogue import Catalogue

    resolved = resolve_config(CONFIG_DIR / 'blueboat.yaml')
    library = resolved.catalogue()
    partial = Catalogue({k: v for k, v in library.parts.items() if k != 'ping_singlebeam'})
    with pytest.raises(BlueRoboticsPartsError, match='part ping has type ping_singlebeam'):
        vehicle_topics(resolved.record, partial)
