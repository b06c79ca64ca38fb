#!/usr/bin/env python3
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
Generate the part library's visual meshes from the part data.

Every ``visual: - mesh: <type>/<file>.stl`` in ``urdf/parts/<type>.yaml`` is built here as a small
binary STL: a recognisable approximation made from the part's ``dimensions:`` (and, where a part
shows where something attaches, its slots), in the part's own frame (REP 103, metres), so the
visual lines up with the collision primitives. The numbers that the YAML does not give are shape
choices, kept as named constants below and marked cosmetic. python tools/make_meshes.py # write
meshes/<type>/<file>.stl python tools/make_meshes.py --check # exit 1 if the committed meshes are
not current The output is deterministic (fixed header, no timestamps, geometry from numpy only), so
``--check`` compares bytes (falling back to a 1 um geometry comparison, so a last-bit difference in
another platform's sin/cos is not reported as a stale mesh). Needs numpy and PyYAML; trimesh, if
installed, adds a watertightness column to the summary.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
import math
from pathlib import Path
import sys
import tempfile

import numpy as np
import yaml

REPO = Path(__file__).resolve().parent.parent
PARTS_DIR = REPO / 'urdf' / 'parts'
MESH_DIR = REPO / 'meshes'

# --- Cosmetic shape choices (not part data: they only change how a mesh looks) -----------------

ROUND_SEGMENTS = 32          # facets around round bodies (a multiple of 4 keeps extremes exact)
SMALL_ROUND_SEGMENTS = 16    # facets around small round details (poles, glands, bosses)
FILLET_STEPS = 3             # facets per quarter round (fillets, noses, domes, bell-mouths)

PROP_BLADE_COUNT = 3         # both the M200 weedless and the T200 propellers have three blades
PROP_PITCH_RATIO = 1.0       # helix pitch / propeller diameter
PROP_BLADE_HALF_ANGLE = math.radians(35.0)  # half the angle a blade covers at its root
PROP_TIP_CHORD_FRACTION = 0.35  # tip chord relative to the root chord (rounded tips)
PROP_SKEW = math.radians(40.0)  # tip swept back against the rotation (weedless look)
PROP_ROOT_THICKNESS = 0.03   # blade thickness at the root / propeller diameter
PROP_TIP_THICKNESS = 0.01    # blade thickness at the tip / propeller diameter
PROP_RADIAL_STATIONS = 10    # blade sections from root to tip
PROP_CHORD_POINTS = 8        # points along each face of a blade section
PROP_ROOT_SINK = 0.95        # blade root radius / hub radius: roots sink into the hub, no gap

M200_CAN_CHAMFER = 0.05      # chamfer at the can ends / motor diameter
M200_PROP_HUB_RADIUS = 1.08  # propeller hub sleeve radius / can radius (the hub fits on the can)
M200_PROP_HUB_LENGTH = 0.55  # hub sleeve length / can length, at the aft end of the can

T200_TIP_CLEARANCE = 0.03    # duct inner radius = propeller radius * (1 + this)
T200_INTAKE_FLARE = 0.4      # bell-mouth depth at the intake / duct wall thickness
T200_DUCT_CHAMFER = 0.3      # outer edge chamfer / duct wall thickness
T200_MOTOR_RADIUS = 0.45     # motor body radius / propeller radius
T200_MOTOR_LENGTH = 0.85     # motor body length / duct length
T200_MOTOR_TAIL = 0.4        # radius of the motor's flat tail / motor radius
T200_MOTOR_TAIL_TAPER = 0.5  # length of the tail taper / motor radius
T200_STRUT_ROOT = 0.8        # struts start inside the motor at this * motor radius ...
T200_STRUT_TIP = 0.5         # ... and end inside the duct wall, this far through it
T200_PROP_POSITION = 0.12    # propeller plane ahead of the duct centre / duct length
T200_STRUT_COUNT = 3
T200_STRUT_CHORD = 0.15      # strut chord / duct length (struts sit at the aft end)
T200_STRUT_THICKNESS = 0.06  # strut thickness / duct radius

FLAG_THICKNESS = 0.002       # m, a cloth flag drawn as a thin plate

MAST_BASE_RADIUS = 1.5       # base plate radius / mast diameter
MAST_BASE_THICKNESS = 0.2    # base plate thickness / mast diameter
MAST_PUCK_RADIUS = 1.5       # antenna puck radius / mast diameter
MAST_PUCK_HEIGHT = 0.7       # antenna puck height / mast diameter

BRACKET_HOLES_X = 4          # grid of holes in the payload plate
BRACKET_HOLES_Y = 3
BRACKET_HOLE_FILL = 0.55     # hole size / hole pitch

PING_MOUNT_FOOT_LENGTH = 0.6  # flange bolted to the hull, along +x / bracket width
PING_MOUNT_CLAMP_HEIGHT = 0.3  # clamp ring height / Ping length

PING_FACE_DOME = 0.05        # transducer dome height / Ping diameter
PING_BACK_CHAMFER = 0.05     # back cap chamfer / Ping diameter
PING_GLAND_RADIUS = 0.12     # cable gland radius / Ping diameter
PING_GLAND_LENGTH = 0.25     # cable gland length behind the back cap / Ping diameter
PING_GLAND_OFFSET = 0.22     # gland offset from the axis (toward +z) / Ping diameter

BATTERY_FILLET = 0.2         # edge radius / smallest battery dimension
TRIM_FILLET = 0.1            # edge radius / smallest side of a foam block or ballast weight

ROV_BODY_FILLET = 0.2        # edge radius of the BlueROV2 camera block / its thinnest side
ROV_TUBE_CHAMFER = 0.08      # end chamfer of the BlueROV2 enclosures / tube radius
ROV_VISUAL_GAP = 0.0003      # m, each BlueROV2 frame block is drawn this far inside its box
LUMEN_CHAMFER = 0.12         # back edge chamfer of the Lumen body / its diameter
LUMEN_BEZEL = 0.1            # lens bezel step / Lumen diameter
CAMERA_LENS_RADIUS = 0.15    # camera lens barrel radius / camera mount width
CAMERA_LENS_LENGTH = 0.2     # lens barrel length, ahead of the body / camera mount length
GNSS_EDGE = 0.3              # rounding of the GNSS puck's top edge / its height
BAR30_NUT = 0.3              # the Bar30's nut at the end cap / its length
BAR30_STEM = 0.6             # the Bar30's stem radius / its nut's
PING360_DOME = 0.2           # the Ping360's domed top / its height
GRIPPER_JAW_WIDTH = 0.55     # closed jaws drawn this half-wide / gripper radius (cosmetic)
GRIPPER_JAW_HEIGHT = 0.45    # and this half-high / gripper radius (cosmetic)

HULL_BOW_RISE = 0.5          # bow tip raised by this * hull radius (a spoon bow, not a torpedo)
HULL_END_RINGS = 8           # rings in each rounded hull end
CROSS_MEMBER_WIDTH = 0.04    # m, along x
CROSS_MEMBER_HEIGHT = 0.03   # m
SADDLE_WIDTH = 0.8           # saddle block width along x / cross member width
DECK_FILLET = 0.01           # m, edge radius of the cross members
MOTOR_STRUT_CHORD = 1.5      # motor strut chord / motor diameter
MOTOR_STRUT_THICKNESS = 0.3  # motor strut thickness / motor diameter
MOTOR_MOUNT_NOSE = 0.6       # rounded nose of the motor mount boss / motor diameter


# --- Mesh building ------------------------------------------------------------------------------

@dataclass
class Mesh:
    """Triangles over shared vertices; each shell built here is closed and wound outward."""

    vertices: np.ndarray  # (n, 3) float64, metres
    faces: np.ndarray     # (m, 3) int64

    def bounds(self) -> np.ndarray:
        return np.array([self.vertices.min(axis=0), self.vertices.max(axis=0)])


def combine(*meshes: Mesh) -> Mesh:
    """One mesh out of several closed shells (overlapping shells are fine for a visual)."""
    vertices, faces, offset = [], [], 0
    for mesh in meshes:
        vertices.append(mesh.vertices)
        faces.append(mesh.faces + offset)
        offset += len(mesh.vertices)
    return Mesh(np.concatenate(vertices), np.concatenate(faces))


def closed_shell(vertices, faces) -> Mesh:
    """
    Return the mesh welded, without collapsed triangles, and wound outward.

    Coincident vertices (poles, flat corners) are welded and the triangles that collapse
    dropped, so every generator can describe a shape as a grid of rings.
    """
    vertices = np.asarray(vertices, dtype=float)
    faces = np.asarray(faces, dtype=np.int64)
    key = np.round(vertices, 12) + 0.0  # + 0.0 turns -0.0 into 0.0 so both weld
    _, first, inverse = np.unique(key, axis=0, return_index=True, return_inverse=True)
    order = np.argsort(first)  # keep vertices in the order they were made (stable output)
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    vertices = vertices[first[order]]
    faces = rank[inverse.reshape(-1)][faces]
    keep = ((faces[:, 0] != faces[:, 1]) & (faces[:, 1] != faces[:, 2])
            & (faces[:, 0] != faces[:, 2]))
    faces = faces[keep]
    if signed_volume(vertices, faces) < 0:
        faces = faces[:, ::-1].copy()
    return Mesh(vertices, faces)


def signed_volume(vertices: np.ndarray, faces: np.ndarray) -> float:
    a, b, c = (vertices[faces[:, i]] for i in range(3))
    return float(np.einsum('ij,ij->i', a, np.cross(b, c)).sum() / 6.0)


def loft(rings, cap_start: bool = True, cap_end: bool = True, closed: bool = False) -> Mesh:
    """
    Return a closed surface through rings of equally many points.

    quads between neighbouring rings, a fan over each end ring (or the last ring joined back to the
    first when `closed`, for hollow bodies). A ring of coincident points is a pole.
    """
    rings = [np.asarray(r, dtype=float) for r in rings]
    count, size = len(rings), len(rings[0])
    vertices, faces = list(rings), []
    j = np.arange(size)
    k = (j + 1) % size
    for i in range(count if closed else count - 1):
        here, there = i * size, ((i + 1) % count) * size
        faces += [np.stack([here + j, here + k, there + k], 1),
                  np.stack([here + j, there + k, there + j], 1)]
    if not closed:
        # Fans wound opposite to each other so they agree with the side quads.
        ends = [(rings[0], 0, (k, j))] if cap_start else []
        ends += [(rings[-1], (count - 1) * size, (j, k))] if cap_end else []
        for ring, start, (first, second) in ends:
            centre = sum(len(v) for v in vertices)
            vertices.append(ring.mean(axis=0, keepdims=True))
            faces.append(np.stack([np.full(size, centre), start + first, start + second], 1))
    return closed_shell(np.concatenate(vertices), np.concatenate(faces))


def unit_circle(segments: int) -> tuple[np.ndarray, np.ndarray]:
    """Return cos and sin of evenly spaced angles, with the exact 0 and +/-1 (exact bounds)."""
    angles = 2.0 * np.pi * np.arange(segments) / segments
    return np.round(np.cos(angles), 15) + 0.0, np.round(np.sin(angles), 15) + 0.0


def along_axis(axial, radial_y, radial_z, axis: str) -> np.ndarray:
    """
    Points given as (axial, two radial coordinates) for a body of revolution about x or z.

    The z case is a cyclic permutation (a rotation), so winding is unchanged.
    """
    if axis == 'x':
        return np.stack([axial, radial_y, radial_z], -1)
    if axis == 'z':
        return np.stack([radial_y, radial_z, axial], -1)
    raise ValueError(axis)


def lathe(profile, segments: int = ROUND_SEGMENTS, axis: str = 'x', centre=(0.0, 0.0, 0.0),
          hollow: bool = False) -> Mesh:
    """
    Return a body of revolution from a profile of (axial position, radius) pairs.

    Solid: ends are closed by flat discs (or poles where the radius is 0). Hollow: the profile is a
    closed loop (a duct or ring cross-section).
    """
    cos, sin = unit_circle(segments)
    rings = [along_axis(np.full(segments, a), r * cos, r * sin, axis) for a, r in profile]
    mesh = loft(rings, closed=hollow)
    return translated(mesh, centre)


def box(lower, upper) -> Mesh:
    """Return an axis-aligned box between two corners."""
    (x0, y0, z0), (x1, y1, z1) = lower, upper
    rectangle = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    return loft([[(x, y, z) for x, y in rectangle] for z in (z0, z1)])


def rounded_box(size, radius: float, centre=(0.0, 0.0, 0.0), steps: int = FILLET_STEPS) -> Mesh:
    """
    Return a box of exactly `size` with all edges rounded to `radius`.

    Eight sphere corners joined by flat faces: rows of latitude over four quadrants of
    longitude, poles welded.
    """
    inner = np.asarray(size, dtype=float) / 2.0 - radius
    if np.any(inner < 0):
        raise ValueError(f'fillet {radius} too large for box {size}')
    quadrant_signs = [(1, 1), (-1, 1), (-1, -1), (1, -1)]
    t = np.arange(steps + 1) / steps * (np.pi / 2)
    longitudes = [(sx, sy, q * np.pi / 2 + t) for q, (sx, sy) in enumerate(quadrant_signs)]
    latitudes = [(-1, -np.pi / 2 + t), (1, t)]
    rings = []
    for sz, psis in latitudes:
        for psi in psis:
            cos_psi, sin_psi = np.round(np.cos(psi), 15), np.round(np.sin(psi), 15)
            ring = []
            for sx, sy, phis in longitudes:
                cos_phi, sin_phi = np.round(np.cos(phis), 15), np.round(np.sin(phis), 15)
                ring.append(np.stack([
                    np.full_like(phis, sx * inner[0]) + radius * cos_psi * cos_phi,
                    np.full_like(phis, sy * inner[1]) + radius * cos_psi * sin_phi,
                    np.full_like(phis, sz * inner[2] + radius * sin_psi)], -1))
            rings.append(np.concatenate(ring))
    return translated(loft(rings), centre)


def extruded_grid(x_edges, y_edges, solid, z0: float, z1: float) -> Mesh:
    """
    Return a plate made of the `solid[i][j]` cells of a rectangular grid, extruded from z0 to z1.

    top and bottom faces on the solid cells, walls where a solid cell meets a hole or the outside.
    Holes must not touch one another, even at corners (keeps the shell manifold).
    """
    x_edges, y_edges = np.asarray(x_edges, float), np.asarray(y_edges, float)
    nx, ny = len(x_edges), len(y_edges)
    solid = np.asarray(solid, dtype=bool)

    def node(i, j, top):
        return (i * ny + j) * 2 + top

    def is_solid(i, j):
        return 0 <= i < nx - 1 and 0 <= j < ny - 1 and bool(solid[i, j])

    vertices = [(x, y, z) for x in x_edges for y in y_edges for z in (z0, z1)]
    quads = []
    for i in range(nx - 1):
        for j in range(ny - 1):
            if is_solid(i, j):
                quads.append((node(i, j, 1), node(i + 1, j, 1), node(i + 1, j + 1, 1),
                              node(i, j + 1, 1)))
                quads.append((node(i, j, 0), node(i, j + 1, 0), node(i + 1, j + 1, 0),
                              node(i + 1, j, 0)))
    for i in range(nx):  # walls on grid lines x = x_edges[i], facing +x or -x
        for j in range(ny - 1):
            left, right = is_solid(i - 1, j), is_solid(i, j)
            if left != right:
                quad = (node(i, j, 0), node(i, j + 1, 0), node(i, j + 1, 1), node(i, j, 1))
                quads.append(quad if left else quad[::-1])
    for j in range(ny):  # walls on grid lines y = y_edges[j], facing -y or +y
        for i in range(nx - 1):
            below, above = is_solid(i, j - 1), is_solid(i, j)
            if below != above:
                quad = (node(i, j, 0), node(i + 1, j, 0), node(i + 1, j, 1), node(i, j, 1))
                quads.append(quad if above else quad[::-1])
    faces = [(a, b, c) for a, b, c, d in quads] + [(a, c, d) for a, b, c, d in quads]
    return closed_shell(vertices, faces)


def translated(mesh: Mesh, offset) -> Mesh:
    return Mesh(mesh.vertices + np.asarray(offset, dtype=float), mesh.faces)


def rotated_about_x(mesh: Mesh, angle: float) -> Mesh:
    c, s = math.cos(angle), math.sin(angle)
    rotation = np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])
    return Mesh(mesh.vertices @ rotation.T, mesh.faces)


