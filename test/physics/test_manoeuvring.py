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
The runs from rest ``info`` predicts (physics/manoeuvring.py), against closed forms.

What Gazebo does with the same vehicles is measured in test/gazebo/test_manoeuvres.py.
"""

import dataclasses
import math

from bluerobotics_parts.cli.info import info_text, vehicle_info
from bluerobotics_parts.physics import manoeuvring
from conftest import CONFIG_DIR
import pytest


def body(**changes) -> manoeuvring.Body:
    """Return a 10 kg body, two thrusters 0.3 m either side along x, linear surge damping."""
    base = manoeuvring.Body(mass=10.0, centre=(0.0, 0.0), yaw_inertia=1.0, added=0.0,
                            added_yaw=0.0, damping={'xU': -20.0, 'nR': -2.0},
                            thrusters=((0.0, 0.3, 1.0, 0.0, 10.0, -5.0),
                                       (0.0, -0.3, 1.0, 0.0, 10.0, -5.0)))
    return dataclasses.replace(base, **changes)


def test_linear_damping_rises_in_its_time_constant():
    """u(t) = F/d (1 - exp(-t d / (m + ma))): 63% at (m + ma) / d."""
    run = manoeuvring.run(body(), True, 10.0)
    assert run.thrust == 20.0
    assert run.final_speed == pytest.approx(1.0, rel=1e-4)
    assert run.rise_time == pytest.approx(0.5, rel=1e-3)
    heavier = manoeuvring.run(body(added=5.0), True, 10.0)
    assert heavier.rise_time == pytest.approx(0.75, rel=1e-3)  # the added mass slows it
    assert heavier.final_speed == pytest.approx(1.0, rel=1e-4)  # not its top speed


def test_quadratic_damping_reaches_its_balance_speed():
    run = manoeuvring.run(body(damping={'xUabsU': -20.0, 'nR': -2.0}), True, 20.0)
    assert run.final_speed == pytest.approx(1.0, rel=1e-4)  # 20 N = 20 u^2
    # u = tanh(t / tau) with tau = m / sqrt(F d): 63% at artanh(0.632) tau = 0.745 s
    assert run.rise_time == pytest.approx(math.atanh(1 - math.exp(-1)) * 10 / 20, rel=1e-3)


def test_astern_takes_the_reverse_limits():
    run = manoeuvring.run(body(), False, 10.0)
    assert run.thrust == -10.0 and run.final_speed == pytest.approx(-0.5, rel=1e-4)


def test_a_symmetric_body_keeps_its_heading():
    run = manoeuvring.run(body(), True, 20.0)
    assert run.heading_change == pytest.approx(0.0, abs=1e-9)
    assert run.distance == pytest.approx(run.final_speed * 20.0 - 0.5, rel=1e-3)


def test_off_centre_mass_turns_it_while_it_gathers_way():
    """
    Accelerating, the mass 1 cm to port lags: about the origin it turns the bow to port.

    With nothing that steers it back the heading stays turned once the speed is steady.
    """
    run = manoeuvring.run(body(centre=(0.0, 0.01)), True, 20.0)
    assert run.heading_change > 0.05
    longer = manoeuvring.run(body(centre=(0.0, 0.01)), True, 40.0)
    assert longer.heading_change == pytest.approx(run.heading_change, rel=0.05)
    assert manoeuvring.run(body(centre=(0.0, -0.01)), True, 20.0).heading_change == \
        pytest.approx(-run.heading_change)


def test_a_fin_aft_steadies_it_ahead_and_unsteadies_it_astern():
    """Lift of a fin 0.5 m aft: a drift to port gives it a force to starboard, bow to port."""
    fin = {'xU': -20.0, 'nR': -2.0, 'yV': -20.0, 'yVabsU': -10.0, 'nVabsU': 20.0,
           'yRabsU': 10.0, 'nRabsU': -2.5}
    free = manoeuvring.run(body(centre=(0.0, 0.01)), True, 20.0)
    ahead = manoeuvring.run(body(centre=(0.0, 0.01), damping=fin), True, 20.0)
    astern = [manoeuvring.run(body(centre=(0.0, 0.01), damping=fin), False, seconds)
              for seconds in (10.0, 20.0)]
    assert abs(ahead.heading_change) < 0.6 * abs(free.heading_change)
    assert 10.0 < abs(astern[0].heading_change) < abs(astern[1].heading_change)


@pytest.mark.parametrize('config, added, rise, heading', [
    ('blueboat.yaml', 0.85, (0.45, 0.56), (-2.0, -1.0)),
    ('bluerov2.yaml', 3.74, (0.10, 0.14), (-1e-6, 1e-6)),
    ('bluerov2_heavy.yaml', 6.36, (0.10, 0.14), (-1e-6, 1e-6)),
])
def test_the_shipped_vehicles(config, added, rise, heading):
    info = vehicle_info(CONFIG_DIR / config)
    assert info.body.mass == pytest.approx(info.mass)
    assert info.body.centre == pytest.approx(info.centre_of_gravity[:2])
    assert info.body.added == added
    ahead, astern = info.runs
    assert rise[0] < ahead.rise_time < rise[1]
    assert heading[0] < ahead.heading_change < heading[1]
    assert ahead.final_speed == pytest.approx(info.performance.forward_speed, rel=1e-3)
    if config != 'blueboat.yaml':  # astern, the boat turns away (its pods sit aft)
        assert astern.final_speed == pytest.approx(info.performance.reverse_speed, rel=1e-3)


def test_info_prints_the_runs():
    text = info_text(vehicle_info(CONFIG_DIR / 'blueboat.yaml'))
    assert ('runs from rest, equal thrust, 30 s (surge, sway and yaw; added mass 0.85 kg in '
            'translation, 0.92 kg m^2 in yaw; centre of gravity -0.0034 m off the centre '
            'line):') in text
    assert '  full ahead: 63% of 3.000 m/s in 0.51 s; heading -1.6 deg' in text
    # the motors' pods sit aft: ahead they hold the heading, astern they turn it away
    (astern,) = [line for line in text.splitlines() if line.startswith('  full astern: 63%')]
    assert astern.endswith('it does not hold its heading')


def pitch_body(**changes) -> manoeuvring.PitchBody:
    """
    Return a 10 kg submerged body, neutral, 5 cm between its centres, pulled along the origin.

    Its centre of gravity is at the origin and its buoyancy 5 cm above it; two thrusters pull
    along x at the origin's height. Surge damping linear, pitch damping heavy enough to settle.
    """
    weight = 10.0 * manoeuvring.water.GRAVITY
    base = manoeuvring.PitchBody(
        mass=10.0, centre=(0.0, 0.0), pitch_inertia=0.2, buoyancy=weight,
        buoyancy_centre=(0.0, 0.05), added=0.0, added_pitch=0.0,
        damping={'xU': -20.0, 'mQ': -2.0},
        thrusters=((0.0, 0.0, 1.0, 0.0, 10.0, -5.0), (0.0, 0.0, 1.0, 0.0, 10.0, -5.0)))
    return dataclasses.replace(base, **changes)


def test_a_pull_through_the_centre_of_gravity_does_not_tip_it():
    dip = manoeuvring.dip(pitch_body(), True, 10.0)
    assert dip.worst == pytest.approx(0.0, abs=1e-9) and dip.final == pytest.approx(0.0, abs=1e-9)


def test_a_thrust_line_above_the_centre_of_gravity_dips_the_bow_while_it_gathers_way():
    """
    Thrust 20 N and the drag both act 2 cm above the centre of gravity (at the origin).

    While it gathers way the part of the thrust the drag does not yet balance, m du/dt,
    tips the bow down (+, REP 103); under way the drag balances it at the same height and
    the pitch returns to level. Astern the bow comes up.
    """
    body = pitch_body(centre=(0.0, -0.02), buoyancy_centre=(0.0, 0.03))
    dip = manoeuvring.dip(body, True, 30.0)
    assert body.thrust_lever == pytest.approx(0.02)
    assert dip.worst > 0.5  # bow down while it gathers way
    assert dip.final == pytest.approx(0.0, abs=1e-3)  # level under way
    astern = manoeuvring.dip(body, False, 30.0)
    assert astern.worst < 0.0  # astern the bow comes up


def test_a_thrust_line_off_the_drag_line_holds_a_steady_pitch():
    """Thrust 5 cm above the origin, drag at the origin: sin(pitch) = F h / (B BG)."""
    thrusters = ((0.0, 0.05, 1.0, 0.0, 10.0, -5.0), (0.0, 0.05, 1.0, 0.0, 10.0, -5.0))
    body = pitch_body(thrusters=thrusters)
    dip = manoeuvring.dip(body, True, 40.0)
    expected = math.degrees(math.asin(20.0 * 0.05 / (body.buoyancy * 0.05)))
    assert dip.final == pytest.approx(expected, rel=1e-3)


def test_more_restoring_moment_tips_it_less():
    body = pitch_body(centre=(0.0, -0.04), buoyancy_centre=(0.0, -0.03))
    low = manoeuvring.dip(body, True, 10.0).worst
    high = manoeuvring.dip(dataclasses.replace(body, buoyancy_centre=(0.0, 0.0)), True,
                           10.0).worst
    assert 0.0 < high < low


@pytest.mark.parametrize('config, lever, worst', [
    ('bluerov2.yaml', 0.039, (14.0, 16.5)),
    ('bluerov2_heavy.yaml', 0.029, (9.5, 11.5)),
])
def test_the_rovs_dip_their_bows_while_they_gather_way(config, lever, worst):
    """The horizontal thrusters pull 4 cm above the centre of gravity (docs/LIMITATIONS.md)."""
    info = vehicle_info(CONFIG_DIR / config)
    assert info.pitch_body.thrust_lever == pytest.approx(lever, abs=0.001)
    assert info.pitch_body.mass == pytest.approx(info.mass)
    ahead, astern = info.dips
    assert worst[0] < ahead.worst < worst[1]
    assert -worst[1] - 1.0 < astern.worst < -worst[0]
    assert abs(ahead.final) < 1.0 and abs(astern.final) < 1.0
    text = info_text(info)
    assert (f'pitch in those runs, submerged (surge and pitch; the thrust line +{lever:.3f} m '
            'above the centre of gravity; + bow down):') in text
    assert f'  full ahead: {ahead.worst:+.1f} deg at worst while it gathers way' in text


def test_a_boat_gets_no_pitch_run():
    info = vehicle_info(CONFIG_DIR / 'blueboat.yaml')
    assert info.pitch_body is None and info.dips == ()
    assert 'pitch in those runs' not in info_text(info)


def test_a_coefficient_that_feeds_the_motion_stops_the_run_as_a_runaway():
    """Positive damping (the loader refuses it in part files) ends the run, never in NaN."""
    run = manoeuvring.run(body(damping={'xU': 20.0, 'nR': -2.0}), True, 30.0)
    assert run.runaway is not None and 0.0 < run.runaway < 30.0
    assert math.isfinite(run.final_speed) and abs(run.final_speed) <= manoeuvring.RUNAWAY
    assert run.rise_time is None and not run.settled


def test_a_run_without_damping_is_still_gathering_way():
    run = manoeuvring.run(body(damping={}), True, 10.0)
    assert run.runaway is None and not run.settled and run.rise_time is None
    assert run.final_speed == pytest.approx(20.0 / 10.0 * 10.0, rel=1e-3)  # a = F / m


def test_the_rise_is_met_on_the_side_the_run_ends():
    """A speed that swings past zero is not counted as reaching 63% of the other side."""
    speeds = [-0.2, -0.4, 0.1, 0.5, 0.6]
    assert manoeuvring._crossing(speeds, 0.35) == pytest.approx(
        manoeuvring.STEP * (3 + (0.35 - 0.1) / (0.5 - 0.1)))


def test_the_distance_is_the_path_not_the_displacement():
    """Circling (one thruster pushing harder) travels far and ends near where it began."""
    circling = body(thrusters=((0.0, 0.3, 1.0, 0.0, 10.0, -10.0),
                               (0.0, -0.3, 1.0, 0.0, 5.0, -10.0)),
                    damping={'xU': -20.0, 'yV': -20.0, 'nR': -2.0})
    run = manoeuvring.run(circling, True, 20.0)
    assert abs(run.heading_change) > 720.0  # two turns and more
    assert run.distance > 10.0 and abs(run.drift) < 2.0


def test_a_pitch_that_runs_away_is_stopped_before_math_fails():
    """A positive pitch damping (refused by the loader) once raised a math domain error."""
    info = vehicle_info(CONFIG_DIR / 'bluerov2.yaml')
    body_ = dataclasses.replace(info.pitch_body, damping={'mQ': 50.0, 'xUabsU': -80.0})
    dip = manoeuvring.dip(body_, True, 30.0)
    assert dip.runaway is not None and math.isfinite(dip.worst)
