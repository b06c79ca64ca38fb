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

"""Forward kinematics and hull flotation, computed from the real resolved URDFs."""

from __future__ import annotations

import math

from bluerobotics_parts.assembly.catalogue import shipped
from bluerobotics_parts.assembly.pipeline import resolve_config
from bluerobotics_parts.errors import HydrostaticsError
from bluerobotics_parts.model import kinematics
from bluerobotics_parts.model.vehicle import Vehicle
from bluerobotics_parts.physics import buoyancy, hydrostatics, stability, water
from bluerobotics_parts.physics.hydrostatics import Box, Cylinder, Sphere
from conftest import CONFIG_DIR, SHIPPED_CONFIGS, write_config
import numpy as np
import pytest
import trimesh
import yaml

#: An ASCII STL of one triangle: the smallest mesh a user part's check takes.
ONE_TRIANGLE = (b'solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n'
                b'vertex 0 1 0\nendloop\nendfacet\nendsolid x\n')

ANGLES = [(0.0, 0.0, 0.0), (0.3, -0.5, 1.2), (math.pi / 2, 0.0, 0.0), (0.0, math.pi / 2, 0.0),
          (-2.0, 0.7, -3.0), (0.1, -math.pi / 2, 0.4)]


@pytest.fixture(scope='module')
def default():
    return resolve_config(CONFIG_DIR / 'blueboat.yaml').urdf


# -- kinematics ----------------------------------------------------------------------------------

@pytest.mark.parametrize('rpy', ANGLES)
def test_rpy_matrix_is_urdfs_fixed_axis_roll_pitch_yaw(rpy):
    reference = trimesh.transformations.euler_matrix(*rpy, axes='sxyz')[:3, :3]
    assert np.allclose(kinematics.rpy_matrix(rpy), reference, atol=1e-12)
    back = kinematics.rpy_matrix(kinematics.matrix_rpy(kinematics.rpy_matrix(rpy)))
    assert np.allclose(back, reference, atol=1e-9)


def test_pitching_a_quarter_turn_points_x_down():
    assert np.allclose(kinematics.rotate(kinematics.rpy_matrix((0, math.pi / 2, 0)), (1, 0, 0)),
                       (0, 0, -1), atol=1e-12)


def test_compose_and_inverse_match_homogeneous_matrices():
    a = kinematics.Pose.from_xyz_rpy((1, 2, 3), (0.3, -0.5, 1.2))
    b = kinematics.Pose.from_xyz_rpy((-0.4, 0.1, 0.9), (-2.0, 0.7, -3.0))

    def matrix(pose):
        out = np.eye(4)
        out[:3, :3], out[:3, 3] = pose.rotation, pose.translation
        return out

    assert np.allclose(matrix(a.compose(b)), matrix(a) @ matrix(b), atol=1e-12)
    assert np.allclose(matrix(a.inverse()), np.linalg.inv(matrix(a)), atol=1e-12)
    assert np.allclose(a.apply((0.5, 0.5, 0.5)), (matrix(a) @ [0.5, 0.5, 0.5, 1])[:3])


def test_link_poses_of_the_default_vehicle(default):
    vehicle = Vehicle.from_urdf(default)
    poses = kinematics.link_poses(vehicle)
    assert set(poses) == set(vehicle.links)
    assert poses['base_link'] == kinematics.Pose()
    assert np.allclose(poses['base_link_motor_port'].translation, (-0.52, 0.301, -0.117))
    beam = poses['ping_beam']
    # The Ping2 kit hangs the Ping below the hull looking straight down.
    assert np.allclose(kinematics.rotate(beam.rotation, (1, 0, 0)), (0, 0, -1), atol=1e-12)
    mount = shipped()['blueboat_chassis'].slots['ping_mount'].xyz
    drop = -shipped()['blueboat_ping_singlebeam_mount'].slots['ping'].xyz[2]
    body = shipped()['ping_singlebeam'].frames['beam']['xyz'][0]
    assert np.allclose(beam.translation, (mount[0], mount[1], mount[2] - drop - body), atol=1e-12)
    origin, axis = kinematics.joint_frame(vehicle, poses, 'motor_stbd_joint')
    assert np.allclose(origin, (-0.52, -0.301, -0.117)) and np.allclose(axis, (1, 0, 0))


# -- volumes -------------------------------------------------------------------------------------

def _transform(pose):
    out = np.eye(4)
    out[:3, :3], out[:3, 3] = pose.rotation, pose.translation
    return out