def swapped_yz(mesh: Mesh) -> Mesh:
    """Return the mesh with y and z exchanged (a reflection, so rewound): x-y grids serve x-z."""
    return Mesh(mesh.vertices[:, [0, 2, 1]], mesh.faces[:, ::-1].copy())


def mirrored_y(mesh: Mesh) -> Mesh:
    """
    Return the mirror image through the x-z plane (y -> -y), rewound so it still faces outward.

    a counter-clockwise propeller is exactly the mirror image of a clockwise one.
    """
    return Mesh(mesh.vertices * np.array([1.0, -1.0, 1.0]), mesh.faces[:, ::-1].copy())


def quarter_round(a_flat, a_tip, radius, steps, rise=0.0):
    """
    Return the profile points of a rounded end (quarter ellipse).

    From the full radius at `a_flat` to a pole at `a_tip`, as (axial, radius, lift) triples;
    `lift` raises the end toward its tip.
    """
    points = []
    for k in range(steps + 1):
        angle = (np.pi / 2) * k / steps
        fraction = math.sin(angle)  # 0 at full radius, 1 at the tip
        points.append((a_flat + (a_tip - a_flat) * fraction,
                       radius * math.cos(angle) if k < steps else 0.0,
                       rise * fraction ** 2))
    return points


# --- Shapes shared by several parts -------------------------------------------------------------

