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
Which propeller each ArduPilot motor output drives, derived from the record, and what is refused.

The ArduSub factor tables here are read from ArduPilot/ardupilot ArduSub-4.5.3 (80e8c23a),
libraries/AP_Motors/AP_Motors6DOF.cpp, ``setup_motors`` (SUB_FRAME_VECTORED,
SUB_FRAME_VECTORED_6DOF rows; columns roll, pitch, yaw, throttle, forward, lateral), apart from
the package's copy; the thrusters' effects are computed with numpy (thrust_geometry.py).
"""

from __future__ import annotations

from bluerobotics_parts.build import build_gazebo
from bluerobotics_parts.errors import AssemblyError
from bluerobotics_parts.formats.autopilot_frames import FRAMES
from conftest import CONFIG_DIR, write_config
import numpy as np
import pytest
from thrust_geometry import ardusub_effect, AXES

VECTORED = {1: (0, 0, 1, 0, -1, 1), 2: (0, 0, -1, 0, -1, -1), 3: (0, 0, -1, 0, 1, 1),
            4: (0, 0, 1, 0, 1, -1), 5: (1, 0, 0, -1, 0, 0), 6: (-1, 0, 0, -1, 0, 0)}
VECTORED_6DOF = {**{n: VECTORED[n] for n in range(1, 5)}, 5: (1, -1, 0, -1, 0, 0),
                 6: (-1, -1, 0, -1, 0, 0), 7: (1, 1, 0, -1, 0, 0), 8: (-1, 1, 0, -1, 0, 0)}
ROVS = {'bluerov2.yaml': ('ardusub_vectored', VECTORED),
        'bluerov2_heavy.yaml': ('ardusub_vectored_6dof', VECTORED_6DOF)}
FORCES = ('throttle', 'forward', 'lateral')
MIN_EFFECT = 0.01


def test_the_frames_carry_ardusubs_factors_and_motor_functions():
    for name, table in (('ardusub_vectored', VECTORED), ('ardusub_vectored_6dof', VECTORED_6DOF)):
        frame = FRAMES[name]
        assert {m.servo: m.factors for m in frame.motors} == table
        # SRV_Channel.h: k_motor1 = 33 ... k_motor8 = 40
        assert [m.function for m in frame.motors] == [32 + n for n in table]
    boat = FRAMES['ardurover_boat_skid_steering']
    assert [(m.servo, m.function, m.function_name) for m in boat.motors] == \
        [(1, 73, 'ThrottleLeft'), (3, 74, 'ThrottleRight')]


@pytest.mark.parametrize('config', sorted(ROVS))
def test_each_rov_thruster_drives_the_ardusub_motor_of_its_number(config):
    frame, table = ROVS[config]
    wiring = build_gazebo(CONFIG_DIR / config, autopilot='ardupilot').autopilot
    assert wiring.frame.name == frame
    assert [(o.motor.servo, o.thruster, o.channel) for o in wiring.outputs] == \
        [(n, f'thruster_{n}', n - 1) for n in table]


@pytest.mark.parametrize('config', sorted(ROVS))
def test_every_thruster_pushes_as_its_factors_say_on_every_axis(config):
    """
    Check each motor on all six axes, sign and zero.

    A factor's axis: the thruster's force or moment has its sign, beyond a rounding. A zero
    factor on a force axis: no force there. A zero factor on a moment axis: less moment than
    on the axes the factors use (ArduSub's mixer leaves it out).
    """
    _, table = ROVS[config]
    vehicle = build_gazebo(CONFIG_DIR / config).vehicle
    problems = []
    for n, factors in table.items():
        effect = ardusub_effect(vehicle, f'thruster_{n}')
        used = [abs(effect[a]) for a, f in zip(AXES, factors) if f and a not in FORCES]
        for axis, factor in zip(AXES, factors):
            value = effect[axis]
            if factor and not (np.sign(value) == factor and abs(value) > MIN_EFFECT):
                problems.append(f'thruster_{n} {axis}: factor {factor:+d}, model {value:+.4f}')
            elif not factor and axis in FORCES and abs(value) > MIN_EFFECT:
                problems.append(f'thruster_{n} {axis}: factor 0, model force {value:+.4f}')
            elif not factor and axis not in FORCES and used and abs(value) >= min(used):
                problems.append(f'thruster_{n} {axis}: factor 0, model moment {value:+.4f}')
    assert problems == []


@pytest.mark.parametrize('config', ['blueboat.yaml', 'examples/t200.yaml'])
def test_the_boat_drives_port_left_and_starboard_right(config):
    wiring = build_gazebo(CONFIG_DIR / config, autopilot='ardupilot').autopilot
    assert [(o.motor.servo, o.motor.function_name, o.thruster) for o in wiring.outputs] == \
        [(1, 'ThrottleLeft', 'motor_port'), (3, 'ThrottleRight', 'motor_stbd')]


TURNED = """name: turned
base: {type: bluerov2_frame}
parts:
  - {slot: thruster_1, type: none}
slots:
  - {name: back, xyz: [0.14, -0.092, 0.0], rpy: [0, 0, 0.785398],
     accepts: [t200_thruster_ccw], default: t200_thruster_ccw, collision: false}
"""


def test_a_thruster_turned_round_is_refused_naming_the_output_and_its_line(tmp_path):
    config = write_config(tmp_path, TURNED)
    with pytest.raises(AssemblyError) as caught:
        build_gazebo(config, autopilot='ardupilot')
    lines = str(caught.value).splitlines()
    assert lines[0].startswith(f'{config}:2: no propeller fits motor output SERVO1 (Motor1) '
                               'of ArduSub Vectored (FRAME_CONFIG 1), which must push yaw right, '
                               'backward, right')
    assert lines[1].startswith(f'{config}:6: propeller back fits no motor output')
    assert all('supported frames: ardusub_vectored' in line for line in lines)
    build_gazebo(config)  # without the autopilot, the same vehicle builds


def test_a_propeller_that_fits_like_another_is_told_so(tmp_path):
    """Two propellers that push alike fit one output: the message says so, not 'fits none'."""
    config = write_config(tmp_path, 'base: {type: bluerov2_frame}\nslots:\n'
                          '  - {name: twin, xyz: [0.14, -0.092, 0.05], rpy: [0, 0, -2.356194], '
                          'accepts: [t200_thruster_ccw], default: t200_thruster_ccw, '
                          'collision: false}\n')
    with pytest.raises(AssemblyError) as caught:
        build_gazebo(config, autopilot='ardupilot')
    text = str(caught.value)
    assert 'motor output SERVO1 (Motor1) of ArduSub Vectored (FRAME_CONFIG 1) could be any ' \
        'of thruster_1, twin' in text
    assert 'propeller twin fits motor output SERVO1 (Motor1) of ArduSub Vectored ' \
        '(FRAME_CONFIG 1), as thruster_1 does: the assembly does not say which drives it' in text
    assert 'fits no motor output' not in text


@pytest.mark.parametrize('text, expected', [
    ('base: {type: bluerov2_frame}\nparts:\n  - {slot: thruster_6, type: none}\n',
     'no propeller fits motor output SERVO6 (Motor6)'),
    ('parts:\n  - {slot: motor_stbd, type: none}\n',
     'no propeller fits motor output SERVO3 (ThrottleRight)'),
    ('base: {type: blueboat_flag}\n', 'declares no ArduPilot frame'),
])
def test_an_assembly_no_supported_frame_drives_is_refused(tmp_path, text, expected):
    config = write_config(tmp_path, text)
    with pytest.raises(AssemblyError) as caught:
        build_gazebo(config, autopilot='ardupilot')
    assert expected in str(caught.value) and f'{config}:1: ' in str(caught.value)
    assert 'ardurover_boat_skid_steering' in str(caught.value)


def test_an_unknown_autopilot_or_instance_is_refused():
    from bluerobotics_parts.errors import ConfigError

    with pytest.raises(ConfigError, match="unknown autopilot 'px4'; valid: none, ardupilot"):
        build_gazebo(CONFIG_DIR / 'blueboat.yaml', autopilot='px4')
    with pytest.raises(ConfigError, match='from 0 to 99'):
        build_gazebo(CONFIG_DIR / 'blueboat.yaml', autopilot='ardupilot', autopilot_instance=100)
