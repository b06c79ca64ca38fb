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
``bluerobotics-parts info CONFIG``: how the vehicle floats and drives, before any simulation.

The figures are computed in figures/predicted.py; this module prints them.

From the resolved URDF and the part data: mass and centre of gravity; the upright rest under
``exact`` hydrostatics and under gz-sim 8's graded Buoyancy algorithm (buoyancy.py: where the
simulated vehicle settles), with drafts, freeboard, stiffnesses and metacentric heights
(stability.py); each propeller's bench and installed thrust limits, and the steady speeds and
one-propeller yaw rate the Hydrodynamics coefficients give (propulsion.py); the runs from rest
ahead and astern, and how far a submerged vehicle pitches in them (manoeuvring.py).
"""

from __future__ import annotations

import math

from ..figures.predicted import (  # noqa: F401  (vehicle_info: info's API, here too)
    HEADING_HELD, Info, KNOT, MATRIX_NOISE, plain, RUN_SECONDS, RUNAWAY_TEXT, vehicle_info)
from ..formats.autopilot_frames import AXES
from ..physics import allocation, drag, power
from ..physics.water import water_label


def info_text(info: Info) -> str:
    """Return the report ``info`` prints."""
    cog = ', '.join(f'{v:.3f}' for v in info.centre_of_gravity)
    lines = [f'vehicle: {info.name}',
             f'mass: {info.mass:.3f} kg',
             f'centre of gravity: ({cog}) m in {info.root_link}',
             '']
    if info.rests:
        lines += _rest_lines(info)
    else:
        lines += [f'at rest in {water_label(info.water)}: none at the surface: {info.no_rest}',
                  '']
    lines += _trim_lines(info.trim)
    if info.limits:
        fraction = next(iter(info.limits.values())).fraction
        lines.append(f'thrust limits, N (installed: {fraction:.4g} x bench):')
        for limit in info.limits.values():
            lines.append(f'  {limit.instance}: {limit.part_type}: {limit.minimum:.2f} to '
                         f'{limit.maximum:.2f} '
                         f'(bench {limit.bench_min:g} to {limit.bench_max:g})')
    else:
        lines.append('thrust limits: no propellers')
    p = info.performance
    if p is None:
        lines.append('top speed: the base part has no hydrodynamics coefficients')
    elif info.limits:
        lines.append('steady states from the hydrodynamics coefficients:')
        lines.append(f'  full ahead: {plain(p.forward_thrust):.1f} N -> '
                     + _speed(p.forward_speed) + _fitted(info.published, p.forward_speed))
        lines.append(f'  full astern: {plain(p.reverse_thrust):.1f} N -> '
                     + _speed(p.reverse_speed))
        lines += _added_lines(info)
        if p.turn_yaw_rate is not None:
            lines.append(f'  {p.turn_instance} alone full ahead: {p.turn_moment:.2f} N m -> yaw '
                         f'rate {p.turn_yaw_rate:.3f} rad/s (sway and surge coupling ignored)')
        lines += _run_lines(info.body, info.runs)
        lines += _dip_lines(info.pitch_body, info.dips)
        lines += _held_lines(info)
    lines += _allocation_lines(info.allocator, info.root_link)
    lines += _endurance_lines(info.battery, info.endurance, info.curves_read_at)
    lines += _autopilot_lines(info.autopilot)
    return '\n'.join(lines) + '\n'


def _rest_lines(info: Info) -> list:
    """Return the rest at the surface, exact and as Gazebo's Buoyancy finds it."""
    exact, harmonic = info.rests['exact'], info.rests['harmonic']
    water = f'at rest in {water_label(info.water)}'
    lines = [f'{water:<44}exact   gz-sim 8 Buoyancy']

    def row(label, unit, value, digits):
        cells = [f'{value(r):>10.{digits}f}' for r in (exact, harmonic)]
        lines.append(f'  {label:<26}{unit:<10}{cells[0]} {cells[1]:>15}')

    row('displacement', 'm^3', lambda r: r.displaced_volume, 5)
    row(f'{info.root_link} height', 'm', lambda r: r.z, 4)
    row('trim (pitch; + bow down)', 'deg', lambda r: math.degrees(r.pitch), 2)
    row('heel (roll; + stbd down)', 'deg', lambda r: math.degrees(r.roll), 2)
    row('draft, hull', 'm', lambda r: r.hull_draft, 3)
    row('draft, overall', 'm', lambda r: r.lowest_point, 3)
    row('freeboard', 'm', lambda r: r.freeboard, 3)
    row('roll stiffness', 'N m/rad', lambda r: r.roll_stiffness, 1)
    row('pitch stiffness', 'N m/rad', lambda r: r.pitch_stiffness, 1)
    row('GM_T', 'm', lambda r: r.gm_t, 3)
    row('GM_L', 'm', lambda r: r.gm_l, 3)
    lines.append('  (exact: the water plane cuts the collision shapes as they lie; gz-sim 8: '
                 "cut in each shape's own frame, gz-sim8_8.14.0 Buoyancy.cc)")
    for rest, where in ((exact, 'in still water'), (harmonic, 'in Gazebo (gz-sim 8)')):
        if min(rest.gm_t, rest.gm_l) < 0:
            lines.append(f'  warning: a negative GM: the vehicle does not stay upright {where}; '
                         'give it more displacement low, its weight lower, or split long '
                         'collision boxes (docs/PARTS.md)')
    if info.cylinders:
        lines.append('  note: cylinder collisions on ' + ', '.join(info.cylinders) + ': gz-sim '
                     '8.0 to 8.11 give them no buoyancy (8.12 and later do, as computed here)')
    lines.append('')
    return lines


