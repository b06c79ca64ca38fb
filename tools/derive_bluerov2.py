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
Derive the BlueROV2 frames' mass, displacement and damping from published figures.

A frame part is what is left of the vehicle once the parts its slots hold by default
(thrusters, lights, camera, autopilot, depth sensor; and what their own slots hold) are
taken out. So its numbers follow from the whole vehicle's
published or identified figures, which this tool states with their sources:

* total mass, net buoyancy in sea water (so total displacement), the height of the centre of
  buoyancy above the centre of mass, and the inertia about the centre of mass;
* the default parts, read from their part files and placed by the frame's slots;
* an estimated layout of the frame's own bodies (enclosures, panels, buoyancy foam), whose
  foam blocks take whatever displacement the other bodies leave.

Out come the frame's collision shapes (so Gazebo's Buoyancy sees the right volume, and the
centre of buoyancy where the layout puts it), its mass, centre of mass (placed below the
centre of buoyancy by the stated distance) and inertia, and its hydrodynamic damping. They are
written into ``urdf/parts/<frame>.yaml`` between the marker lines.

    python tools/derive_bluerov2.py            # rewrite the derived blocks
    python tools/derive_bluerov2.py --check    # exit 1 if a part file is not current

The aggregate figures are tested on the resolved vehicle (test/test_bluerov2_physics.py),
independently of this tool; ``--check`` (run by that test) keeps the files and the tool equal.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
import math
from pathlib import Path
import sys

import numpy as np
import yaml

REPO = Path(__file__).resolve().parent.parent
PARTS_DIR = REPO / 'urdf' / 'parts'
BEGIN = ('# >>> derived by tools/derive_bluerov2.py: do not edit by hand, edit the tool and run '
         'it\n')
END = '# <<< derived by tools/derive_bluerov2.py\n'

SEA_WATER = 1025.0  # kg/m^3, the shipped worlds' water (PART_FACTS.md)
SPECS = 'BlueROV2 specifications (bluerobotics/bluerobotics.github.io brov2/specifications.md)'
VON_BENZON = ('von Benzon et al. 2022, An Open-Source Benchmark Simulator: Control of a '
              'BlueROV2 Underwater Robot, J. Mar. Sci. Eng. 10(12) 1898 (PART_FACTS.md)')
HALF_PI = math.pi / 2

# von Benzon et al. 2022's identified BlueROV2 Heavy (body frame, SI). Damping is given as
# positive magnitudes there; gz's Hydrodynamics takes Fossen's signed derivatives, negative
# for a resisting force (gz-sim8_8.14.0 src/systems/hydrodynamics/HydrodynamicsUtils.hh,
# buildDampingMatrix: force = (xU + xUabsU |u|) u).
HEAVY_MASS = 13.5
HEAVY_VOLUME = 0.0134
HEAVY_INERTIA = (0.26, 0.23, 0.37)
HEAVY_BG = 0.01  # centre of buoyancy above the centre of gravity, m
HEAVY_LINEAR = {'xU': 13.7, 'yV': 0.0, 'zW': 33.0, 'kP': 0.0, 'mQ': 0.8, 'nR': 0.0}
HEAVY_QUADRATIC = {'xUabsU': 141.0, 'yVabsV': 217.0, 'zWabsW': 190.0, 'kPabsP': 1.19,
                   'mQabsQ': 0.47, 'nRabsR': 1.5}
# Added mass (kg, kg m^2), Fossen's names and sign like the damping; Gazebo gets it as the base
# link's <fluid_added_mass> (bluerobotics_parts/gazebo/added_mass.py).
HEAVY_ADDED_MASS = {'xDotU': 6.36, 'yDotV': 7.12, 'zDotW': 18.68, 'kDotP': 0.189,
                    'mDotQ': 0.135, 'nDotR': 0.222}
HEAVY_BOX = (0.457, 0.575, 0.254)  # PART_FACTS.md (clydemcqueen/bluerov2_ignition), medium
STANDARD_BOX = (0.457, 0.338, 0.254)  # SPECS

STANDARD_MASS = 10.5  # SPECS: 10-11 kg in air with ballast; the middle
STANDARD_NET_BUOYANCY = 0.2  # kg, SPECS: net buoyancy with ballast