def right_handed_propeller(diameter: float, root_radius: float, axial_centre: float) -> Mesh:
    """
    Swept blades on a right-handed helix (x advances as the blade turns about +x).

    the propeller that turns clockwise seen from astern when it pushes forward. The other hand is
    its mirror image. Each blade is lofted from lens-shaped sections lying on cylinders, so the
    tips reach exactly the propeller radius.
    """
    tip_radius = diameter / 2.0
    lead = PROP_PITCH_RATIO * diameter / (2.0 * np.pi)  # axial advance per radian
    chord = -np.cos(np.pi * np.arange(PROP_CHORD_POINTS + 1) / PROP_CHORD_POINTS)  # -1..1
    lens = np.sqrt(np.clip(1.0 - chord ** 2, 0.0, None))
    stations = np.sin((np.pi / 2) * np.arange(PROP_RADIAL_STATIONS + 1) / PROP_RADIAL_STATIONS)
    blades = []
    for blade in range(PROP_BLADE_COUNT):
        rings = []
        for rho in stations:
            r = root_radius + (tip_radius - root_radius) * rho
            half_angle = PROP_BLADE_HALF_ANGLE * (
                PROP_TIP_CHORD_FRACTION
                + (1 - PROP_TIP_CHORD_FRACTION) * math.sqrt(max(0.0, 1 - rho ** 2)))
            skew = -PROP_SKEW * rho ** 2 + 2.0 * np.pi * blade / PROP_BLADE_COUNT
            thickness = diameter * (PROP_ROOT_THICKNESS * (1 - rho) + PROP_TIP_THICKNESS * rho)
            # Chord line in the unrolled cylinder (arc length u, axial x), and its normal.
            u = r * (skew + chord * half_angle)
            x = axial_centre + lead * chord * half_angle
            normal = np.array([-lead, r]) / math.hypot(lead, r)
            offset = 0.5 * thickness * lens
            upper = (u + normal[0] * offset, x + normal[1] * offset)
            lower = (u - normal[0] * offset, x - normal[1] * offset)
            u_loop = np.concatenate([upper[0], lower[0][-2:0:-1]])
            x_loop = np.concatenate([upper[1], lower[1][-2:0:-1]])
            theta = u_loop / r
            rings.append(np.stack([x_loop, r * np.cos(theta), r * np.sin(theta)], -1))
        blades.append(loft(rings))
    return combine(*blades)


