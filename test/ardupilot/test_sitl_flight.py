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
The shipped vehicles flown by ArduPilot SITL in Gazebo Harmonic, as their owners fly them.

Each arms in MANUAL with the normal arming checks (no forced arm). The BlueROV2 and the Heavy
go at least 3 m ahead in 10 s on full forward stick, turning less than 15 deg, and dive at
least 2 m in 10 s on full down; the BlueBoat goes at least 15 m ahead in 15 s at 60% throttle
and turns at least 45 deg in 8 s with steering added. Skips where SITL, its Gazebo plugin or
Gazebo Harmonic is not installed (sitl_support.missing says which).
"""

import math

from conftest import CONFIG_DIR
import pytest
import sitl_support

FORWARD, STOP, DOWN = {'x': 1000, 'z': 500}, {'z': 500}, {'z': 0}
SIXTY_PERCENT, NEUTRAL, RIGHT = {'1': 1500, '3': 1800}, {'1': 1500, '3': 1500}, \
    {'1': 1900, '3': 1800}


def require(firmware: str) -> None:
    reason = sitl_support.missing(firmware)
    if reason:
        pytest.skip(reason)


def ahead_of(step) -> float:
    """Return the metres made good along the heading the step started on (astern: negative)."""
    start, end = step['start'], step['end']
    heading = math.radians(start['yaw'])  # ENU: x east, yaw from x
    return (end['x'] - start['x']) * math.cos(heading) + \
        (end['y'] - start['y']) * math.sin(heading)


@pytest.mark.parametrize('config', ['bluerov2.yaml', 'bluerov2_heavy.yaml'])
def test_ardusub_flies_the_rov_ahead_and_down(config):
    require('ardusub')
    flight = sitl_support.fly(CONFIG_DIR / config, [
        {'seconds': 2, 'stick': STOP}, {'seconds': 10, 'stick': FORWARD},
        {'seconds': 3, 'stick': STOP}, {'seconds': 10, 'stick': DOWN}])
    _, ahead, _, down = flight['steps']
    assert ahead_of(ahead) >= 3.0, flight
    assert ahead['turned'] < 15.0, flight
    assert down['start']['z'] - down['end']['z'] >= 2.0, flight


def test_ardurover_drives_the_boat_ahead_and_round():
    require('ardurover')
    flight = sitl_support.fly(CONFIG_DIR / 'blueboat.yaml', [
        {'seconds': 2, 'stick': NEUTRAL}, {'seconds': 15, 'stick': SIXTY_PERCENT},
        {'seconds': 8, 'stick': RIGHT}])
    _, ahead, turn = flight['steps']
    assert ahead_of(ahead) >= 15.0, flight
    # steering right turns it clockwise seen from above: its ENU yaw falls
    assert turn['start']['yaw'] - turn['end']['yaw'] >= 45.0, flight