@dataclass
class Shape:
    """A collision body of the frame: a box (size x, y, z) or a cylinder (radius, length)."""

    kind: str
    size: tuple
    xyz: tuple
    note: str
    rpy: tuple = (0.0, 0.0, 0.0)
    rpy_note: str = ''

    @property
    def volume(self) -> float:
        if self.kind == 'box':
            return float(np.prod(self.size))
        radius, length = self.size
        return math.pi * radius ** 2 * length

    def inertia(self, mass: float) -> np.ndarray:
        """Inertia of a solid of this shape and mass about its centre, in the frame."""
        if self.kind == 'box':
            a, b, c = self.size
            local = np.diag([b * b + c * c, a * a + c * c, a * a + b * b]) * mass / 12
        else:
            radius, length = self.size
            across = mass * (3 * radius ** 2 + length ** 2) / 12
            local = np.diag([across, across, mass * radius ** 2 / 2])  # axis z
        rotation = rpy_matrix(self.rpy)
        return rotation @ local @ rotation.T


@dataclass
class Foam:
    """
    Buoyancy foam blocks of a given footprint and a height solved for the displacement.

    They grow up from ``bottom`` or down from ``top``. Each block's collision is ``split``
    into a grid of boxes (x, y): at the surface gz's graded Buoyancy cuts every box level in
    its own frame, so a tilted block loses its own waterplane's restoring moment; smaller
    boxes lose less (bluerobotics_parts/stability.py measures it; test_hydrostatics.py holds
    every shipped vehicle to 4% of exact).
    """

    footprint: tuple  # x, y
    centres: tuple  # (x, y) per block
    note: str
    bottom: float | None = None
    top: float | None = None
    height: float | None = None  # fixed instead of solved (a block the other frame solved)
    split: tuple = (3, 2)

    def shapes(self, height: float) -> list:
        z = self.bottom + height / 2 if self.bottom is not None else self.top - height / 2
        note = f'{self.note}; height derived for the displacement'
        nx, ny = self.split
        size = (self.footprint[0] / nx, self.footprint[1] / ny, height)
        return [Shape('box', size, (x + (i + 0.5) * size[0] - self.footprint[0] / 2,
                                    y + (j + 0.5) * size[1] - self.footprint[1] / 2, z),
                      f'{note}; one of {nx} x {ny} boxes of the block')
                for x, y in self.centres for i in range(nx) for j in range(ny)]


@dataclass
class Vehicle:
    """What is known of a whole vehicle, and the layout of its frame."""

    frame: str
    mass: float
    mass_note: str
    volume: float
    volume_note: str
    bg: float
    bg_note: str
    inertia: tuple
    inertia_note: str
    shapes: list
    foam: list
    damping: dict = field(default_factory=dict)
    damping_notes: dict = field(default_factory=dict)


# --- The frame layout (estimates, shared by both frames) ---------------------------------------
# Origin on the centre line in the plane of the horizontal thrusters; the published height
# 0.254 m runs from the underside (z -0.177) to the top of the foam (about +0.077).

# The enclosures are tubes along x, but their collisions are boxes of the same length and
# cross-section area: gz's graded Buoyancy cuts the water plane in each shape's own frame
# (gz-sim8_8.14.0 src/systems/buoyancy/Buoyancy.cc, GradedFluidDensity, ``Planed plane{(0, 0,
# 1), height - _pose.Pos().Z()}``), so a cylinder turned onto x would be cut across its axis
# whenever it is within half its length of the surface, and the ROV would stall 0.2 m down. An
# axis-aligned box is cut right (while level). The visual still draws the tube.
ENCLOSURE_RADIUS, BATTERY_RADIUS = 0.0572, 0.0445
ENCLOSURE = Shape('box', (0.39, ENCLOSURE_RADIUS * math.sqrt(math.pi),
                          ENCLOSURE_RADIUS * math.sqrt(math.pi)), (0.015, 0.0, 0.02),
                  'electronics enclosure, 4 in series: 102 mm inner diameter (published) plus '
                  'an assumed 6 mm wall; 0.39 m with flanges, end cap and dome (estimate); a box '
                  "of the tube's length and cross-section area")
BATTERY = Shape('box', (0.25, BATTERY_RADIUS * math.sqrt(math.pi),
                        BATTERY_RADIUS * math.sqrt(math.pi)), (-0.01, 0.0, -0.115),
                'battery enclosure, 3 in series: 8-3/4 in tube (BlueROV2 assembly manual) with '
                'end caps, about 89 mm across (estimate), below the electronics enclosure; a box '
                "of the tube's length and cross-section area")