def with_hand(mesh: Mesh, rotation: str) -> Mesh:
    """Turn a right-handed (cw) build into the part's hand, read from `propeller.rotation`."""
    if rotation == 'cw':
        return mesh
    if rotation == 'ccw':
        return mirrored_y(mesh)
    raise ValueError(f'propeller.rotation must be cw or ccw, not {rotation!r}')


# --- One function per part shape ----------------------------------------------------------------

def m200_motor_with_prop(part: dict, library: dict) -> Mesh:
    """
    Return the M200 outrunner can along x, centred on the origin, with its propeller.

    The weedless propeller's hub sleeve sits on the aft end of the can with three blades on it:
    motor and propeller turn together, and the whole fits the collision cylinder (propeller radius
    x motor length).
    """
    d = dimensions(part)
    length, radius = d['motor_length'], d['motor_diameter'] / 2.0
    chamfer = M200_CAN_CHAMFER * d['motor_diameter']
    hub_fore = -length / 2 + M200_PROP_HUB_LENGTH * length
    hub_radius = M200_PROP_HUB_RADIUS * radius
    can_and_hub = lathe([(-length / 2, hub_radius - chamfer), (-length / 2 + chamfer, hub_radius),
                         (hub_fore - chamfer, hub_radius), (hub_fore, radius),
                         (length / 2 - chamfer, radius), (length / 2, radius - chamfer)])
    blades = right_handed_propeller(d['propeller_diameter'],
                                    root_radius=PROP_ROOT_SINK * hub_radius,
                                    axial_centre=(-length / 2 + hub_fore) / 2)
    return with_hand(combine(can_and_hub, blades), part['propeller']['rotation'])


def t200_thruster(part: dict, library: dict) -> Mesh:
    """
    T200.

    a duct (body diameter x body length, centred on the origin, axis x) with a bell- mouth intake
    at the front, a central motor body, stator struts at the aft end and a three-blade propeller
    inside the duct.
    """
    d = dimensions(part)
    length, outer = d['body_length'], d['body_diameter'] / 2.0
    prop_radius = d['propeller_diameter'] / 2.0
    inner = prop_radius * (1 + T200_TIP_CLEARANCE)
    wall = outer - inner
    chamfer, flare = T200_DUCT_CHAMFER * wall, T200_INTAKE_FLARE * wall
    front, back = length / 2, -length / 2
    duct_loop = [(back, inner), (back, outer - chamfer), (back + chamfer, outer),
                 (front - chamfer, outer), (front, outer - chamfer)]
    for k in range(FILLET_STEPS + 1):  # bell-mouth from the front face into the bore
        angle = (np.pi / 2) * k / FILLET_STEPS
        duct_loop.append((front - flare + flare * math.cos(angle),
                          inner + flare - flare * math.sin(angle)))
    duct = lathe(duct_loop, hollow=True)

    motor_radius = T200_MOTOR_RADIUS * prop_radius
    motor_half = T200_MOTOR_LENGTH * length / 2
    nose_end = quarter_round(motor_half - motor_radius, motor_half, motor_radius, FILLET_STEPS)
    nose = [(a, r) for a, r, _ in nose_end]
    tail = -motor_half + T200_MOTOR_TAIL_TAPER * motor_radius
    motor = lathe([(-motor_half, T200_MOTOR_TAIL * motor_radius), (tail, motor_radius)] + nose)

    prop_centre = T200_PROP_POSITION * length
    blades = right_handed_propeller(d['propeller_diameter'],
                                    root_radius=PROP_ROOT_SINK * motor_radius,
                                    axial_centre=prop_centre)

    chord, thickness = T200_STRUT_CHORD * length, T200_STRUT_THICKNESS * outer
    strut = box((tail, -thickness / 2, T200_STRUT_ROOT * motor_radius),
                (tail + chord, thickness / 2, inner + T200_STRUT_TIP * wall))
    struts = [rotated_about_x(strut, 2 * np.pi * k / T200_STRUT_COUNT)
              for k in range(T200_STRUT_COUNT)]
    return with_hand(combine(duct, motor, blades, *struts), part['propeller']['rotation'])


def blueboat_chassis(part: dict, library: dict) -> Mesh:
    """
    Build the BlueBoat: two pontoon hulls, two cross members, a strut to each motor.

    The hulls at the hull data; the cross members' tops are the deck sockets (payload forward;
    mast and flag aft).
    """
    d, slots = dimensions(part), part['slots']
    hulls = [pontoon_hull(d, side) for side in (1, -1)]
    struts = [motor_strut(slot_xyz(slots, name), d['hull_z'],
                          default_occupant(slots[name], library))
              for name in ('motor_port', 'motor_stbd')]
    return combine(*hulls, deck_frame(d, slots), *struts)


def pontoon_hull(d: dict, side: int) -> Mesh:
    """
    One hull.

    the community model's cylinder (radius, length, centre) as the parallel body, with rounded ends
    beyond it that bring the overall length to the datasheet length; the bow end rises toward its
    tip.
    """
    radius, hull_length = d['hull_radius'], d['hull_length']
    end_length = (d['length'] - hull_length) / 2.0
    if end_length <= 0:
        raise ValueError('chassis length must exceed hull_length (the rounded ends fill the gap)')
    stern, bow = d['hull_x'] - hull_length / 2, d['hull_x'] + hull_length / 2
    stern_end = quarter_round(stern, stern - end_length, radius, HULL_END_RINGS)
    profile = ([(a, r, 0.0) for a, r, _ in reversed(stern_end)]
               + quarter_round(bow, bow + end_length, radius, HULL_END_RINGS,
                               HULL_BOW_RISE * radius))
    cos, sin = unit_circle(ROUND_SEGMENTS)
    y = side * d['hull_y']
    return loft([along_axis(np.full(ROUND_SEGMENTS, a), y + r * cos,
                            d['hull_z'] + lift + r * sin, 'x')
                 for a, r, lift in profile])


