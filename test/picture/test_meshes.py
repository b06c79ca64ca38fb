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
The generated visual meshes (tools/make_meshes.py).

They are current, present, closed, small, and the shape the part data describes, in the part's
own frame, so RViz shows parts where the URDF's collision geometry and slots put them.
"""

from __future__ import annotations

import math
from pathlib import Path
import subprocess
import sys

import numpy as np
import pytest
import trimesh
import yaml

REPO = Path(__file__).resolve().parents[2]
PARTS_DIR = REPO / 'urdf' / 'parts'
MESH_DIR = REPO / 'meshes'
SCRIPT = REPO / 'tools' / 'make_meshes.py'

MM = 0.001
HEADER = b'bluerobotics_parts '
MAX_MESH_BYTES = 200 * 1024
MAX_TOTAL_BYTES = 1536 * 1024


def load_library() -> dict[str, dict]:
    types = yaml.safe_load((PARTS_DIR / 'index.yaml').read_text(encoding='utf-8'))
    return {t: yaml.safe_load((PARTS_DIR / f'{t}.yaml').read_text(encoding='utf-8'))
            for t in types}


LIBRARY = load_library()
VISUALS = [(t, item['mesh']) for t, part in LIBRARY.items() for item in part.get('visual', [])
           if 'mesh' in item and '://' not in item['mesh']]
PROPELLER_TYPES = [t for t, part in LIBRARY.items()
                   if 'propeller' in part and any(v[0] == t for v in VISUALS)]


def dims(part_type: str) -> dict:
    return LIBRARY[part_type]['dimensions']


def slot(part_type: str, name: str) -> dict:
    return LIBRARY[part_type]['slots'][name]


@pytest.fixture(scope='module')
def meshes() -> dict[str, trimesh.Trimesh]:
    """
    Map part type -> its visual mesh as any STL reader sees it (vertices welded).

    A missing file is left out here and fails its own test.
    """
    return {t: trimesh.load(MESH_DIR / relative, file_type='stl') for t, relative in VISUALS
            if (MESH_DIR / relative).is_file()}


def rpy_matrix(roll: float, pitch: float, yaw: float) -> np.ndarray:
    """Return URDF's fixed-axis roll, pitch, yaw as a rotation matrix."""
    cr, sr, cp, sp, cy, sy = (f(a) for a in (roll, pitch, yaw) for f in (math.cos, math.sin))
    return np.array([[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                     [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                     [-sp, cp * sr, cp * cr]])


def in_primitive_frame(item: dict, points: np.ndarray) -> np.ndarray:
    """Points of the part frame in a collision primitive's own frame (URDF origin xyz, rpy)."""
    rotation = rpy_matrix(*item.get('rpy', [0, 0, 0]))
    return (points - np.array(item.get('xyz', [0, 0, 0]), dtype=float)) @ rotation


def radial(points: np.ndarray) -> np.ndarray:
    """Distance from the x axis (the spin axis of propellers and thrusters)."""
    return np.hypot(points[:, 1], points[:, 2])


def helicity(mesh: trimesh.Trimesh) -> np.ndarray:
    """
    Return n_x * n_theta per face.

    It is zero on anything turned about x (hubs, ducts) and on radial fins, negative on a
    right-handed helicoid (x advancing with the turn about +x), positive on a left-handed one.
    It picks out propeller blades and tells their hand.
    """
    centres, normals = mesh.triangles_center, mesh.face_normals
    rho = radial(centres)
    tangent = (np.stack([np.zeros_like(rho), -centres[:, 2], centres[:, 1]], 1)
               / np.maximum(rho, 1e-12)[:, None])
    return normals[:, 0] * np.einsum('ij,ij->i', normals, tangent)


def blade_faces(mesh: trimesh.Trimesh) -> np.ndarray:
    return np.abs(helicity(mesh)) > 0.05


# --- Generation ---------------------------------------------------------------------------------

def test_committed_meshes_are_current():
    result = subprocess.run([sys.executable, str(SCRIPT), '--check'], capture_output=True,
                            text=True, cwd=REPO, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_part_with_a_packaged_mesh_is_covered():
    """Each shipped part draws a mesh from meshes/ (none is left as a bare collision shape)."""
    assert sorted(t for t, _ in VISUALS) == sorted(LIBRARY)


@pytest.mark.parametrize('part_type,relative', VISUALS, ids=[t for t, _ in VISUALS])
def test_mesh_is_a_small_closed_binary_stl(part_type, relative, meshes):
    path = MESH_DIR / relative
    assert path.is_file(), f'{part_type} names meshes/{relative}, which does not exist'
    data = path.read_bytes()
    assert data[:80].rstrip() == HEADER + part_type.encode()
    count = int.from_bytes(data[80:84], 'little')
    assert count > 0 and len(data) == 84 + 50 * count, 'not a binary STL'
    assert len(data) < MAX_MESH_BYTES
    mesh = meshes[part_type]
    assert len(mesh.faces) == count
    assert mesh.is_watertight and mesh.is_winding_consistent
    assert mesh.volume > 0, 'faces wound inward'


def test_meshes_are_small_in_total():
    assert sum((MESH_DIR / relative).stat().st_size for _, relative in VISUALS) < MAX_TOTAL_BYTES


@pytest.mark.parametrize('part_type', [t for t, _ in VISUALS])
def test_mesh_covers_each_collision_primitive(part_type, meshes):
    """
    The mesh sits in the part frame where the collision geometry is.

    Seen from each collision primitive's frame it reaches the primitive's faces (to 1 mm): a box's
    extent, a cylinder's ends and radius (a three-blade propeller fills the radius, not the square
    round it).
    """
    for item in LIBRARY[part_type].get('collision', []):
        local = in_primitive_frame(item, meshes[part_type].vertices)
        if 'box' in item:
            half = np.array(item['box'], dtype=float) / 2
            assert (np.all(local.min(axis=0) <= -half + MM)
                    and np.all(local.max(axis=0) >= half - MM)), item
        elif 'cylinder' in item:
            half_length, radius = item['cylinder']['length'] / 2, item['cylinder']['radius']
            assert (local[:, 2].min() <= -half_length + MM
                    and local[:, 2].max() >= half_length - MM), item
            assert np.hypot(local[:, 0], local[:, 1]).max() >= radius - MM, item
        else:
            raise AssertionError(f'no check for collision primitive {item}')


# --- Per part shape -----------------------------------------------------------------------------

def test_chassis_has_the_datasheet_size_and_the_hulls_of_the_hull_data(meshes):
    mesh, d = meshes['blueboat_chassis'], dims('blueboat_chassis')
    extents = mesh.extents
    assert abs(extents[0] - d['length']) < 0.05
    assert abs(extents[1] - d['beam']) < 0.05
    # Outboard of the frame only the hulls remain: all there lies within the hull radius of the
    # hull axes, reaches that radius, and spans the hull length.
    outboard = mesh.vertices[np.abs(mesh.vertices[:, 1]) > d['hull_y'] + 0.6 * d['hull_radius']]
    off_axis = np.hypot(np.abs(outboard[:, 1]) - d['hull_y'], outboard[:, 2] - d['hull_z'])
    assert off_axis.max() == pytest.approx(d['hull_radius'], abs=MM)
    assert outboard[:, 0].min() <= d['hull_x'] - d['hull_length'] / 2
    assert outboard[:, 0].max() >= d['hull_x'] + d['hull_length'] / 2
    assert mesh.bounds[1][1] == pytest.approx(d['hull_y'] + d['hull_radius'], abs=MM)
    assert mesh.bounds[0][1] == pytest.approx(-d['hull_y'] - d['hull_radius'], abs=MM)


def test_chassis_carries_the_parts_its_slots_hold(meshes):
    """
    Carry the deck sockets on the cross members and the motors on their mounts.

    A cross member's top lies under each deck socket (the flag, mast and payload slots,
    measured on the delivered mesh by the reference description), nothing between the hulls
    stands higher than the sockets, and a motor mount reaches each motor slot's axis just ahead
    of the motor can.
    """
    mesh, d = meshes['blueboat_chassis'], dims('blueboat_chassis')
    vertices = mesh.vertices
    between = vertices[np.abs(vertices[:, 1]) < d['hull_y'] - d['hull_radius']]
    sockets = [slot('blueboat_chassis', name)['xyz'] for name in ('flag', 'payload', 'mast')]
    assert between[:, 2].max() == pytest.approx(max(z for _, _, z in sockets), abs=MM)
    for name in ('flag', 'payload', 'mast'):  # a member runs under the socket, its top there
        x, y, z = slot('blueboat_chassis', name)['xyz']
        member = between[np.abs(between[:, 0] - x) < 0.03]
        assert len(member) and member[:, 2].max() == pytest.approx(z, abs=MM), name
        top = vertices[(np.abs(vertices[:, 0] - x) < 0.03) & (np.abs(vertices[:, 2] - z) < MM)]
        assert top[:, 1].min() < y < top[:, 1].max(), name
    for name in ('motor_port', 'motor_stbd'):
        motor = slot('blueboat_chassis', name)
        can = dims(motor['default'])
        mount = np.array(motor['xyz']) + [can['motor_length'] / 2, 0.0, 0.0]
        assert np.linalg.norm(vertices - mount, axis=1).min() < can['motor_diameter'] / 2, name
        assert mesh.bounds[0][2] <= motor['xyz'][2]


@pytest.mark.parametrize('part_type', PROPELLER_TYPES)
def test_propeller_has_the_data_diameter_and_hand(part_type, meshes):
    mesh, part = meshes[part_type], LIBRARY[part_type]
    blades = blade_faces(mesh)
    assert blades.sum() > 100, 'no propeller blades found'
    blade_radius = radial(mesh.vertices[np.unique(mesh.faces[blades])]).max()
    assert 2 * blade_radius == pytest.approx(dims(part_type)['propeller_diameter'], abs=5 * MM)
    assert 2 * blade_radius == pytest.approx(part['propeller']['diameter'], abs=5 * MM)
    # cw seen from astern = turning about +x; pushing forward it must screw forward: right-handed.
    twist = float((mesh.area_faces * helicity(mesh)).sum())
    expected = -1.0 if part['propeller']['rotation'] == 'cw' else 1.0
    assert np.sign(twist) == expected, f'{part_type}: blades pitched for the other rotation'


@pytest.mark.parametrize('family', ['m200_weedless_prop', 't200_thruster'])
def test_ccw_and_cw_are_mirror_images(family, meshes):
    ccw, cw = meshes[f'{family}_ccw'], meshes[f'{family}_cw']
    assert LIBRARY[f'{family}_ccw']['propeller']['rotation'] == 'ccw'
    assert LIBRARY[f'{family}_cw']['propeller']['rotation'] == 'cw'

    def vertex_set(vertices):
        return vertices[np.lexsort(vertices.T[::-1])]

    mirrored = ccw.vertices * np.array([1.0, -1.0, 1.0])
    np.testing.assert_array_equal(vertex_set(mirrored), vertex_set(cw.vertices))
    assert not np.array_equal(vertex_set(ccw.vertices),
                              vertex_set(cw.vertices)), 'same propeller twice'
    assert ccw.volume == pytest.approx(cw.volume, rel=1e-6)


def test_m200_fits_its_collision_cylinder(meshes):
    mesh, d = meshes['m200_weedless_prop_cw'], dims('m200_weedless_prop_cw')
    assert radial(mesh.vertices).max() == pytest.approx(d['propeller_diameter'] / 2, abs=MM)
    assert mesh.bounds[0][0] == pytest.approx(-d['motor_length'] / 2, abs=MM)
    assert mesh.bounds[1][0] == pytest.approx(d['motor_length'] / 2, abs=MM)
    # The can: most of the length sits at the motor radius, on the axis.
    can = mesh.vertices[radial(mesh.vertices) <= d['motor_diameter'] / 2 + 1e-6]
    assert np.ptp(can[:, 0]) == pytest.approx(d['motor_length'], abs=MM)
    # Blades in the aft (-x) half, where the propeller hub sits on the can.
    blade_centres = mesh.triangles_center[blade_faces(mesh)]
    assert blade_centres[:, 0].mean() < 0


def test_t200_is_a_duct_of_the_body_size_round_the_propeller(meshes):
    mesh, d = meshes['t200_thruster_cw'], dims('t200_thruster_cw')
    assert radial(mesh.vertices).max() == pytest.approx(d['body_diameter'] / 2, abs=MM)
    assert mesh.extents[0] == pytest.approx(d['body_length'], abs=MM)
    # A duct, not a solid can: a bore (faces looking at the axis) round the blades, clear of
    # their tips and as long as the blades are deep.
    centres = mesh.triangles_center
    outward = (np.stack([np.zeros(len(centres)), centres[:, 1], centres[:, 2]], 1)
               / radial(centres)[:, None])
    bore = (np.einsum('ij,ij->i', mesh.face_normals, outward) < -0.9) & (
        radial(centres) > d['propeller_diameter'] / 2)
    assert bore.sum() > 0, 'no duct bore'
    blades = mesh.vertices[np.unique(mesh.faces[blade_faces(mesh)])]
    assert radial(blades).max() < radial(centres[bore]).min()
    assert (centres[bore][:, 0].min() < blades[:, 0].min()
            and centres[bore][:, 0].max() > blades[:, 0].max())


def test_ping_body_runs_from_the_back_cap_along_its_beam(meshes):
    mesh, d = meshes['ping_singlebeam'], dims('ping_singlebeam')
    assert mesh.bounds[1][0] == pytest.approx(d['length'], abs=MM)  # transducer face on +x
    assert mesh.bounds[1][0] == pytest.approx(
        LIBRARY['ping_singlebeam']['frames']['beam']['xyz'][0], abs=MM)
    assert -0.03 < mesh.bounds[0][0] < 0  # only the cable gland behind the back cap
    assert radial(mesh.vertices).max() == pytest.approx(d['diameter'] / 2, abs=MM)


def test_ping_mount_hangs_from_its_origin_and_clamps_the_ping(meshes):
    mesh, d = meshes['blueboat_ping_singlebeam_mount'], dims('blueboat_ping_singlebeam_mount')
    assert mesh.bounds[1][2] == pytest.approx(0.0, abs=MM)
    ping_slot = slot('blueboat_ping_singlebeam_mount', 'ping')
    ping_type = ping_slot['default']
    transform = np.eye(4)
    transform[:3, :3] = rpy_matrix(*ping_slot['rpy'])
    transform[:3, 3] = ping_slot['xyz']
    ping = meshes[ping_type].copy().apply_transform(transform)
    axis_xy = np.array(ping_slot['xyz'][:2])
    # The Ping hangs below the bracket, looking down, its body below the slot.
    assert ping.bounds[0][2] == pytest.approx(ping_slot['xyz'][2] - dims(ping_type)['length'],
                                              abs=MM)
    # The clamp below the slot plane hugs the Ping's body: bore = Ping radius, wall = thickness.
    clamp = mesh.vertices[mesh.vertices[:, 2] < ping_slot['xyz'][2] - 0.5 * MM]
    assert len(clamp)
    off_axis = np.linalg.norm(clamp[:, :2] - axis_xy, axis=1)
    assert off_axis.min() == pytest.approx(dims(ping_type)['diameter'] / 2, abs=0.5 * MM)
    assert off_axis.max() == pytest.approx(dims(ping_type)['diameter'] / 2 + d['thickness'],
                                           abs=0.5 * MM)


def test_flag_pole_and_flag(meshes):
    mesh, d = meshes['blueboat_flag'], dims('blueboat_flag')
    lower, upper = mesh.bounds
    assert (lower[2] == pytest.approx(0.0, abs=MM)
            and upper[2] == pytest.approx(d['pole_height'], abs=MM))
    assert -lower[0] == pytest.approx(d['flag_width'] + d['pole_diameter'] / 2, abs=MM)
    cloth = mesh.vertices[mesh.vertices[:, 0] < -d['pole_diameter']]
    assert np.ptp(cloth[:, 2]) == pytest.approx(d['flag_height'], abs=MM)
    assert np.ptp(cloth[:, 1]) < 0.01  # thin


def test_antenna_mast_tube_and_top(meshes):
    mesh, d = meshes['blueboat_antenna_mast'], dims('blueboat_antenna_mast')
    assert mesh.bounds[0][2] == pytest.approx(0.0, abs=MM)
    assert mesh.bounds[1][2] == pytest.approx(
        LIBRARY['blueboat_antenna_mast']['frames']['top']['xyz'][2], abs=MM)
    middle = mesh.vertices[
        mesh.faces[np.abs(mesh.triangles_center[:, 2] - d['height'] / 2) < d['height'] / 4]]
    assert len(middle)
    assert np.hypot(middle[..., 0], middle[..., 1]).max() == pytest.approx(d['diameter'] / 2,
                                                                           abs=MM)


def test_payload_bracket_is_the_plate_with_holes(meshes):
    mesh, d = meshes['blueboat_payload_bracket'], dims('blueboat_payload_bracket')
    np.testing.assert_allclose(mesh.bounds, [[-d['length'] / 2, -d['width'] / 2, 0.0],
                                             [d['length'] / 2, d['width'] / 2, d['thickness']]],
                               atol=1e-5)
    plate = d['length'] * d['width'] * d['thickness']
    assert 0.5 * plate < mesh.volume < 0.95 * plate  # holes take some of the plate


def test_battery_is_a_rounded_box_of_its_size(meshes):
    mesh, d = meshes['blueboat_battery'], dims('blueboat_battery')
    half = np.array([d['length'], d['width'], d['height']]) / 2
    np.testing.assert_allclose(mesh.bounds, [-half, half], atol=1e-5)
    assert 0.9 * np.prod(2 * half) < mesh.volume < np.prod(2 * half)  # rounded, not a sharp box
