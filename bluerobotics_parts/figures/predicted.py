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
What ``info`` predicts of a vehicle, before any simulation: the figures, computed.

From the resolved URDF and the part data: mass and centre of gravity; the upright rest under
``exact`` hydrostatics and under gz-sim 8's graded Buoyancy algorithm (buoyancy.py: where the
simulated vehicle settles), with drafts, freeboard, stiffnesses and metacentric heights
(stability.py); each propeller's bench and installed thrust limits, and the steady speeds and
one-propeller yaw rate the Hydrodynamics coefficients give (propulsion.py); the runs from rest
ahead and astern, and how far a submerged vehicle pitches in them (manoeuvring.py). ``info``
prints them (cli/info.py); ``validate`` sets them beside the published and simulated ones.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ardupilot.wiring import wire
from ..assembly.pipeline import resolve_config
from ..errors import AssemblyError, HydrostaticsError, StabilityError
from ..model.vehicle import Vehicle
from ..physics import (allocation, drag, hydrostatics, manoeuvring, power, propulsion,
                       stability, trim as trim_module)
from ..physics.water import water_density

RUN_SECONDS = 30.0  # the runs from rest info predicts
PILOT_RUN_SECONDS = 10.0  # an ArduSub pilot's run ahead from rest (Info.pilot_dips)
KNOT = 1852.0 / 3600.0  # m/s
MATRIX_NOISE = 1e-9  # N (N m) per N: an allocation-matrix entry below it is rounding noise
HEADING_HELD = 5.0  # deg: a run that turns more does not hold its heading
RUNAWAY_TEXT = ('the model runs away after {seconds:.2f} s (a speed past '
                f'{manoeuvring.RUNAWAY:g} m/s or a rate past {manoeuvring.RUNAWAY:g} rad/s): '
                'check the hydrodynamics coefficients (one may feed the motion) and the thrust '
                'limits')


@dataclass(frozen=True)
class Info:
    name: str
    root_link: str
    mass: float
    centre_of_gravity: tuple
    rests: dict  # 'exact' / 'harmonic' -> stability.Rest; empty when it cannot float
    limits: dict  # instance -> propulsion.ThrustLimits
    performance: propulsion.Performance | None  # None without Hydrodynamics coefficients
    cylinders: tuple  # links with cylinder collisions (no graded buoyancy before gz-sim 8.12)
    autopilot: object = None  # ardupilot Wiring, or why its frame cannot drive it (str)
    body: object = None  # manoeuvring.Body, None without Hydrodynamics coefficients
    runs: tuple = ()  # manoeuvring.Run ahead and astern from rest
    pitch_body: object = None  # manoeuvring.PitchBody of a vehicle that runs submerged
    dips: tuple = ()  # manoeuvring.Dip ahead and astern from rest
    allocator: object = None  # allocation.Allocator of its propellers, None without any
    battery: object = None  # power.Battery, None when no part declares one
    endurance: tuple = ()  # power.Endurance at cruise and full ahead
    curves_read_at: tuple = ()  # V: where each thrust curve is read (its data's end if short)
    no_rest: str = ''  # why there is no rest at the surface (it sinks), when rests is empty
    water: float = water_density()  # kg/m^3
    trim: object = None  # physics.trim.Trim: net buoyancy and what trims it
    published: dict = None  # the base's published top speed: {'speed': m/s, 'fitted': bool}
    added: tuple = ()  # physics.drag.AddedDrag of each part the config adds to its base's
    added_speed: float | None = None  # m/s full ahead with the added parts' drag
    #: an ArduSub ROV's run ahead at full forward stick and the default pilot gain, per ESC
    #: model (ardupilot.plugin.ESC_MODES: 'curve', 'linear') -> manoeuvring.Dip
    pilot_dips: dict = None