def deck_frame(d: dict, slots: dict) -> Mesh:
    """
    Build the cross members between the hulls, with saddles down into them.

    The forward one runs under the payload socket, the aft one under the mast and flag
    sockets, each member's top at its sockets' height (the sockets the reference description
    measured on the delivered mesh; the BlueBoat keeps its electronics in the hulls, so nothing
    else stands on the deck).
    """
    radius = d['hull_radius']
    forward, aft = slot_xyz(slots, 'payload'), slot_xyz(slots, 'flag')
    mast = slot_xyz(slots, 'mast')
    if abs(aft[0] - mast[0]) > 1e-9 or abs(aft[2] - mast[2]) > 1e-9:
        raise ValueError('the mast and flag sockets sit on the same (aft) cross member')
    frame = []
    for x, top in ((forward[0], forward[2]), (aft[0], aft[2])):
        middle = top - CROSS_MEMBER_HEIGHT / 2
        frame.append(rounded_box((CROSS_MEMBER_WIDTH, 2 * d['hull_y'], CROSS_MEMBER_HEIGHT),
                                 DECK_FILLET, centre=(x, 0.0, middle)))
        saddle = SADDLE_WIDTH * CROSS_MEMBER_WIDTH / 2  # narrower than the member: no shared faces
        for side in (1, -1):  # saddles from the hull centre line up into the member
            frame.append(box((x - saddle, side * d['hull_y'] - radius / 2, d['hull_z']),
                             (x + saddle, side * d['hull_y'] + radius / 2, middle)))
    return combine(*frame)


def motor_strut(slot: tuple, hull_z: float, motor_part: dict) -> Mesh:
    """
    Return a fin from inside the hull down to the motor axis, ahead of the spinning can.

    It ends in a round boss the can's front face bolts to (sized from the slot's default motor).
    """
    md = dimensions(motor_part)
    can_length = md.get('motor_length', md.get('body_length'))
    can_diameter = md.get('motor_diameter', md.get('body_diameter'))
    x, y, z = slot
    front = x + can_length / 2
    chord, thickness = MOTOR_STRUT_CHORD * can_diameter, MOTOR_STRUT_THICKNESS * can_diameter
    fin = box((front + thickness, y - thickness / 2, z),
              (front + chord, y + thickness / 2, hull_z))
    nose = MOTOR_MOUNT_NOSE * can_diameter
    boss_profile = [(front, can_diameter / 2)] + [
        (a, r) for a, r, _ in quarter_round(front + chord, front + chord + nose, can_diameter / 2,
                                            FILLET_STEPS)]
    boss = lathe(boss_profile, centre=(0.0, y, z))
    return combine(fin, boss)


def blueboat_flag(part: dict, library: dict) -> Mesh:
    """Return a pole up +z from the origin and a thin flag at its top, flying aft (-x)."""
    d = dimensions(part)
    pole_radius = d['pole_diameter'] / 2
    pole = lathe([(0.0, pole_radius), (d['pole_height'], pole_radius)], SMALL_ROUND_SEGMENTS,
                 axis='z')
    flag = box((-pole_radius - d['flag_width'], -FLAG_THICKNESS / 2,
                d['pole_height'] - d['flag_height']),
               (0.0, FLAG_THICKNESS / 2, d['pole_height']))
    return combine(pole, flag)


def blueboat_antenna_mast(part: dict, library: dict) -> Mesh:
    """
    Return a tube up +z from the origin on a round base plate, with an antenna puck.

    The puck's top is the mast height (where the `top` frame puts the antenna).
    """
    d = dimensions(part)
    height, diameter = d['height'], d['diameter']
    base_t, puck_h = MAST_BASE_THICKNESS * diameter, MAST_PUCK_HEIGHT * diameter
    base = lathe([(0.0, MAST_BASE_RADIUS * diameter), (base_t, MAST_BASE_RADIUS * diameter)],
                 axis='z')
    tube = lathe([(base_t, diameter / 2), (height - puck_h, diameter / 2)], axis='z')
    puck_radius = MAST_PUCK_RADIUS * diameter
    puck = lathe([(height - puck_h, puck_radius)]
                 + [(a, r) for a, r, _ in quarter_round(height - puck_h / 2, height, puck_radius,
                                                        FILLET_STEPS)],
                 axis='z')
    return combine(base, tube, puck)


def blueboat_payload_bracket(part: dict, library: dict) -> Mesh:
    """Return the mounting plate (bottom face at z = 0) with its grid of holes."""
    d = dimensions(part)

    def edges(extent, holes):
        pitch = extent / holes
        hole = BRACKET_HOLE_FILL * pitch
        centres = (-extent / 2 + (i + 0.5) * pitch for i in range(holes))
        inner = [c + s * hole / 2 for c in centres for s in (-1, 1)]
        return [-extent / 2, *inner, extent / 2]

    x_edges, y_edges = edges(d['length'], BRACKET_HOLES_X), edges(d['width'], BRACKET_HOLES_Y)
    # Cells alternate bar/hole in each direction; a cell is a hole where two hole bands cross.
    solid = [[not (i % 2 == 1 and j % 2 == 1) for j in range(len(y_edges) - 1)]
             for i in range(len(x_edges) - 1)]
    return extruded_grid(x_edges, y_edges, solid, 0.0, d['thickness'])