def _reference_below(mesh, waterline):
    """
    Return an independent answer from the closed surface mesh.

    Clip each triangle to z <= waterline and sum the signed tetrahedra it spans with an apex on
    the waterline plane (divergence theorem; the cap, lying in that plane, adds nothing).
    """
    apex = np.array([0.0, 0.0, waterline])
    triangles = mesh.vertices[mesh.faces] - apex
    below = (triangles[:, :, 2] <= 0).sum(axis=1)
    whole = triangles[below == 3]
    total = np.einsum('ij,ij->i', whole[:, 0], np.cross(whole[:, 1], whole[:, 2])).sum() / 6
    for triangle in triangles[(below > 0) & (below < 3)]:  # the few the waterline cuts
        polygon = []
        for a, b in zip(triangle, np.roll(triangle, -1, axis=0)):
            if a[2] <= 0:
                polygon.append(a)
            if a[2] * b[2] < 0:
                polygon.append(a - a[2] / (b[2] - a[2]) * (b - a))
        for i in range(1, len(polygon) - 1):
            total += np.dot(polygon[0], np.cross(polygon[i], polygon[i + 1])) / 6
    return total


@pytest.mark.parametrize('rpy', ANGLES)
def test_box_volume_below_any_waterline(rpy):
    pose = kinematics.Pose.from_xyz_rpy((0.1, -0.2, 0.05), rpy)
    box = Box((1.051, 0.14404, 0.1834), pose, 'hull')
    mesh = trimesh.creation.box(extents=box.size, transform=_transform(pose))
    low, high = hydrostatics.extent(box)
    assert (low, high) == pytest.approx((mesh.bounds[0][2], mesh.bounds[1][2]), abs=1e-12)
    for fraction in (0.0, 0.1, 0.37, 0.5, 0.81, 1.0):
        waterline = low + fraction * (high - low)
        assert hydrostatics.volume_below(box, waterline) == pytest.approx(
            _reference_below(mesh, waterline), rel=1e-9, abs=1e-12)


@pytest.mark.parametrize('rpy', [(0.0, math.pi / 2, 0.0), (0.0, 0.0, 0.0), (0.4, 0.9, 0.2),
                                 (math.pi / 2, 0.0, 0.3)])
def test_cylinder_volume_below_a_waterline(rpy):
    pose = kinematics.Pose.from_xyz_rpy((0.0, 0.3, -0.1), rpy)
    cylinder = Cylinder(0.0917, 1.051, pose, 'hull')
    mesh = trimesh.creation.cylinder(radius=0.0917, height=1.051, sections=1024,
                                     transform=_transform(pose))
    low, high = hydrostatics.extent(cylinder)
    assert (low, high) == pytest.approx((mesh.bounds[0][2], mesh.bounds[1][2]), abs=1e-6)
    for fraction in (0.05, 0.3, 0.5, 0.77, 1.0):
        waterline = low + fraction * (high - low)
        assert hydrostatics.volume_below(cylinder, waterline) == pytest.approx(
            _reference_below(mesh, waterline), rel=1e-4)


def test_a_level_cylinder_is_exact():
    """
    Rotated onto x (as the community hull model and the Ping are), half submerged.

    exactly half the cylinder.
    """
    cylinder = Cylinder(0.1, 2.0, kinematics.Pose.from_xyz_rpy((0, 0, 0), (0, math.pi / 2, 0)),
                        'hull')
    assert hydrostatics.volume_below(cylinder, 0.0) == pytest.approx(math.pi * 0.01, rel=1e-12)


def test_sphere_cap():
    sphere = Sphere(0.2, kinematics.Pose.from_xyz_rpy((0, 0, 1.0)), 'buoy')
    mesh = trimesh.creation.icosphere(subdivisions=6, radius=0.2).apply_translation((0, 0, 1.0))
    for waterline in (0.85, 1.0, 1.13):
        assert hydrostatics.volume_below(sphere, waterline) == pytest.approx(
            _reference_below(mesh, waterline), rel=1e-3)  # the mesh's facets cut a little
    assert hydrostatics.volume_below(sphere, 2.0) == pytest.approx(4 / 3 * math.pi * 0.008)


# -- the BlueBoat --------------------------------------------------------------------------------