def vehicle_info(config, name: str | None = None, water=None) -> Info:
    """
    Return everything ``info`` prints, for a config file (None: the default vehicle).

    ``water``: sea, fresh or a density in kg/m^3 (formats/water.py); None: the config's.
    """
    resolved = resolve_config(config, name=name)
    rho = resolved.config.water if water is None else water_density(water)
    catalogue = resolved.catalogue()
    vehicle = Vehicle.from_tree(resolved.tree, resolved.record, catalogue)
    try:
        rests, no_rest = {model: stability.rest(resolved.urdf, model, water=rho)
                          for model in stability.MODELS}, ''
    except (HydrostaticsError, StabilityError) as error:  # the rest of the figures still hold
        rests, no_rest = {}, str(error)
    limits = propulsion.thrust_limits(resolved.record, catalogue)
    coefficients = catalogue[resolved.record.base.type].hydrodynamics
    performance = propulsion.performance(vehicle, limits, coefficients) if coefficients else None
    shapes = hydrostatics.collision_shapes(resolved.urdf, _poses(vehicle))
    cylinders = tuple(sorted({s.link for s in shapes if isinstance(s, hydrostatics.Cylinder)}))
    rigid = stability.mass_properties(vehicle)
    body = manoeuvring.body(vehicle, limits, coefficients) if coefficients and limits else None
    runs = tuple(manoeuvring.run(body, ahead, RUN_SECONDS) for ahead in (True, False)) \
        if body is not None and body.thrusters else ()
    pitch_body = manoeuvring.pitch_body(vehicle, shapes, limits, coefficients, rho) \
        if runs else None
    dips = tuple(manoeuvring.dip(pitch_body, ahead, RUN_SECONDS) for ahead in (True, False)) \
        if pitch_body is not None else ()
    allocator = allocation.Allocator(vehicle, limits) if limits else None
    battery = power.vehicle_battery(resolved.record, catalogue)
    throttles = power.Throttles(resolved.record, catalogue, limits)
    endurance = _endurance(battery, throttles, allocator, performance, coefficients)
    base = catalogue[resolved.record.base.type]
    trimmed = trim_module.trim(vehicle, shapes, catalogue, base.type, rho)
    added = _added_drag(resolved, shapes, rests, trimmed.dives)
    extra = sum(part.quadratic(rho) for part in added)
    added_speed = propulsion.steady_speed(performance.forward_thrust, coefficients.get(
        'xU', 0.0), coefficients.get('xUabsU', 0.0) + extra) \
        if extra and performance is not None and performance.forward_speed else None
    autopilot = _autopilot(resolved, vehicle, catalogue)
    return Info(resolved.name, vehicle.root_link, rigid.mass, tuple(rigid.centre), rests,
                limits, performance, cylinders, autopilot,
                body, runs, pitch_body, dips, allocator, battery, endurance,
                tuple(sorted({c.clamped(throttles.voltage) for c in throttles.curves.values()})),
                no_rest, rho, trimmed, _published(base), tuple(added), added_speed,
                _pilot_dips(autopilot, pitch_body, resolved, catalogue, limits))


def _pilot_dips(wiring, pitch_body, resolved, catalogue, limits) -> dict:
    """
    Return how an ArduSub ROV pitches at full forward stick, per ESC model (Info.pilot_dips).

    ArduSub's output at the default gain is half the PWM span (1700 us); the ESC system gives
    each propeller its curve's thrust there (16 V, as build_gazebo reads them), the linear map
    half its limit.
    """
    from ..formats.autopilot_frames import ARDUSUB_PILOT_GAIN

    if pitch_body is None or wiring is None or isinstance(wiring, str) \
            or wiring.frame.firmware != 'ardusub':
        return {}
    curved = power.Throttles(resolved.record, catalogue, limits,
                             power.NO_BATTERY_VOLTAGE).shares(ARDUSUB_PILOT_GAIN)
    linear = (ARDUSUB_PILOT_GAIN, ARDUSUB_PILOT_GAIN)  # also a propeller without a curve's
    return {mode: manoeuvring.dip(pitch_body, True, PILOT_RUN_SECONDS, shares={
        name: curved.get(name, linear) if mode == 'curve' else linear
        for name in pitch_body.names}) for mode in ('curve', 'linear')}