def blueboat_ping_singlebeam_mount(part: dict, library: dict) -> Mesh:
    """
    Return an L bracket.

    a foot at the hull attachment (origin), a vertical plate down to -drop (the collision box) and
    a clamp ring round the top of the Ping, which hangs from the `ping` slot looking down (ring
    bore = the diameter of the slot's default sensor).
    """
    d = dimensions(part)
    drop, width, thickness = d['drop'], d['width'], d['thickness']
    sensor = dimensions(default_occupant(part['slots']['ping'], library))
    bore = sensor['diameter'] / 2
    x, y, top = slot_xyz(part['slots'], 'ping')
    # Foot and plate as one L section in x-z (cells: plate, corner, -, foot), extruded along y.
    # The plate ends inside the cup's roof (at the slot, z = -drop) so no two faces share a plane.
    l_section = extruded_grid([-thickness / 2, thickness / 2, PING_MOUNT_FOOT_LENGTH * width],
                              [-drop + thickness / 2, -thickness, 0.0],
                              [[True, True], [False, True]], -width / 2, width / 2)
    bracket = swapped_yz(l_section)
    # A cup over the Ping's back cap: a roof on the slot plane and a clamp ring round the body.
    clamp_height = PING_MOUNT_CLAMP_HEIGHT * sensor['length']
    outer = bore + thickness
    cup = lathe([(top + thickness, outer), (top - clamp_height, outer),
                 (top - clamp_height, bore), (top, bore)],
                axis='z', centre=(x, y, 0.0))
    return combine(bracket, cup)


def ping_singlebeam(part: dict, library: dict) -> Mesh:
    """
    Return the Ping's cylindrical body from its back cap (origin) along +x.

    A shallow dome on the transducer face ends at +length; a cable gland sits behind the back
    cap.
    """
    d = dimensions(part)
    length, diameter = d['length'], d['diameter']
    radius = diameter / 2
    chamfer, dome = PING_BACK_CHAMFER * diameter, PING_FACE_DOME * diameter
    profile = [(0.0, radius - chamfer), (chamfer, radius), (length - dome, radius)]
    for k in range(1, FILLET_STEPS + 2):  # spherical-ish cap: radius falls as the dome rises
        fraction = k / (FILLET_STEPS + 1)
        profile.append((length - dome + dome * math.sin(fraction * np.pi / 2),
                        radius * math.cos(fraction * np.pi / 2) if k <= FILLET_STEPS else 0.0))
    body = lathe(profile)
    gland_radius = PING_GLAND_RADIUS * diameter
    gland = lathe([(-PING_GLAND_LENGTH * diameter, gland_radius), (chamfer, gland_radius)],
                  SMALL_ROUND_SEGMENTS, centre=(0.0, 0.0, PING_GLAND_OFFSET * diameter))
    return combine(body, gland)


def blueboat_battery(part: dict, library: dict) -> Mesh:
    """Return a rounded box of the pack's size, centred on the origin."""
    d = dimensions(part)
    size = (d['length'], d['width'], d['height'])
    return rounded_box(size, BATTERY_FILLET * min(size))


def bluerov2_frame(part: dict, library: dict) -> Mesh:
    """
    Draw a BlueROV2 frame (standard or Heavy) from its collision bodies.

    The visual shows where the vehicle's displacement is. A box of square cross-section much
    longer in x is an enclosure (tools/derive_bluerov2.py writes tubes as boxes of equal area):
    drawn as the tube, the widest one ending forward in its dome. The other boxes (panels,
    foam) are drawn as blocks.
    """
    boxes = [(tuple(float(v) for v in item['box']),
              tuple(float(v) for v in item.get('xyz', (0.0, 0.0, 0.0))))
             for item in part['collision']]

    def is_tube(size):
        return math.isclose(size[1], size[2]) and size[0] > 2 * size[1]

    widest = max((size[1] for size, _ in boxes if is_tube(size)), default=0.0)
    solids = []
    for size, centre in boxes:
        if is_tube(size):
            radius = size[1] / math.sqrt(math.pi)  # the tube of the box's cross-section area
            solids.append(enclosure(radius, size[0], centre, dome=size[1] == widest))
        else:  # plain blocks a hair smaller, so that abutting ones (split foam) share no vertex
            half = np.array(size) / 2 - ROV_VISUAL_GAP
            solids.append(box(np.array(centre) - half, np.array(centre) + half))
    return combine(*solids)


def enclosure(radius: float, length: float, centre, dome: bool) -> Mesh:
    """Draw a watertight enclosure along x: chamfered end caps, or a dome forward."""
    chamfer = ROV_TUBE_CHAMFER * radius
    back, front = -length / 2, length / 2
    profile = [(back, radius - chamfer), (back + chamfer, radius)]
    if dome:
        cap = quarter_round(front - radius, front, radius, FILLET_STEPS * 2)
        profile += [(a, r) for a, r, _ in cap]
    else:
        profile += [(front - chamfer, radius), (front, radius - chamfer)]
    return lathe(profile, centre=centre)


def lumen_light(part: dict, library: dict) -> Mesh:
    """
    Draw a Lumen light: a cylinder along x centred on the origin.

    It is chamfered at the back, with a bezel step round the lens at the front face.
    """
    d = dimensions(part)
    length, radius = d['length'], d['diameter'] / 2
    chamfer, bezel = LUMEN_CHAMFER * d['diameter'], LUMEN_BEZEL * d['diameter']
    return lathe([(-length / 2, radius - chamfer), (-length / 2 + chamfer, radius),
                  (length / 2 - bezel, radius), (length / 2 - bezel, radius - bezel / 2),
                  (length / 2, radius - bezel / 2)])


def bluerov2_camera_tilt(part: dict, library: dict) -> Mesh:
    """Draw the tilt servo and its bracket as a rounded block centred on the tilt axis."""
    d = dimensions(part)
    size = (d['length'], d['width'], d['height'])
    return rounded_box(size, ROV_BODY_FILLET * min(size))


def lowlight_hd_camera(part: dict, library: dict) -> Mesh:
    """
    Draw the camera as a rounded block centred on its origin.

    A lens barrel ends at the lens frame.
    """
    d = dimensions(part)
    size = (d['length'], d['width'], d['height'])
    body = rounded_box(size, ROV_BODY_FILLET * min(size))
    lens_x = float(part['frames']['lens']['xyz'][0])
    barrel = lathe([(lens_x - CAMERA_LENS_LENGTH * d['length'] * 2, CAMERA_LENS_RADIUS
                     * d['width'] * 2), (lens_x, CAMERA_LENS_RADIUS * d['width'] * 2)],
                   SMALL_ROUND_SEGMENTS)
    return combine(body, barrel)


def navigator_flight_controller(part: dict, library: dict) -> Mesh:
    """Draw the board (with its Raspberry Pi) as a block centred on its origin."""
    d = dimensions(part)
    half = np.array([d['length'], d['width'], d['height']]) / 2
    return box(-half, half)


def blueboat_gnss(part: dict, library: dict) -> Mesh:
    """Draw the GNSS puck: a disc standing on its origin, its top edge rounded."""
    d = dimensions(part)
    radius, height = d['diameter'] / 2, d['height']
    rounding = GNSS_EDGE * height
    return lathe([(0.0, radius), (height - rounding, radius), (height, radius - rounding),
                  (height, 0.0)], axis='z')


