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
A Ping360 ping's echo profile from the one range Gazebo gives: where it lands and how strong.

Where is the protocol's timing (bluerobotics/ping-protocol, src/definitions/ping360.json):
sample ``i`` is heard ``i x sample_period`` ticks of 25 ns after the transmission, at
``c x t / 2``; a pulse of ``transmit_duration`` us fills ``c x duration / 2`` of range. The
firmware's limits and boot settings, and the rule that picks the settings for a range, are
Ping Viewer's (bluerobotics/ping-viewer, src/sensor/ping360.cpp at 0065262), which the
CentraleNantes ROS driver shares. How strong is a model, its levels estimates: Gazebo's lidar
intensity is the hit visual's laser retro-reflectivity (gz-sensors8_8.2.2 src/Lidar.cc,
Lidar::PublishLidarScan), not an acoustic target strength, so the level here falls with
two-way spreading (40 log10 r) and ``ABSORPTION_DB_PER_M`` each way, plus ``GAIN_DB``.
"""

from __future__ import annotations

from dataclasses import dataclass
import math

TICK = 25e-9  # s: the sample period's unit (ping360.json, "25 ns increments")
#: Firmware limits and boot values (ping-viewer src/sensor/ping360.cpp, "firmware constants").
MIN_SAMPLE_PERIOD, MAX_SAMPLE_PERIOD = 80, 40000  # ticks (ping360.json: 2 to 1000 us)
MIN_TRANSMIT_DURATION, MAX_TRANSMIT_DURATION = 5, 500  # us (ping-viewer's firmware constants)
MIN_SAMPLES, MAX_SAMPLES = 200, 1200  # ping360.json, "supported values: 200~1200"
MIN_FREQUENCY, MAX_FREQUENCY = 500, 1000  # kHz (ping360.json)
BOOT = {'mode': 1, 'gain_setting': 0, 'angle': 0, 'transmit_duration': 32,
        'sample_period': 80, 'transmit_frequency': 740, 'number_of_samples': 1024}
GAINS = (0, 1, 2)  # low, normal, high (ping360.json)

# Estimates (_unverified): no published figure for the Ping360's receiver levels was found.
ABSORPTION_DB_PER_M = 0.2  # sea water near 750 kHz, one way (order of magnitude)
LEVEL_AT_1_M = 200  # counts, low gain, a strong target at 1 m
GAIN_DB = (0.0, 10.0, 20.0)  # low, normal, high


@dataclass(frozen=True)
class Ping:
    """What one ping listens for: the protocol's settings and the speed of sound."""

    gain_setting: int = BOOT['gain_setting']
    transmit_duration: int = BOOT['transmit_duration']  # us
    sample_period: int = BOOT['sample_period']  # ticks of 25 ns
    number_of_samples: int = BOOT['number_of_samples']
    speed_of_sound: float = 1500.0  # m/s

    @property
    def spacing(self) -> float:
        """Return the metres between two samples."""
        return self.speed_of_sound * self.sample_period * TICK / 2.0

    @property
    def range(self) -> float:  # noqa: A003
        """Return the metres the ping listens to: its last sample."""
        return self.spacing * self.number_of_samples

    @property
    def listening_time(self) -> float:
        """Return the seconds the ping takes: every sample's period."""
        return self.sample_period * TICK * self.number_of_samples


def settings_for_range(range_m: float, number_of_samples: int = MAX_SAMPLES,
                       speed_of_sound: float = 1500.0) -> dict:
    """
    Return sample_period and transmit_duration for a range, as Ping Viewer picks them.

    The sample period spreads the samples over the range and back; the transmit duration is
    8000 x range / c us, at least 2.5 sample periods, within the firmware's 5 to 500 us.
    """
    period = int(2.0 * range_m / (number_of_samples * speed_of_sound * TICK))
    period = min(max(period, MIN_SAMPLE_PERIOD), MAX_SAMPLE_PERIOD)
    period_us = period * TICK * 1e6
    duration = max(8000.0 * range_m / speed_of_sound, 2.5 * period_us)
    duration = min(max(round(duration), MIN_TRANSMIT_DURATION), MAX_TRANSMIT_DURATION)
    return {'sample_period': period, 'transmit_duration': duration,
            'number_of_samples': number_of_samples}


def echo_level(range_m: float, gain_setting: int) -> int:
    """Return the 0-255 level of a strong target's echo at ``range_m`` (the model above)."""
    if not math.isfinite(range_m):
        return 0
    loss = 40.0 * math.log10(max(range_m, 1.0)) + 2.0 * ABSORPTION_DB_PER_M * range_m
    return int(min(255, max(0, round(LEVEL_AT_1_M + GAIN_DB[gain_setting] - loss))))


def echo_profile(range_m: float, ping: Ping) -> bytes:
    """
    Return the ping's samples, nearest first: zero but where the echo of ``range_m`` lands.

    The echo fills the samples from the target's range for the pulse's length (at least one
    sample, the nearest whole number of them); a range that is not finite, or beyond the
    ping's, leaves every sample zero.
    """
    samples = bytearray(ping.number_of_samples)
    if not (math.isfinite(range_m) and 0.0 <= range_m < ping.range):
        return bytes(samples)
    first = int(range_m / ping.spacing)
    length = ping.speed_of_sound * ping.transmit_duration * 1e-6 / 2.0
    last = min(ping.number_of_samples, first + max(1, round(length / ping.spacing)))
    level = echo_level(range_m, ping.gain_setting)
    samples[first:last] = bytes([level]) * (last - first)
    return bytes(samples)
