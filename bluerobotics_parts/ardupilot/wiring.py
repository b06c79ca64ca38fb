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
Which propeller each motor output of the base part's ArduPilot frame drives, from the record.

A frame (formats/autopilot_frames.py) says what each output's positive command must do on each
axis; a propeller fits an output when its effect (physics/thrusters.py: the same geometry
Gazebo pushes with) has the sign of every factor that is not zero, by more than a rounding, no
force on an axis whose factor is zero, and a moment there smaller than those it is used for
(ArduPilot's mixer ignores it: a horizontal thruster's small roll and pitch).
Each output must find exactly one propeller and each propeller one output, so a moved,
turned, missing or extra thruster is refused, naming what it does and what was wanted.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import AssemblyError
from ..formats.autopilot_frames import AutopilotFrame, AXES, FRAMES, Motor
from ..physics import thrusters

#: What an effect must exceed to count (N per N or N m per N): more than a rounding.
MIN_EFFECT = 0.01
_SENSES = {'roll': ('roll right', 'roll left'), 'pitch': ('pitch up', 'pitch down'),
           'yaw': ('yaw right', 'yaw left'), 'throttle': ('up', 'down'),
           'forward': ('forward', 'backward'), 'lateral': ('right', 'left')}


@dataclass(frozen=True)
class Output:
    """One motor output and the propeller it drives."""

    motor: Motor
    thruster: str  # the propeller instance
    joint: str
    effect: dict  # per AXES, of +1 N

    @property
    def channel(self) -> int:
        """Return the plugin's channel: the servo output's index (SERVOn is n - 1)."""
        return self.motor.servo - 1


@dataclass(frozen=True)
class Wiring:
    frame: AutopilotFrame
    outputs: tuple  # of Output, in the frame's motor order


def supported() -> str:
    """Return the frames a base part may declare, for messages."""
    return '; '.join(f'{name} ({frame.title})' for name, frame in FRAMES.items())


def wire(resolution, vehicle, catalogue) -> Wiring:
    """
    Return the wiring of the vehicle's base frame; AssemblyError naming what does not fit.

    ``resolution`` locates the messages (the config line fitting the base or a propeller).
    """
    base = resolution.record.base
    frame_name = catalogue[base.type].autopilot_frame
    if frame_name is None:
        raise AssemblyError([resolution.problem_at(base.name, (
            f'the base part {base.type} declares no ArduPilot frame (autopilot: frame: in its '
            f'part file), so no autopilot can drive it; supported frames: {supported()}'),
            rule='autopilot-frame')])
    frame = FRAMES[frame_name]
    found = thrusters.effects(vehicle)
    effects = {name: effect.ardupilot for name, effect in found.items()}
    fits = {motor.servo: [name for name, effect in effects.items() if _fits(effect, motor)]
            for motor in frame.motors}
    chosen = _match(fits)
    problems = []
    for motor in frame.motors:
        if motor.servo not in chosen:
            problems.append(_no_fit(resolution, frame, motor, effects, fits[motor.servo]))
    for name in sorted(set(effects) - set(chosen.values()), key=list(effects).index):
        shared = [motor for motor in frame.motors if name in fits[motor.servo]]
        if shared:  # it fits, but so does another propeller: which is which is not said
            outputs = ', '.join(f'SERVO{m.servo} ({m.function_name})' for m in shared)
            others = sorted({other for m in shared for other in fits[m.servo]}
                            - {name} - set(chosen.values()), key=list(effects).index)
            alike = (f", as {', '.join(others)} {'does' if len(others) == 1 else 'do'}"
                     if others else '')
            said = (f'propeller {name} fits motor output {outputs} of {frame.title}{alike}: '
                    'the assembly does not say which drives it')
        else:
            said = (f'propeller {name} fits no motor output of {frame.title}, the frame its base '
                    f'part {base.type} declares: it pushes {_described(effects[name])}; the '
                    f'frame has {len(frame.motors)} outputs ({_outputs(frame)})')
        problems.append(resolution.problem_at(name, f'{said}; supported frames: {supported()}',
                                              rule='autopilot-fit'))
    if problems:
        raise AssemblyError(problems)
    return Wiring(frame, tuple(Output(motor, chosen[motor.servo],
                                      found[chosen[motor.servo]].joint,
                                      effects[chosen[motor.servo]]) for motor in frame.motors))


FORCES = ('throttle', 'forward', 'lateral')


def _fits(effect: dict, motor: Motor) -> bool:
    """Return whether an effect does what a motor output's factors say (module doc)."""
    factors = dict(zip(AXES, motor.factors))
    used = [abs(effect[a]) for a, f in factors.items() if f and a not in FORCES]
    for axis, factor in factors.items():
        size = abs(effect[axis])
        if factor and not (effect[axis] * factor > 0 and size > MIN_EFFECT):
            return False
        if not factor and axis in FORCES and size > MIN_EFFECT:
            return False
        if not factor and axis not in FORCES and used and size >= min(used):
            return False
    return True


def _match(fits: dict) -> dict:
    """Return output -> propeller where that is forced: one candidate, taken by nobody else."""
    chosen: dict = {}
    changed = True
    while changed:
        changed = False
        for servo, names in fits.items():
            left = [n for n in names if n not in chosen.values()]
            if servo not in chosen and len(left) == 1:
                chosen[servo] = left[0]
                changed = True
    return chosen


def _no_fit(resolution, frame, motor, effects, candidates):
    wanted = ', '.join(_SENSES[axis][0 if factor > 0 else 1]
                       for axis, factor in zip(AXES, motor.factors) if factor)
    where = resolution.record.base.name
    if candidates:
        message = (f'motor output SERVO{motor.servo} ({motor.function_name}) of {frame.title} '
                   f'could be any of {", ".join(candidates)} ({wanted}): the assembly does not '
                   'say which')
    else:
        pushes = '; '.join(f'{name} pushes {_described(effect)}'
                           for name, effect in effects.items()) or 'there are no propellers'
        message = (f'no propeller fits motor output SERVO{motor.servo} ({motor.function_name}) '
                   f'of {frame.title}, which must push {wanted}: {pushes}')
    return resolution.problem_at(where, f'{message}; supported frames: {supported()}',
                                 rule='autopilot-fit')


def _described(effect: dict) -> str:
    """Say what an effect does on each axis it moves (ArduPilot's senses)."""
    words = [_SENSES[axis][0 if effect[axis] > 0 else 1] for axis in AXES
             if abs(effect[axis]) > MIN_EFFECT]
    return ', '.join(words) or 'on no axis'


def _outputs(frame: AutopilotFrame) -> str:
    return ', '.join(f'SERVO{m.servo} {m.function_name}' for m in frame.motors)