def bar30_pressure_sensor(part: dict, library: dict) -> Mesh:
    """Draw the Bar30's body from the end cap (origin) along +x, a hex nut at the cap."""
    d = dimensions(part)
    radius, length = d['diameter'] / 2, d['length']
    nut = lathe([(0.0, radius), (BAR30_NUT * length, radius)], 6)
    stem = lathe([(BAR30_NUT * length, BAR30_STEM * radius), (length, BAR30_STEM * radius)],
                 SMALL_ROUND_SEGMENTS)
    return combine(nut, stem)


def ping360(part: dict, library: dict) -> Mesh:
    """Draw the Ping360: a cylindrical housing on its origin with a domed head, axis z."""
    d = dimensions(part)
    radius, height = d['diameter'] / 2, d['height']
    dome = PING360_DOME * height
    profile = [(0.0, radius), (height - dome, radius)]
    for k in range(1, FILLET_STEPS + 2):
        fraction = k / (FILLET_STEPS + 1)
        profile.append((height - dome + dome * math.sin(fraction * np.pi / 2),
                        radius * math.cos(fraction * np.pi / 2) if k <= FILLET_STEPS else 0.0))
    return lathe(profile, axis='z')


def blueboat_electronics_deck(part: dict, library: dict) -> Mesh:
    """
    Draw the deck: a plate, its hangers and the bridge over it.

    The plate's top is the origin, four hangers tie it to the cross members above, and the
    bridge over the plate's middle carries the GNSS receiver on its top.
    """
    d = dimensions(part)
    half_plate = np.array([d['plate_length'], d['plate_width'], 0.0]) / 2
    plate = box(-half_plate - [0.0, 0.0, d['plate_thickness']], half_plate)
    # the hangers and posts reach into what they join (half a plate's thickness), so no two
    # blocks share a face: each stays a closed shell of its own
    sink = d['plate_thickness'] / 2
    hangers = [box((sx * d['hanger_x'] - d['hanger_size'] / 2,
                    sy * d['hanger_y'] - d['hanger_size'] / 2, -sink),
                   (sx * d['hanger_x'] + d['hanger_size'] / 2,
                    sy * d['hanger_y'] + d['hanger_size'] / 2, d['hanger_height']))
               for sx in (-1, 1) for sy in (-1, 1)]
    span, width, thick = d['bridge_span'], d['bridge_width'], d['bridge_thickness']
    top = d['bridge_height']
    inset = 0.9 * width / 2  # narrower than the bar: no shared edges
    posts = [box((sx * (span - thick) / 2 - thick / 2, -inset, -sink),
                 (sx * (span - thick) / 2 + thick / 2, inset, top - thick / 2))
             for sx in (-1, 1)]
    bar = box((-span / 2, -width / 2, top - thick), (span / 2, width / 2, top))
    return combine(plate, *hangers, *posts, bar)


def trim_block(part: dict, library: dict) -> Mesh:
    """Draw a trim part (a foam block, a ballast weight): a block where its collision box is."""
    item = part['collision'][0]
    size = np.array(item['box'], float)
    return rounded_box(tuple(size), TRIM_FILLET * float(size.min()),
                       centre=tuple(float(v) for v in item.get('xyz', (0, 0, 0))))


def bluerov2_payload_skid(part: dict, library: dict) -> Mesh:
    """Draw the skid's rails and cross bars where its collision boxes are."""
    return combine(*[box(np.array(item['xyz'], float) - np.array(item['box'], float) / 2,
                         np.array(item['xyz'], float) + np.array(item['box'], float) / 2)
                     for item in part['collision']])


def newton_gripper(part: dict, library: dict) -> Mesh:
    """
    Draw the Newton gripper along x: its body, then the two jaws closed at the nose.

    The jaws move on their own joints, which a part's single mesh cannot show: drawn closed.
    """
    d = dimensions(part)
    radius, nose = d['diameter'] / 2, d['length'] / 2 - d['jaw_length']
    body = lathe([(-d['length'] / 2, radius), (nose, radius)])
    jaws = box((nose, -GRIPPER_JAW_WIDTH * radius, -GRIPPER_JAW_HEIGHT * radius),
               (d['length'] / 2, GRIPPER_JAW_WIDTH * radius, GRIPPER_JAW_HEIGHT * radius))
    return combine(body, jaws)


def dvl_a50(part: dict, library: dict) -> Mesh:
    """Draw the DVL A50: a disc centred on its origin, axis z."""
    d = dimensions(part)
    return lathe([(-d['height'] / 2, d['diameter'] / 2), (d['height'] / 2, d['diameter'] / 2)],
                 axis='z')


SHAPES = {
    'blueboat_chassis': blueboat_chassis,
    'm200_weedless_prop_ccw': m200_motor_with_prop,
    'm200_weedless_prop_cw': m200_motor_with_prop,
    't200_thruster_ccw': t200_thruster,
    't200_thruster_cw': t200_thruster,
    'blueboat_flag': blueboat_flag,
    'blueboat_antenna_mast': blueboat_antenna_mast,
    'blueboat_payload_bracket': blueboat_payload_bracket,
    'blueboat_ping_singlebeam_mount': blueboat_ping_singlebeam_mount,
    'ping_singlebeam': ping_singlebeam,
    'blueboat_battery': blueboat_battery,
    'bluerov2_frame': bluerov2_frame,
    'bluerov2_heavy_frame': bluerov2_frame,
    'bluerov2_camera_tilt': bluerov2_camera_tilt,
    'bluerov2_payload_skid': bluerov2_payload_skid,
    'lumen_light': lumen_light,
    'lowlight_hd_camera': lowlight_hd_camera,
    'navigator_flight_controller': navigator_flight_controller,
    'blueboat_gnss': blueboat_gnss,
    'bar30_pressure_sensor': bar30_pressure_sensor,
    'ping360': ping360,
    'newton_gripper': newton_gripper,
    'dvl_a50': dvl_a50,
    'blueboat_electronics_deck': blueboat_electronics_deck,
    'subsea_buoyancy_foam': trim_block,
    'bluerov2_ballast_weight': trim_block,
}


# --- Part data ----------------------------------------------------------------------------------

