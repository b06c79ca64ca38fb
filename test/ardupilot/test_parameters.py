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
    'bluerov2.yaml': {'FRAME_CONFIG': 1, 'SIM_BARO_RND': 0.002, 'MOT_PWM_MIN': 1100,
                      'MOT_PWM_MAX': 1900, **{f'SERVO{n}_FUNCTION': 32 + n for n in range(1, 7)}},
    'bluerov2_heavy.yaml': {'FRAME_CONFIG': 2, 'SIM_BARO_RND': 0.002, 'MOT_PWM_MIN': 1100,
                            'MOT_PWM_MAX': 1900,
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


#: Where ArduPilot's source defines each name the files hold: (file, definition) pairs, each
#: definition a regular expression over the file; {n} is the servo's number, {field} its key.
DEFINITIONS = (
    (r'FRAME_CONFIG', 'ardusub', [('ArduSub/Parameters.cpp', r'GSCALAR\(\w+,\s*"FRAME_CONFIG"')]),
    (r'MOT_PWM_(?P<field>MIN|MAX)', 'ardusub', [
        ('ArduSub/Parameters.cpp', r'GOBJECT\(motors,\s*"MOT_"'),
        ('libraries/AP_Motors/AP_MotorsMulticopter.cpp', r'AP_GROUPINFO\("PWM_{field}"')]),
    (r'SIM_BARO_RND', 'ardusub', [
        ('ArduSub/Parameters.cpp', r'GOBJECT\(sitl,\s*"SIM_"'),
        ('libraries/SITL/SITL*.cpp', r'AP_SUBGROUPINFO\(baro\[0\],\s*"BARO_"'),
        # SITL.cpp at ArduSub-4.5.3, SITL_Baro.cpp at Rover-4.6.2
        ('libraries/SITL/SITL*.cpp', r'AP_GROUPINFO\("RND",\s*1,\s*SIM::BaroParm')]),
    (r'FRAME_CLASS', 'ardurover', [('Rover/Parameters.cpp', r'AP_GROUPINFO\("FRAME_CLASS"')]),
    (r'SERVO(?P<n>\d+)_(?P<field>FUNCTION|MIN|MAX|TRIM)', None, [
        ('{vehicle}/Parameters.cpp', r'AP_SUBGROUPINFO\(servo_channels,\s*"SERVO"'),
        ('libraries/SRV_Channel/SRV_Channels.cpp',
         r'AP_SUBGROUPINFO\(obj_channels\[\d+\],\s*"{n}_"'),
        ('libraries/SRV_Channel/SRV_Channel.cpp', r'AP_GROUPINFO\("{field}"')]),
)


def ardupilot_source(firmware: str):
    """
    Return an ArduPilot checkout to read, or None.

    ``ARDUPILOT_SOURCE`` when set, else the first folder above the SITL program holding
    ``libraries/AP_Param/AP_Param.cpp`` (a waf build's build/sitl/bin/ is inside its checkout).
    """
    import os
    from pathlib import Path
    import shutil

    given = os.environ.get('ARDUPILOT_SOURCE')
    candidates = [Path(given)] if given else []
    program = shutil.which(firmware)
    if program:
        candidates += list(Path(os.path.realpath(program)).parents)
    # AP_Param.cpp: a waf build folder (build/sitl) has a libraries/AP_Param of objects too
    return next((c for c in candidates
                 if (c / 'libraries' / 'AP_Param' / 'AP_Param.cpp').is_file()), None)


@pytest.mark.parametrize('config', sorted(EXPECTED))
def test_every_name_is_defined_in_arduPilots_own_source(config):
    """Read where a checkout is found: each name's group and field where ArduPilot declares it."""
    import re

    built = build_gazebo(CONFIG_DIR / config, autopilot='ardupilot')
    firmware = built.autopilot.frame.firmware
    source = ardupilot_source(firmware)
    if source is None:
        pytest.skip('needs an ArduPilot checkout to read (ARDUPILOT_SOURCE, or the '
                    f'{firmware} program built inside one)')
    vehicle = {'ardusub': 'ArduSub', 'ardurover': 'Rover'}[firmware]
    for name in read_parm(built.ardupilot_parm):
        rule = next(((found, files) for pattern, only, files in DEFINITIONS
                     if only in (None, firmware)
                     for found in [re.fullmatch(pattern, name)] if found), None)
        assert rule is not None, f'{name}: no definition to look for'
        found, files = rule
        for path, definition in files:
            files = sorted(source.glob(path.format(vehicle=vehicle)))  # a pattern or a file
            assert files, f'{name}: no {path} in {source}'
            text = ''.join(f.read_text(errors='replace') for f in files)
            needle = definition.format(**found.groupdict())
            assert re.search(needle, text), f'{name}: {needle} not in {source / path}'


def test_sitls_depth_sensor_gets_the_bar30s_resolution_as_its_noise():
    """The default of SITL (0.2 m, an air barometer's) kept ArduSub's depth hold 0.3 m off."""
    built = build_gazebo(CONFIG_DIR / 'bluerov2.yaml', autopilot='ardupilot')
    assert read_parm(built.ardupilot_parm)['SIM_BARO_RND'] == 0.002
    bare = build_gazebo(CONFIG_DIR / 'bluerov2.yaml', autopilot='ardupilot')
    assert parameters.depth_resolution(bare.vehicle) == 0.002
    assert parameters.depth_resolution(None) is None  # no vehicle: nothing added
    boat = build_gazebo(CONFIG_DIR / 'blueboat.yaml', autopilot='ardupilot')
    assert 'SIM_BARO_RND' not in read_parm(boat.ardupilot_parm)


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
    assert '  thruster_5: SERVO5 (Motor5 = 37), channel 4; +1 -1 0 -1 0 0' in text
    boat = cli('info', CONFIG_DIR / 'blueboat.yaml').stdout
    assert '  motor_stbd: SERVO3 (ThrottleRight = 74), channel 2; 0 0 -1 0 +1 0' in boat


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
