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
The shipped vehicles in the flight modes their pilots use, flown by ArduPilot SITL in Gazebo.

BlueROV2 pilots fly in STABILIZE and DEPTH HOLD (ArduSub's ALT_HOLD), BlueBoat pilots in
ArduRover's ACRO and AUTO. Each vehicle arms in MANUAL with the normal checks, then switches.
The Heavy (SUB_FRAME_VECTORED_6DOF) has pitch authority, so the autopilot holds it level; the
BlueROV2 (SUB_FRAME_VECTORED) has none, so its pitch in the run ahead is the pitch model's
(physics/manoeuvring.dip) at the thrust the pilot's stick asks through the ESC curve (what
`info` prints, figures.predicted.Info.pilot_dips), within 2 deg. The BlueBoat keeps its
heading half astern in ACRO and flies a square mission in AUTO. Skips where SITL, its Gazebo
plugin or Gazebo Harmonic is not installed
(sitl_support.missing says which).
"""

import math

from conftest import CONFIG_DIR
import pytest
import sitl_support

HOLD, FORWARD, YAW = {'z': 500}, {'x': 1000, 'z': 500}, {'r': 1000, 'z': 500}
# ArduRover RC inputs: channel 1 steering, 3 throttle, 1100 to 1900 us, 1500 centred
NEUTRAL = {'1': 1500, '3': 1500}
SQUARE = [(20.0, 0.0), (20.0, 20.0), (0.0, 20.0), (0.0, 0.0)]  # east, north m from the start


def require(firmware: str) -> None:
    reason = sitl_support.missing(firmware)
    if reason:
        pytest.skip(reason)


def made_good(step) -> float:
    """Return the metres covered from the step's start to its end (any direction)."""
    start, end = step['start'], step['end']
    return math.hypot(end['x'] - start['x'], end['y'] - start['y'])


def predicted_dip(config) -> float:
    """Return `info`'s worst pitch at full forward stick and the pilot's gain, ESC curve (deg)."""
    from bluerobotics_parts.figures.predicted import vehicle_info

    return vehicle_info(CONFIG_DIR / config).pilot_dips['curve'].worst


def test_the_heavy_holds_level_and_depth_in_alt_hold():
    require('ardusub')
    flight = sitl_support.fly(CONFIG_DIR / 'bluerov2_heavy.yaml', [
        {'seconds': 4, 'stick': HOLD, 'mode': 'ALT_HOLD'},
        {'seconds': 10, 'stick': FORWARD}, {'seconds': 4, 'stick': HOLD},
        {'seconds': 8, 'stick': YAW}])
    _, ahead, _, yaw = flight['steps']
    figures = {k: round(ahead[k], 2) for k in ('worst_pitch', 'worst_roll', 'depth_spread')}
    assert ahead['worst_pitch'] <= 5.0 and ahead['worst_roll'] <= 2.0, (figures, flight['texts'])
    assert ahead['depth_spread'] <= 0.15, figures
    assert made_good(ahead) >= 3.0, made_good(ahead)
    assert yaw['turned'] >= 90.0, yaw['turned']  # it did turn
    assert yaw['worst_roll'] <= 2.0 and yaw['worst_pitch'] <= 2.0, \
        (yaw['worst_roll'], yaw['worst_pitch'])


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=(
    'issue 32: 5.09 deg measured through the ESC curve (1.8 with esc:=linear): in STABILIZE '
    "the vertical thrusters idle in the T200's dead band (1472-1528 us, thrust weak beyond "
    'it), which ArduSub 4.5.3 does not compensate (AP_Motors6DOF::calc_thrust_to_pwm is '
    "linear) and Blue Robotics' Heavy parameters keep the default attitude gains; the dip it "
    'fights rests on the unmeasured thrust-line height and BG (NOTES.md, ArduPilot)'))
def test_the_heavy_holds_level_in_stabilize():
    """Only the pitch is the known miss: a flight that fails or a short run fails the test."""
    require('ardusub')
    try:
        flight = sitl_support.fly(CONFIG_DIR / 'bluerov2_heavy.yaml', [
            {'seconds': 4, 'stick': HOLD, 'mode': 'STABILIZE'},
            {'seconds': 10, 'stick': FORWARD}])
    except AssertionError as error:
        pytest.fail(str(error))
    _, stabilized = flight['steps']
    if made_good(stabilized) < 3.0:
        pytest.fail(f'{made_good(stabilized):.2f} m covered, 3 wanted')
    assert stabilized['worst_pitch'] <= 5.0, stabilized['worst_pitch']


def test_the_bluerov2_holds_roll_and_depth_in_alt_hold_and_pitches_as_predicted():
    require('ardusub')
    flight = sitl_support.fly(CONFIG_DIR / 'bluerov2.yaml', [
        {'seconds': 4, 'stick': HOLD, 'mode': 'ALT_HOLD'},
        {'seconds': 10, 'stick': FORWARD}, {'seconds': 4, 'stick': HOLD},
        {'seconds': 8, 'stick': YAW}])
    _, ahead, _, yaw = flight['steps']
    assert ahead['worst_roll'] <= 2.0, ahead['worst_roll']
    assert ahead['depth_spread'] <= 0.15, ahead['depth_spread']
    assert made_good(ahead) >= 3.0, made_good(ahead)
    assert abs(ahead['worst_pitch'] - abs(predicted_dip('bluerov2.yaml'))) <= 2.0, \
        (ahead['worst_pitch'], predicted_dip('bluerov2.yaml'))
    assert yaw['turned'] >= 90.0, yaw['turned']
    assert yaw['worst_roll'] <= 2.0, yaw['worst_roll']


def test_the_blueboat_flies_a_square_mission_in_auto():
    require('ardurover')
    flight = sitl_support.fly(CONFIG_DIR / 'blueboat.yaml', [
        {'seconds': 90, 'stick': NEUTRAL, 'mode': 'AUTO'}], mission=SQUARE)
    track = flight['steps'][0]['track']
    misses, after = [], 0  # each corner looked for after the last (the fourth is the start)
    for east, north in SQUARE:
        distances = [math.hypot(x - east, y - north) for _, x, y, *_ in track[after:]]
        if not distances:
            misses.append(math.inf)
            break
        nearest = min(range(len(distances)), key=distances.__getitem__)
        misses.append(round(distances[nearest], 2))
        after += nearest + 1
    assert max(misses) <= 2.0, (misses, flight['texts'])


def test_the_blueboat_keeps_its_heading_half_astern_in_acro():
    """
    Half astern (1300 us on the throttle channel), steering centred: ArduRover's rate loop.

    Through the ESC curve the M200s keep answering the steering at any reverse PWM; the linear
    map clamps their reverse at min_thrust from 1300 us on, where both saturate and the boat,
    unstable astern, turned 21 deg (docs/BEHAVIOUR.md).
    """
    require('ardurover')
    flight = sitl_support.fly(CONFIG_DIR / 'blueboat.yaml', [
        {'seconds': 5, 'stick': NEUTRAL, 'mode': 'ACRO'},
        {'seconds': 12, 'stick': {'1': 1500, '3': 1300}}])
    astern = flight['steps'][1]
    assert made_good(astern) >= 5.0, (made_good(astern), flight['texts'])
    assert astern['turned'] <= 5.0, (astern['turned'], flight['texts'])
