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
Thrust allocation: the thrust of each propeller for a body wrench, from the record's geometry.

The wrench is in the root link's frame about its origin (REP 103 axes, as a
geometry_msgs/Wrench in frame base_link): each propeller adds its joint axis as force and the
moment of that force about the origin (thrusters.py, Gazebo's geometry). The axes the
propellers can act on are found from the matrix (the BlueBoat: surge and yaw); the others are
dropped. Within them the thrusts are the weighted least-squares solution (weights the
inverse square of each propeller's forward limit, so the strong ones carry more). Where that
pushes propellers past a limit, they are held at it and the rest re-split the remainder (the
redistributed pseudo-inverse): a vectored ROV's rear thrusters then make up what its front
ones, at their weaker reverse, cannot, as every propeller at its limit does under ArduSub. A
command no split meets is scaled down as a whole, keeping its direction. A command with a
component that is not a number (NaN, infinite) makes no thrust: CommandError, so no propeller
is ever given one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy

from .thrusters import effects
from ..errors import CommandError

#: The wrench's components, in geometry_msgs/Wrench order.
AXES = ('surge', 'sway', 'heave', 'roll', 'pitch', 'yaw')
UNITS = ('N', 'N', 'N', 'N m', 'N m', 'N m')
RANK_TOLERANCE = 1e-9
BISECTIONS = 24  # halvings of the scale search: 6e-8 of its range
#: A command component beyond this (N or N m) is beyond every vehicle: the command is scaled
#: to it before the split, keeping its direction, so the arithmetic never overflows.
LARGEST_COMMAND = 1e9


@dataclass(frozen=True)
class Allocation:
    """The thrusts for one wrench, and what became of the wrench."""

    thrusts: dict  # propeller instance -> N
    scale: float  # 1 when met; below 1 when every component was scaled down to fit
    dropped: tuple  # axes asked for that no propeller acts on


class Allocator:
    """Everything a vehicle's propellers can do as a wrench, and the thrusts for one."""

    def __init__(self, vehicle, limits: dict):
        """``limits``: instance -> propulsion.ThrustLimits (the installed ones Gazebo uses)."""
        found = effects(vehicle, about=(0.0, 0.0, 0.0))
        self.names = tuple(name for name in found if name in limits)
        self.matrix = numpy.array([found[n].force + found[n].moment for n in self.names]).T \
            if self.names else numpy.zeros((6, 0))
        self.maximum = numpy.array([limits[n].maximum for n in self.names])
        self.minimum = numpy.array([limits[n].minimum for n in self.names])
        self.axes = _independent_rows(self.matrix)
        rows = self.matrix[list(self.axes)]
        weights = numpy.array([1.0 / max(abs(m), 1e-9) ** 2 for m in self.maximum])
        self.root_inverse_w = 1.0 / numpy.sqrt(weights)  # the split's column scaling
        inverse_w = numpy.diag(1.0 / weights) if len(weights) else numpy.zeros((0, 0))
        self.solver = inverse_w @ rows.T @ numpy.linalg.inv(rows @ inverse_w @ rows.T) \
            if self.axes else numpy.zeros((len(self.names), 0))
        self._largest: dict = {}  # (axis, positive) -> N or N m

    @property
    def axis_names(self) -> tuple:
        """Return the axes the propellers act on, by name."""
        return tuple(AXES[a] for a in self.axes)

    def allocate(self, wrench) -> Allocation:
        """
        Return the thrusts for a wrench (six numbers, geometry_msgs/Wrench order).

        CommandError for a component that is not a finite number.
        """
        wrench = _finite(wrench, 'wrench', UNITS)
        dropped = tuple(AXES[a] for a in range(6) if a not in self.axes and wrench[a] != 0)
        if not self.axes:
            return Allocation(dict.fromkeys(self.names, 0.0), 1.0, dropped)
        target = wrench[list(self.axes)]
        # a command beyond every vehicle is brought within reach first, so nothing overflows
        reach = min(1.0, LARGEST_COMMAND / max(float(numpy.abs(target).max()), 1.0))
        target = target * reach
        thrusts = self.within_limits(target)
        scale = 1.0
        if thrusts is None:
            plain = self.solver @ target
            scale = self._largest_scale(target, _fitting_scale(plain, self.maximum,
                                                               self.minimum), 1.0)
            thrusts = self.within_limits(scale * target)
            if thrusts is None:  # the search's floor: the plain split scaled (always fits)
                thrusts = plain * scale
        return Allocation(dict(zip(self.names, thrusts.tolist())), scale * reach, dropped)

    def within_limits(self, target) -> numpy.ndarray | None:
        """
        Return thrusts that make ``target`` (the acting axes' components) within the limits.

        The weighted least-squares split; the propeller it pushes furthest past a limit (for
        its range) is held there and the others re-split what is left, one at a time, until
        none is past one. None when the free propellers cannot make what is left. Holding
        them all at once could leave too few to make it (a BlueROV2's sway: 78.7 N where 86.4
        can be made).
        """
        rows = self.matrix[list(self.axes)]
        free = numpy.ones(len(self.names), dtype=bool)
        thrusts = numpy.zeros(len(self.names))
        span = numpy.maximum(self.maximum - self.minimum, 1e-12)
        for _ in range(len(self.names) + 1):
            rest = target - rows[:, ~free] @ thrusts[~free]
            scaled = rows[:, free] * self.root_inverse_w[free]
            split = self.root_inverse_w[free] * (numpy.linalg.pinv(scaled) @ rest)
            if numpy.abs(rows[:, free] @ split - rest).max(initial=0.0) > \
                    1e-9 * max(1.0, numpy.abs(target).max()):
                return None
            thrusts[free] = split
            excess = numpy.where(free, numpy.maximum(thrusts - self.maximum * (1 + 1e-12),
                                                     self.minimum * (1 + 1e-12) - thrusts), 0.0)
            if excess.max(initial=0.0) <= 0.0:
                return thrusts
            worst = int(numpy.argmax(excess / span))
            thrusts[worst] = min(max(thrusts[worst], self.minimum[worst]), self.maximum[worst])
            free[worst] = False
        return None

    def _largest_scale(self, target, low: float, high: float) -> float:
        """Return the largest scale in [low, high] whose target within_limits meets (bisection)."""
        if self.within_limits(high * target) is not None:
            return high
        for _ in range(BISECTIONS):
            middle = (low + high) / 2
            if self.within_limits(middle * target) is not None:
                low = middle
            else:
                high = middle
        return low

    def wrench_of(self, thrusts: dict) -> numpy.ndarray:
        """Return the wrench the thrusts make (the same geometry), about the origin."""
        return self.matrix @ numpy.array([thrusts.get(n, 0.0) for n in self.names])

    def largest(self, axis: int, sign: float) -> float:
        """Return the largest wrench component along one axis and direction (0 if none)."""
        key = (axis, sign > 0)
        if key not in self._largest:  # the vehicle's alone: once (cmd_vel asks every message)
            self._largest[key] = self._search_largest(axis, sign)
        return self._largest[key]

    def _search_largest(self, axis: int, sign: float) -> float:
        if axis not in self.axes:
            return 0.0
        unit = numpy.zeros(6)
        unit[axis] = sign
        target = unit[list(self.axes)]
        plain = _fitting_scale(self.solver @ target, self.maximum, self.minimum,
                               limit=numpy.inf)
        column = numpy.abs(self.matrix[axis])  # no split makes more than every one at its most
        ceiling = float(column @ numpy.maximum(numpy.abs(self.maximum), numpy.abs(self.minimum)))
        return self._largest_scale(target, plain, max(ceiling, plain))

    def effort(self, fractions) -> numpy.ndarray:
        """
        Return the wrench for six efforts in [-1, 1]: each a fraction of that axis's largest.

        How ``cmd_vel`` drives a vehicle: teleop_twist_keyboard's 1.0 is full ahead. An
        infinite effort is no fraction: CommandError, as for NaN.
        """
        fractions = numpy.clip(_finite(fractions, 'effort', ('',) * 6), -1.0, 1.0)
        return numpy.array([f * self.largest(a, 1.0 if f >= 0 else -1.0)
                            for a, f in enumerate(fractions)])


def _finite(values, what: str, units) -> numpy.ndarray:
    """Return six numbers as an array; CommandError naming each one that is not finite."""
    array = numpy.asarray(values, dtype=float)
    bad = [f'{axis} {value}{" " + unit if unit else ""}'
           for axis, value, unit in zip(AXES, array.tolist(), units)
           if not numpy.isfinite(value)]
    if bad:
        raise CommandError(f"{what} with {', '.join(bad)}: every component must be a finite "
                           'number')
    return array


def _independent_rows(matrix: numpy.ndarray) -> tuple:
    """Return the rows that add to the rank, in order: the axes the columns can act on."""
    chosen: list = []
    for row in range(matrix.shape[0]):
        trial = matrix[chosen + [row]]
        if trial.size and numpy.linalg.matrix_rank(trial, tol=RANK_TOLERANCE) == len(chosen) + 1:
            chosen.append(row)
    return tuple(chosen)


def _fitting_scale(thrusts, maximum, minimum, limit: float = 1.0) -> float:
    """Return the largest factor (at most ``limit``) that keeps every thrust within its limits."""
    scale = limit
    for thrust, high, low in zip(thrusts, maximum, minimum):
        if thrust > 1e-12:
            scale = min(scale, high / thrust)
        elif thrust < -1e-12:
            scale = min(scale, low / thrust)
    return float(scale) if numpy.isfinite(scale) else 0.0