def test_the_default_blueboat_floats_on_its_hulls(default):
    floating = hydrostatics.flotation(default)
    vehicle = Vehicle.from_urdf(default)
    assert floating.mass == pytest.approx(vehicle.total_mass)
    assert floating.displaced_volume * 1025.0 == pytest.approx(vehicle.total_mass, rel=1e-6)
    assert floating.hull_bottom < floating.waterline < floating.hull_top
    assert 0 < floating.hull_draft < floating.overall_draft
    max_draft = shipped()['blueboat_chassis'].data['hydrostatics']['max_draft']
    assert max_draft == 0.320
    assert floating.overall_draft <= max_draft
    assert floating.freeboard == pytest.approx(floating.hull_top - floating.waterline)
    # The propellers reach lowest: the draft counts their discs (no collision when fitted).
    motor_z, radius = -0.117, shipped()['m200_weedless_prop_cw'].propeller.diameter / 2
    assert floating.lowest_point == pytest.approx(motor_z - radius)


def test_it_still_floats_with_the_published_payload(default):
    vehicle = Vehicle.from_urdf(default)
    hull = sum(vehicle.links[name].mass for name in (
        'base_link', 'motor_port', 'motor_port_rotor', 'motor_stbd', 'motor_stbd_rotor', 'flag',
        'navigator', 'gnss'))
    assert hull == pytest.approx(14.5)  # the published hull mass, as the part data split it
    payload = shipped()['blueboat_chassis'].data['hydrostatics']['payload_capacity']
    loaded = hydrostatics.flotation(default, mass=hull + payload)
    empty = hydrostatics.flotation(default)
    assert loaded.hull_bottom < loaded.waterline < loaded.hull_top
    assert loaded.overall_draft <= 0.320
    assert loaded.waterline > empty.waterline


def test_the_ping_looks_from_below_the_waterline(default):
    floating = hydrostatics.flotation(default)
    poses = kinematics.link_poses(Vehicle.from_urdf(default))
    assert poses['ping_beam'].translation[2] < floating.waterline


def test_t200_thrusters_are_heavier_and_sink_it_deeper(default):
    t200 = resolve_config(CONFIG_DIR / 'examples' / 't200.yaml').urdf
    light, heavy = Vehicle.from_urdf(default).total_mass, Vehicle.from_urdf(t200).total_mass
    assert heavy - light == pytest.approx(2 * (0.344 - 0.15))
    assert hydrostatics.flotation(t200).waterline > hydrostatics.flotation(default).waterline


def test_a_t200_disc_is_smaller(default):
    t200 = resolve_config(CONFIG_DIR / 'examples' / 't200.yaml').urdf
    assert hydrostatics.flotation(t200).lowest_point == pytest.approx(-0.117 - 0.076 / 2)


def test_too_heavy_sinks(default):
    with pytest.raises(HydrostaticsError) as caught:
        hydrostatics.flotation(default, mass=500.0)
    assert 'the vehicle sinks: 500.00 kg' in str(caught.value)


def test_a_mesh_collision_is_named(tmp_path):
    part = tmp_path / 'lump.yaml'
    part.write_text("""\
type: lump
inertial:
  mass: 0.2
  mass_unverified: example
collision:
  - mesh: lump.stl
""", encoding='utf-8')
    (tmp_path / 'lump.stl').write_bytes(ONE_TRIANGLE)
    config = write_config(tmp_path, 'part_files: [lump.yaml]\nparts:\n'
                          '  - {type: lump, name: lump, xyz: [0, 0, 0.2]}\n')
    urdf = resolve_config(config).urdf
    with pytest.raises(HydrostaticsError) as caught:
        hydrostatics.flotation(urdf)
    assert 'link lump, collision #1 is a mesh' in str(caught.value)
    assert 'box, cylinder and sphere' in str(caught.value)


# -- buoyancy: the exact cut and gz-sim 8.14's ---------------------------------------------------

def _reference_centroid_below(mesh, waterline):
    """
    Return the volume and centroid of the mesh below the waterline.

    By the same independent clipping as ``_reference_below`` (signed tetrahedra from an apex on
    the waterline plane).
    """
    apex = np.array([0.0, 0.0, waterline])
    volume, moment = 0.0, np.zeros(3)

    def add(a, b, c):
        nonlocal volume, moment
        six = np.dot(a, np.cross(b, c))
        volume += six / 6
        moment += six / 24 * (a + b + c)

    for triangle in mesh.vertices[mesh.faces] - apex:
        below = triangle[:, 2] <= 0
        if below.all():
            add(*triangle)
        elif below.any():
            polygon = []
            for a, b in zip(triangle, np.roll(triangle, -1, axis=0)):
                if a[2] <= 0:
                    polygon.append(a)
                if a[2] * b[2] < 0:
                    polygon.append(a - a[2] / (b[2] - a[2]) * (b - a))
            for i in range(1, len(polygon) - 1):
                add(polygon[0], polygon[i], polygon[i + 1])
    return volume, moment / volume + apex


