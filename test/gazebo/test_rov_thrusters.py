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
BlueROV2 thrusters are numbered and pointed as ArduSub expects.

The tables of per-motor factors are copied from ArduPilot's
``libraries/AP_Motors/AP_Motors6DOF.cpp``, ``AP_Motors6DOF::setup_motors`` (read at commit
0fd5fbf258e877389665051b1f7c7531ac1db76a of ArduPilot/ardupilot; a 2025 revision of the same
file, with ``set_actuator_bidirectional_slew``, has the same rows), in its column order: roll,
pitch, yaw, throttle, forward, lateral; how the model's side compares: ``ardusub_effect``.
"""

from __future__ import annotations

from bluerobotics_parts.model.vehicle import Vehicle
from conftest import CONFIG_DIR
import numpy as np
import pytest
from thrust_geometry import ardusub_effect, AXES

# AP_Motors6DOF::setup_motors, case SUB_FRAME_VECTORED.
SUB_FRAME_VECTORED = {
    1: (0, 0, 1, 0, -1, 1),
    2: (0, 0, -1, 0, -1, -1),
    3: (0, 0, -1, 0, 1, 1),
    4: (0, 0, 1, 0, 1, -1),
    5: (1, 0, 0, -1, 0, 0),
    6: (-1, 0, 0, -1, 0, 0),
}
# AP_Motors6DOF::setup_motors, case SUB_FRAME_VECTORED_6DOF.
SUB_FRAME_VECTORED_6DOF = {
    1: (0, 0, 1, 0, -1, 1),
    2: (0, 0, -1, 0, -1, -1),
    3: (0, 0, -1, 0, 1, 1),
    4: (0, 0, 1, 0, 1, -1),
    5: (1, -1, 0, -1, 0, 0),
    6: (-1, -1, 0, -1, 0, 0),
    7: (1, 1, 0, -1, 0, 0),
    8: (-1, 1, 0, -1, 0, 0),
}
FRAMES = {'bluerov2.yaml': SUB_FRAME_VECTORED, 'bluerov2_heavy.yaml': SUB_FRAME_VECTORED_6DOF}

# The propeller Blue Robotics fits in each position: bluerobotics/bluerobotics.github.io,
# brov2/assembly.md ("Installing the Penetrators": thruster 1 CCW, 2 CCW, 3 CW, 4 CW, 5 CCW,
# 6 CW) and brov2/assembly-heavy.md (the same, plus 7 CW, 8 CCW).
HANDS = {1: 'ccw', 2: 'ccw', 3: 'cw', 4: 'cw', 5: 'ccw', 6: 'cw', 7: 'cw', 8: 'ccw'}

MIN_EFFECT = 0.01  # N per N, or N m per N: a factor's effect must be more than a rounding


@pytest.fixture(scope='module', params=sorted(FRAMES))
def frame(request, resolve_text):
    vehicle = Vehicle.from_urdf(resolve_text(CONFIG_DIR / request.param))
    return request.param, vehicle, FRAMES[request.param]


def test_there_is_one_thruster_per_ardusub_motor(frame):
    _, vehicle, table = frame
    assert sorted(vehicle.actuators) == sorted(f'thruster_{n}' for n in table)
    for n in table:
        assert vehicle.part(f'thruster_{n}').slot == f'thruster_{n}'
        assert vehicle.joints[vehicle.actuators[f'thruster_{n}'].joint].type == 'continuous'


def test_every_thruster_pushes_and_turns_as_its_ardusub_factors_say(frame):
    """
    Check each motor on each axis its factor moves.

    The model's force or moment about the centre of mass has the factor's sign (and more than
    a rounding's size).
    """
    name, vehicle, table = frame
    problems = []
    for n, factors in table.items():
        effect = ardusub_effect(vehicle, f'thruster_{n}')
        for axis, factor in zip(AXES, factors):
            if factor and not (np.sign(effect[axis]) == np.sign(factor)
                               and abs(effect[axis]) > MIN_EFFECT):
                problems.append(f'{name} thruster_{n} {axis}: factor {factor:+d}, '
                                f'model {effect[axis]:+.4f}')
    assert problems == []


def test_the_check_catches_a_thruster_turned_round(resolve_text, tmp_path):
    """The same check fails when one thruster points the other way: the test can fail."""
    from conftest import write_config

    config = write_config(tmp_path, 'name: turned\nbase: {type: bluerov2_frame}\nslots:\n'
                          '  - {name: back, xyz: [0.14, -0.092, 0.0], rpy: [0, 0, 0.785398],\n'
                          '     accepts: [t200_thruster_ccw], default: t200_thruster_ccw,\n'
                          '     joint: continuous, collision: false}\n')
    vehicle = Vehicle.from_urdf(resolve_text(config))
    effect = ardusub_effect(vehicle, 'back')
    factors = dict(zip(AXES, SUB_FRAME_VECTORED[1]))
    assert np.sign(effect['forward']) != np.sign(factors['forward'])
    assert np.sign(effect['yaw']) != np.sign(factors['yaw'])


def test_each_position_holds_the_propeller_hand_blue_robotics_fits(frame):
    _, vehicle, table = frame
    for n in table:
        actuator = vehicle.actuators[f'thruster_{n}']
        assert actuator.rotation == HANDS[n], f'thruster_{n}'
        assert actuator.type == f't200_thruster_{HANDS[n]}'


def test_the_horizontal_thrusters_are_the_same_on_both_frames(resolve_text):
    standard = Vehicle.from_urdf(resolve_text(CONFIG_DIR / 'bluerov2.yaml'))
    heavy = Vehicle.from_urdf(resolve_text(CONFIG_DIR / 'bluerov2_heavy.yaml'))
    for n in range(1, 5):
        joint = f'thruster_{n}_joint'
        a, b = standard.path_to(joint), heavy.path_to(joint)
        assert a == b
        assert [standard.joints[j].origin for j in a[1::2]] == \
            [heavy.joints[j].origin for j in b[1::2]]