def _allocation_lines(allocator, root: str) -> list:
    """Return the allocation matrix and the largest wrench per axis and direction."""
    if allocator is None or not allocator.names:
        return []
    header = ''.join(f'{name:>13}' for name in allocator.names)
    lines = ['', f'thrust allocation (thrust_allocator; wrench in {root} about its origin): '
             'per N of each propeller', '  ' + ' ' * 8 + header]
    for axis in allocator.axes:
        lines.append(f'  {allocation.AXES[axis]:<8}' + ''.join(
            f'{v:>13.4f}' for v in allocator.matrix[axis]))
    dropped = [i for i in range(len(allocation.AXES)) if i not in allocator.axes]
    acts = [abs(allocator.matrix[i]).max() > MATRIX_NOISE for i in range(len(allocation.AXES))]
    untouched = [allocation.AXES[i] for i in dropped if not acts[i]]
    following = [allocation.AXES[i] for i in dropped if acts[i]]
    if untouched:
        lines.append(f"  no propeller acts on: {', '.join(untouched)}")
    if following:
        lines.append('  not set apart from the axes above (it follows them): '
                     + ', '.join(following))
    lines.append('  largest: ' + ', '.join(
        f'{allocation.AXES[a]} {_reach(allocator.largest(a, 1.0), "+")} / '
        f'{_reach(allocator.largest(a, -1.0), "-")} {allocation.UNITS[a]}'
        for a in allocator.axes))
    return lines


def _reach(largest: float, sign: str) -> str:
    """Return the largest wrench one way, signed; 0 when the propellers give none that way."""
    return f'{sign}{largest:.1f}' if round(largest, 1) > 0 else '0'


def _endurance_lines(battery, endurance, read_at: tuple = ()) -> list:
    """Return the battery and the propellers' draw at cruise and full ahead."""
    if battery is None:
        return ['', 'battery: none declared (a part with battery:); thrust curves read at '
                f'{power.NO_BATTERY_VOLTAGE:g} V']
    ends = sorted({v for v in read_at if v != battery.voltage})
    read = (f'thrust curves read at {battery.voltage:g} V' if not ends else
            f"thrust curves read at {', '.join(f'{v:g}' for v in ends)} V, where their data "
            "end short of the battery's: the figures below are rough")
    rating = '' if battery.max_current is None else f', {battery.max_current:g} A continuous'
    lines = ['', f'battery: {battery.packs} x {battery.voltage:g} V, {battery.capacity:g} Ah in '
             f'all ({battery.energy:.0f} Wh{rating}); {read}']
    for state in endurance:
        hours = 'no draw' if state.hours is None else f'{state.hours:.1f} h'
        over = battery.max_current is not None and state.current > battery.max_current
        lines.append(f'  {state.label} -> {state.current:.1f} A, '
                     f'{state.current * battery.voltage:.0f} W -> {hours}'
                     + (f': above the continuous rating of {battery.max_current:g} A'
                        if over else ''))
    if endurance:
        lines.append('  (the propellers alone, from their curves; electronics, lights and the '
                     "pack's voltage sag left out)")
    return lines


def _run_lines(body, runs) -> list:
    """Return the runs from rest: how fast it gets under way, whether it keeps its heading."""
    if not runs:
        return []
    lines = [f'runs from rest, equal thrust, {RUN_SECONDS:g} s (surge, sway and yaw; added mass '
             f'{body.added:g} kg in translation, {body.added_yaw:g} kg m^2 in yaw; centre of '
             f'gravity {body.centre[1]:+.4f} m off the centre line):']
    return lines + [_outcome(run, _run_text) for run in runs]


def _run_text(run) -> str:
    """Return how a run from rest gets under way and whether it keeps its heading."""
    if not run.settled:
        speed = f'still gathering way at {run.seconds:g} s ({run.final_speed:.3f} m/s)'
    elif run.rise_time is None:
        speed = f'{run.final_speed:.3f} m/s, never 63% of it'
    else:
        speed = f'63% of {run.final_speed:.3f} m/s in {run.rise_time:.2f} s'
    side = 'to port' if run.drift >= 0 else 'to starboard'
    held = abs(run.heading_change) <= HEADING_HELD
    return (f'{speed}; heading {plain(run.heading_change):+.1f} deg, '
            f'{abs(run.drift):.1f} m {side} over {run.distance:.0f} m'
            + ('' if held else ': it does not hold its heading'))