@pytest.mark.parametrize('rpy', ANGLES)
@pytest.mark.parametrize('depth', [-0.03, 0.02, 0.11])
def test_exact_buoyancy_of_a_box_in_any_pose(rpy, depth):
    """
    Force and centre of buoyancy.

    the volume below z = 0 and its centroid, whatever the box's attitude (compared with an
    independent clipping of the box's surface mesh).
    """
    shape = Box((0.9, 0.3, 0.2), kinematics.Pose(), 'hull')
    body = kinematics.Pose.from_xyz_rpy((0.1, -0.2, -depth), rpy)
    wrench = buoyancy.exact([shape], body, (0.0, 0.0, 0.0), water=1000.0, air=0.0)
    mesh = trimesh.creation.box(extents=shape.size, transform=_transform(body))
    volume, centroid = _reference_centroid_below(mesh, 0.0)
    assert wrench.force == pytest.approx(1000.0 * water.GRAVITY * volume, rel=1e-9)
    # a vertical force at the centroid: moment (y F, -x F, 0) about the origin
    assert wrench.moment[0] == pytest.approx(centroid[1] * wrench.force, rel=1e-7, abs=1e-9)
    assert wrench.moment[1] == pytest.approx(-centroid[0] * wrench.force, rel=1e-7, abs=1e-9)


def test_exact_buoyancy_of_a_tilted_cylinder():
    shape = Cylinder(0.1, 0.8, kinematics.Pose.from_xyz_rpy((0, 0, 0), (0, math.pi / 2, 0)), 'c')
    body = kinematics.Pose.from_xyz_rpy((0.0, 0.0, 0.02), (0.3, 0.2, 0.0))
    wrench = buoyancy.exact([shape], body, (0.0, 0.0, 0.0), water=1000.0, air=0.0)
    mesh = trimesh.creation.cylinder(radius=0.1, height=0.8, sections=2048,
                                     transform=_transform(body.compose(shape.pose)))
    volume, centroid = _reference_centroid_below(mesh, 0.0)
    assert wrench.force == pytest.approx(1000.0 * water.GRAVITY * volume, rel=2e-3)
    assert -wrench.moment[1] / wrench.force == pytest.approx(centroid[0], abs=1e-4)


def test_harmonic_cuts_each_box_in_its_own_frame():
    """
    Hand-computed from Buoyancy.cc.

    a box whose centre is h below the surface displaces its footprint times (h + height/2) whatever
    its tilt, at the point (0, 0, (h - height/2) / 2) of its own frame; the rest of it gets the air
    above.
    """
    box = Box((1.0, 0.5, 0.2), kinematics.Pose(), 'hull')
    for roll in (0.0, 0.5, 1.2):
        body = kinematics.Pose.from_xyz_rpy((0.3, 0.0, -0.05), (roll, 0.0, 0.0))
        wrench = buoyancy.harmonic([box], body, (0.3, 0.0, 0.0), water=1000.0, air=0.0)
        assert wrench.force == pytest.approx(1000.0 * water.GRAVITY * 0.5 * 0.15)
        # the point (0, 0, -0.025) of the box, rolled: y = 0.025 sin(roll)
        assert wrench.moment[0] == pytest.approx(0.025 * math.sin(roll) * wrench.force)
    # tilted 90 degrees the exact cut is the box on its side: half of it still, same centre
    on_side = kinematics.Pose.from_xyz_rpy((0.0, 0.0, 0.0), (math.pi / 2, 0.0, 0.0))
    assert buoyancy.harmonic([box], on_side, (0, 0, 0), water=1000.0, air=0.0).force == \
        pytest.approx(buoyancy.exact([box], on_side, (0, 0, 0), water=1000.0, air=0.0).force)
    air = buoyancy.harmonic([box], kinematics.Pose(), (0, 0, 0), water=0.0, air=1.0)
    assert air.force == pytest.approx(water.GRAVITY * 0.05)  # the half above the surface