def load_library() -> dict[str, dict]:
    """Every shipped part, by type, in the index's order."""
    types = yaml.safe_load((PARTS_DIR / 'index.yaml').read_text(encoding='utf-8'))
    return {t: yaml.safe_load((PARTS_DIR / f'{t}.yaml').read_text(encoding='utf-8'))
            for t in types}


def dimensions(part: dict) -> dict[str, float]:
    """Return the part's numeric dimensions, without their `_source`/`_unverified` notes."""
    return {k: float(v) for k, v in part.get('dimensions', {}).items()
            if isinstance(v, (int, float)) and not isinstance(v, bool)}


def slot_xyz(slots: dict, name: str) -> tuple[float, float, float]:
    return tuple(float(v) for v in slots[name]['xyz'])


def default_occupant(slot: dict, library: dict) -> dict:
    """Return the part a slot holds by default (or the first it accepts), to size what meets it."""
    default = slot.get('default')
    name = default if default in library else slot['accepts'][0]
    return library[name]


def mesh_targets(library: dict) -> list[tuple[str, str]]:
    """(part type, mesh path relative to meshes/) for every packaged visual mesh."""
    targets = []
    for part_type, part in library.items():
        for item in part.get('visual', []) or []:
            mesh = item.get('mesh')
            if mesh and '://' not in mesh:
                if part_type not in SHAPES:
                    raise SystemExit(f'no mesh generator for {part_type} ({mesh})')
                if not mesh.endswith('.stl'):
                    raise SystemExit(f'{part_type}: {mesh} is not an .stl; this tool writes STL '
                                     'only')
                targets.append((part_type, mesh))
    return targets


# --- Output -------------------------------------------------------------------------------------

GEOMETRY_TOLERANCE = 1e-6  # m, see same_geometry
STL_RECORD = np.dtype([('normal', '<f4', (3,)), ('vertices', '<f4', (3, 3)), ('attribute', '<u2')])


def stl_bytes(mesh: Mesh, name: str) -> bytes:
    """Binary STL with a fixed header (no timestamp) and unit facet normals."""
    triangles = mesh.vertices[mesh.faces].astype('<f4')
    normals = np.cross(triangles[:, 1].astype(float) - triangles[:, 0],
                       triangles[:, 2].astype(float) - triangles[:, 0])
    lengths = np.linalg.norm(normals, axis=1, keepdims=True)
    normals = np.divide(normals, lengths, out=np.zeros_like(normals), where=lengths > 0)
    records = np.zeros(len(triangles), dtype=STL_RECORD)
    records['normal'] = normals
    records['vertices'] = triangles
    header = f'bluerobotics_parts {name}'.encode('ascii')[:80].ljust(80, b' ')
    return header + np.uint32(len(triangles)).astype('<u4').tobytes() + records.tobytes()


def build_all(library: dict) -> dict[str, tuple[str, Mesh, bytes]]:
    """Return mesh path -> (part type, mesh, STL bytes)."""
    built = {}
    for part_type, relative in mesh_targets(library):
        mesh = SHAPES[part_type](library[part_type], library)
        built[relative] = (part_type, mesh, stl_bytes(mesh, part_type))
    return built


def write(built: dict, root: Path) -> None:
    for relative, (_, _, data) in built.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def summary(built: dict) -> str:
    """Return files, sizes, triangle counts, watertightness, bounds: to compare with the YAML."""
    try:
        import trimesh
    except ImportError:
        trimesh = None
    width = max(len(relative) for relative in built)
    lines = [f"{'mesh':{width}} {'KB':>6} {'tris':>6} {'closed':>6}  bounds min -> max (m)"]
    total = 0
    for relative, (_, mesh, data) in sorted(built.items()):
        total += len(data)
        closed = '?'
        if trimesh is not None:
            watertight = trimesh.Trimesh(mesh.vertices, mesh.faces, process=True).is_watertight
            closed = 'yes' if watertight else 'NO'
        lo, hi = mesh.bounds()
        lines.append(f'{relative:{width}} {len(data) / 1024:6.1f} {len(mesh.faces):6d} '
                     f'{closed:>6}  ({lo[0]:+.3f} {lo[1]:+.3f} {lo[2]:+.3f}) -> '
                     f'({hi[0]:+.3f} {hi[1]:+.3f} {hi[2]:+.3f})')
    lines.append(f'{len(built)} meshes, {total / 1024:.1f} KB in total')
    return '\n'.join(lines)


def same_geometry(committed: bytes, fresh: bytes) -> bool:
    """
    Equal up to float rounding.

    the same header and triangles, coordinates within 1 um. Byte equality is the rule on one
    machine; this keeps a last-bit difference in another platform's sin/cos from failing the check.
    """
    if committed[:84] != fresh[:84] or len(committed) != len(fresh):
        return False
    a = np.frombuffer(committed, dtype=STL_RECORD, offset=84)
    b = np.frombuffer(fresh, dtype=STL_RECORD, offset=84)
    return bool(np.all(np.abs(a['vertices'] - b['vertices']) <= GEOMETRY_TOLERANCE))


def check(built: dict) -> list[str]:
    """Differences between the committed meshes and freshly generated ones."""
    problems = []
    with tempfile.TemporaryDirectory() as temp:
        write(built, Path(temp))
        for relative in sorted(built):
            committed, fresh = MESH_DIR / relative, Path(temp) / relative
            if not committed.is_file():
                problems.append(f'missing: meshes/{relative}')
            elif committed.read_bytes() != fresh.read_bytes():
                if same_geometry(committed.read_bytes(), fresh.read_bytes()):
                    print(f"note: meshes/{relative} differs from this machine's output only in "
                          'float rounding', file=sys.stderr)
                else:
                    problems.append(f'out of date: meshes/{relative}')
    for path in sorted(MESH_DIR.rglob('*.stl')):
        if path.relative_to(MESH_DIR).as_posix() not in built:
            problems.append(f'not generated by this tool (stale?): {path.relative_to(REPO)}')
    return problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--check', action='store_true',
                        help='regenerate in a temporary folder and exit 1 if meshes/ differs')
    args = parser.parse_args(argv)
    built = build_all(load_library())
    print(summary(built))
    if args.check:
        problems = check(built)
        for problem in problems:
            print(problem, file=sys.stderr)
        if problems:
            print('run: python tools/make_meshes.py', file=sys.stderr)
            return 1
        print(f'{len(built)} meshes are current')
        return 0
    write(built, MESH_DIR)
    print(f'wrote {len(built)} meshes under {MESH_DIR.relative_to(REPO)}/')
    return 0


if __name__ == '__main__':
    sys.exit(main())