BOTTOM_PANEL = Shape('box', (0.30, 0.30, 0.0127), (0.0, 0.0, -0.17065),
                     'bottom panel, 1/2 in HDPE (BlueROV2 assembly manual); outline estimated, '
                     'its cut-outs and the ballast on it not modelled')
SIDE_PANELS = [Shape('box', (0.43, 0.0095, 0.23), (0.0, side * 0.16425, -0.062),
                     'side panel, 3/8 in HDPE (BlueROV2 assembly manual); outline estimated, '
                     'cut-outs not modelled; outer face at the published half width')
               for side in (1, -1)]
FAIRING_FOAM = Foam((0.15, 0.10), ((0.135, 0.108), (0.135, -0.108), (-0.135, 0.108),
                                   (-0.135, -0.108)),
                    'buoyancy foam in one of the four fairings over the horizontal thrusters '
                    '(BlueROV2 assembly manual: 4 x R-3318 foam); footprint estimated',
                    bottom=0.05)


def standard_inertia() -> tuple:
    """
    Scale the Heavy's identified inertia to the standard.

    Each principal moment keeps the Heavy's ratio to the moment of a uniform box of the
    vehicle's size and mass.
    """
    heavy_box = box_moments(HEAVY_MASS, HEAVY_BOX)
    standard_box = box_moments(STANDARD_MASS, STANDARD_BOX)
    return tuple(round(i * s / h, 4) for i, s, h in zip(HEAVY_INERTIA, standard_box, heavy_box))


def box_moments(mass: float, size: tuple) -> tuple:
    a, b, c = size
    return (mass * (b * b + c * c) / 12, mass * (a * a + c * c) / 12, mass * (a * a + b * b) / 12)


def standard_damping() -> tuple:
    """
    Scale the Heavy's damping to the standard.

    Surge and heave go by the frontal and plan area (both in proportion to the width); sway
    and the rotations stay as identified. The added mass is scaled the same way.
    """
    ratio = STANDARD_BOX[1] / HEAVY_BOX[1]
    scaled = {'x', 'z'}
    damping, notes = {}, {}
    for table in (HEAVY_LINEAR, HEAVY_QUADRATIC, HEAVY_ADDED_MASS):
        for key, value in table.items():
            if value == 0.0:  # not identified: no term
                continue
            if key[0] in scaled:
                damping[key] = -round(value * ratio, 2)
                notes[key] = (f'derived: von Benzon et al. 2022 (Heavy) {value} scaled by the '
                              f'width ratio {STANDARD_BOX[1]} / {HEAVY_BOX[1]} (area facing the '
                              'flow), unverified for the standard')
            else:
                damping[key] = -value
                notes[key] = (f'von Benzon et al. 2022 (Heavy) {value}, taken unscaled for the '
                              'standard (same length, height and frame); unverified')
    return damping, notes


def heavy_damping() -> tuple:
    damping, notes = {}, {}
    for table in (HEAVY_LINEAR, HEAVY_QUADRATIC, HEAVY_ADDED_MASS):
        for key, value in table.items():
            if value == 0.0:  # not identified: no term
                continue
            damping[key] = -value
            notes[key] = f'{VON_BENZON}: {value}, sign as gz Hydrodynamics takes it'
    return damping, notes


def vehicles() -> list:
    standard_damping_values, standard_damping_notes = standard_damping()
    heavy_damping_values, heavy_damping_notes = heavy_damping()
    standard = Vehicle(
        'bluerov2_frame',
        STANDARD_MASS, f'{SPECS}: 10-11 kg in air with ballast; the middle of the range',
        (STANDARD_MASS + STANDARD_NET_BUOYANCY) / SEA_WATER,
        f'{SPECS}: net buoyancy with ballast 0.2 kg, taken in sea water (1025 kg/m^3)',
        HEAVY_BG, f'{VON_BENZON} (identified on the Heavy; assumed the same for the standard, '
                  'whose foam, enclosures and ballast sit alike)',
        standard_inertia(), 'derived: the Heavy inertia of von Benzon et al. 2022 scaled by the '
                            'ratio of uniform-box moments of the two vehicles (size, mass)',
        [ENCLOSURE, BATTERY, BOTTOM_PANEL, *SIDE_PANELS], [FAIRING_FOAM],
        standard_damping_values, standard_damping_notes)
    heavy_blocks = Foam((0.12, 0.10), ((0.0, 0.108), (0.0, -0.108)),
                        'Heavy add-on kit buoyancy block (2 in the kit, assembly manual), where '
                        "the standard's vertical thrusters were; footprint estimated",
                        top=0.05 + fairing_height())
    fairings = Foam(FAIRING_FOAM.footprint, FAIRING_FOAM.centres,
                    FAIRING_FOAM.note + "; the standard frame's height", bottom=0.05,
                    height=fairing_height())
    heavy = Vehicle(
        'bluerov2_heavy_frame',
        HEAVY_MASS, f'{VON_BENZON}: m 13.5 kg',
        HEAVY_VOLUME, f'{VON_BENZON}: V 0.0134 m^3',
        HEAVY_BG, f'{VON_BENZON}: centre of buoyancy 0.01 m above the centre of gravity',
        HEAVY_INERTIA, f'{VON_BENZON}: I (0.26, 0.23, 0.37) kg m^2',
        [ENCLOSURE, BATTERY, BOTTOM_PANEL, *SIDE_PANELS], [fairings, heavy_blocks],
        heavy_damping_values, heavy_damping_notes)
    return [standard, heavy]


