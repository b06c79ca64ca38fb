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
ArduPilot's plugin block and its IMU in the composed URDF, and what the bridge leaves to it.

Every element written is one ArduPilotPlugin.cc reads (gazebo/elements.py has the table, with
sources); each control publishes the right thruster's command with the PWM mapping the
module doc of ardupilot/plugin.py derives; SDFormat 14 (where installed) keeps it all.
"""

from __future__ import annotations

import math
from xml.etree import ElementTree

from bluerobotics_parts.build import build_gazebo
from bluerobotics_parts.gazebo import elements
from bluerobotics_parts.physics import propulsion
from conftest import cli, CONFIG_DIR
import gz_support
import pytest
import yaml

CONFIGS = ['blueboat.yaml', 'bluerov2.yaml', 'bluerov2_heavy.yaml']


def plugin_of(build) -> ElementTree.Element:
    (plugin,) = [p for p in ElementTree.fromstring(build.urdf).iter('plugin')
                 if p.get('name') == 'ArduPilotPlugin']
    return plugin


@pytest.mark.parametrize('config', CONFIGS)
def test_every_element_is_one_the_plugin_reads(config):
    plugin = plugin_of(build_gazebo(CONFIG_DIR / config, autopilot='ardupilot'))
    assert plugin.get('filename') == 'ArduPilotPlugin'
    assert elements.unread(plugin) == []
    ElementTree.SubElement(plugin, 'anemometer_name')
    assert elements.unread(plugin) == ['ArduPilotPlugin: anemometer_name']


@pytest.mark.parametrize('config', CONFIGS)
@pytest.mark.parametrize('instance', [0, 3])
def test_each_control_publishes_its_thrusters_pwm_which_its_esc_turns_into_thrust(
        config, instance):
    """The plugin's map gives the PWM in us; the ESC system's table, the installed limits."""
    from bluerobotics_parts.gazebo.esc_system import interpolate, read_escs

    built = build_gazebo(CONFIG_DIR / config, autopilot='ardupilot', autopilot_instance=instance)
    plugin = plugin_of(built)
    assert plugin.findtext('fdm_port_in') == str(9002 + 10 * instance)
    assert plugin.findtext('imuName') == 'ardupilot_imu'
    assert plugin.findtext('lock_step') == 'true'
    limits = propulsion.thrust_limits(built.resolved.record, built.catalogue)
    topics = {t.instance: t.gz_topic for t in built.topics.thrusters}
    (esc_system,) = [p for p in ElementTree.fromstring(built.urdf).iter('plugin')
                     if p.get('name') == 'gz::sim::systems::PythonSystemLoader']
    assert elements.unread(esc_system) == []
    escs = {source: (target, table) for source, target, table in
            read_escs(ElementTree.tostring(esc_system, encoding='unicode'))}
    controls = plugin.findall('control')
    assert len(controls) == len(topics) == len(built.autopilot.outputs) == len(escs)
    for control, output in zip(controls, built.autopilot.outputs):
        assert control.get('channel') == str(output.motor.servo - 1)
        assert control.findtext('jointName') == f'{output.thruster}_rotor_joint'  # what turns
        assert control.findtext('type') == 'COMMAND'
        pwm_topic = control.findtext('cmd_topic')
        assert pwm_topic == topics[output.thruster].rsplit('/', 1)[0] + '/pwm'
        low, high = float(control.findtext('servo_min')), float(control.findtext('servo_max'))
        offset, multiplier = float(control.findtext('offset')), \
            float(control.findtext('multiplier'))

        def published(pwm):  # ArduPilotPlugin.cc, UpdateMotorCommands
            return multiplier * (min(max((pwm - low) / (high - low), 0.0), 1.0) + offset)

        for pwm in (1100, 1300, 1500, 1700, 1900):
            assert published(pwm) == pytest.approx(pwm)
        target, table = escs[pwm_topic]
        assert target == topics[output.thruster]
        limit = limits[output.thruster]
        assert interpolate(published(1500), table) == 0.0
        # the curve's 16 V ends are the parts' limits (the parts round the kgf: within 0.5%)
        assert interpolate(published(1900), table) == pytest.approx(limit.maximum, rel=5e-3)
        assert interpolate(published(1100), table) == pytest.approx(limit.minimum, rel=5e-3)


def test_a_propeller_without_a_curve_keeps_the_linear_map_in_newtons():
    from bluerobotics_parts.ardupilot.plugin import plugin_block

    built = build_gazebo(CONFIG_DIR / 'bluerov2.yaml', autopilot='ardupilot')
    limits = propulsion.thrust_limits(built.resolved.record, built.catalogue)
    plugin = plugin_block(built.autopilot, built.topics, limits, 0, curves={}).find('plugin')
    topics = {t.instance: t.gz_topic for t in built.topics.thrusters}
    for control, output in zip(plugin.findall('control'), built.autopilot.outputs):
        assert control.findtext('cmd_topic') == topics[output.thruster]
        offset, multiplier = float(control.findtext('offset')), \
            float(control.findtext('multiplier'))
        assert multiplier * (1.0 + offset) == pytest.approx(limits[output.thruster].maximum)
        assert multiplier * (0.5 + offset) == 0.0


def test_the_imu_measures_in_ardupilots_body_axes_on_the_root_link():
    built = build_gazebo(CONFIG_DIR / 'bluerov2.yaml', autopilot='ardupilot')
    root = ElementTree.fromstring(built.urdf)
    (block,) = [g for g in root.findall('gazebo') if g.find("sensor[@name='ardupilot_imu']")
                is not None]
    assert block.get('reference') == 'base_link'
    sensor = block.find('sensor')
    assert sensor.get('type') == 'imu' and sensor.find('topic') is None
    roll, pitch, yaw = (float(v) for v in sensor.findtext('pose').split()[3:])
    assert (roll, pitch, yaw) == (math.pi, 0.0, 0.0)
    assert elements.unread(sensor) == []


def test_the_bridge_leaves_the_thrust_commands_to_the_autopilot(tmp_path):
    built = build_gazebo(CONFIG_DIR / 'blueboat.yaml', autopilot='ardupilot')
    plain = build_gazebo(CONFIG_DIR / 'blueboat.yaml')
    driven = yaml.safe_load(built.bridge_yaml)
    assert [e for e in yaml.safe_load(plain.bridge_yaml) if e['direction'] == 'ROS_TO_GZ']
    assert [e for e in driven if e['direction'] == 'ROS_TO_GZ'] == []
    assert driven == [e for e in yaml.safe_load(plain.bridge_yaml)
                      if e['direction'] != 'ROS_TO_GZ']
    (tmp_path / 'robot.urdf').write_text(built.urdf, encoding='utf-8')
    assert cli('bridge', tmp_path / 'robot.urdf').stdout == built.bridge_yaml


def test_without_an_autopilot_nothing_changes():
    plain = build_gazebo(CONFIG_DIR / 'bluerov2.yaml')
    none = build_gazebo(CONFIG_DIR / 'bluerov2.yaml', autopilot='none')
    assert plain.urdf == none.urdf and 'ArduPilotPlugin' not in plain.urdf
    assert plain.ardupilot_parm is None and plain.autopilot is None


@pytest.mark.parametrize('config', CONFIGS)
def test_sdformat_14_keeps_the_plugin_and_the_imu(config, tmp_path):
    sdformat14 = gz_support.sdformat14()
    path = tmp_path / 'robot.urdf'
    path.write_text(build_gazebo(CONFIG_DIR / config, autopilot='ardupilot').urdf,
                    encoding='utf-8')
    root = sdformat14.Root()
    assert not root.load(str(path))
    model = root.model()
    names = [model.plugins()[i].name() for i in range(len(model.plugins()))]
    assert 'ArduPilotPlugin' in names
    base = model.link_by_name('base_link')
    assert base.sensor_by_name('ardupilot_imu') is not None
