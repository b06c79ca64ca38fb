"""Forward kinematics and hull flotation, computed from the real resolved URDFs."""

from __future__ import annotations

import math

from bluerobotics_parts import hydrostatics, kinematics
from bluerobotics_parts.catalogue import shipped
from bluerobotics_parts.hydrostatics import Box, Cylinder, HydrostaticsError, Sphere
from bluerobotics_parts.pipeline import resolve_config
from bluerobotics_parts.vehicle import Vehicle
from conftest import CONFIG_DIR, write_config
import numpy as np
import pytest
import trimesh

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
    """An independent answer from the closed surface mesh: clip each triangle to z <= waterline
    and sum the signed tetrahedra it spans with an apex on the waterline plane (divergence
    theorem; the cap, lying in that plane, adds nothing)."""
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
    """Rotated onto x (as the community hull model and the Ping are), half submerged:
    exactly half the cylinder."""
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
    hull = sum(vehicle.links[name].mass for name in ('base_link', 'motor_port', 'motor_stbd',
                                                     'flag'))
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
    (tmp_path / 'lump.stl').write_bytes(b'solid lump\nendsolid lump\n')
    config = write_config(tmp_path, 'part_files: [lump.yaml]\nparts:\n'
                          '  - {type: lump, name: lump, xyz: [0, 0, 0.2]}\n')
    urdf = resolve_config(config).urdf
    with pytest.raises(HydrostaticsError) as caught:
        hydrostatics.flotation(urdf)
    assert 'link lump, collision #1 is a mesh' in str(caught.value)
    assert 'box, cylinder and sphere' in str(caught.value)
