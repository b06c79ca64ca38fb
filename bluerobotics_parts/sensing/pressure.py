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
The water pressure a depth sensor (the Bar30) reads, from where the vehicle is.

Gazebo Harmonic has no water pressure sensor: gz-sensors 8's AirPressureSensor follows the
standard atmosphere above a reference altitude, and the Altimeter reports the height change
since start (gazebosim/gz-sensors gz-sensors8_8.2.2 src/AirPressureSensor.cc,
src/AltimeterSensor.cc; gz-sim8_8.14.0 src/systems/altimeter/Altimeter.cc sets the vertical
reference to the sensor's first world z). So the pressure is computed here, free of ROS, from
the vehicle's odometry (``PressureSpec.pressure``); ``pressure_node`` publishes it.
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from ..errors import CommandError, PressureError
from ..physics.water import GRAVITY, SEA_WATER_DENSITY, STANDARD_ATMOSPHERE


def rotate(quaternion, vector) -> tuple:
    """Rotate ``vector`` by the unit quaternion (x, y, z, w), as ROS orders them."""
    x, y, z, w = quaternion
    vx, vy, vz = vector
    # v' = v + 2 w (q x v) + 2 q x (q x v), q the vector part
    cx, cy, cz = y * vz - z * vy, z * vx - x * vz, x * vy - y * vx
    ddx, ddy, ddz = y * cz - z * cy, z * cx - x * cz, x * cy - y * cx
    return (vx + 2 * (w * cx + ddx), vy + 2 * (w * cy + ddy), vz + 2 * (w * cz + ddz))


class Throttle:
    """
    Lets through at most ``rate`` readings a second, by their stamps (0: every one).

    The odometry comes at the OdometryPublisher's rate (50 Hz by default; gz-sim8_8.14.0
    src/systems/odometry_publisher/OdometryPublisher.cc, Configure ``odom_publish_frequency``),
    the sensor reads at its part's ``update_rate``. A stamp earlier than the last one let
    through (the simulation was reset) starts over.
    """

    def __init__(self, rate: float):
        if isinstance(rate, bool) or not isinstance(rate, (int, float)) \
                or not math.isfinite(rate) or rate < 0:
            raise PressureError(f'pressure sensor update_rate must be a number >= 0 (Hz), got '
                                f'{rate!r}')
        self.period = 1.0 / rate if rate > 0 else 0.0
        self.last = None

    def due(self, stamp: float) -> bool:
        """Return whether a reading stamped ``stamp`` (s) is to be published."""
        if self.last is not None and self.last <= stamp < self.last + self.period * 0.999:
            return False
        self.last = stamp
        return True


@dataclass(frozen=True)
class PressureSpec:
    """Where the sensor sits on the vehicle and what it can read; checked on construction."""

    offset: tuple  # m, the sensor in the root link (the odometry's child frame)
    max_pressure: float  # Pa, where the reading saturates
    surface_z: float = 0.0  # m, the water surface in the world
    density: float = SEA_WATER_DENSITY  # kg/m^3
    gravity: float = GRAVITY  # m/s^2
    atmosphere: float = STANDARD_ATMOSPHERE  # Pa

    def __post_init__(self):
        numbers = {'max_pressure': self.max_pressure, 'surface_z': self.surface_z,
                   'density': self.density, 'gravity': self.gravity,
                   'atmosphere': self.atmosphere}
        if len(tuple(self.offset)) != 3:
            raise PressureError(f'pressure sensor offset must be x, y, z in m, got '
                                f'{self.offset!r}')
        numbers.update({f'offset {axis}': v for axis, v in zip('xyz', self.offset)})
        for key, value in numbers.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value):
                raise PressureError(f'pressure sensor {key} must be a finite number, got '
                                    f'{value!r}')
        for key in ('max_pressure', 'density', 'gravity'):
            if numbers[key] <= 0:
                raise PressureError(f'pressure sensor {key} must be positive, got '
                                    f'{numbers[key]!r}')
        if not 0 <= self.atmosphere < self.max_pressure:
            raise PressureError(f'pressure sensor atmosphere ({self.atmosphere!r} Pa) must be '
                                f'>= 0 and below max_pressure ({self.max_pressure!r} Pa)')

    def depth(self, position, orientation) -> float:
        """Return the sensor's depth below the surface (m; negative above it)."""
        moved = rotate(orientation, self.offset)
        return self.surface_z - (position[2] + moved[2])

    def pressure(self, position, orientation) -> float:
        """
        Return the absolute pressure at the sensor (Pa), saturated at ``max_pressure``.

        ``position`` and ``orientation`` are the odometry's, which gz-sim's OdometryPublisher
        gives as the model's world pose (gz-sim8_8.14.0
        src/systems/odometry_publisher/OdometryPublisher.cc, PreUpdate: ``worldPose`` of the
        model; with ``dimensions`` 3 its z too); ``offset`` is the sensor's in the root link:

            depth = surface_z - (p + R offset)_z          (world z up, water surface at z = 0)
            pressure = p_atm + rho g max(depth, 0)        (hydrostatic, absolute, Pa)

        with the shipped worlds' water (rho 1025 kg/m^3, physics/water.py), SDFormat's default
        gravity 9.8 m/s^2 (the worlds keep it) and the standard atmosphere 101325 Pa. Above the
        surface it reads the atmosphere (the air column is left out). A pose with a component
        that is not a finite number, or one so large the arithmetic overflows, gives no
        pressure: CommandError.
        """
        pose = (*position, *orientation)
        if not all(math.isfinite(v) for v in pose):
            raise CommandError(f'pose {pose}: a component is not a finite number')
        depth = self.depth(position, orientation)
        if not math.isfinite(depth):
            raise CommandError(f'pose {pose}: too large to compute a depth from')
        depth = max(depth, 0.0)
        return min(self.atmosphere + self.density * self.gravity * depth, self.max_pressure)
