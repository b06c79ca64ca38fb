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
(physics/manoeuvring.dip, what `info` prints at full thrust) at the thrust the pilot's stick
asks, within 2 deg. The BlueBoat flies a square mission in AUTO. Skips where SITL, its Gazebo
plugin or Gazebo Harmonic is not installed (sitl_support.missing says which).
"""

import math

from bluerobotics_parts.formats.autopilot_frames import ARDUSUB_PILOT_GAIN
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
    """Return `info`'s worst pitch in the run ahead from rest at the pilot's gain (deg)."""
    from bluerobotics_parts.figures.predicted import vehicle_info
    from bluerobotics_parts.physics.manoeuvring import dip

    info = vehicle_info(CONFIG_DIR / config)
    return dip(info.pitch_body, True, 10.0, throttle=ARDUSUB_PILOT_GAIN).worst


def test_the_heavy_holds_level_and_depth_in_alt_hold_and_stabilize():
    require('ardusub')
    flight = sitl_support.fly(CONFIG_DIR / 'bluerov2_heavy.yaml', [
        {'seconds': 4, 'stick': HOLD, 'mode': 'ALT_HOLD'},
        {'seconds': 10, 'stick': FORWARD}, {'seconds': 4, 'stick': HOLD},
        {'seconds': 8, 'stick': YAW}, {'seconds': 4, 'stick': HOLD, 'mode': 'STABILIZE'},
        {'seconds': 10, 'stick': FORWARD}])
    _, ahead, _, yaw, _, stabilized = flight['steps']
    figures = {k: round(ahead[k], 2) for k in ('worst_pitch', 'worst_roll', 'depth_spread')}
    assert ahead['worst_pitch'] <= 5.0 and ahead['worst_roll'] <= 2.0, (figures, flight['texts'])
    assert ahead['depth_spread'] <= 0.15, figures
    assert made_good(ahead) >= 3.0, made_good(ahead)
    assert yaw['turned'] >= 90.0, yaw['turned']  # it did turn
    assert yaw['worst_roll'] <= 2.0 and yaw['worst_pitch'] <= 2.0, \
        (yaw['worst_roll'], yaw['worst_pitch'])
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
