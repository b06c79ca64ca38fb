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
A propeller's published thrust curve: throttle to newtons and amperes at a supply voltage.

The curves are the maker's bench tables (urdf/thrust_curves/<name>.yaml): force and current
against the ESC's PWM at several voltages, asymmetric forward and reverse, with the dead band
around neutral. Throttle maps to PWM as ArduPilot and Blue Robotics' ESCs take it: -1, 0, +1 are
1100, 1500, 1900 us. Between the rows the values are interpolated linearly in PWM, and between
two tabled voltages linearly in voltage; a voltage outside the table is held at its nearest
end (``ThrustCurve.clamped`` says so). A curve may be derived from another by scaling its
forward and reverse force and its current (the M200's, from the T200's shape and the M200's
published end points), which its file states and marks unverified.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy
import yaml

from .. import paths
from ..errors import BlueRoboticsPartsError

KGF = 9.80665  # N per kilogram-force (standard gravity)
NEUTRAL_US, SPAN_US = 1500.0, 400.0  # throttle 0 and the PWM a full throttle adds
SAMPLES = 801  # throttle steps the inverse (thrust to throttle) is read from


class CurveError(BlueRoboticsPartsError):
    """A thrust curve file is missing or malformed."""


@dataclass(frozen=True)
class Table:
    """One voltage's rows: PWM (us, ascending), force (N, signed) and current (A)."""

    voltage: float
    pwm: numpy.ndarray
    force: numpy.ndarray
    current: numpy.ndarray
    dead_band: tuple  # (first, last) PWM of no thrust, us


class ThrustCurve:
    """A propeller's tables, by voltage."""

    def __init__(self, name: str, tables: list, source: str):
        self.name, self.source = name, source
        self.tables = sorted(tables, key=lambda t: t.voltage)

    @property
    def voltages(self) -> tuple:
        return tuple(t.voltage for t in self.tables)

    def clamped(self, voltage: float) -> float:
        """Return the voltage the tables are read at: ``voltage`` held within their range."""
        return min(max(float(voltage), self.voltages[0]), self.voltages[-1])

    def force(self, throttle, voltage: float):
        """Return the bench thrust (N) at a throttle in [-1, 1] (clipped) and a voltage."""
        return self._read('force', throttle, voltage)

    def current(self, throttle, voltage: float):
        """Return the current drawn, A, at a throttle and a voltage."""
        return self._read('current', throttle, voltage)

    def dead_band(self, voltage: float) -> tuple:
        """Return the throttle range with no thrust at a voltage (from the nearest table)."""
        table = min(self.tables, key=lambda t: abs(t.voltage - self.clamped(voltage)))
        return tuple((pwm - NEUTRAL_US) / SPAN_US for pwm in table.dead_band)

    def throttle(self, thrust, voltage: float):
        """
        Return the throttle giving a bench thrust (N) at a voltage: the curve read backwards.

        Zero thrust is throttle 0 (the middle of the dead band); a thrust beyond the curve's
        end is full throttle that way.
        """
        grid = numpy.linspace(-1.0, 1.0, SAMPLES)
        forces = self.force(grid, voltage)
        thrust = numpy.asarray(thrust, dtype=float)
        ahead = numpy.interp(thrust, forces[SAMPLES // 2:], grid[SAMPLES // 2:])
        astern = numpy.interp(-thrust, -forces[:SAMPLES // 2 + 1][::-1],
                              grid[:SAMPLES // 2 + 1][::-1])
        result = numpy.where(thrust > 0, ahead, numpy.where(thrust < 0, astern, 0.0))
        return float(result) if result.ndim == 0 else result

    def _read(self, column: str, throttle, voltage: float):
        pwm = NEUTRAL_US + SPAN_US * numpy.clip(numpy.asarray(throttle, dtype=float), -1, 1)
        voltage = self.clamped(voltage)
        below = max((t for t in self.tables if t.voltage <= voltage), key=lambda t: t.voltage)
        above = min((t for t in self.tables if t.voltage >= voltage), key=lambda t: t.voltage)
        low = numpy.interp(pwm, below.pwm, getattr(below, column))
        high = numpy.interp(pwm, above.pwm, getattr(above, column))
        weight = 0.0 if above.voltage == below.voltage else \
            (voltage - below.voltage) / (above.voltage - below.voltage)
        result = low + weight * (high - low)
        return float(result) if result.ndim == 0 else result


def names() -> tuple:
    """Return the names of the shipped curves: the files in urdf/thrust_curves."""
    return tuple(sorted(p.stem for p in (paths.share_dir() / 'urdf' / 'thrust_curves')
                        .glob('*.yaml')))


@lru_cache(maxsize=None)
def load(name: str) -> ThrustCurve:
    """Return a shipped curve by name (a part's ``propeller: thrust_curve``)."""
    path = paths.share_dir() / 'urdf' / 'thrust_curves' / f'{name}.yaml'
    if name not in names():
        raise CurveError(f"no thrust curve {name!r}; shipped: {', '.join(names())}")
    data = yaml.safe_load(path.read_text(encoding='utf-8'))
    try:
        if 'derived_from' in data:
            return _derived(name, data)
        return ThrustCurve(name, [_table(row) for row in data['voltages']], data['source'])
    except (KeyError, TypeError, ValueError) as error:
        raise CurveError(f'{path}: not a thrust curve ({error})') from error


def _table(row: dict) -> Table:
    pwm = numpy.array(row['pwm_us'], dtype=float)
    force = numpy.array(row['force_kgf'], dtype=float) * KGF
    current = numpy.array(row['current_a'], dtype=float)
    if not (len(pwm) == len(force) == len(current) >= 2) or numpy.any(numpy.diff(pwm) <= 0):
        raise ValueError(f"voltage {row.get('voltage')}: pwm_us, force_kgf and current_a "
                         'must be equally long, with pwm_us ascending')
    return Table(float(row['voltage']), pwm, force, current, tuple(row['dead_band_us']))


def _derived(name: str, data: dict) -> ThrustCurve:
    """Return a curve scaled from another: forward and reverse force, and current."""
    shape = load(data['derived_from'])
    forward, reverse = float(data['force_scale']['forward']), \
        float(data['force_scale']['reverse'])
    current = float(data['current_scale'])
    tables = [Table(t.voltage, t.pwm, numpy.where(t.force > 0, t.force * forward,
                                                  t.force * reverse),
                    t.current * current, t.dead_band) for t in shape.tables]
    return ThrustCurve(name, tables, data['source'])
