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
Thrust allocation (physics/allocation.py) against the tests' own geometry.

The wrench the allocated thrusts make is recomputed here from the URDF itself: each rotor
joint's pose composed from the joint origins (URDF rpy: about the fixed x, then y, then z,
so R = Rz Ry Rx), its axis as the force, its position's moment about the root origin.
"""

from xml.etree import ElementTree

from bluerobotics_parts.assembly.pipeline import resolve_config
from bluerobotics_parts.model.vehicle import Vehicle
from bluerobotics_parts.physics import propulsion
from bluerobotics_parts.physics.allocation import Allocator, AXES
from conftest import CONFIG_DIR, write_config
import numpy as np
import pytest


def rpy_rotation(roll, pitch, yaw) -> np.ndarray:
    c, s = np.cos, np.sin
    rx = np.array([[1, 0, 0], [0, c(roll), -s(roll)], [0, s(roll), c(roll)]])
    ry = np.array([[c(pitch), 0, s(pitch)], [0, 1, 0], [-s(pitch), 0, c(pitch)]])
    rz = np.array([[c(yaw), -s(yaw), 0], [s(yaw), c(yaw), 0], [0, 0, 1]])
    return rz @ ry @ rx


def geometry(urdf: str) -> dict:
    """Return joint name -> (position, axis) in the root frame, from the URDF alone."""
    root = ElementTree.fromstring(urdf)
    joints = {j.find('child').get('link'): j for j in root.findall('joint')}
    found = {}
    for joint in root.findall('joint'):
        if joint.get('type') != 'continuous':
            continue
        position, rotation, link = np.zeros(3), np.eye(3), joint.find('child').get('link')
        chain = []
        while link in joints:
            chain.append(joints[link])
            link = joints[link].find('parent').get('link')
        for step in reversed(chain):
            origin = step.find('origin')
            xyz = np.array([float(v) for v in origin.get('xyz').split()])
            rpy = [float(v) for v in origin.get('rpy').split()]
            position = position + rotation @ xyz
            rotation = rotation @ rpy_rotation(*rpy)
        axis = np.array([float(v) for v in joint.find('axis').get('xyz').split()])
        found[joint.get('name')] = (position, rotation @ (axis / np.linalg.norm(axis)))
    return found


def made_wrench(urdf: str, vehicle: Vehicle, thrusts: dict) -> np.ndarray:
    places = geometry(urdf)
    total = np.zeros(6)
    for name, thrust in thrusts.items():
        position, axis = places[vehicle.actuators[name].joint]
        total += thrust * np.concatenate([axis, np.cross(position, axis)])
    return total


def allocator_of(config):
    resolved = resolve_config(config)
    vehicle = Vehicle.from_urdf(resolved.urdf)
    limits = propulsion.thrust_limits(resolved.record, resolved.catalogue())
    return resolved.urdf, vehicle, Allocator(vehicle, limits)


VEHICLES = {'blueboat.yaml': ('surge', 'yaw'),
            'bluerov2.yaml': ('surge', 'sway', 'heave', 'roll', 'yaw'),
            'bluerov2_heavy.yaml': AXES}


@pytest.mark.parametrize('config', sorted(VEHICLES))
def test_the_axes_the_propellers_act_on(config):
    _, _, allocator = allocator_of(CONFIG_DIR / config)
    assert allocator.axis_names == VEHICLES[config]


@pytest.mark.parametrize('config', sorted(VEHICLES))
@pytest.mark.parametrize('axis, amount', [('surge', 20.0), ('sway', -15.0), ('heave', -20.0),
                                          ('roll', 2.0), ('pitch', -2.0), ('yaw', 5.0)])
def test_a_pure_wrench_is_made_and_nothing_else(config, axis, amount):
    urdf, vehicle, allocator = allocator_of(CONFIG_DIR / config)
    command = np.zeros(6)
    command[AXES.index(axis)] = amount
    result = allocator.allocate(command)
    made = made_wrench(urdf, vehicle, result.thrusts)
    if axis not in VEHICLES[config]:
        assert result.dropped == (axis,) and all(t == 0 for t in result.thrusts.values())
        return
    assert result.scale == 1.0 and result.dropped == ()
    for index in allocator.axes:  # the axes it acts on: the one asked, and no other
        expected = amount if AXES[index] == axis else 0.0
        assert made[index] == pytest.approx(expected, abs=0.02 * abs(amount))


def test_the_boat_shares_surge_and_splits_yaw():
    _, _, allocator = allocator_of(CONFIG_DIR / 'blueboat.yaml')
    assert allocator.allocate([20, 0, 0, 0, 0, 0]).thrusts == pytest.approx(
        {'motor_port': 10.0, 'motor_stbd': 10.0})
    turn = allocator.allocate([0, 0, 0, 0, 0, 5]).thrusts
    assert turn['motor_port'] == pytest.approx(-turn['motor_stbd'])
    assert turn['motor_stbd'] == pytest.approx(5 / (2 * 0.301))


def test_a_command_beyond_the_limits_is_scaled_down_keeping_its_direction():
    urdf, vehicle, allocator = allocator_of(CONFIG_DIR / 'bluerov2.yaml')
    command = np.array([300.0, 100.0, -50.0, 0.0, 0.0, 20.0])
    result = allocator.allocate(command)
    assert 0 < result.scale < 1
    limits = dict(zip(allocator.names, zip(allocator.minimum, allocator.maximum)))
    assert all(limits[n][0] - 1e-9 <= t <= limits[n][1] + 1e-9 for n, t in result.thrusts.items())
    assert max(abs(t - limits[n][0]) < 1e-6 or abs(t - limits[n][1]) < 1e-6
               for n, t in result.thrusts.items())  # one propeller at its limit
    made = made_wrench(urdf, vehicle, result.thrusts)[list(allocator.axes)]
    assert made == pytest.approx(result.scale * command[list(allocator.axes)], abs=1e-6)


def test_the_largest_wrench_uses_the_limits_it_pushes_against():
    _, _, allocator = allocator_of(CONFIG_DIR / 'blueboat.yaml')
    assert allocator.largest(0, 1.0) == pytest.approx(2 * 40.2, abs=0.01)  # both full ahead
    assert allocator.largest(0, -1.0) == pytest.approx(2 * 20.1, abs=0.01)  # astern
    assert allocator.largest(1, 1.0) == 0.0  # no sway
    assert allocator.effort([0.5, 0, 0, 0, 0, 0])[0] == pytest.approx(40.2, abs=0.01)


def test_a_moved_or_added_thruster_changes_the_allocation(tmp_path):
    """A BlueROV2 whose thruster 6 moved 4 cm outboard, and a bow thruster on the BlueBoat."""
    moved = write_config(tmp_path, 'base: {type: bluerov2_frame}\nparts:\n'
                                   '  - {slot: thruster_6, type: none}\n'
                                   '  - {type: t200_thruster_cw, name: outboard_vertical, '
                                   'xyz: [0, 0.149, 0.05], rpy: [0, 1.5707963267948966, 0]}\n',
                         'moved.yaml')
    urdf, vehicle, allocator = allocator_of(moved)
    _, _, standard = allocator_of(CONFIG_DIR / 'bluerov2.yaml')
    assert 'outboard_vertical' in allocator.names
    down = allocator.allocate([0, 0, -20, 0, 0, 0])
    assert down.thrusts['thruster_5'] != pytest.approx(
        standard.allocate([0, 0, -20, 0, 0, 0]).thrusts['thruster_5'])
    made = made_wrench(urdf, vehicle, down.thrusts)
    assert made[2] == pytest.approx(-20.0, rel=0.02)
    added = write_config(tmp_path, 'slots:\n  - {name: bow, xyz: [0.4, 0, -0.1], '
                                   'rpy: [0, 0, 1.5707963267948966], accepts: [t200_thruster_cw], '
                                   'default: t200_thruster_cw, collision: false}\n', 'bow.yaml')
    urdf, vehicle, allocator = allocator_of(added)
    assert allocator.axis_names == ('surge', 'sway', 'yaw')  # the bow thruster adds sway
    result = allocator.allocate([0, 10, 0, 0, 0, 0])
    assert made_wrench(urdf, vehicle, result.thrusts)[1] == pytest.approx(10.0, rel=0.02)


def test_info_prints_the_matrix_and_the_largest_wrench():
    from bluerobotics_parts.cli.info import info_text, vehicle_info

    text = info_text(vehicle_info(CONFIG_DIR / 'blueboat.yaml'))
    assert ('thrust allocation (thrust_allocator; wrench in base_link about its origin): per N '
            'of each propeller') in text
    assert '  surge          1.0000       1.0000' in text
    assert '  yaw           -0.3010       0.3010' in text
    assert '  no propeller acts on: sway, heave, roll' in text
    # the motors push below the origin: a pitch moment, but only with the surge
    assert '  not set apart from the axes above (it follows them): pitch' in text
    assert '  largest: surge +80.4 / -40.2 N, yaw +12.1 / -12.1 N m' in text


def test_info_tells_an_axis_no_propeller_acts_on_from_one_that_follows():
    """The ROV's pitch row is rounding noise (1e-18): no propeller acts on it."""
    from bluerobotics_parts.cli.info import info_text, vehicle_info

    text = info_text(vehicle_info(CONFIG_DIR / 'bluerov2.yaml'))
    assert '  no propeller acts on: pitch' in text
    assert 'it follows them' not in text


