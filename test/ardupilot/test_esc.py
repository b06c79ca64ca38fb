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
The ESCs under ArduPilot: the PWM the autopilot sends becomes the published curve's thrust.

Everywhere: the ESC system's table (``build --autopilot ardupilot``) against Blue Robotics' own
rows, read here from urdf/thrust_curves/*.yaml at 16 V (the voltage of the parts' limits) times
the base's installed fraction, at 1300, 1400, 1600 and 1700 us; the interpolation and its
refusals. Where Gazebo Harmonic is installed: the system itself in gz-sim (its Python loader),
sent each PWM on the topic ArduPilot's plugin publishes it to, answering on the Thruster's.
"""

from __future__ import annotations

import math
from xml.etree import ElementTree

from bluerobotics_parts.build import build_gazebo
from bluerobotics_parts.gazebo.esc_system import interpolate, read_escs
from bluerobotics_parts.physics import propulsion
from conftest import CONFIG_DIR, REPO
import gz_support
import pytest
import yaml

KGF = 9.80665
CHECKED_PWM = (1300, 1400, 1600, 1700)
CONFIGS = ['blueboat.yaml', 'bluerov2.yaml', 'bluerov2_heavy.yaml']


def escs_of(built) -> dict:
    (system,) = [p for p in ElementTree.fromstring(built.urdf).iter('plugin')
                 if p.get('name') == 'gz::sim::systems::PythonSystemLoader']
    return {target: (source, table) for source, target, table in
            read_escs(ElementTree.tostring(system, encoding='unicode'))}


def published_row(curve: str, pwm: int) -> float:
    """Return Blue Robotics' bench thrust (N) at ``pwm`` from the 16 V rows of a curve file."""
    data = yaml.safe_load((REPO / 'urdf' / 'thrust_curves' / f'{curve}.yaml').read_text())
    if 'voltages' not in data:  # a derived curve: the file of its shape, scaled
        raise LookupError(curve)
    (row,) = [v for v in data['voltages'] if v['voltage'] == 16]
    return row['force_kgf'][row['pwm_us'].index(pwm)] * KGF


def expected(built, instance: str, pwm: int) -> float:
    """Return the installed thrust Blue Robotics' table gives, or None for a derived curve."""
    part = built.catalogue[built.resolved.record.part(instance).type]
    fraction = propulsion.installed_fraction(built.catalogue[built.resolved.record.base.type])
    try:
        return published_row(part.propeller.thrust_curve, pwm) * fraction
    except LookupError:
        return None


@pytest.mark.parametrize('config', CONFIGS)
def test_the_escs_give_blue_robotics_table_at_1300_1400_1600_1700_us(config):
    built = build_gazebo(CONFIG_DIR / config, autopilot='ardupilot')
    escs = escs_of(built)
    checked = 0
    for thruster in built.topics.thrusters:
        _, table = escs[thruster.gz_topic]
        for pwm in CHECKED_PWM:
            want = expected(built, thruster.instance, pwm)
            if want is None:
                continue
            assert interpolate(pwm, table) == pytest.approx(want, rel=0.05), (thruster, pwm)
            checked += 1
    if config != 'blueboat.yaml':
        assert checked == 4 * len(built.topics.thrusters)


def test_the_m200_follows_its_derived_curve_its_dead_band_and_its_asymmetry():
    """The BlueBoat's M200 curve is derived (the T200's shape, the M200's ends): its shape."""
    built = build_gazebo(CONFIG_DIR / 'blueboat.yaml', autopilot='ardupilot')
    for thruster in built.topics.thrusters:
        _, table = escs_of(built)[thruster.gz_topic]
        assert interpolate(1500, table) == 0.0 and interpolate(1520, table) == 0.0  # dead band
        assert interpolate(1700, table) > 0 > interpolate(1300, table)
        assert interpolate(1900, table) > 1.8 * -interpolate(1100, table)  # weaker astern
        ahead = [interpolate(p, table) for p in range(1540, 1901, 40)]
        assert ahead == sorted(ahead)


def test_interpolation_holds_the_ends_and_takes_no_command_for_nan():
    table = ((1100.0, 1500.0, 1900.0), (-10.0, 0.0, 20.0))
    assert interpolate(1700.0, table) == 10.0
    assert interpolate(900.0, table) == -10.0 and interpolate(2500.0, table) == 20.0
    assert interpolate(math.nan, table) == 0.0


@pytest.mark.parametrize('broken', [
    '<esc><thrust_topic>/b</thrust_topic><pwm_us>1 2</pwm_us><thrust_n>0 1</thrust_n></esc>',
    '<esc><pwm_topic>/a</pwm_topic><thrust_topic>/b</thrust_topic><pwm_us>1 2</pwm_us>'
    '<thrust_n>0</thrust_n></esc>',
    '<esc><pwm_topic>/a</pwm_topic><thrust_topic>/b</thrust_topic><pwm_us>2 1</pwm_us>'
    '<thrust_n>0 1</thrust_n></esc>',
])
def test_a_malformed_esc_is_refused_by_name(broken):
    with pytest.raises(ValueError, match='needs <pwm_topic>, <thrust_topic>'):
        read_escs(f'<plugin>{broken}</plugin>')


def test_in_gazebo_each_pwm_becomes_its_thrust():
    """gz-sim 8 loads the system from the composed URDF and relays each PWM to its Thruster."""
    gz_support.require()
    import render_support

    built = build_gazebo(CONFIG_DIR / 'bluerov2.yaml', autopilot='ardupilot')
    thruster = built.topics.thrusters[0]
    source, table = escs_of(built)[thruster.gz_topic]
    model = render_support.vehicle_model(built.urdf, (0, 0, 0, 0, 0, 0))
    phases = [{'publish': [[source, 'double_pb2', 'Double', {'data': float(pwm)}]],
               'skip': 1, 'keep': 1} for pwm in CHECKED_PWM + (1500, 1900, 1100)]
    got = render_support.observe(
        render_support.world_sdf([model], rendering=False),
        {'thrust': (thruster.gz_topic, 'double_pb2', 'Double')}, phases, timeout=300)
    thrusts = [render_support.parse('double_pb2', 'Double', phase['thrust'][0]).data
               for phase in got]
    print('ESC in gz-sim:', dict(zip(CHECKED_PWM + (1500, 1900, 1100), thrusts)))
    for pwm, thrust in zip(CHECKED_PWM, thrusts):
        assert thrust == pytest.approx(expected(built, thruster.instance, pwm), rel=0.05)
    limits = propulsion.thrust_limits(built.resolved.record, built.catalogue)[thruster.instance]
    assert thrusts[4] == 0.0
    assert thrusts[5] == pytest.approx(limits.maximum, rel=5e-3)
    assert thrusts[6] == pytest.approx(limits.minimum, rel=5e-3)
