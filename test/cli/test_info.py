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
``bluerobotics-parts info``: the figures against hand calculations.

What the simulation shows is compared with the same figures in gazebo/test_boat_in_gazebo.py.
"""

from __future__ import annotations

import math

from bluerobotics_parts.assembly import catalogue as part_catalogue, pipeline
from bluerobotics_parts.assembly.catalogue import shipped
from bluerobotics_parts.cli.info import info_text, vehicle_info
from bluerobotics_parts.model.vehicle import Vehicle
from bluerobotics_parts.physics import propulsion, water
from conftest import cli, CONFIG_DIR, REPO, write_config
import pytest

RAFT = """\
type: raft
inertial:
  mass: {mass}
  mass_unverified: example
  com: [0.0, 0.0, 0.0]
  com_unverified: example
  inertia: {{ixx: 1.0, ixy: 0.0, ixz: 0.0, iyy: 1.0, iyz: 0.0, izz: 1.0}}
  inertia_unverified: example
collision:
  - box: [1.0, 1.0, 0.2]
    box_unverified: example
"""


@pytest.fixture(scope='module')
def default():
    return vehicle_info(CONFIG_DIR / 'blueboat.yaml')


def test_mass_and_centre_of_gravity_are_the_parts(default):
    """
    Add up the parts: 17.05 kg.

    14.15 kg chassis, two 0.15 kg M200s, the 0.05 kg flag, two 1.15 kg batteries, the Ping kit
    (0.1 kg bracket, 0.15 kg Ping).
    """
    assert default.mass == pytest.approx(14.15 + 2 * 0.15 + 0.05 + 2 * 1.15 + 0.1 + 0.15)
    moment_y = (0.301 - 0.301) * 0.15 + 0.2 * 0.05 + (0.3615 - 0.3615) * 1.15 - 0.27 * 0.25
    assert default.centre_of_gravity[1] == pytest.approx(moment_y / default.mass, abs=1e-9)


def test_displacement_draft_and_metacentric_heights_by_hand(default):
    """
    The hulls.

    2 x 6 boxes tiling 1.051 x 0.14404 x 0.1834 m at y = +/-0.3615, centre z 0.059. Level, V = m /
    rho; BM = I / V with I the waterplane's second moment: roll 2 (L W y^2 + L W^3 / 12), pitch 2 W
    L^3 / 12; for gz-sim 8 the boxes' own moments drop out (roll: L W^3 / 12; pitch: a 1/36 of it).
    KB and KG from the hull bottom.
    """
    length, width, height, y, centre = 1.051, 0.14404, 0.1834, 0.3615, 0.059
    volume = default.mass / water.SEA_WATER_DENSITY
    draft = volume / (2 * length * width)  # the Ping kit's few cm^3 left out: 0.5%
    bottom = centre - height / 2
    kb, kg = draft / 2, default.centre_of_gravity[2] - bottom
    exact, harmonic = default.rests['exact'], default.rests['harmonic']
    assert exact.displaced_volume == pytest.approx(volume, rel=0.003)  # air above: 0.2%
    assert exact.z == pytest.approx(-(bottom + draft), abs=0.001)
    roll_moment = 2 * (length * width * y ** 2 + length * width ** 3 / 12)
    pitch_moment = 2 * width * length ** 3 / 12
    assert exact.gm_t == pytest.approx(roll_moment / volume + kb - kg, rel=0.01)
    assert exact.gm_l == pytest.approx(pitch_moment / volume + kb - kg, rel=0.01)
    assert harmonic.gm_t == pytest.approx(2 * length * width * y ** 2 / volume + kb - kg, rel=0.01)
    assert harmonic.gm_l == pytest.approx(pitch_moment * (1 - 1 / 36) / volume + kb - kg,
                                          rel=0.01)
    assert exact.roll_stiffness == pytest.approx(exact.gm_t * default.mass * water.GRAVITY)


def test_thrust_limits_and_top_speed_by_hand(default):
    fraction = 8.2 / (2 * 5.63)  # the boat's static thrust over the two bench figures
    assert [(limit.instance, limit.part_type) for limit in default.limits.values()] == [
        ('motor_port', 'm200_weedless_prop_ccw'), ('motor_stbd', 'm200_weedless_prop_cw')]
    for limit in default.limits.values():
        assert limit.maximum == pytest.approx(55.2 * fraction, rel=1e-4)
        assert limit.minimum == pytest.approx(-27.6 * fraction, rel=1e-4)
    data = shipped()['blueboat_chassis'].hydrodynamics
    a, b, thrust = -data['xUabsU'], -data['xU'], 2 * 55.2 * fraction
    assert default.performance.forward_speed == pytest.approx(
        (-b + math.sqrt(b * b + 4 * a * thrust)) / (2 * a), rel=1e-4)
    assert default.performance.forward_speed == pytest.approx(3.0, rel=0.03)
    assert default.performance.reverse_speed < 0
    # one motor: its thrust at its 0.301 m lever, against nR r + nRabsR r |r|
    moment = -0.301 * 55.2 * fraction
    a, b = -data['nRabsR'], -data['nR']
    assert default.performance.turn_yaw_rate == pytest.approx(
        -(-b + math.sqrt(b * b + 4 * a * -moment)) / (2 * a), rel=1e-4)


def test_the_command_prints_it(tmp_path):
    result = cli('info', CONFIG_DIR / 'blueboat.yaml')
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert text == info_text(vehicle_info(CONFIG_DIR / 'blueboat.yaml'))
    for words in ('mass: 17.050 kg', 'centre of gravity: (', 'displacement', 'trim (pitch',
                  'draft, hull', 'GM_T', 'GM_L', 'exact', 'gz-sim 8 Buoyancy',
                  'motor_port: m200_weedless_prop_ccw: -20.10 to 40.20 (bench -27.6 to 55.2)',
                  'full ahead: 80.4 N -> surge 3.000 m/s', 'yaw rate'):
        assert words in text, words
    assert 'note: cylinder' not in text  # no shipped part has one


def test_a_vehicle_without_hydrodynamics_or_propellers(tmp_path):
    (tmp_path / 'raft.yaml').write_text(RAFT.format(mass=20.0), encoding='utf-8')
    config = write_config(tmp_path, 'part_files: [raft.yaml]\nbase: {type: raft}\n')
    result = cli('info', config)
    assert result.returncode == 0, result.stderr
    assert 'thrust limits: no propellers' in result.stdout
    assert 'top speed: the base part has no hydrodynamics coefficients' in result.stdout
    assert 'displacement' in result.stdout


def test_a_vehicle_that_sinks_is_said_so_and_the_rest_still_printed(tmp_path):
    """A shipped example (a payload that sinks the ROV) once gave an error and no figures."""
    (tmp_path / 'raft.yaml').write_text(RAFT.format(mass=500.0), encoding='utf-8')
    config = write_config(tmp_path, 'part_files: [raft.yaml]\nbase: {type: raft}\n')
    result = cli('info', config)
    assert result.returncode == 0 and 'Traceback' not in result.stderr, result.stderr
    assert ('at rest in sea water (1025 kg/m^3): none at the surface: the vehicle sinks: '
            '500.00 kg') in result.stdout
    assert 'mass: 500.000 kg' in result.stdout and 'thrust limits: no propellers' \
        in result.stdout
    untrimmed = write_config(tmp_path, 'name: bluerov2\nbase: {type: bluerov2_frame}\nparts:\n'
                             '  - {slot: gripper, type: newton_gripper}\n'
                             '  - {slot: payload, type: bluerov2_payload_skid}\n'
                             '  - {slot: dvl, of: payload, type: dvl_a50}\n', 'payload.yaml')
    example = cli('info', untrimmed)  # the payload example before its foam and ballast
    assert example.returncode == 0, example.stderr
    assert 'none at the surface: the vehicle sinks' in example.stdout
    assert 'largest: surge +88.3' in example.stdout


def test_a_cylinder_collision_is_noted(tmp_path):
    cylinder = ('  - cylinder: {radius: 0.05, length: 0.3}\n    cylinder_unverified: example\n'
                '    xyz: [0.0, 0.0, -0.1]\n    xyz_unverified: example\n')
    (tmp_path / 'raft.yaml').write_text(RAFT.format(mass=20.0) + cylinder, encoding='utf-8')
    config = write_config(tmp_path, 'part_files: [raft.yaml]\nbase: {type: raft}\n')
    text = info_text(vehicle_info(config))
    assert 'note: cylinder collisions on base_link: gz-sim 8.0 to 8.11 give them no buoyancy' \
        in text


def test_a_vehicle_gazebo_would_capsize_is_warned_about(tmp_path):
    """
    Warn about one box with the weight 0.3 m up.

    Upright in still water (GM 3.9 m: the box's wide waterplane), but Gazebo's per-shape cut
    keeps no waterplane term, so there GM = KB - KG < 0.
    """
    (tmp_path / 'raft.yaml').write_text(RAFT.format(mass=20.0).replace(
        'com: [0.0, 0.0, 0.0]', 'com: [0.0, 0.0, 0.3]'), encoding='utf-8')
    config = write_config(tmp_path, 'part_files: [raft.yaml]\nbase: {type: raft}\n')
    info = vehicle_info(config)
    assert info.rests['exact'].gm_t > 3 and info.rests['harmonic'].gm_t < 0
    text = info_text(info)
    assert 'warning: a negative GM: the vehicle does not stay upright in Gazebo' in text
    assert 'upright in still water' not in text


def test_endurance_from_the_curves_by_hand(default):
    """
    Cruise: the damping at half the top speed; its current from the M200 curve at 14.8 V.

    By hand: half of 3.0 m/s is 1.5 m/s, where xU u + xUabsU u^2 = 1.675 * 1.5 + 8.375 * 2.25
    = 21.36 N: 10.68 N installed per motor, 14.67 N bench (fraction 0.7282).
    """
    from bluerobotics_parts.physics import thrust_curves

    assert (default.battery.packs, default.battery.capacity) == (2, 36.0)
    cruise, full = default.endurance
    assert sum(cruise.thrusts.values()) == pytest.approx(21.36, abs=0.02)
    curve = thrust_curves.load('m200_weedless')
    each = curve.current(curve.throttle(10.68 / 0.7282, 14.8), 14.8)
    assert cruise.current == pytest.approx(2 * each, rel=2e-3)
    assert cruise.hours == pytest.approx(36.0 / (2 * each), rel=2e-3)
    # full ahead asks for more than the M200 gives at 14.8 V: full throttle, its current
    assert full.current == pytest.approx(2 * curve.current(1.0, 14.8))
    text = info_text(default)
    assert 'battery: 2 x 14.8 V, 36 Ah in all (533 Wh, 120 A continuous)' in text
    assert f'-> {cruise.current:.1f} A' in text and f'{cruise.hours:.1f} h' in text


def test_the_boat_at_1_m_s_lasts_about_what_its_datasheet_says(default):
    """
    The BlueBoat datasheet (v1.1, January 2025, as transcribed): 18 h at 1 m/s on two packs.

    Ours counts the propellers alone, so it must last longer, but not much: the electronics
    of a boat draw a few watts (docs/LIMITATIONS.md, "Thrust, propellers and batteries": 20.8 h
    here).
    """
    from bluerobotics_parts.physics import power
    from bluerobotics_parts.assembly.pipeline import resolve_config

    resolved = resolve_config(CONFIG_DIR / 'blueboat.yaml')
    throttles = power.Throttles(resolved.record, resolved.catalogue(), default.limits)
    drag = 1.675 * 1.0 + 8.375 * 1.0 ** 2
    state = power.endurance(default.battery, throttles, '1 m/s',
                            {'motor_port': drag / 2, 'motor_stbd': drag / 2})
    assert 18.0 < state.hours < 18.0 * 1.25


def test_a_run_that_runs_away_is_said_so_not_printed_as_numbers(default):
    """A model that runs away (a coefficient feeding the motion) prints no NaN, no noise."""
    import dataclasses

    ahead, astern = default.runs
    runs = (dataclasses.replace(ahead, runaway=0.34, final_speed=float('nan')), astern)
    text = info_text(dataclasses.replace(default, runs=runs))
    assert '  full ahead: the model runs away after 0.34 s (a speed past 1000 m/s or a rate ' \
        'past 1000 rad/s): check the hydrodynamics coefficients' in text
    assert 'nan' not in text


def test_a_run_still_gathering_way_gives_no_rise_time(default):
    import dataclasses

    ahead, astern = default.runs
    runs = (dataclasses.replace(ahead, settled=False, rise_time=None), astern)
    text = info_text(dataclasses.replace(default, runs=runs))
    assert f'  full ahead: still gathering way at 30 s ({ahead.final_speed:.3f} m/s);' in text


def test_a_battery_beyond_the_curves_data_is_said_so(default):
    """The M200 curves end at 20 V: a 48 V pack is read there, and the figures are rough."""
    import dataclasses

    battery = dataclasses.replace(default.battery, voltage=48.0)
    text = info_text(dataclasses.replace(default, battery=battery, curves_read_at=(20.0,)))
    assert ("thrust curves read at 20 V, where their data end short of the battery's: the "
            'figures below are rough') in text
    info = vehicle_info(CONFIG_DIR / 'blueboat.yaml')
    assert info.curves_read_at == (14.8,)  # the shipped pack is within them


def test_no_negative_zero_from_rounding(default):
    """A thrust that sums to -1e-15 (a cos(90 deg)) prints as 0.0, a wrench none way as 0."""
    import dataclasses

    performance = dataclasses.replace(default.performance, reverse_thrust=-1e-15,
                                      reverse_speed=None)
    text = info_text(dataclasses.replace(default, performance=performance))
    assert '  full astern: 0.0 N -> no steady speed' in text
    assert ' -0.0 N' not in text and '/ -0.0' not in text


def test_full_ahead_says_what_full_throttle_gives_at_the_batterys_voltage():
    """
    The limits (Gazebo's, 80.4 N for the boat) are the curves at 16 V; the 14.8 V packs give less.

    The line says the thrust full throttle gives at the battery's voltage, from the curve, and
    the 16 V figure the simulation uses; cruise, within reach, keeps its plain form.
    """
    from bluerobotics_parts.physics import power

    info = vehicle_info(CONFIG_DIR / 'blueboat.yaml')
    resolved = pipeline.resolve_config(CONFIG_DIR / 'blueboat.yaml')
    catalogue = part_catalogue.catalogue([f for _, f in resolved.record.part_files])
    limits = propulsion.thrust_limits(resolved.record, catalogue)
    throttles = power.Throttles(resolved.record, catalogue, limits)
    given = sum(throttles.thrust(name, 1.0) for name in limits)
    assert given == pytest.approx(73.8, abs=0.05) and throttles.voltage == 14.8
    text = info_text(info)
    assert (f'  full ahead: full throttle, {given:.1f} N of surge at 14.8 V (80.4 N at 16 V) -> '
            in text)
    assert '  cruise, half the top speed (1.50 m/s): ' in text
    assert 'full throttle' not in next(line for line in text.splitlines()
                                       if line.startswith('  cruise'))


def test_a_draw_above_the_packs_continuous_rating_is_said_so():
    """
    Blue Robotics rate the 18 Ah pack for 60 A continuous (battery guide, BR-100842).

    A BlueROV2 full ahead draws more (its four horizontal T200s at their limits); the
    BlueBoat's two packs give 120 A, well above its 40 A.
    """
    rov = info_text(vehicle_info(CONFIG_DIR / 'bluerov2.yaml'))
    assert 'battery: 1 x 14.8 V, 18 Ah in all (266 Wh, 60 A continuous)' in rov
    full = next(line for line in rov.splitlines() if line.startswith('  full ahead: full '))
    assert float(full.split('-> ')[1].split(' A')[0]) > 60
    assert full.endswith(': above the continuous rating of 60 A')
    boat = info_text(vehicle_info(CONFIG_DIR / 'blueboat.yaml'))
    assert '(533 Wh, 120 A continuous)' in boat and 'above the continuous rating' not in boat


def test_the_rating_is_left_out_when_a_pack_does_not_give_one():
    from bluerobotics_parts.physics import power

    class Part:
        def __init__(self, battery):
            self.battery = battery

    class Record:
        parts = [type('P', (), {'type': 'a'}), type('P', (), {'type': 'b'})]

    rated = {'voltage': 14.8, 'capacity': 18.0, 'max_current': 60.0}
    unrated = {'voltage': 14.8, 'capacity': 18.0}
    both = power.vehicle_battery(Record, {'a': Part(rated), 'b': Part(rated)})
    assert both.max_current == 120.0
    one = power.vehicle_battery(Record, {'a': Part(rated), 'b': Part(unrated)})
    assert one.max_current is None and one.capacity == 36.0


def test_a_state_the_battery_gives_only_in_part_is_said_so():
    """One propeller at full throttle, the other not: 'short of it', not 'full throttle'."""
    from bluerobotics_parts.figures.predicted import _endurance
    from bluerobotics_parts.physics import allocation, power

    resolved = pipeline.resolve_config(CONFIG_DIR / 'blueboat.yaml')
    catalogue = part_catalogue.catalogue([f for _, f in resolved.record.part_files])
    limits = propulsion.thrust_limits(resolved.record, catalogue)
    real = allocation.Allocator(Vehicle.from_tree(resolved.tree, resolved.record, catalogue),
                                limits)

    class Asked:  # the real allocation, asked for 70 N ahead as its largest
        names, axes, matrix = real.names, real.axes, real.matrix
        allocate = real.allocate

        def largest(self, axis, sign):
            return 70.0

    class Curves:  # full throttle: 30 N on the port motor, 40 N on the starboard one
        voltage, curves = 14.8, dict.fromkeys(real.names)
        most = {'motor_port': 30.0, 'motor_stbd': 40.0}

        def throttle(self, name, thrust):
            return max(-1.0, min(1.0, thrust / self.most[name]))

        def thrust(self, name, throttle):
            return throttle * self.most[name]

        def current(self, thrusts):
            return 10.0

    battery = power.Battery(1, 14.8, 18.0)
    (state,) = _endurance(battery, Curves(), Asked(), None, {})
    assert state.label == ('full ahead: short of it at the battery, 65.0 N of surge at 14.8 V '
                           '(70.0 N at 16 V)')
    Curves.most = {'motor_port': 30.0, 'motor_stbd': 30.0}
    (state,) = _endurance(battery, Curves(), Asked(), None, {})
    assert state.label.startswith('full ahead: full throttle, 60.0 N of surge')


def test_an_rov_says_what_ardusubs_stabilised_modes_make_of_its_pitch():
    """
    The MANUAL dip's unmeasured inputs; the Heavy held level, the BlueROV2 as its model.

    Full forward stick at ArduSub's default gain asks 1700 us (1300 us of a propeller running
    in reverse); through the ESC curve each gives what Blue Robotics' 16 V table gives there
    against 1900 (1100) us, much less than the half a linear map gives.
    """
    import yaml

    from bluerobotics_parts.physics.manoeuvring import dip

    heavy = info_text(vehicle_info(CONFIG_DIR / 'bluerov2_heavy.yaml'))
    assert "rest on the thrust line's height above the centre of gravity and on BG" in heavy
    assert 'STABILIZE and ALT_HOLD hold it level: ArduSub Vectored_6DOF' in heavy
    info = vehicle_info(CONFIG_DIR / 'bluerov2.yaml')
    text = info_text(info)
    half = dip(info.pitch_body, True, 10.0, throttle=0.5).worst  # JS_GAIN_DEFAULT
    data = yaml.safe_load((REPO / 'urdf' / 'thrust_curves' / 't200.yaml').read_text())
    (row,) = [v for v in data['voltages'] if v['voltage'] == 16]
    force = dict(zip(row['pwm_us'], row['force_kgf']))
    share = (force[1700] / force[1900], force[1300] / force[1100])
    assert 0.3 < share[0] < 0.4 and 0.3 < share[1] < 0.4  # not the linear map's half
    shares = dict.fromkeys(info.pitch_body.names, share)
    curved = dip(info.pitch_body, True, 10.0, shares=shares).worst
    assert info.pilot_dips['linear'].worst == half
    assert info.pilot_dips['curve'].worst == pytest.approx(curved, abs=1e-6)
    assert 5.0 < curved < half < info.dips[0].worst  # less thrust, less of a dip
    assert ('no mode holds its pitch: ArduSub Vectored (FRAME_CONFIG 1) has no pitch '
            'authority; at the default pilot gain (0.5) full forward stick pitches it '
            f'{curved:+.1f} deg at worst through the ESC curve ({half:+.1f} with '
            'esc:=linear') in text
    assert 'pilot gain' not in info_text(vehicle_info(CONFIG_DIR / 'blueboat.yaml'))