@pytest.mark.parametrize('config', ['bluerov2.yaml', 'bluerov2_heavy.yaml'])
def test_the_rov_reaches_every_propeller_at_its_limit_ahead(config):
    """
    Full ahead is every horizontal propeller at the limit that pushes it ahead (88.3 N).

    The front pair pushes at the T200's weaker reverse (-27.24 N), the rear at +35.16 N; the
    plain least-squares split loads all four alike and stopped at 4 x 27.24 x cos 45 deg =
    77.1 N. By hand from the geometry and the installed limits, independently of the solver.
    """
    urdf, vehicle, allocator = allocator_of(CONFIG_DIR / config)
    limits = dict(zip(allocator.names, zip(allocator.minimum, allocator.maximum)))
    places = geometry(urdf)
    by_hand = 0.0
    for name, (low, high) in limits.items():
        _, axis = places[vehicle.actuators[name].joint]
        if abs(axis[0]) > 1e-6:
            by_hand += axis[0] * (high if axis[0] > 0 else low)
    assert by_hand == pytest.approx(88.3, abs=0.05)
    assert allocator.largest(0, 1.0) == pytest.approx(by_hand, rel=1e-6)
    result = allocator.allocate([by_hand * 0.99, 0, 0, 0, 0, 0])
    assert result.scale == 1.0
    made = made_wrench(urdf, vehicle, result.thrusts)
    assert made[0] == pytest.approx(by_hand * 0.99, rel=1e-6)
    assert np.abs(made[1:]).max() < 1e-6  # nothing else: no sway, no turn
    assert all(limits[n][0] - 1e-9 <= t <= limits[n][1] + 1e-9
               for n, t in result.thrusts.items())