def _published(base) -> dict:
    """Return the base's published top speed and whether its drag is fitted to it."""
    figures = base.data.get('hydrostatics') or {}
    if figures.get('top_speed') is None:
        return {}
    return {'speed': float(figures['top_speed']),
            'fitted': figures.get('top_speed_fitted') is True}


def _added_drag(resolved, shapes, rests, dives: bool) -> list:
    """
    Return the drag of the parts the config adds to its base's own vehicle (physics/drag.py).

    The base's vehicle is the base alone with every slot at its default; a part not in it
    (by name and type) is added. Under water: all of a diving vehicle, below the rest's
    surface for a boat (none without a rest).
    """
    from ..assembly.resolution import resolve
    from ..formats.config import from_data

    record = resolved.record
    base = {'type': record.base.type, 'name': record.base.name}
    default = resolve(from_data({'base': base}), shipped=resolved.catalogue())
    if default.problems:  # the base alone does not resolve: nothing to compare with
        return []
    if dives:
        surface = None
    elif rests:
        surface = -rests['exact'].z  # the surface in the root frame, the trim left out
    else:
        return []
    return drag.added_drag(drag.added_parts(record, default.record), record, shapes, surface)


def _endurance(battery, throttles, allocator, performance, coefficients) -> tuple:
    """
    Return the draw at cruise and at full ahead, and how long the battery gives it.

    Cruise is half the top speed: the surge force that balances the damping there (the
    Hydrodynamics coefficients, as the top speed). Full ahead is the largest surge the
    allocator gives. The propellers' thrusts are the allocator's for that surge alone; where
    the battery's voltage gives less than the limits (set at 16 V), the label says what full
    throttle gives there.
    """
    if battery is None or allocator is None or 0 not in allocator.axes or \
            set(allocator.names) - set(throttles.curves):
        return ()
    states = []
    largest = allocator.largest(0, 1.0)
    if performance is not None and performance.forward_speed:
        speed = performance.forward_speed / 2
        drag = -coefficients.get('xU', 0.0) * speed - coefficients.get('xUabsU', 0.0) * speed ** 2
        if drag <= largest:  # else even cruise asks more than the propellers give together
            states.append((f'cruise, half the top speed ({speed:.2f} m/s)', drag))
    states.append(('full ahead', largest))
    found = []
    for label, surge in states:
        thrusts = allocator.allocate([surge, 0, 0, 0, 0, 0]).thrusts
        settings = {name: throttles.throttle(name, thrust) for name, thrust in thrusts.items()}
        given = plain(sum(allocator.matrix[0][i] * throttles.thrust(name, settings[name])
                          for i, name in enumerate(allocator.names)))
        text = f'{label}: {surge:.1f} N of surge'
        if given < surge * 0.995:
            full = all(abs(settings[name]) >= 1.0
                       for name, thrust in thrusts.items() if abs(thrust) > 1e-9)
            text = (f"{label}: {'full throttle' if full else 'short of it at the battery'}, "
                    f'{given:.1f} N of surge at {throttles.voltage:g} V ({surge:.1f} N at '
                    f'{power.NO_BATTERY_VOLTAGE:g} V)')
        found.append(power.endurance(battery, throttles, text, thrusts))
    return tuple(found)


def _autopilot(resolved, vehicle, catalogue):
    """Return the ArduPilot wiring of a base that declares a frame, or why it fails."""
    if catalogue[resolved.record.base.type].autopilot_frame is None:
        return None
    try:
        return wire(resolved.resolution, vehicle, catalogue)
    except AssemblyError as error:
        return str(error)


def _poses(vehicle):
    from ..model.kinematics import link_poses

    return link_poses(vehicle)


def plain(value: float) -> float:
    """Return a sum of thrusts without its rounding noise (no -0.0 from a cos(90 deg))."""
    return round(value, 9) + 0.0