def fairing_height() -> float:
    """Solve the standard frame's fairing foam height (the Heavy keeps those fairings)."""
    volume = (STANDARD_MASS + STANDARD_NET_BUOYANCY) / SEA_WATER
    return layout('bluerov2_frame', volume, [ENCLOSURE, BATTERY, BOTTOM_PANEL, *SIDE_PANELS],
                  [FAIRING_FOAM])[1]


# --- The default parts, as the frame's slots place them -----------------------------------------

def rpy_matrix(rpy) -> np.ndarray:
    roll, pitch, yaw = rpy
    cr, sr, cp, sp, cy, sy = (f(a) for a in (roll, pitch, yaw) for f in (math.cos, math.sin))
    return np.array([[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                     [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                     [-sp, cp * sr, cp * cr]])


def load(part_type: str) -> dict:
    return yaml.safe_load((PARTS_DIR / f'{part_type}.yaml').read_text(encoding='utf-8'))


def default_parts(frame: str) -> list:
    """
    Place the default occupants of the frame's slots, and theirs in turn (the camera on its mount).

    Returns (mass, centre of mass, inertia about it, [(volume, centre)]) of each, in the
    frame. A slot with ``collision: false`` displaces nothing, and neither does anything in it.
    """
    parts = []
    pending = [(name, slot, np.zeros(3), np.eye(3), True)
               for name, slot in load(frame)['slots'].items()]
    while pending:
        _, slot, carrier_origin, carrier_rotation, wet = pending.pop(0)
        if slot.get('default', 'none') == 'none':
            continue
        part = load(slot['default'])
        rotation = carrier_rotation @ rpy_matrix(slot.get('rpy', (0, 0, 0)))
        origin = carrier_origin + carrier_rotation @ np.array(slot.get('xyz', (0, 0, 0)),
                                                              dtype=float)
        wet = wet and slot.get('collision', True)
        masses = [mass_of(part['inertial'], origin, rotation)]
        for frame in (part.get('frames') or {}).values():  # a rotor carries mass too
            if (frame or {}).get('inertial'):
                frame_rotation = rotation @ rpy_matrix(frame.get('rpy', (0, 0, 0)))
                frame_origin = origin + rotation @ np.array(frame.get('xyz', (0, 0, 0)),
                                                            dtype=float)
                masses.append(mass_of(frame['inertial'], frame_origin, frame_rotation))
        volumes = []
        if wet:
            for item in part.get('collision') or []:
                shape = Shape('box', tuple(item['box']), (0, 0, 0), '') if 'box' in item else \
                    Shape('cylinder', (item['cylinder']['radius'], item['cylinder']['length']),
                          (0, 0, 0), '')
                centre = origin + rotation @ np.array(item.get('xyz', (0, 0, 0)), dtype=float)
                volumes.append((shape.volume, centre))
        parts += [(mass, com, inertia, volumes if index == 0 else [])
                  for index, (mass, com, inertia) in enumerate(masses)]
        pending += [(name, inner, origin, rotation, wet)
                    for name, inner in (part.get('slots') or {}).items()]
    return parts


def mass_of(inertial: dict, origin, rotation) -> tuple:
    """Return (mass, centre of mass, inertia about it) of a part's or a frame's inertial."""
    moments = inertial.get('inertia', {})
    local = np.array([[moments.get('ixx', 0), moments.get('ixy', 0), moments.get('ixz', 0)],
                      [moments.get('ixy', 0), moments.get('iyy', 0), moments.get('iyz', 0)],
                      [moments.get('ixz', 0), moments.get('iyz', 0), moments.get('izz', 0)]])
    com = origin + rotation @ np.array(inertial.get('com', (0, 0, 0)), dtype=float)
    return float(inertial['mass']), com, rotation @ local @ rotation.T


# --- Solving ------------------------------------------------------------------------------------

def layout(frame: str, volume: float, bodies: list, foam: list) -> tuple:
    """
    Lay out the frame's bodies; return (shapes, solved foam height).

    The one foam group without a height takes the volume the other bodies and the default
    parts leave.
    """
    part_volumes = [v for _, _, _, volumes in default_parts(frame) for v in volumes]
    fixed = bodies + [s for group in foam if group.height is not None
                      for s in group.shapes(group.height)]
    left = volume - sum(s.volume for s in fixed) - sum(v for v, _ in part_volumes)
    solved = [group for group in foam if group.height is None]
    if len(solved) != 1:
        raise SystemExit(f'{frame}: exactly one foam group must be solved')
    area = solved[0].footprint[0] * solved[0].footprint[1] * len(solved[0].centres)
    height = left / area
    if height <= 0:
        raise SystemExit(f'{frame}: the fixed bodies displace more than the vehicle')
    return fixed + solved[0].shapes(height), height


def solve(vehicle: Vehicle) -> dict:
    """Derive the frame's shapes, mass, centre of mass and inertia from the vehicle's."""
    parts = default_parts(vehicle.frame)
    part_volumes = [v for _, _, _, volumes in parts for v in volumes]
    shapes, height = layout(vehicle.frame, vehicle.volume, vehicle.shapes, vehicle.foam)
    volume = sum(s.volume for s in shapes) + sum(v for v, _ in part_volumes)
    buoyancy = (sum(s.volume * np.array(s.xyz) for s in shapes)
                + sum(v * c for v, c in part_volumes)) / volume
    target_com = buoyancy - np.array([0.0, 0.0, vehicle.bg])
    parts_mass = sum(m for m, _, _, _ in parts)
    mass = vehicle.mass - parts_mass
    com = (vehicle.mass * target_com - sum(m * c for m, c, _, _ in parts)) / mass

    inertia = np.diag(vehicle.inertia).astype(float)
    for part_mass, part_com, part_inertia, _ in parts:
        inertia -= part_inertia + shift(part_mass, part_com - target_com)
    inertia -= shift(mass, com - target_com)
    moments = np.diag(inertia)
    if min(moments) <= 0 or max(moments) > sum(moments) - max(moments):
        raise SystemExit(f'{vehicle.frame}: the frame is left with an unphysical inertia '
                         f'{moments}; the vehicle figures and the parts do not fit')
    return {'shapes': shapes, 'foam_heights': [height], 'mass': mass, 'com': com,
            'inertia': moments, 'products': (inertia[0, 1], inertia[0, 2], inertia[1, 2]),
            'buoyancy': buoyancy, 'parts_mass': parts_mass, 'volume': volume}


def shift(mass: float, offset) -> np.ndarray:
    """Parallel-axis term: inertia of a point mass at ``offset`` from the reference point."""
    offset = np.asarray(offset, dtype=float)
    return mass * (offset @ offset * np.eye(3) - np.outer(offset, offset))


# --- Writing ------------------------------------------------------------------------------------

def number(value: float, digits: int = 6) -> str:
    text = f'{round(float(value), digits):.{digits}f}'.rstrip('0')
    return text + '0' if text.endswith('.') else text


def vector(values, digits: int = 6) -> str:
    return '[' + ', '.join(number(v, digits) for v in values) + ']'


def quoted(text: str) -> str:
    return '"' + text.replace('\\', '\\\\').replace('"', '\\"') + '"'


def block(vehicle: Vehicle) -> str:
    """Write the derived YAML text of a frame: inertial, collision and hydrodynamics."""
    result = solve(vehicle)
    parts = (f'{result["parts_mass"]:.3f} kg of default parts (thrusters, lights, camera, '
             'autopilot, depth sensor, from their part files)')
    ixx, iyy, izz = result['inertia']
    ixy, ixz, iyz = result['products']
    lines = [
        f'# The whole vehicle as stated here: {vehicle.mass} kg ({vehicle.mass_note}),',
        f'# {vehicle.volume:.6f} m^3 displaced ({vehicle.volume_note}),',
        f'# centre of buoyancy {vehicle.bg} m above the centre of mass ({vehicle.bg_note}),',
        f'# inertia {vehicle.inertia} kg m^2 about the centre of mass ({vehicle.inertia_note}).',
        f'# The frame is that minus {parts}; the centre of buoyancy is where the collision',
        '# bodies below put it, the centre of mass the stated distance under it.',
        'inertial:',
        f'  mass: {number(result["mass"], 4)}',
        f'  mass_source: {quoted(f"derived: {vehicle.mass} kg vehicle minus {parts}")}',
        f'  com: {vector(result["com"])}',
        '  com_source: "derived: puts the vehicle\'s centre of mass under its centre of buoyancy '
        'by the stated distance (the buoyancy centre from the estimated layout, unverified)"',
        f'  inertia: {{ixx: {number(ixx)}, ixy: {number(ixy)}, ixz: {number(ixz)}, '
        f'iyy: {number(iyy)}, iyz: {number(iyz)}, izz: {number(izz)}}}',
        '  inertia_source: "derived: the vehicle inertia above minus the default '
        "parts' (parallel axes), about the frame's centre of mass; the products too, so the "
        "vehicle's inertia has none, as the source gives it (principal axes along the body's)"
        '"',
        '',
        '# Collision bodies: contact and displacement (gz Buoyancy counts every collision volume,',
        "# each at its own centre when submerged). The thrusters' slots carry no collision.",
        'collision:',
    ]
    for shape in result['shapes']:
        if shape.kind == 'box':
            lines.append(f'  - box: {vector(shape.size)}')
            lines.append(f'    box_unverified: {quoted(shape.note)}')
        else:
            radius, length = shape.size
            lines.append(f'  - cylinder: {{radius: {number(radius)}, length: {number(length)}}}')
            lines.append(f'    cylinder_unverified: {quoted(shape.note)}')
        lines.append(f'    xyz: {vector(shape.xyz)}')
        lines.append('    xyz_unverified: estimated layout')
        if any(shape.rpy):
            lines.append(f'    rpy: {vector(shape.rpy, 16)}')
            lines.append(f'    rpy_source: {quoted(shape.rpy_note)}')
    lines += ['', "# Damping for gz-sim's Hydrodynamics and added mass on the root link (Fossen's "
                  'names, body', '# frame about its origin, SI; negative = resisting). The '
                  'added mass reaches Gazebo as the', "# link's <fluid_added_mass>, which dartsim "
                  'integrates implicitly (gazebo/added_mass.py).', 'hydrodynamics:']
    for key, value in vehicle.damping.items():
        lines.append(f'  {key}: {number(value, 4)}')
        suffix = '_source' if 'unverified' not in vehicle.damping_notes[key] else '_unverified'
        lines.append(f'  {key}{suffix}: {quoted(vehicle.damping_notes[key])}')
    return '\n'.join(lines) + '\n'


def render(vehicle: Vehicle) -> tuple[Path, str]:
    path = PARTS_DIR / f'{vehicle.frame}.yaml'
    text = path.read_text(encoding='utf-8')
    if text.count(BEGIN) != 1 or text.count(END) != 1:
        raise SystemExit(f'{path}: needs exactly one pair of marker lines:\n{BEGIN}{END}')
    head, rest = text.split(BEGIN)
    _, tail = rest.split(END)
    return path, head + BEGIN + block(vehicle) + END + tail


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().split('\n')[0])
    parser.add_argument('--check', action='store_true',
                        help='exit 1 if a part file differs from what this tool writes')
    args = parser.parse_args(argv)
    stale = []
    for vehicle in vehicles():
        path, text = render(vehicle)
        result = solve(vehicle)
        print(f'{vehicle.frame}: frame {result["mass"]:.4f} kg at {np.round(result["com"], 4)}, '
              f'inertia {np.round(result["inertia"], 5)}, products '
              f'{np.round(result["products"], 6)}, foam height '
              f'{result["foam_heights"][0]:.4f} m, centre of buoyancy '
              f'{np.round(result["buoyancy"], 4)}')
        if path.read_text(encoding='utf-8') != text:
            stale.append(path)
            if not args.check:
                path.write_text(text, encoding='utf-8')
    if args.check and stale:
        for path in stale:
            print(f'out of date: {path.relative_to(REPO)} (run: python tools/derive_bluerov2.py)',
                  file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
