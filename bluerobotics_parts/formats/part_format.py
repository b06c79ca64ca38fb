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
The part format (docs/PARTS.md): what a part file may say, and the provenance rule.

``part_problems`` lists every mistake with ``file:line`` (a wrong section is skipped, the others
are still checked); ``check_part`` raises them. Provenance (``unsourced_facts``): every number
has a ``<key>_source`` or ``<key>_unverified`` note. To add a section: list it in PART_KEYS,
give it a checker in SECTION_CHECKS and its ``<SECTION>_KEYS`` (or, to check values too, their
kinds in ``<SECTION>_FIELDS`` and ``<SECTION>_REQUIRED``); assembly/schema.py picks it up (then
run tools/make_schemas.py). A sensor kind's section is its entry in sensor_kinds.KINDS instead.
"""

from __future__ import annotations

import math
import re

from . import value_kinds as kinds
from .autopilot_frames import FRAMES as AUTOPILOT_FRAMES
from .config import NAME, name_problem
from .joint_motion import (given_limits, JOINTS, LIMITED_JOINTS, LIMITS_FIELDS, LIMITS_KEYS,
                           limits_problems, LIMITS_SCHEMA_RULE)
from .sensor_kinds import KINDS as SENSOR_KINDS
from ..errors import AssemblyError, Problem, shown
from ..files.yaml_lines import LocatedDocument

SOURCE_SUFFIXES = ('_source', '_unverified')
NOTES_HINT = ' (and <key>_source / <key>_unverified notes)'  # where keys may carry notes

PART_KEYS = ('type', 'family', 'description', 'dimensions', 'attach', 'axis', 'inertial',
             'visual', 'collision', 'slots', 'frames', 'propeller', 'hydrostatics',
             'hydrodynamics', 'installed_thrust', 'autopilot', 'battery', 'joint_controls') \
    + tuple(SENSOR_KINDS)
ROTATIONS = ('cw', 'ccw')
#: The shipped thrust curves (urdf/thrust_curves/<name>.yaml; physics/thrust_curves.py reads
#: them, test/physics/test_thrust_curves.py keeps this list equal to the folder).
THRUST_CURVES = ('m200_weedless', 't200')
# gz-sim Hydrodynamics coefficient names (Fossen): added mass xDotU, linear damping xU,
# quadratic damping xUabsU; force/moment x y z k m n, velocity U V W P Q R.
HYDRODYNAMICS_NAME = re.compile(r'^[xyzkmn](Dot[UVWPQR]|[UVWPQR](abs[UVWPQR])?)$')
#: A term that resists its own motion (added mass xDotU, damping xU, xUabsU, ... along one
#: axis): Fossen's sign, negative, as gz-sim takes it (gz-sim8_8.14.0 src/systems/
#: hydrodynamics/HydrodynamicsUtils.hh buildDampingMatrix: force = (xU + xUabsU |u|) u; its
#: example worlds' added mass, examples/worlds/auv_controls.sdf: <xDotU>-4.876161</xDotU>).
#: A positive one feeds the motion energy: the vehicle would run away.
RESISTING_TERM = re.compile(r'^(xDotU|yDotV|zDotW|kDotP|mDotQ|nDotR'
                            r'|xU(absU)?|yV(absV)?|zW(absW)?|kP(absP)?|mQ(absQ)?|nR(absR)?)$')

# -- what each key holds (value_kinds): the checker takes its keys (and, for plain values, its
# checks) from these, and schema.py the JSON Schema; a *_KEYS tuple is its FIELDS' keys.
#: A provenance note's key (``mass_source``), as a regular expression.
ANNOTATION_PATTERN = '(' + '|'.join(SOURCE_SUFFIXES) + ')$'
_VECTOR = kinds.vector()
_POSITIVE = kinds.number(positive=True)
FRAME_FIELDS = {'xyz': _VECTOR.described('position in the parent frame, m'),
                'rpy': _VECTOR.described('roll, pitch, yaw about the fixed axes, rad')}
_LIMITS = kinds.mapping(LIMITS_FIELDS, required=LIMITS_KEYS, annotations=ANNOTATION_PATTERN)
SLOT_FIELDS = {**FRAME_FIELDS,
               'accepts': kinds.list_of(kinds.string()).described('part types that fit'),
               'default': kinds.string().described('the occupant unless a config says '
                                                   'otherwise, or none'),
               'joint': kinds.choice(JOINTS).described("the occupant's joint"),
               'axis': _VECTOR.described("a moving joint's axis in the slot frame (default "
                                         "the occupant's axis)"),
               'limits': _LIMITS.described("a revolute or prismatic joint's range, effort "
                                           'and velocity'),
               'collision': kinds.boolean().described('false: the occupant gets no '
                                                      '<collision> (spinning propellers)')}
INERTIA_FIELDS = {key: kinds.number() for key in ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')}
INERTIAL_FIELDS = {'mass': _POSITIVE.described('kg'),
                   'com': _VECTOR.described('centre of mass in the part frame, m'),
                   'inertia': kinds.mapping(INERTIA_FIELDS, annotations=ANNOTATION_PATTERN)
                   .or_empty().described('about the centre of mass, kg m^2')}
#: A named frame: a link ``<instance>_<name>`` at a pose, fixed to the part by default. A
#: ``continuous`` frame is an inner link that turns about ``axis`` (a thruster's rotor), so it
#: needs the mass and inertia of what turns.
FRAME_ENTRY_FIELDS = {
    **FRAME_FIELDS,
    'joint': kinds.choice(JOINTS).described('fixed (default); continuous: it turns; '
                                            'revolute or prismatic: within limits'),
    'limits': _LIMITS.described("a revolute or prismatic joint's range, effort and velocity"),
    'axis': _VECTOR.described('turning axis of a continuous frame, in its own frame '
                              "(default the part's axis)"),
    'inertial': kinds.mapping(INERTIAL_FIELDS, required=('mass',),
                              annotations=ANNOTATION_PATTERN).described(
        'what the frame carries (needed when it turns)')}
GEOMETRY_FIELDS = {
    'mesh': kinds.text().described("a mesh file: relative to the part file's folder, or "
                                   'package://bluerobotics_parts/meshes/...'),
    'box': kinds.vector(positive=True).described('sizes x, y, z, m'),
    'cylinder': kinds.mapping({'radius': _POSITIVE, 'length': _POSITIVE},
                              annotations=ANNOTATION_PATTERN).described('along z, m'),
    'sphere': kinds.mapping({'radius': _POSITIVE}, annotations=ANNOTATION_PATTERN)}
MATERIAL_FIELDS = {'name': kinds.text(),
                   'rgba': kinds.list_of(kinds.Kind({'type': 'number', 'minimum': 0,
                                                     'maximum': 1}), minItems=4, maxItems=4)}
ITEM_FIELDS = {**GEOMETRY_FIELDS, **FRAME_FIELDS,
               'material': kinds.mapping(MATERIAL_FIELDS, required=('name', 'rgba'))
               .described('colour: name and rgba, each from 0 to 1'),
               'scale': _VECTOR}
PROPELLER_FIELDS = {
    'rotation': kinds.choice(ROTATIONS, 'cw or ccw', ' (seen from astern, pushing forward)'),
    'diameter': _POSITIVE.described('m'), 'max_thrust': kinds.number().described('N'),
    'min_thrust': kinds.number().described('N, negative: reverse'),
    'max_rpm': _POSITIVE.described('rpm at max_thrust'),
    'thrust_coefficient': _POSITIVE.described('Kt, the magnitude'),
    'rotor': kinds.string().described('the continuous frame that turns; without it the whole '
                                      'part turns, on its slot'),
    'thrust_curve': kinds.choice(THRUST_CURVES).described(
        "the maker's curve: throttle to newtons and amperes by voltage "
        '(urdf/thrust_curves/<name>.yaml)')}
PROPELLER_REQUIRED = ('rotation', 'diameter', 'max_thrust', 'min_thrust', 'thrust_coefficient')
INSTALLED_THRUST_FIELDS = {'fraction': _POSITIVE.described(
    'installed thrust over the bench figure, in (0, 2]')}
INSTALLED_THRUST_REQUIRED = ('fraction',)
#: A battery pack the part is or carries: what the thrust curves are read at, and endurance.
BATTERY_FIELDS = {'voltage': _POSITIVE.described('V, nominal'),
                  'capacity': _POSITIVE.described('Ah'),
                  'full_voltage': _POSITIVE.described('V, charged'),
                  'empty_voltage': _POSITIVE.described('V, discharged'),
                  'max_current': _POSITIVE.described('A, the continuous discharge rating')}
BATTERY_REQUIRED = ('voltage', 'capacity')
#: A position-controlled joint of the part: its slot's occupant joint, or a frame's joint
#: (revolute or prismatic), commanded on /<vehicle>/<instance>/<name> (gazebo/composition.py).
JOINT_CONTROL_FIELDS = {'slot': kinds.string().described("the slot whose occupant's joint "
                                                         'moves'),
                        'frame': kinds.string().described('the frame whose joint moves'),
                        'frames': kinds.list_of(kinds.string()).described(
                            'frames whose joints move together (alike: a pair of jaws)')}
JOINT_CONTROL_KEYS = tuple(JOINT_CONTROL_FIELDS)
BATTERY_KEYS = tuple(BATTERY_FIELDS)
#: A base part's published figures the checks compare with, and where a launch spawns it.
HYDROSTATICS_FIELDS = {
    'freeboard': _POSITIVE.described('m, published, at the published load'),
    'max_draft': _POSITIVE.described('m, published, at full load'),
    'payload_capacity': kinds.number(nonnegative=True).described('kg, published'),
    'net_buoyancy': kinds.number().described('kg, published (negative: it sinks)'),
    'spawn_depth': kinds.number(nonnegative=True).described(
        'm below the surface a launch spawns it (z:=auto); 0 for a boat'),
    'top_speed': _POSITIVE.described('m/s, published, full ahead'),
    'mass': _POSITIVE.described('kg, published, the vehicle as it ships (validate compares)'),
    'bollard_thrust': _POSITIVE.described('kgf, published, full ahead at rest'),
    'bollard_thrust_lateral': _POSITIVE.described('kgf, published, full sideways at rest'),
    'bollard_thrust_vertical': _POSITIVE.described('kgf, published, full up or down at rest'),
    'top_speed_fitted': kinds.boolean().described(
        'true: the surge damping (hydrodynamics) is fitted to top_speed')}
HYDROSTATICS_KEYS = tuple(HYDROSTATICS_FIELDS)
#: A base part's ArduPilot frame (formats/autopilot_frames.py), for build --autopilot ardupilot.
AUTOPILOT_FIELDS = {'frame': kinds.choice(AUTOPILOT_FRAMES).described(
    'the ArduPilot frame that drives the vehicle')}
AUTOPILOT_REQUIRED = ('frame',)
AUTOPILOT_KEYS = tuple(AUTOPILOT_FIELDS)
FRAME_KEYS = tuple(FRAME_FIELDS)
FRAME_ENTRY_KEYS = tuple(FRAME_ENTRY_FIELDS)
SLOT_KEYS = tuple(SLOT_FIELDS)
GEOMETRY_KEYS = tuple(GEOMETRY_FIELDS)
ITEM_KEYS = tuple(ITEM_FIELDS)
PROPELLER_KEYS = tuple(PROPELLER_FIELDS)
INSTALLED_THRUST_KEYS = tuple(INSTALLED_THRUST_FIELDS)
CYLINDER_KEYS = tuple(GEOMETRY_FIELDS['cylinder'].fields)
SPHERE_KEYS = tuple(GEOMETRY_FIELDS['sphere'].fields)
MATERIAL_KEYS = tuple(MATERIAL_FIELDS)
_ITEMS = kinds.list_of(kinds.mapping(ITEM_FIELDS, annotations=ANNOTATION_PATTERN,
                                     exactly_one_of=GEOMETRY_KEYS)).or_empty()
_TYPE_NAME = NAME.forbidding('none')
#: What each key of a part file holds, for schema.py. A key of PART_KEYS that is not here is
#: described by its ``<KEY>_FIELDS`` or ``<KEY>_KEYS`` (a new section needs no entry).
SECTION_KINDS = {
    'type': _TYPE_NAME.described('the part type: letters, digits, underscores; not none'),
    'family': NAME.described('vehicle family (blueboat, bluerov2) or common'),
    'description': kinds.anything().described('one line about the part'),
    'dimensions': kinds.anything().described('sizes the part data is derived from'),
    'attach': kinds.mapping(FRAME_FIELDS, annotations=ANNOTATION_PATTERN).described(
        "where the part's frame sits on the slot it fills"),
    'axis': _VECTOR.described('joint axis in the part frame (not zero)'),
    'inertial': kinds.mapping(INERTIAL_FIELDS, required=('mass',),
                              annotations=ANNOTATION_PATTERN),
    'visual': _ITEMS.described('geometry items drawn'),
    'collision': _ITEMS.described('geometry items that collide and float'),
    'frames': kinds.named(NAME, kinds.mapping(FRAME_ENTRY_FIELDS,
                                              annotations=ANNOTATION_PATTERN,
                                              rule=LIMITS_SCHEMA_RULE))
    .or_empty().described('named frames of the part (links <instance>_<name>)'),
    'slots': kinds.named(NAME, kinds.mapping(SLOT_FIELDS, annotations=ANNOTATION_PATTERN,
                                             rule=LIMITS_SCHEMA_RULE))
    .or_empty().described('mount points: links <instance>_<name>'),
    'joint_controls': kinds.named(NAME, kinds.mapping(JOINT_CONTROL_FIELDS,
                                                      annotations=ANNOTATION_PATTERN))
    .described('position-controlled joints: commanded on /<vehicle>/<instance>/<name>'),
    'hydrodynamics': kinds.keyed(HYDRODYNAMICS_NAME.pattern, kinds.number(),
                                 annotations=ANNOTATION_PATTERN).described(
        'gz Hydrodynamics coefficients: xDotU, xU, xUabsU, ...'),
    # the sensor registry's sections: their keys and kinds are its (sensor_kinds.KINDS)
    **{section: kinds.mapping(kind.fields, required=kind.required,
                              annotations=ANNOTATION_PATTERN).described(
        f'a {kind.category} ({section}): formats/sensor_kinds.py')
        for section, kind in SENSOR_KINDS.items()},
}
_CONTROL = kinds.CONTROL  # no control characters in text written into URDF

# Numbers that are not physical facts and need no source: colours.
NON_FACT_KEYS = ('rgba',)


#: Rounding the principal moments may carry (relative to the largest): the closed form below
#: loses about 1e-8 where two moments are equal, as in a slender rod's (1e-9, 1, 1).
INERTIA_SLACK = 1e-7


def physical_inertia(values: dict) -> bool:
    """
    Return whether an inertia tensor (ixx, ixy, ...) can be a rigid body's.

    Its principal moments, the whole tensor's, positive and each at most the sum of the other
    two, within INERTIA_SLACK: the diagonal alone passes tensors that are not.
    """
    moments = principal_moments(values)
    if moments is None:
        return False
    low, middle, high = moments
    slack = INERTIA_SLACK * high
    return high > 0 and low > -slack and high <= low + middle + slack


def principal_moments(values: dict) -> tuple | None:
    """
    Return the eigenvalues of a symmetric 3 x 3 inertia tensor, lowest first (None: not finite).

    The closed form for a symmetric matrix (trigonometric, no iteration) on the tensor scaled
    to its largest entry, in plain Python: a build checks every part file, and importing numpy
    here would add to each build's start.
    """
    entries = [float(values[k]) for k in ('ixx', 'iyy', 'izz', 'ixy', 'ixz', 'iyz')]
    if not all(map(math.isfinite, entries)):
        return None
    size = max(map(abs, entries))
    if size == 0.0:
        return (0.0, 0.0, 0.0)
    a, b, c, d, e, f = (v / size for v in entries)
    off = d * d + e * e + f * f
    if off == 0.0:
        return tuple(size * m for m in sorted((a, b, c)))
    q = (a + b + c) / 3
    p = math.sqrt(((a - q) ** 2 + (b - q) ** 2 + (c - q) ** 2 + 2 * off) / 6)
    ba, bb, bc, bd, be, bf = ((a - q) / p, (b - q) / p, (c - q) / p, d / p, e / p, f / p)
    half_det = (ba * (bb * bc - bf * bf) - bd * (bd * bc - bf * be)
                + be * (bd * bf - bb * be)) / 2
    angle = math.acos(min(1.0, max(-1.0, half_det))) / 3
    high = q + 2 * p * math.cos(angle)
    low = q + 2 * p * math.cos(angle + 2 * math.pi / 3)
    return tuple(size * m for m in (low, 3 * q - high - low, high))


def is_annotation(key) -> bool:
    """Return whether ``key`` is provenance (``mass_source``, ``mass_unverified``)."""
    return isinstance(key, str) and key.endswith(SOURCE_SUFFIXES)


def check_part(doc: LocatedDocument) -> None:
    """Raise AssemblyError (a ConfigError) listing every mistake of a part file."""
    found = part_problems(doc)
    if found:
        raise AssemblyError(found)


def part_problems(doc: LocatedDocument) -> list[Problem]:
    """Return every mistake of a part file, each with ``file:line``, in line order."""
    checker = _Checker(doc)
    checker.part(doc.data)
    return sorted(checker.found, key=lambda p: p.line or 0)


class _Checker:
    """Collects the problems of one part file; each check returns whether it passed."""

    def __init__(self, doc: LocatedDocument):
        self.doc = doc
        self.found: list[Problem] = []
        self.data: dict = {}  # the part file's mapping, once part() has it

    def problem(self, path, message) -> bool:
        self.found.append(Problem(message, self.doc.file, self.doc.line(path), stage='load',
                                  rule='part-format'))
        return False

    def part(self, data) -> None:
        if not isinstance(data, dict):
            self.problem((), 'a part file must be a mapping with at least type: (see '
                         'docs/PARTS.md)')
            return
        self.keys((), data, PART_KEYS, 'a part')
        self.data = data
        type_name = data.get('type')
        if not isinstance(type_name, str) or name_problem(type_name) or type_name == 'none':
            why = name_problem(type_name) if isinstance(type_name, str) else None
            self.problem(('type',), 'type: must name the part type (letters, digits, '
                         'underscores, starting with a letter; not none)'
                         + (f': {why}' if why and type_name != 'none' else ''))
        if 'family' in data:
            self.name(('family',), data['family'], 'family')
        frames = _or_empty(data.get('frames'))
        if not self.mapping(('frames',), frames, 'frames'):
            frames = {}
        for key, check in SECTION_CHECKS.items():
            if key in data:
                check(self, data[key], frames)

    # -- sections

    def attach(self, value, frames) -> None:
        if self.mapping(('attach',), value, 'attach'):
            self.keys(('attach',), value, FRAME_KEYS, 'attach')
            self.pose(('attach',), value)

    def axis(self, value, frames) -> None:
        axis = self.vector(('axis',), value, 'axis')
        if axis and math.hypot(*axis) < 1e-9:
            self.problem(('axis',), 'axis must not be zero')

    def inertial(self, inertial, frames, path=('inertial',), what='inertial') -> None:
        if not self.mapping(path, inertial, what):
            return
        self.keys(path, inertial, tuple(INERTIAL_FIELDS), what)
        if 'mass' not in inertial:
            self.problem(path, f'{what} needs mass (kg)')
        else:
            self.number(path + ('mass',), inertial['mass'], f'{what} mass (kg)', positive=True)
        if 'com' in inertial:
            self.vector(path + ('com',), inertial['com'], f'{what} com')
        inertia = _or_empty(inertial.get('inertia'))  # none: a point mass
        if not self.mapping(path + ('inertia',), inertia, 'inertia'):
            return
        moments = tuple(INERTIA_FIELDS)
        self.keys(path + ('inertia',), inertia, moments, 'inertia')
        values = {k: self.number(path + ('inertia', k), inertia.get(k, 0.0), f'inertia {k}')
                  for k in moments}
        if inertia and None not in values.values() and not physical_inertia(values):
            self.problem(path + ('inertia',), 'inertia is not physical: the principal moments '
                         '(of the whole tensor, products included) must be positive and each '
                         'at most the sum of the other two')

    def geometry_items(self, section: str, items) -> None:
        if not isinstance(items, list):
            if items is not None:
                self.problem((section,), f'{section}: must be a list of geometry items')
            return
        for index, item in enumerate(items):
            self.geometry_item((section, index), item, f'{section} item #{index + 1}')

    def slots(self, slots, frames) -> None:
        slots = _or_empty(slots)
        if not self.mapping(('slots',), slots, 'slots'):
            return
        for name, slot in slots.items():
            self.slot(name, slot, frames)

    def frames(self, frames, _) -> None:
        if not isinstance(frames, dict):
            return  # named in part()
        for name, frame in frames.items():
            path = ('frames', name)
            self.name(path, name, 'frame name')
            if not self.mapping(path, frame, f'frame {name}'):
                continue
            self.keys(path, frame, FRAME_ENTRY_KEYS, f'frame {name}')
            self.pose(path, frame)
            joint = frame.get('joint', 'fixed')
            if joint not in JOINTS:
                self.problem(path + ('joint',), f'frame {name}: joint must be one of '
                             f"{', '.join(JOINTS)}, got {shown(joint)}")
            self.moving_joint(path, frame, joint, f'frame {name}')
            if 'inertial' in frame:
                self.inertial(frame['inertial'], frames, path + ('inertial',),
                              f'frame {name} inertial')
            elif joint in JOINTS and joint != 'fixed':
                # a massless link below a joint that is not lumped "is not modeled in sdf"
                # (gazebosim/sdformat sdformat14_14.9.0, src/parser_urdf.cc, CreateLink)
                self.problem(path, f'frame {name} moves (joint: {joint}), so it needs '
                             'inertial: with the mass of what moves')

    def moving_joint(self, path: tuple, item: dict, joint, what: str) -> None:
        """
        Check a slot's or frame's axis and limits against its joint.

        The axis is not zero; a revolute or prismatic joint has limits (URDF requires them:
        ros/urdfdom, urdf_parser/src/joint.cpp, parseJoint), lower below upper; a fixed or
        continuous one has none.
        """
        if 'axis' in item:
            axis = self.vector(path + ('axis',), item['axis'], f'{what} axis')
            if axis and math.hypot(*axis) < 1e-9:
                self.problem(path + ('axis',), f'{what}: axis must not be zero')
        for where, message in limits_problems(joint, given_limits(item), what,
                                              (is_annotation, NOTES_HINT)):
            self.problem(path + where, message)

    def propeller(self, data, frames) -> None:
        path = ('propeller',)
        if not self.section('propeller', data, PROPELLER_FIELDS, PROPELLER_REQUIRED):
            return
        high, low = self.valid(data, 'max_thrust'), self.valid(data, 'min_thrust')
        if high is not None and low is not None and not low < high:
            self.problem(path + ('min_thrust',), 'propeller min_thrust must be below max_thrust')
        elif high is not None and low is not None and not low <= 0 < high:
            self.problem(path + ('min_thrust',) if low > 0 else path + ('max_thrust',),
                         f'propeller thrust runs from min_thrust {shown(low)} to max_thrust '
                         f'{shown(high)} N: min_thrust (full reverse) must be zero or negative '
                         'and max_thrust (full forward) positive')
        if 'rotor' in data:
            rotor = data['rotor']
            turning = [n for n, f in frames.items()
                       if isinstance(f, dict) and f.get('joint') == 'continuous']
            if not isinstance(rotor, str) or rotor not in turning:
                self.problem(path + ('rotor',), f'propeller rotor {shown(rotor)} is not one of '
                             "the part's continuous frames ("
                             + (', '.join(map(str, turning)) or 'none declared') + ')')

    def sensor(self, section: str, data, frames) -> None:
        """
        Check a section of the sensor registry (sensors.KINDS) by its kinds.

        Its keys and values as every section's; each key naming a frame, against the part's
        frames; each ordered pair (range_min, range_max), low below high.
        """
        kind = SENSOR_KINDS[section]
        if not self.section(section, data, kind.fields, kind.required):
            return
        path = (section,)
        for key in kind.frame_keys:
            if key in data and (not isinstance(data[key], str) or data[key] not in frames):
                declared = ', '.join(map(str, frames)) or 'none declared'
                self.problem(path + (key,), f'{section} {key} {shown(data[key])} is not one of '
                             f"the part's frames ({declared})")
        for low_key, high_key in kind.ordered:
            low, high = self.valid(data, low_key), self.valid(data, high_key)
            if low is not None and high is not None and not low < high:
                self.problem(path + (low_key,), f'{section} {low_key} must be below {high_key}')

    def hydrodynamics(self, data, frames) -> None:
        path = ('hydrodynamics',)
        if not self.mapping(path, data, 'hydrodynamics'):
            return
        for key, value in data.items():
            if is_annotation(key):
                continue
            if not isinstance(key, str) or not HYDRODYNAMICS_NAME.match(key):
                self.problem(path + (key,), f'hydrodynamics has no coefficient {shown(key)}; '
                             'valid: added mass <f>Dot<v> (xDotU), linear damping <f><v> (xU), '
                             'quadratic damping <f><v>abs<v> (xUabsU), with <f> one of x y z k '
                             'm n and <v> one of U V W P Q R')
                continue
            number = self.number(path + (key,), value, f'hydrodynamics {key}')
            if number is not None and number > 0 and RESISTING_TERM.match(key):
                self.problem(path + (key,), f'hydrodynamics {key} {shown(value)} must be zero '
                             "or negative: it resists motion along its own axis (Fossen's sign, "
                             'as gz-sim takes it); a positive one feeds the motion')

    def battery(self, data, frames) -> None:
        """Check a ``battery`` section: nominal voltage and capacity, its range in order."""
        if not self.section('battery', data, BATTERY_FIELDS, BATTERY_REQUIRED):
            return
        order = [(key, self.valid(data, key)) for key in ('empty_voltage', 'voltage',
                                                          'full_voltage') if key in data]
        for (low_key, low), (high_key, high) in zip(order, order[1:]):
            if low is not None and high is not None and not low < high:
                self.problem(('battery', low_key), f'battery {low_key} must be below {high_key}')

    def joint_controls(self, data, frames) -> None:
        """
        Check ``joint_controls``: each names one limited slot or frame of this part.

        The name becomes a topic, so it is a name like a slot's.
        """
        if not self.mapping(('joint_controls',), data, 'joint_controls'):
            return
        slots = self.data.get('slots') if isinstance(self.data.get('slots'), dict) else {}
        for name, control in data.items():
            path = ('joint_controls', name)
            self.name(path, name, 'joint control name')
            if not self.mapping(path, control, f'joint control {name}'):
                continue
            self.keys(path, control, JOINT_CONTROL_KEYS, f'joint control {name}')
            named = [key for key in JOINT_CONTROL_KEYS if key in control]
            if len(named) != 1:
                self.problem(path, f'joint control {name} needs exactly one of slot:, frame: '
                             'or frames:')
                continue
            key = named[0]
            owned, kind = (slots, 'slot') if key == 'slot' else (frames, 'frame')
            targets = control[key] if key == 'frames' else [control[key]]
            if not isinstance(targets, list) or not targets:
                self.problem(path + (key,), f'joint control {name}: frames must be a list of '
                             'frame names')
                continue
            limited = [n for n, item in owned.items()
                       if isinstance(item, dict) and item.get('joint') in LIMITED_JOINTS]
            for target in targets:
                item = owned.get(target) if isinstance(target, str) else None
                if not isinstance(item, dict) or item.get('joint') not in LIMITED_JOINTS:
                    self.problem(path + (key,), f'joint control {name}: {kind} '
                                 f'{shown(target)} is not a revolute or prismatic {kind} of '
                                 f"this part ({', '.join(map(str, limited)) or 'none declared'})")

    def installed_thrust(self, data, frames) -> None:
        """
        Check a base part's ``installed_thrust: fraction``.

        Its propulsors' thrust installed on it, as a fraction of their bench figures
        (bluerobotics_parts.physics.propulsion).
        """
        path = ('installed_thrust',)
        if not self.section('installed_thrust', data, INSTALLED_THRUST_FIELDS,
                            INSTALLED_THRUST_REQUIRED):
            return
        fraction = self.valid(data, 'fraction')
        if fraction is not None and fraction > 2:
            self.problem(path + ('fraction',), 'installed_thrust fraction is the installed '
                         'thrust over the bench figure: a number in (0, 2], usually below 1')

    # -- items

    def slot(self, name, slot, frames) -> None:
        path = ('slots', name)
        self.name(path, name, 'slot name')
        if name in frames:
            self.problem(path, f'slot {name} has the name of a frame of this part; both become '
                         f'links <instance>_{name}')
        if not self.mapping(path, slot, f'slot {name}'):
            return
        self.keys(path, slot, SLOT_KEYS, f'slot {name}')
        self.pose(path, slot)
        accepts = slot.get('accepts') or []
        if not isinstance(accepts, list) or not all(isinstance(t, str) for t in accepts):
            self.problem(path + ('accepts',), f'slot {name}: accepts must be a list of part '
                         'types')
            accepts = []
        default = slot.get('default', 'none')
        if not isinstance(default, str):
            self.problem(path + ('default',), f'slot {name}: default must be a part type or '
                         'none')
        elif default != 'none' and default not in accepts:
            self.problem(path + ('default',), f'slot {name} defaults to {default}, which it '
                         f"does not accept; accepts: {', '.join(accepts) or 'nothing'}")
        joint = slot.get('joint', 'fixed')
        if joint not in JOINTS:
            self.problem(path + ('joint',), f'slot {name}: joint must be one of '
                         f"{', '.join(JOINTS)}")
        self.moving_joint(path, slot, joint, f'slot {name}')
        if not isinstance(slot.get('collision', True), bool):
            self.problem(path + ('collision',), f'slot {name}: collision must be true or false')

    def geometry_item(self, path, item, what) -> None:
        if not self.mapping(path, item, what):
            return
        self.keys(path, item, ITEM_KEYS, what)
        shapes = [k for k in GEOMETRY_KEYS if k in item]
        if len(shapes) != 1:
            self.problem(path, f"{what} needs exactly one of {', '.join(GEOMETRY_KEYS)}")
        shape = shapes[0] if len(shapes) == 1 else None
        if shape == 'mesh':
            self.text(path + ('mesh',), item['mesh'], f'{what}: mesh must be a file path')
        if shape == 'box':
            box = self.vector(path + ('box',), item['box'], f'{what} box')
            if box and min(box) <= 0:
                self.problem(path + ('box',), f'{what}: box sizes must be positive')
        if shape == 'cylinder':
            cylinder = item['cylinder']
            if self.mapping(path + ('cylinder',), cylinder, f'{what} cylinder'):
                self.keys(path + ('cylinder',), cylinder, CYLINDER_KEYS, f'{what} cylinder')
                for key in CYLINDER_KEYS:
                    self.number(path + ('cylinder', key), cylinder.get(key),
                                f'{what} cylinder {key}', positive=True)
        if shape == 'sphere':
            sphere = item['sphere']
            if self.mapping(path + ('sphere',), sphere, f'{what} sphere'):
                self.keys(path + ('sphere',), sphere, SPHERE_KEYS, f'{what} sphere')
                self.number(path + ('sphere', 'radius'), sphere.get('radius'),
                            f'{what} sphere radius', positive=True)
        self.pose(path, item)
        if 'scale' in item:
            self.vector(path + ('scale',), item['scale'], f'{what} scale')
        if 'material' in item:
            material = item['material']
            if self.mapping(path + ('material',), material, f'{what} material'):
                self.keys(path + ('material',), material, MATERIAL_KEYS, f'{what} material')
                rgba = material.get('rgba')
                if not isinstance(material.get('name'), str) or not material['name'] \
                        or _CONTROL.search(material['name']) or not isinstance(rgba, list) \
                        or len(rgba) != 4 or not all(_is_real(c) and 0 <= c <= 1 for c in rgba):
                    self.problem(path + ('material',), f'{what}: material needs name: and '
                                 'rgba: [r, g, b, a] with values from 0 to 1')

    # -- values

    def section(self, name: str, data, fields, required) -> bool:
        """
        Check a named data section: a mapping of known keys, the required ones present.

        ``fields``: the keys, or their kinds (value_kinds); each value with a kind is checked.
        Return whether it has every required key.
        """
        path = (name,)
        if not self.mapping(path, data, name):
            return False
        self.keys(path, data, tuple(fields), name)
        missing = [key for key in required if key not in data]
        for key in missing:
            self.problem(path, f'{name} needs {key}')
        if isinstance(fields, dict):
            for key, kind in fields.items():
                complaint = kind.complaint(data[key]) if key in data else None
                if complaint:
                    self.problem(path + (key,), f'{name} {key} {complaint}')
        return not missing

    @staticmethod
    def valid(data: dict, key: str) -> float | None:
        """Return a section's number as a float, None when it is missing or not a number."""
        value = data.get(key)
        return float(value) if _is_real(value) else None

    def keys(self, path, mapping, valid, what) -> None:
        for key in mapping:
            if is_annotation(key):
                continue
            if key not in valid:
                self.problem(path + (key,), f'{what} has no key {shown(key)}; valid keys: '
                             f"{', '.join(valid)}{NOTES_HINT}")

    def mapping(self, path, value, what) -> bool:
        return isinstance(value, dict) or self.problem(path, f'{what} must be a mapping')

    def name(self, path, value, what) -> bool:
        why = name_problem(value)
        return not why or self.problem(path, f'{what} {shown(value)}: {why}')

    def text(self, path, value, message) -> bool:
        ok = isinstance(value, str) and value and not _CONTROL.search(value)
        if not ok and isinstance(value, str) and _CONTROL.search(value):
            found = _CONTROL.search(value).group()
            message += (f' (it holds a control character, {found!r}'
                        f"{': a NUL byte' if found == chr(0) else ''}, at character "
                        f'{value.index(found) + 1})')
        return bool(ok) or self.problem(path, message)

    def number(self, path, value, what, positive=False) -> float | None:
        if not _is_real(value):
            self.problem(path, f'{what} {kinds.not_a_number(value)}')
            return None
        if positive and value <= 0:
            self.problem(path, f'{what} must be positive, got {shown(value)}')
            return None
        return float(value)

    def vector(self, path, value, what) -> list[float] | None:
        if not isinstance(value, list) or len(value) != 3 or not all(map(_is_real, value)):
            self.problem(path, f'{what} must be a list of three numbers'
                         f'{kinds.beyond(value)}, got {shown(value)}')
            return None
        return [float(v) for v in value]

    def pose(self, path, mapping) -> None:
        for key in ('xyz', 'rpy'):
            if key in mapping:
                self.vector(path + (key,), mapping[key], key)