def _dip_lines(body, dips) -> list:
    """Return how far a submerged vehicle pitches while it gathers way, and under way."""
    if not dips:
        return []
    lines = [f'pitch in those runs, submerged (surge and pitch; the thrust line '
             f'{body.thrust_lever:+.3f} m above the centre of gravity; + bow down):']
    return lines + [_outcome(dip, lambda d: f'{d.worst:+.1f} deg at worst while it gathers '
                                            f'way, {d.final:+.1f} deg under way')
                    for dip in dips]


def _held_lines(info) -> list:
    """
    Return what ArduSub's stabilised modes make of the pitch above, for an ROV it flies.

    The MANUAL figures depend on the thrust line's height above the centre of gravity and on
    BG, neither measured (docs/LIMITATIONS.md); a frame with pitch authority is held level in
    STABILIZE and ALT_HOLD, one without pitches as its model says at the pilot's thrust (the
    ESC curve's at the pilot's output, figures.predicted.Info.pilot_dips).
    """
    from ..formats.autopilot_frames import ARDUSUB_PILOT_GAIN, AXES

    body, wiring = info.pitch_body, info.autopilot
    if not info.dips or not info.pilot_dips:
        return []
    bg = body.buoyancy_centre[1] - body.centre[1]
    lines = [f"  these MANUAL figures rest on the thrust line's height above the centre of "
             f'gravity and on BG ({bg:.3f} m), neither measured (docs/LIMITATIONS.md)']
    pitch = AXES.index('pitch')
    if any(output.motor.factors[pitch] for output in wiring.outputs):
        return lines + [f'  under ArduSub, STABILIZE and ALT_HOLD hold it level: '
                        f'{wiring.frame.title} has pitch authority (docs/BEHAVIOUR.md)']
    curve, linear = info.pilot_dips['curve'], info.pilot_dips['linear']
    return lines + [f'  under ArduSub no mode holds its pitch: {wiring.frame.title} has no '
                    f'pitch authority; at the default pilot gain ({ARDUSUB_PILOT_GAIN:g}) full '
                    f'forward stick pitches it {curve.worst:+.1f} deg at worst through the '
                    f'ESC curve ({linear.worst:+.1f} with esc:=linear; docs/BEHAVIOUR.md)']


def _outcome(result, describe) -> str:
    """Return one run's line (a Run or a Dip): which way, then ``describe`` or the runaway."""
    way = f"  full {'ahead' if result.ahead else 'astern'}: "
    if result.runaway is not None:
        return way + RUNAWAY_TEXT.format(seconds=result.runaway)
    return way + describe(result)


def _autopilot_lines(wiring) -> list:
    if wiring is None:
        return []
    if isinstance(wiring, str):
        return ['', 'ArduPilot: its frame cannot drive this assembly:',
                *(f'  {line}' for line in wiring.splitlines())]
    frame = wiring.frame
    lines = ['', f'ArduPilot (build --autopilot ardupilot): {frame.title}, SITL {frame.firmware}',
             '  output: servo (SERVOn_FUNCTION), plugin channel; ArduPilot factors '
             + ' '.join(AXES)]
    for output in wiring.outputs:
        factors = ' '.join(f'{f:+d}' if f else '0' for f in output.motor.factors)
        lines.append(f'  {output.thruster}: SERVO{output.motor.servo} '
                     f'({output.motor.function_name} = {output.motor.function}), channel '
                     f'{output.channel}; {factors}')
    return lines


def _speed(value) -> str:
    return 'no steady speed (no damping on that axis)' if value is None else \
        f'surge {value:.3f} m/s ({value / KNOT:.2f} kn)'


def _fitted(published: dict, speed) -> str:
    """Return whether the full-ahead speed is fitted to, or predicted against, a published one."""
    if not published or speed is None:
        return '; predicted (no published top speed)' if speed is not None else ''
    if published['fitted']:
        return (f"; fitted: the base's surge drag is fitted to its published "
                f"{published['speed']:g} m/s")
    return f"; predicted (published: {published['speed']:g} m/s)"


def _added_lines(info: Info) -> list:
    """Return the drag of the parts the config adds (an estimate Gazebo leaves out)."""
    if not info.added:
        return []
    shown = ', '.join(f'{part.instance} {part.area:.4f} m^2' if part.shapes else
                      f'{part.instance} none (no collision geometry)' for part in info.added)
    lines = [f'  parts added to the base ({shown}): their drag is an estimate, Cd '
             f"{drag.DRAG_COEFFICIENT:g} on the frontal area under water; Gazebo's "
             "Hydrodynamics has the base's coefficients only"]
    if info.added_speed is not None:
        lines.append(f'  full ahead with that drag: {_speed(info.added_speed)} (the figures '
                     'below leave it out)')
    return lines


def _trim_lines(trim) -> list:
    """Return the net buoyancy and what trims the vehicle."""
    if trim is None:
        return []
    advice = trim.advice()
    return [trim.line()] + ([f'  {advice}'] if advice else []) + ['']
