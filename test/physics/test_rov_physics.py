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
The BlueROV2's mass properties, displacement and damping.

Measured on the resolved vehicles (the URDF that robot_state_publisher and Gazebo get) and held
against the figures they were derived from, each test with its source (tools/derive_bluerov2.py
states them all).
"""

from __future__ import annotations

import math
import subprocess
import sys

from bluerobotics_parts.assembly.catalogue import shipped
from bluerobotics_parts.assembly.pipeline import resolve_config
from bluerobotics_parts.model import kinematics
from bluerobotics_parts.model.vehicle import Vehicle
from bluerobotics_parts.physics import hydrostatics, propulsion, stability
from conftest import CONFIG_DIR, REPO
import numpy as np
import pytest

SEA_WATER = 1025.0
EXPECTED = {  # config: mass, net buoyancy (kg), inertia about the centre of mass, bounding box
    'bluerov2.yaml': (10.5, 0.2, (0.0915, 0.1789, 0.1724), (0.457, 0.338, 0.254)),
    'bluerov2_heavy.yaml': (13.5, 0.235, (0.26, 0.23, 0.37), (0.457, 0.575, 0.254)),
}
BG = 0.01  # m, centre of buoyancy above the centre of mass


@pytest.fixture(scope='module', params=sorted(EXPECTED))
def rov(request, resolve_text):
    urdf = resolve_text(CONFIG_DIR / request.param)
    vehicle = Vehicle.from_urdf(urdf)
    poses = kinematics.link_poses(vehicle)
    return request.param, urdf, vehicle, poses, EXPECTED[request.param]


def centre_of_mass(vehicle, poses) -> np.ndarray:
    return sum(link.mass * np.array(poses[name].apply(link.com))
               for name, link in vehicle.links.items()) / vehicle.total_mass


def inertia_about(vehicle, poses, point) -> np.ndarray:
    total = np.zeros((3, 3))
    for name, link in vehicle.links.items():
        ixx, ixy, ixz, iyy, iyz, izz = link.inertia
        local = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
        rotation = np.array(poses[name].rotation)
        offset = np.array(poses[name].apply(link.com)) - point
        total += rotation @ local @ rotation.T + link.mass * (
            offset @ offset * np.eye(3) - np.outer(offset, offset))
    return total


def shapes(urdf, poses):
    return hydrostatics.collision_shapes(urdf, poses)


def centre_of_buoyancy(urdf, poses) -> tuple:
    placed = shapes(urdf, poses)
    volumes = [hydrostatics.full_volume(s) for s in placed]
    centre = sum(v * np.array(s.pose.translation) for v, s in zip(volumes, placed)) / sum(volumes)
    return sum(volumes), centre


def test_the_vehicle_has_its_published_mass(rov):
    """
    Check the mass against its sources.

    10.5 kg standard (Blue Robotics: 10-11 kg with ballast), 13.5 kg Heavy (von Benzon et al.
    2022).
    """
    _, _, vehicle, _, (mass, _, _, _) = rov
    assert vehicle.total_mass == pytest.approx(mass, abs=1e-6)


def test_it_is_slightly_buoyant_in_sea_water_by_the_published_amount(rov):
    """
    Check the net buoyancy in sea water against its sources.

    0.2 kg standard (Blue Robotics, with ballast), 0.235 kg Heavy (von Benzon's volume
    0.0134 m^3 at 1025 kg/m^3).
    """
    _, urdf, vehicle, poses, (_, net, _, _) = rov
    volume, _ = centre_of_buoyancy(urdf, poses)
    assert volume * SEA_WATER - vehicle.total_mass == pytest.approx(net, abs=0.002)
    assert shipped()[vehicle.parts[vehicle.root_link].type].data['hydrostatics'][
        'net_buoyancy'] == net


def test_the_centre_of_buoyancy_is_straight_above_the_centre_of_mass(rov):
    """
    Check the centre of buoyancy is 0.01 m straight above the centre of mass, so it self-rights.

    The centre of buoyancy is the collision volumes' centroid: where Gazebo's Buoyancy pushes a
    submerged vehicle.
    """
    _, urdf, vehicle, poses, _ = rov
    _, buoyancy = centre_of_buoyancy(urdf, poses)
    offset = buoyancy - centre_of_mass(vehicle, poses)
    assert offset == pytest.approx([0.0, 0.0, BG], abs=1e-3)


def test_the_inertia_about_the_centre_of_mass_is_the_stated_one(rov):
    """
    Check the inertia about the centre of mass.

    Von Benzon's for the Heavy, derived for the standard.
    """
    _, _, vehicle, poses, (_, _, inertia, _) = rov
    total = inertia_about(vehicle, poses, centre_of_mass(vehicle, poses))
    assert np.diag(total) == pytest.approx(inertia, rel=0.02)
    # the source gives none: the frame takes the parts' products (tools/derive_bluerov2.py)
    assert np.abs(total - np.diag(np.diag(total))).max() < 1e-5


def test_the_frame_stays_inside_the_published_size(rov):
    """
    Keep every collision body inside the published size.

    The frame's and the lights' bodies stay within the published length, width and height,
    with 5 mm for the estimates.
    """
    _, urdf, _, poses, (_, _, _, size) = rov
    low = np.min([[*_bounds(s)[0]] for s in shapes(urdf, poses)], axis=0)
    high = np.max([[*_bounds(s)[1]] for s in shapes(urdf, poses)], axis=0)
    assert np.all(high - low <= np.array(size) + 0.005), (low, high)
    assert np.all(np.abs(high[:2]) <= np.array(size[:2]) / 2 + 0.005)


def _bounds(shape):
    """Axis-aligned bounds of a placed box or cylinder in the root frame."""
    rotation = np.array(shape.pose.rotation)
    centre = np.array(shape.pose.translation)
    if isinstance(shape, hydrostatics.Box):
        half = np.abs(rotation) @ (np.array(shape.size) / 2)
    else:
        axis = rotation[:, 2]
        half = np.abs(axis) * shape.length / 2 + shape.radius * np.sqrt(
            np.clip(1 - axis ** 2, 0, None))
    return centre - half, centre + half


def test_floating_at_the_surface_it_is_just_awash(rov):
    """Surfaced, the 0.2 kg of net buoyancy lifts only the top of the foam out of the water."""
    _, urdf, _, _, _ = rov
    flotation = hydrostatics.flotation(urdf, water_density=SEA_WATER)
    assert 0.0 < flotation.freeboard < 0.01


def test_surfaced_it_rests_level_and_harmonics_buoyancy_keeps_its_stiffness(rov):
    """
    Float it at the surface under exact hydrostatics and under Harmonic's per-shape cut.

    It rests level either way, and the split foam keeps Harmonic's roll and pitch stiffness
    within 4% of exact (as the BlueBoat's hull boxes, physics/test_hydrostatics.py).
    """
    _, urdf, _, _, _ = rov
    exact, harmonic = stability.rest(urdf, 'exact'), stability.rest(urdf, 'harmonic')
    for axis in ('roll_stiffness', 'pitch_stiffness'):
        assert getattr(exact, axis) > 0
        assert getattr(harmonic, axis) == pytest.approx(getattr(exact, axis), rel=0.04), axis
    for rest in (exact, harmonic):
        assert abs(math.degrees(rest.roll)) < 0.1 and abs(math.degrees(rest.pitch)) < 0.5


def test_damping_and_added_mass_resist_on_every_axis(rov):
    """
    Check that damping resists and the added mass is a mass, on each of the six axes.

    Fossen's sign: negative for a force against the motion or the acceleration. The added
    mass may exceed the rigid body's (the Heavy's heave: 18.68 against 13.5 kg): Gazebo gets
    it as <fluid_added_mass>, which dartsim integrates implicitly (gazebo/added_mass.py).
    """
    _, _, vehicle, _, _ = rov
    coefficients = shipped()[vehicle.parts[vehicle.root_link].type].hydrodynamics
    damping = {k: v for k, v in coefficients.items() if 'Dot' not in k}
    assert damping and all(v < 0 for v in damping.values())
    added = {k: v for k, v in coefficients.items() if 'Dot' in k}
    assert sorted(added) == ['kDotP', 'mDotQ', 'nDotR', 'xDotU', 'yDotV', 'zDotW']
    assert all(v < 0 for v in added.values())


def test_the_heavy_damping_and_added_mass_are_von_benzons():
    heavy = shipped()['bluerov2_heavy_frame'].hydrodynamics
    assert heavy == {'xU': -13.7, 'zW': -33.0, 'mQ': -0.8, 'xUabsU': -141.0, 'yVabsV': -217.0,
                     'zWabsW': -190.0, 'kPabsP': -1.19, 'mQabsQ': -0.47, 'nRabsR': -1.5,
                     'xDotU': -6.36, 'yDotV': -7.12, 'zDotW': -18.68, 'kDotP': -0.189,
                     'mDotQ': -0.135, 'nDotR': -0.222}


def test_the_standard_damping_is_the_heavys_scaled_by_width_in_surge_and_heave():
    standard = shipped()['bluerov2_frame'].hydrodynamics
    heavy = shipped()['bluerov2_heavy_frame'].hydrodynamics
    ratio = 0.338 / 0.575
    assert set(standard) == set(heavy)
    for key, value in heavy.items():
        expected = value * ratio if key[0] in 'xz' else value
        assert math.isclose(standard[key], expected, abs_tol=0.006), key


def test_the_part_files_are_what_the_derivation_tool_writes():
    result = subprocess.run([sys.executable, str(REPO / 'tools' / 'derive_bluerov2.py'),
                             '--check'], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_full_forward_installed_is_the_published_bollard_pull(rov):
    """
    Check full forward against Blue Robotics' 9 kgf of forward bollard thrust.

    The installed fraction makes the model's full forward (each horizontal thruster at the
    limit that pushes ahead) that, and full astern its mirror.
    """
    config, _, vehicle, _, _ = rov
    resolved = resolve_config(CONFIG_DIR / config)
    catalogue = resolved.catalogue()
    limits = propulsion.thrust_limits(resolved.record, catalogue)
    performance = propulsion.performance(
        vehicle, limits, catalogue[resolved.record.base.type].hydrodynamics)
    assert performance.forward_thrust == pytest.approx(9 * 9.80665, rel=0.001)
    assert performance.reverse_thrust == pytest.approx(-9 * 9.80665, rel=0.001)
