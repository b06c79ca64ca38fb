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

"""The Ping360's head stepping in gradians: by hand."""

from __future__ import annotations

import math

from bluerobotics_parts.sensing.scanning_sonar import beam_range, bearing, Sweep
import pytest


def test_a_whole_turn_steps_round_and_round():
    sweep = Sweep(10.0)
    assert [sweep.angle(i) for i in (0, 1, 2, 399, 400, 401)] == [0, 1, 2, 399, 0, 1]
    assert Sweep(10.0, step=4).angle(101) == 4  # 404 gradians: once round and 4 on
    # the sound's round trip to 10 m at 1500 m/s: 13.3 ms a step, 5.3 s a turn
    assert sweep.period == pytest.approx(2 * 10.0 / 1500.0)
    assert 400 * sweep.period == pytest.approx(5.333, abs=1e-3)


def test_a_sector_goes_back_and_forth_across_ahead():
    sweep = Sweep(5.0, step=10, sector=40)  # 36 deg either side of ahead
    angles = [sweep.angle(i) for i in range(9)]
    assert angles == [380, 390, 0, 10, 20, 10, 0, 390, 380]


def test_gradians_are_radians_round_the_head():
    assert bearing(0) == 0.0
    assert bearing(100) == pytest.approx(math.pi / 2)  # to port, counter-clockwise
    assert bearing(200) == pytest.approx(math.pi)
    assert bearing(300) == pytest.approx(-math.pi / 2)


def test_the_beam_reads_the_ray_nearest_its_bearing():
    ranges = [float(i) for i in range(400)]  # the gz row: from -pi, 0.9 deg apart
    step = 2 * math.pi / 400
    assert beam_range(ranges, -math.pi, step, 0.0) == 200.0
    assert beam_range(ranges, -math.pi, step, bearing(100)) == 300.0
    assert beam_range(ranges, -math.pi, step, bearing(300)) == 100.0
    assert beam_range(ranges, -math.pi, step, math.pi) == 0.0  # wraps to the first ray
    assert beam_range([], -math.pi, step, 0.0) == math.inf


@pytest.mark.parametrize('kwargs, words', [
    ({'range': 0.0}, 'range must be a positive'), ({'range': 5.0, 'step': 0}, 'step must be'),
    ({'range': 5.0, 'step': 10, 'sector': 5}, 'sector must be')])
def test_a_sweep_the_sonar_cannot_make_is_refused(kwargs, words):
    with pytest.raises(ValueError, match=words):
        Sweep(**kwargs)
