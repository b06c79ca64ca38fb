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
def test_each_control_commands_its_thruster_in_newtons(config, instance):
    built = build_gazebo(CONFIG_DIR / config, autopilot='ardupilot', autopilot_instance=instance)
    plugin = plugin_of(built)
    assert plugin.findtext('fdm_port_in') == str(9002 + 10 * instance)
    assert plugin.findtext('imuName') == 'ardupilot_imu'
    assert plugin.findtext('lock_step') == 'true'
    limits = propulsion.thrust_limits(built.resolved.record, built.catalogue)
    topics = {t.instance: t.gz_topic for t in built.topics.thrusters}
    controls = plugin.findall('control')
    assert len(controls) == len(topics) == len(built.autopilot.outputs)
    for control, output in zip(controls, built.autopilot.outputs):
        assert control.get('channel') == str(output.motor.servo - 1)
        assert control.findtext('jointName') == f'{output.thruster}_rotor_joint'  # what turns
        assert control.findtext('type') == 'COMMAND'
        assert control.findtext('cmd_topic') == topics[output.thruster]
        low, high = float(control.findtext('servo_min')), float(control.findtext('servo_max'))
        offset, multiplier = float(control.findtext('offset')), \
            float(control.findtext('multiplier'))

        def newtons(pwm):  # ArduPilotPlugin.cc, UpdateMotorCommands
            return multiplier * (min(max((pwm - low) / (high - low), 0.0), 1.0) + offset)

        assert newtons(1500) == 0.0
        assert newtons(1900) == pytest.approx(limits[output.thruster].maximum, abs=1e-5)
        assert newtons(1100) == pytest.approx(-limits[output.thruster].maximum, abs=1e-5)


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
