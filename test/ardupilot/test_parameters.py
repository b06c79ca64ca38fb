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


"""ardupilot.parm: names ArduPilot defines for the firmware, read as ArduPilot reads them."""

from __future__ import annotations

from bluerobotics_parts.ardupilot import parameters
from bluerobotics_parts.build import build_gazebo
from conftest import cli, CONFIG_DIR
import pytest

EXPECTED = {
    'blueboat.yaml': {'FRAME_CLASS': 2, 'SERVO1_FUNCTION': 73, 'SERVO3_FUNCTION': 74,
                      'SERVO1_MIN': 1100, 'SERVO1_MAX': 1900, 'SERVO1_TRIM': 1500,
                      'SERVO3_MIN': 1100, 'SERVO3_MAX': 1900, 'SERVO3_TRIM': 1500},
    'bluerov2.yaml': {'FRAME_CONFIG': 1, 'MOT_PWM_MIN': 1100, 'MOT_PWM_MAX': 1900,
                      **{f'SERVO{n}_FUNCTION': 32 + n for n in range(1, 7)}},
    'bluerov2_heavy.yaml': {'FRAME_CONFIG': 2, 'MOT_PWM_MIN': 1100, 'MOT_PWM_MAX': 1900,
                            **{f'SERVO{n}_FUNCTION': 32 + n for n in range(1, 9)}},
}


def read_parm(text: str) -> dict:
    """Read as AP_Param::parse_param_line does: '#' lines skipped, the first two words."""
    found = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith('#'):
            continue
        name, value = line.replace(',', ' ').replace('=', ' ').split()[:2]
        found[name] = float(value)
    return found


@pytest.mark.parametrize('config', sorted(EXPECTED))
def test_the_parameters_set_the_frame_and_every_motor_output(config):
    built = build_gazebo(CONFIG_DIR / config, autopilot='ardupilot')
    assert read_parm(built.ardupilot_parm) == EXPECTED[config]


@pytest.mark.parametrize('config', sorted(EXPECTED))
def test_every_name_is_one_arduPilot_defines_for_the_firmware(config):
    built = build_gazebo(CONFIG_DIR / config, autopilot='ardupilot')
    firmware = built.autopilot.frame.firmware
    unknown = [name for name in read_parm(built.ardupilot_parm)
               if parameters.known(firmware, name) is None]
    assert unknown == []
    assert parameters.known('ardurover', 'FRAME_CONFIG') is None  # ArduSub's, not Rover's
    assert parameters.known('ardusub', 'SERVO17_FUNCTION') is None


def test_build_writes_the_parameters_beside_the_urdf_and_says_how_to_fly(tmp_path):
    result = cli('build', CONFIG_DIR / 'bluerov2.yaml', '-o', tmp_path, '--autopilot',
                 'ardupilot', '--autopilot-instance', '2')
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == \
        ['ardupilot.parm', 'bridge.yaml', 'robot_description.urdf']
    assert ('autopilot: ArduSub Vectored (FRAME_CONFIG 1), SITL ardusub -I 2: JSON on UDP '
            '9022, MAVLink on tcp:127.0.0.1:5780') in result.stdout
    assert '  thruster_5: SERVO5 (Motor5)' in result.stdout
    text = (tmp_path / 'ardupilot.parm').read_text(encoding='utf-8')
    assert text.startswith('# ArduPilot parameters of vehicle bluerov2')
    assert 'Tools/autotest/default_params/sub.parm,ardupilot.parm' in text


def test_info_shows_each_output_its_servo_and_ardupilots_factors():
    text = cli('info', CONFIG_DIR / 'bluerov2_heavy.yaml').stdout
    assert 'ArduPilot (build --autopilot ardupilot): ArduSub Vectored_6DOF (FRAME_CONFIG 2)' \
        in text
    assert '  thruster_5: SERVO5 (Motor5), channel 4; +1 -1 0 -1 0 0' in text
    boat = cli('info', CONFIG_DIR / 'blueboat.yaml').stdout
    assert '  motor_stbd: SERVO3 (ThrottleRight), channel 2; 0 0 -1 0 +1 0' in boat


def test_info_says_why_a_frame_cannot_drive_an_assembly(tmp_path):
    from conftest import write_config

    config = write_config(tmp_path, 'base: {type: bluerov2_frame}\nparts:\n'
                                    '  - {slot: thruster_6, type: none}\n')
    text = cli('info', config).stdout
    assert 'ArduPilot: its frame cannot drive this assembly:' in text
    assert 'no propeller fits motor output SERVO6 (Motor6)' in text


def test_the_cache_keeps_builds_with_and_without_the_autopilot_apart(tmp_path, monkeypatch):
    monkeypatch.setenv('BLUEROBOTICS_PARTS_CACHE', 'on')
    monkeypatch.setenv('XDG_CACHE_HOME', str(tmp_path / 'cache'))
    for options, parm in (((), False), (('--autopilot', 'ardupilot'), True), ((), False)):
        out = tmp_path / f'out{len(options)}'
        result = cli('build', CONFIG_DIR / 'blueboat.yaml', '-o', out, *options)
        assert result.returncode == 0, result.stderr
        assert (out / 'ardupilot.parm').exists() == parm
        assert ('ArduPilotPlugin' in (out / 'robot_description.urdf').read_text()) == parm
