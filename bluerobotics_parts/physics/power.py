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
Throttle, current and battery: the propellers' thrust curves read at the vehicle's voltage.

A throttle turns into the bench thrust of the propeller's curve (thrust_curves.py) times the
base's installed fraction (propulsion.installed_fraction), so a full throttle gives what the
Gazebo Thruster system allows (its installed limit) when the battery is at the voltage of the
part's limits. The vehicle's battery is every pack its parts declare (``battery:``), in
parallel: their capacities add, the curves are read at their nominal voltage. Endurance counts
the propellers' current only (electronics, lights and the pack's voltage sag are left out).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
import math

from . import thrust_curves
from ..errors import CommandError

NO_BATTERY_VOLTAGE = 16.0  # V: the curves' reference voltage (the parts' limits are at 16 V)


@dataclass(frozen=True)
class Battery:
    """The vehicle's packs, in parallel."""

    packs: int
    voltage: float  # V, nominal (the lowest of the packs')
    capacity: float  # Ah, all packs
    max_current: float | None = None  # A, continuous, all packs; None unless each gives one

    @property
    def energy(self) -> float:
        """Return the stored energy, Wh (nominal voltage times capacity)."""
        return self.voltage * self.capacity


def vehicle_battery(record, catalogue) -> Battery | None:
    """Return the packs the assembly's parts declare, None when none does."""
    packs = [catalogue[part.type].battery for part in record.parts]
    packs = [pack for pack in packs if pack]
    if not packs:
        return None
    ratings = [p.get('max_current') for p in packs]
    return Battery(len(packs), min(p['voltage'] for p in packs),
                   sum(p['capacity'] for p in packs),
                   sum(ratings) if None not in ratings else None)


def vehicle_voltage(record, catalogue) -> float:
    """Return the voltage the curves are read at: the battery's, or 16 V without one."""
    battery = vehicle_battery(record, catalogue)
    return battery.voltage if battery else NO_BATTERY_VOLTAGE


class Throttles:
    """Each propeller's throttle <-> installed thrust (N) and current (A), at one voltage."""

    def __init__(self, record, catalogue, limits: dict, voltage: float | None = None):
        """``limits``: instance -> propulsion.ThrustLimits (its installed fraction)."""
        self.voltage = vehicle_voltage(record, catalogue) if voltage is None else float(voltage)
        self.curves, self.fractions = {}, {}
        for part in record.parts:
            propeller = catalogue[part.type].propeller
            if propeller and propeller.thrust_curve and part.name in limits:
                self.curves[part.name] = thrust_curves.load(propeller.thrust_curve)
                self.fractions[part.name] = limits[part.name].fraction

    def thrust(self, instance: str, throttle: float) -> float:
        """
        Return the installed thrust, N, of a throttle in [-1, 1] (clipped).

        CommandError for a throttle that is not a finite number: clipping an infinity would
        turn it into full throttle, and NaN into a NaN thrust.
        """
        if not math.isfinite(throttle):
            raise CommandError(f'throttle {throttle} for {instance}: a throttle is a finite '
                               'number, -1 to 1')
        curve = self.curves[instance]
        return curve.force(throttle, self.voltage) * self.fractions[instance]

    def pwm_table(self, instance: str) -> tuple:
        """
        Return (PWM us, installed thrust N) rows that give this propeller's thrust exactly.

        At every PWM any of its curve's tables has a row for (the reading between two voltages'
        tables is linear between those rows), from 1100 to 1900 us: what an ESC model
        interpolating linearly between them reproduces.
        """
        curve = self.curves[instance]
        rows = sorted({float(p) for table in curve.tables for p in table.pwm
                       if thrust_curves.NEUTRAL_US - thrust_curves.SPAN_US <= p
                       <= thrust_curves.NEUTRAL_US + thrust_curves.SPAN_US})
        return tuple(rows), tuple(
            self.thrust(instance, (p - thrust_curves.NEUTRAL_US) / thrust_curves.SPAN_US)
            for p in rows)

    def shares(self, output: float) -> dict:
        """
        Return instance -> (forward, reverse) fraction of full thrust an ESC gives at ``output``.

        ``output``: 0 to 1 of the PWM span from neutral, read through the propeller's curve. An
        autopilot's output is linear in PWM and the curves are not: ArduSub's pilot gain of
        half asks 1700 us, about a third of full thrust for a T200.
        """
        return {name: (self.thrust(name, output) / self.thrust(name, 1.0),
                       self.thrust(name, -output) / self.thrust(name, -1.0))
                for name in self.curves}

    def throttle(self, instance: str, thrust: float) -> float:
        """Return the throttle that gives an installed thrust (N); beyond reach: full."""
        return self.curves[instance].throttle(thrust / self.fractions[instance], self.voltage)

    def reachable(self, limits: dict) -> dict:
        """
        Return ``limits`` (propulsion.ThrustLimits) cut to what full throttle gives here.

        The parts' limits are the Gazebo Thruster's (16 V); below that voltage a full throttle
        gives less, and an allocator that plans in throttles must plan within it or its
        clipped propellers would turn the command's direction.
        """
        def bench(name, throttle):  # the curve's own (bench) thrust at this voltage
            return self.curves[name].force(throttle, self.voltage)

        return {name: replace(limit, bench_max=min(limit.bench_max, bench(name, 1.0)),
                              bench_min=max(limit.bench_min, bench(name, -1.0)))
                if name in self.curves else limit for name, limit in limits.items()}

    def current(self, thrusts: dict) -> float:
        """Return the current, A, the propellers draw for installed thrusts in N."""
        return sum(self.curves[name].current(self.throttle(name, thrust), self.voltage)
                   for name, thrust in thrusts.items() if name in self.curves)


@dataclass(frozen=True)
class Endurance:
    """One steady state's draw and how long the battery lasts at it."""

    label: str
    thrusts: dict  # instance -> N
    current: float  # A, the propellers'
    hours: float | None  # None when nothing is drawn


def endurance(battery: Battery, throttles: Throttles, label: str, thrusts: dict) -> Endurance:
    """Return the propellers' current at these thrusts and the hours the battery gives it."""
    current = throttles.current(thrusts)
    return Endurance(label, dict(thrusts), current,
                     battery.capacity / current if current > 0 else None)