def test_harmonic_cylinders_before_8_12():
    shape = Cylinder(0.1, 0.4, kinematics.Pose(), 'c')
    body = kinematics.Pose.from_xyz_rpy((0, 0, -1.0))
    assert buoyancy.harmonic([shape], body, (0, 0, 0), cylinders=False).force == 0.0
    assert buoyancy.harmonic([shape], body, (0, 0, 0), air=0.0).force == pytest.approx(
        water.SEA_WATER_DENSITY * water.GRAVITY * math.pi * 0.01 * 0.4)


# -- stability: hand-computed barges -------------------------------------------------------------

BARGE = """\
type: barge
inertial:
  mass: {mass}
  mass_unverified: example
  com: [{xg}, 0.0, {zg}]
  com_unverified: example
  inertia: {{ixx: 1.0, ixy: 0.0, ixz: 0.0, iyy: 1.0, iyz: 0.0, izz: 1.0}}
  inertia_unverified: example
collision:
{boxes}
"""


def barge(tmp_path, pieces, mass=400.0, zg=-0.1, length=2.0, beam=1.0, height=0.5, xg=0.0):
    """Return a box barge L x B x H (origin at its centre) cut into ``pieces`` lengthwise."""
    boxes = ''.join(
        f'  - box: [{length / pieces!r}, {beam!r}, {height!r}]\n    box_unverified: example\n'
        f'    xyz: [{-length / 2 + (i + 0.5) * length / pieces!r}, 0.0, 0.0]\n'
        '    xyz_unverified: example\n' for i in range(pieces))
    (tmp_path / 'barge.yaml').write_text(BARGE.format(mass=mass, xg=xg, zg=zg, boxes=boxes),
                                         encoding='utf-8')
    config = write_config(tmp_path, 'part_files: [barge.yaml]\nbase: {type: barge}\n')
    return resolve_config(config).urdf


@pytest.mark.parametrize('pieces', [1, 2, 6])
def test_a_box_barge_floats_as_the_textbook_says(tmp_path, pieces):
    """
    Draft T = m / (rho L B).

    KB = T / 2; BM = I / V with I = B L^3 / 12 (pitch), L B^3 / 12 (roll). Exact: GM = KB + BM -
    KG. gz-sim 8 (one plane per box, in its own frame): the boxes' own second moments drop out, so
    roll keeps none of BM and pitch keeps L^3 B / 12 (1 - 1 / n^2) for n equal pieces.
    """
    mass, zg, length, beam, height = 400.0, -0.1, 2.0, 1.0, 0.5
    urdf = barge(tmp_path, pieces)
    rho, g = water.SEA_WATER_DENSITY, water.GRAVITY
    volume = mass / rho
    draft = volume / (length * beam)
    kb, kg = draft / 2, zg + height / 2  # heights above the bottom
    bm_roll, bm_pitch = length * beam ** 3 / 12 / volume, beam * length ** 3 / 12 / volume
    exact = stability.rest(urdf, 'exact', air=0.0)
    assert exact.z == pytest.approx(height / 2 - draft, abs=1e-9)
    assert (exact.roll, exact.pitch) == pytest.approx((0.0, 0.0), abs=1e-9)
    assert exact.displaced_volume == pytest.approx(volume, rel=1e-9)
    assert exact.gm_t == pytest.approx(kb + bm_roll - kg, rel=1e-3)
    assert exact.gm_l == pytest.approx(kb + bm_pitch - kg, rel=1e-3)
    harmonic = stability.rest(urdf, 'harmonic', air=0.0)
    assert harmonic.z == pytest.approx(exact.z, abs=1e-9)
    assert harmonic.gm_t == pytest.approx(kb - kg, rel=1e-3)
    assert harmonic.gm_l == pytest.approx(kb + bm_pitch * (1 - 1 / pieces ** 2) - kg, rel=1e-3)
    assert harmonic.mass * g * harmonic.gm_l == pytest.approx(harmonic.pitch_stiffness)


def test_an_off_centre_weight_trims_the_barge(tmp_path):
    """A centre of gravity 5 cm forward trims it bow down by atan(0.05 / GM_L) (small angle)."""
    level = stability.rest(barge(tmp_path, 6), 'exact', air=0.0)
    trimmed = stability.rest(barge(tmp_path, 6, xg=0.05), 'exact', air=0.0)
    assert math.degrees(trimmed.pitch) == pytest.approx(math.degrees(math.atan(0.05 / level.gm_l)),
                                                        rel=0.02)
    assert trimmed.pitch > 0  # bow down (REP 103: positive pitch turns +x downward)