_is_real = kinds.is_real  # a number of part data: vectors.py's rule, text excluded


def _or_empty(value):
    """Return ``value``, an empty mapping for an empty YAML value (``slots:`` alone)."""
    return {} if value is None else value


SECTION_CHECKS = {
    'attach': _Checker.attach,
    'axis': _Checker.axis,
    'inertial': _Checker.inertial,
    'visual': lambda checker, items, frames: checker.geometry_items('visual', items),
    'collision': lambda checker, items, frames: checker.geometry_items('collision', items),
    'frames': _Checker.frames,
    'slots': _Checker.slots,
    'propeller': _Checker.propeller,
    'hydrodynamics': _Checker.hydrodynamics,
    'installed_thrust': _Checker.installed_thrust,
    'battery': _Checker.battery,
    'joint_controls': _Checker.joint_controls,
    'hydrostatics': lambda checker, data, frames: checker.section(
        'hydrostatics', data, HYDROSTATICS_FIELDS, ()),
    'autopilot': lambda checker, data, frames: checker.section(
        'autopilot', data, AUTOPILOT_FIELDS, AUTOPILOT_REQUIRED),
    **{section: (lambda name: lambda checker, data, frames: checker.sensor(name, data, frames))(
        section) for section in SENSOR_KINDS},
}


# -- provenance --------------------------------------------------------------------------------

def unsourced_facts(data, path=(), covered=False) -> list[tuple]:
    """
    Return the paths of numbers in part data with no source note.

    A ``<key>_source`` / ``<key>_unverified`` note on the key itself or on an enclosing key
    covers it. Colours are not facts.
    """
    found = []
    if isinstance(data, dict):
        for key, value in data.items():
            if is_annotation(key) or key in NON_FACT_KEYS:
                continue
            noted = covered or (isinstance(key, str) and any(
                isinstance(data.get(key + suffix), str) and data.get(key + suffix).strip()
                for suffix in SOURCE_SUFFIXES))
            found += unsourced_facts(value, path + (key,), noted)
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += unsourced_facts(value, path + (index,), covered)
    elif isinstance(data, (int, float)) and not isinstance(data, bool) and not covered:
        found.append(path)
    return found