@pytest.mark.parametrize('config', ['bluerov2.yaml', 'bluerov2_heavy.yaml'])
def test_the_rov_sways_with_one_front_thruster_held_at_its_reverse(config):
    """
    Full sway is 86.4 N, more than the 78.7 N of holding both saturated ones at once.

    The optimum of the linear programme (maximise sway within the limits, nothing else; HiGHS
    through scipy, run outside the repository) is thrusts (-27.24, 35.16, -25.95, 33.87) on
    thrusters 1-4: it is checked here to make pure sway through the URDF's own geometry.
    """
    urdf, vehicle, allocator = allocator_of(CONFIG_DIR / config)
    optimum = dict(zip(allocator.names, (-27.24, 35.16, -25.95, 33.87)))
    sway = made_wrench(urdf, vehicle, optimum)
    assert sway[1] == pytest.approx(86.43, abs=0.05) and np.abs(np.delete(sway, 1)).max() < 0.02
    largest = allocator.largest(1, 1.0)
    assert largest == pytest.approx(sway[1], abs=0.05)
    result = allocator.allocate([0, 0.999 * largest, 0, 0, 0, 0])
    assert result.scale == 1.0
    made = made_wrench(urdf, vehicle, result.thrusts)
    assert made[1] == pytest.approx(0.999 * largest, rel=1e-6)
    assert np.abs(np.delete(made, 1)).max() < 1e-6
    limits = dict(zip(allocator.names, zip(allocator.minimum, allocator.maximum)))
    assert all(limits[n][0] - 1e-9 <= t <= limits[n][1] + 1e-9
               for n, t in result.thrusts.items())
    for fraction in (0.3, 0.6, 0.9):  # a smaller command is met whenever a larger one is
        assert allocator.allocate([0, fraction * largest, 0, 0, 0, 0]).scale == 1.0


def test_the_largest_is_worked_out_once():
    """cmd_vel asks for every axis's largest on each message: the vehicle's alone, cached."""
    _, _, allocator = allocator_of(CONFIG_DIR / 'bluerov2_heavy.yaml')
    first = allocator.largest(1, 1.0)
    allocator.within_limits = None  # a second search would fail
    assert allocator.largest(1, 1.0) == first