# -- stability: the BlueBoat ---------------------------------------------------------------------

# The shipped BlueBoat configs (the BlueROV2's are held to the same cut in
# test_rov_physics.py; a submerged ROV has no GM_L of a metre).
BOAT_CONFIGS = [p for p in SHIPPED_CONFIGS if not p.name.startswith('bluerov2')]


@pytest.mark.parametrize('config', BOAT_CONFIGS, ids=lambda p: p.name)
def test_harmonic_stiffness_is_within_15_percent_of_exact(config):
    """
    The issue's criterion for the hull boxes.

    under Harmonic's buoyancy algorithm the roll and pitch stiffnesses stay within 15% of exact
    hydrostatics (in fact within 4%).
    """
    urdf = resolve_config(config).urdf
    exact, harmonic = stability.rest(urdf, 'exact'), stability.rest(urdf, 'harmonic')
    for axis in ('roll_stiffness', 'pitch_stiffness'):
        assert getattr(exact, axis) > 0 and getattr(harmonic, axis) > 0
        assert getattr(harmonic, axis) == pytest.approx(getattr(exact, axis), rel=0.04), axis
    assert exact.gm_l > 1.0 and harmonic.gm_l > 1.0
    assert abs(math.degrees(harmonic.pitch - exact.pitch)) < 0.1
    assert abs(math.degrees(harmonic.roll)) < 0.1  # symmetric enough to sit level


def test_one_box_per_hull_would_capsize_in_harmonic(tmp_path):
    """
    The defect the six boxes fix.

    with the hulls as one box each (the earlier part data), Harmonic's algorithm gives a negative
    pitch stiffness (about -10 N m/rad against +270).
    """
    chassis = yaml.safe_load(shipped()['blueboat_chassis'].file.read_text(encoding='utf-8'))
    dims = chassis['dimensions']
    boxes = [{'box': [dims['hull_length'], 0.14404, 0.1834], 'box_unverified': 'earlier data',
              'xyz': [dims['hull_x'], side * dims['hull_y'], dims['hull_z']],
              'xyz_unverified': 'earlier data'} for side in (1, -1)]
    chassis.update(type='one_box_hulls', collision=boxes, visual=[])
    (tmp_path / 'one_box_hulls.yaml').write_text(yaml.safe_dump(chassis), encoding='utf-8')
    urdf = resolve_config(write_config(tmp_path, 'part_files: [one_box_hulls.yaml]\n'
                                       'base: {type: one_box_hulls}\n')).urdf
    exact = stability.rest(urdf, 'exact')
    assert exact.pitch_stiffness == pytest.approx(270, rel=0.05)
    harmonic = stability.rest(urdf, 'harmonic')  # an equilibrium, but an unstable one
    assert harmonic.pitch_stiffness == pytest.approx(-10, abs=3)
    assert harmonic.gm_l < 0 < exact.gm_l


@pytest.mark.parametrize('depth', [-0.5, 0.5, -0.1732, 0.1732, 0.05])
def test_a_shape_the_water_plane_cannot_reach_counts_whole_as_a_cut_one_would(depth):
    """
    buoyancy.exact skips cutting a box or sphere wholly in air or water.

    Against the cut (_below) for the same shapes, turned so their corners reach farthest:
    the forces and moments agree; the 0.05 m box straddles and is cut as before.
    """
    turned = kinematics.Pose.from_xyz_rpy((0.3, -0.2, depth), (0.4, 0.7, 0.1))
    shapes = [Box((0.2, 0.2, 0.2), kinematics.Pose(), 'b'), Sphere(0.1, kinematics.Pose(), 's')]
    body = kinematics.Pose()
    about = (0.1, 0.0, 0.0)
    for shape in shapes:
        placed_shape = type(shape)(*[turned if f == shape.pose else f for f in
                                     (shape.size if isinstance(shape, Box) else shape.radius,
                                      shape.pose, shape.link)])
        fast = buoyancy.exact([placed_shape], body, about)
        slow = buoyancy.Wrench()
        buoyancy.add_cut(slow, placed_shape, turned, about)  # the cut, always
        assert fast.force == pytest.approx(slow.force, rel=1e-9)
        assert fast.moment == pytest.approx(slow.moment, rel=1e-9, abs=1e-12)
