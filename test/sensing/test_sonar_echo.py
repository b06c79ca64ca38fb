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

"""The Ping360's echo profile (sensing/sonar_echo.py): where it lands, its length, its level."""

from __future__ import annotations

import math

from bluerobotics_parts.sensing import sonar_echo as se
import pytest


def test_the_sample_spacing_is_the_round_trip_of_a_tick_count():
    ping = se.Ping(sample_period=80, number_of_samples=1024)  # the firmware's boot settings
    assert ping.spacing == pytest.approx(1500 * 80 * 25e-9 / 2)  # 1.5 mm
    assert ping.range == pytest.approx(1.536)
    assert ping.listening_time == pytest.approx(80 * 25e-9 * 1024)


@pytest.mark.parametrize('range_m', [2.0, 20.0, 50.0])
def test_settings_for_a_range_reach_it_as_ping_viewer_computes_them(range_m):
    settings = se.settings_for_range(range_m)
    ping = se.Ping(0, settings['transmit_duration'], settings['sample_period'],
                   settings['number_of_samples'])
    assert ping.range == pytest.approx(range_m, rel=1 / 80)  # whole ticks, 80 or more
    assert se.MIN_TRANSMIT_DURATION <= settings['transmit_duration'] <= se.MAX_TRANSMIT_DURATION
    assert settings['transmit_duration'] >= min(se.MAX_TRANSMIT_DURATION,
                                                round(8000 * range_m / 1500))


def test_the_echo_lands_at_its_range_for_the_pulse_length():
    ping = se.Ping(gain_setting=1, transmit_duration=100, sample_period=400,
                   number_of_samples=1000)  # 7.5 mm a sample, 7.5 m in all
    profile = se.echo_profile(3.0, ping)
    lit = [i for i, value in enumerate(profile) if value]
    pulse = 1500 * 100e-6 / 2  # 7.5 cm of range
    assert lit[0] == int(3.0 / ping.spacing) == 400
    assert len(lit) == round(pulse / ping.spacing) == 10
    assert set(profile[lit[0]:lit[-1] + 1]) == {se.echo_level(3.0, 1)}
    assert len(profile) == 1000


@pytest.mark.parametrize('range_m', [math.inf, math.nan, 7.5, 9.0, -1.0])
def test_no_echo_beyond_the_ping_or_without_a_range(range_m):
    ping = se.Ping(transmit_duration=100, sample_period=400, number_of_samples=1000)
    assert se.echo_profile(range_m, ping) == bytes(1000)


def test_the_level_falls_with_range_and_rises_with_gain():
    levels = [se.echo_level(r, 0) for r in (1.0, 5.0, 20.0, 50.0)]
    assert levels == sorted(levels, reverse=True) and len(set(levels)) == 4
    assert levels[0] == se.LEVEL_AT_1_M
    assert se.echo_level(20.0, 0) < se.echo_level(20.0, 1) < se.echo_level(20.0, 2)
    assert se.echo_level(20.0, 0) == round(se.LEVEL_AT_1_M - 40 * math.log10(20) - 2 * 0.2 * 20)
    assert 0 <= se.echo_level(1e6, 0) and se.echo_level(0.1, 2) <= 255
