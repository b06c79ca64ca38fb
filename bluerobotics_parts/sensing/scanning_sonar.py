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
A scanning sonar's head as the Ping360 turns it: one beam a step, in gradians.

The Ping360 points its transducer by an angle in gradians, 400 a turn (bluerobotics/
ping-protocol, src/definitions/ping360.json: ``angle``, "Head angle ... gradians"), and a ping
listens for the sound's round trip to the range it is set to: its sample period times its
number of samples is 2 x range / speed of sound, which bounds how fast it can step. Gazebo gives
the whole circle at once (a gpu_lidar row, gazebo/sensor_blocks.py); ``Sweep`` says which
bearing each step reads and when, ``beam_range`` reads it from the last whole-circle scan.
Angle 0 is the head frame's +x and angles grow counter-clockwise about its +z (REP 103).
"""

from __future__ import annotations

from dataclasses import dataclass
import math

GRADIANS = 400  # a turn (ping360.json)
SPEED_OF_SOUND = 1500.0  # m/s in water, the Ping360's and Ping Viewer's default
#: The speeds of sound the Ping360's tools take, m/s: Ping Viewer's slider (bluerobotics/
#: ping-viewer 5592863, qml/Ping360ControlPanel.qml, "Speed of Sound (m/s)" from 1450 to 1550)
#: and the ROS driver's bounds (CentraleNantesRobotics/ping360_sonar b1e59b0,
#: ping360_sonar/src/ping360_node.cpp, speed_of_sound 1450 to 1550).
SPEED_OF_SOUND_RANGE = (1450.0, 1550.0)
#: The ranges a Ping360 measures, m: 0.75 to 50 (docs/PART_FACTS.md, urdf/parts/ping360.yaml).
RANGE_LIMITS = (0.75, 50.0)


@dataclass(frozen=True)
class Sweep:
    """Where the head steps: ``step`` gradians at a time over ``sector`` gradians about 0."""

    range: float  # noqa: A003 (m the sonar listens to)
    step: int = 1
    sector: int = GRADIANS
    speed_of_sound: float = SPEED_OF_SOUND

    def __post_init__(self):
        if not (self.range > 0 and math.isfinite(self.range)):
            raise ValueError(f'range must be a positive number of metres, got {self.range}')
        if not 1 <= self.step <= GRADIANS // 2:
            raise ValueError(f'step must be 1 to {GRADIANS // 2} gradians, got {self.step}')
        if not self.step <= self.sector <= GRADIANS:
            raise ValueError(f'sector must be {self.step} to {GRADIANS} gradians, got '
                             f'{self.sector}')
        low, high = SPEED_OF_SOUND_RANGE
        if not low <= self.speed_of_sound <= high:
            raise ValueError(f'speed_of_sound must be {low:g} to {high:g} m/s (what the '
                             f'Ping360 tools take), got {self.speed_of_sound}')

    @property
    def period(self) -> float:
        """Return the seconds a step takes: the ping's round trip to the range."""
        return 2.0 * self.range / self.speed_of_sound

    def angle(self, index: int) -> int:
        """
        Return where the head points at step ``index`` (0 first), gradians 0 to 399.

        A whole turn goes round and round; a sector goes back and forth across it, as the
        Ping360 scans a sector.
        """
        if self.sector >= GRADIANS:
            return (index * self.step) % GRADIANS
        steps = max(1, self.sector // self.step)  # steps from one edge to the other
        position = index % (2 * steps)
        offset = position if position <= steps else 2 * steps - position
        return (offset * self.step - steps * self.step // 2) % GRADIANS


def bearing(angle: int) -> float:
    """Return a head angle in gradians as radians in (-pi, pi]."""
    radians = angle * 2.0 * math.pi / GRADIANS
    return radians - 2.0 * math.pi if radians > math.pi else radians


def beam_range(ranges, angle_min: float, angle_increment: float, direction: float) -> float:
    """Return the range of the scan's ray nearest a direction (rad), rays wrapping round."""
    if not len(ranges) or angle_increment <= 0:
        return math.inf
    index = round((direction - angle_min) / angle_increment) % len(ranges)
    return float(ranges[index])
