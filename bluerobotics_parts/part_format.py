"""The part format (docs/PARTS.md): what a part file may say, checked with ``file:line``
messages, and the provenance rule (every number has a ``_source`` or ``_unverified`` note).

The resolver reads the same files; this is where a mistake in one is named before xacro
sees it.
"""

from __future__ import annotations

import math
import re

from .config import NAME_PATTERN, SLOT_JOINTS
from .yaml_lines import LocatedDocument

SOURCE_SUFFIXES = ('_source', '_unverified')

PART_KEYS = ('type', 'family', 'description', 'dimensions', 'attach', 'axis', 'inertial',
             'visual', 'collision', 'slots', 'frames', 'propeller', 'echosounder', 'hydrostatics',
             'hydrodynamics', 'installed_thrust')
SLOT_KEYS = ('xyz', 'rpy', 'accepts', 'default', 'joint', 'collision')
FRAME_KEYS = ('xyz', 'rpy')
GEOMETRY_KEYS = ('mesh', 'box', 'cylinder', 'sphere')
ITEM_KEYS = GEOMETRY_KEYS + ('xyz', 'rpy', 'material', 'scale')
PROPELLER_KEYS = ('rotation', 'diameter', 'max_thrust', 'min_thrust', 'max_rpm',
                  'thrust_coefficient')
ECHOSOUNDER_KEYS = ('frame', 'frequency', 'beam_width', 'range_min', 'range_max',
                    'update_rate', 'samples')
ROTATIONS = ('cw', 'ccw')
# gz-sim Hydrodynamics coefficient names (Fossen): added mass xDotU, linear damping xU,
# quadratic damping xUabsU; force/moment x y z k m n, velocity U V W P Q R.
HYDRODYNAMICS_NAME = re.compile(r'^[xyzkmn](Dot[UVWPQR]|[UVWPQR](abs[UVWPQR])?)$')

# Numbers that are not physical facts and need no source: colours.
NON_FACT_KEYS = ('rgba',)


def is_annotation(key) -> bool:
    """``mass_source`` / ``mass_unverified``: provenance, not data."""
    return isinstance(key, str) and key.endswith(SOURCE_SUFFIXES)


def check_part(doc: LocatedDocument) -> None:
    """Raise ConfigError (file:line) for anything a part file may not say."""
    data = doc.data
    if not isinstance(data, dict):
        raise doc.error((), 'a part file must be a mapping with at least type: (see docs/PARTS.md)')
    _keys(doc, (), data, PART_KEYS, 'a part')
    if not isinstance(data.get('type'), str) or not NAME_PATTERN.match(data['type']) \
            or data['type'] == 'none':
        raise doc.error(('type',), 'type: must name the part type (letters, digits, '
                        'underscores; not none)')
    if 'family' in data:
        _name(doc, ('family',), data['family'], 'family')
    if 'attach' in data:
        _mapping(doc, ('attach',), data['attach'], 'attach')
        _keys(doc, ('attach',), data['attach'], FRAME_KEYS, 'attach')
        _pose(doc, ('attach',), data['attach'])
    if 'axis' in data:
        axis = _vector(doc, ('axis',), data['axis'], 'axis')
        if math.hypot(*axis) < 1e-9:
            raise doc.error(('axis',), 'axis must not be zero')
    if 'inertial' in data:
        _inertial(doc, data['inertial'])
    for section in ('visual', 'collision'):
        items = data.get(section) or []
        if not isinstance(items, list):
            raise doc.error((section,), f'{section}: must be a list of geometry items')
        for index, item in enumerate(items):
            _geometry_item(doc, (section, index), item, f'{section} item #{index + 1}')
    frames = _mapping(doc, ('frames',), data.get('frames') or {}, 'frames')
    for name, frame in frames.items():
        _name(doc, ('frames', name), name, 'frame name')
        _mapping(doc, ('frames', name), frame, f'frame {name}')
        _keys(doc, ('frames', name), frame, FRAME_KEYS, f'frame {name}')
        _pose(doc, ('frames', name), frame)
    slots = _mapping(doc, ('slots',), data.get('slots') or {}, 'slots')
    for name, slot in slots.items():
        _slot(doc, name, slot, frames)
    if 'propeller' in data:
        _propeller(doc, data['propeller'])
    if 'echosounder' in data:
        _echosounder(doc, data['echosounder'], frames)
    if 'hydrodynamics' in data:
        _hydrodynamics(doc, data['hydrodynamics'])
    if 'installed_thrust' in data:
        _installed_thrust(doc, data['installed_thrust'])


def _keys(doc, path, mapping, valid, what):
    for key in mapping:
        if is_annotation(key):
            continue
        if key not in valid:
            raise doc.error(path + (key,), f'{what} has no key {key!r}; valid keys: '
                            f"{', '.join(valid)} (and <key>_source / <key>_unverified notes)")


def _mapping(doc, path, value, what) -> dict:
    if not isinstance(value, dict):
        raise doc.error(path, f'{what} must be a mapping')
    return value


def _name(doc, path, value, what):
    if not isinstance(value, str) or not NAME_PATTERN.match(value):
        raise doc.error(path, f'{what} {value!r}: use letters, digits and underscores, '
                        'starting with a letter')


def _number(doc, path, value, what, positive=False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise doc.error(path, f'{what} must be a number, got {value!r}')
    if positive and value <= 0:
        raise doc.error(path, f'{what} must be positive, got {value!r}')
    return float(value)


def _vector(doc, path, value, what) -> list[float]:
    if not isinstance(value, list) or len(value) != 3:
        raise doc.error(path, f'{what} must be a list of three numbers, got {value!r}')
    return [_number(doc, path, v, what) for v in value]


def _pose(doc, path, mapping):
    for key in ('xyz', 'rpy'):
        if key in mapping:
            _vector(doc, path + (key,), mapping[key], key)


def _inertial(doc, inertial):
    path = ('inertial',)
    _mapping(doc, path, inertial, 'inertial')
    _keys(doc, path, inertial, ('mass', 'com', 'inertia'), 'inertial')
    if 'mass' not in inertial:
        raise doc.error(path, 'inertial needs mass (kg)')
    _number(doc, path + ('mass',), inertial['mass'], 'inertial mass (kg)', positive=True)
    if 'com' in inertial:
        _vector(doc, path + ('com',), inertial['com'], 'inertial com')
    inertia = _mapping(doc, path + ('inertia',), inertial.get('inertia') or {}, 'inertia')
    moments = ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')
    _keys(doc, path + ('inertia',), inertia, moments, 'inertia')
    values = {k: _number(doc, path + ('inertia', k), inertia.get(k, 0.0), f'inertia {k}')
              for k in moments}
    ixx, iyy, izz = values['ixx'], values['iyy'], values['izz']
    if inertia and (min(ixx, iyy, izz) <= 0 or ixx + iyy < izz or iyy + izz < ixx
                    or ixx + izz < iyy):
        raise doc.error(path + ('inertia',), 'inertia is not physical: the principal moments '
                        'must be positive and each at most the sum of the other two')


def _geometry_item(doc, path, item, what):
    _mapping(doc, path, item, what)
    _keys(doc, path, item, ITEM_KEYS, what)
    shapes = [k for k in GEOMETRY_KEYS if k in item]
    if len(shapes) != 1:
        raise doc.error(path, f"{what} needs exactly one of {', '.join(GEOMETRY_KEYS)}")
    shape = shapes[0]
    if shape == 'mesh' and (not isinstance(item['mesh'], str) or not item['mesh']):
        raise doc.error(path + ('mesh',), f'{what}: mesh must be a file path')
    if shape == 'box':
        box = _vector(doc, path + ('box',), item['box'], f'{what} box')
        if min(box) <= 0:
            raise doc.error(path + ('box',), f'{what}: box sizes must be positive')
    if shape == 'cylinder':
        cylinder = _mapping(doc, path + ('cylinder',), item['cylinder'], f'{what} cylinder')
        _keys(doc, path + ('cylinder',), cylinder, ('radius', 'length'), f'{what} cylinder')
        for key in ('radius', 'length'):
            _number(doc, path + ('cylinder', key), cylinder.get(key), f'{what} cylinder {key}',
                    positive=True)
    if shape == 'sphere':
        sphere = _mapping(doc, path + ('sphere',), item['sphere'], f'{what} sphere')
        _keys(doc, path + ('sphere',), sphere, ('radius',), f'{what} sphere')
        _number(doc, path + ('sphere', 'radius'), sphere.get('radius'), f'{what} sphere radius',
                positive=True)
    _pose(doc, path, item)
    if 'scale' in item:
        _vector(doc, path + ('scale',), item['scale'], f'{what} scale')
    if 'material' in item:
        material = _mapping(doc, path + ('material',), item['material'], f'{what} material')
        rgba = material.get('rgba')
        if not isinstance(material.get('name'), str) or not isinstance(rgba, list) \
                or len(rgba) != 4 or not all(isinstance(c, (int, float)) and 0 <= c <= 1
                                            for c in rgba):
            raise doc.error(path + ('material',), f'{what}: material needs name: and rgba: '
                            '[r, g, b, a] with values from 0 to 1')


def _slot(doc, name, slot, frames):
    path = ('slots', name)
    _name(doc, path, name, 'slot name')
    if name in frames:
        raise doc.error(path, f'slot {name} has the name of a frame of this part; both become '
                        f'links <instance>_{name}')
    _mapping(doc, path, slot, f'slot {name}')
    _keys(doc, path, slot, SLOT_KEYS, f'slot {name}')
    _pose(doc, path, slot)
    accepts = slot.get('accepts') or []
    if not isinstance(accepts, list) or not all(isinstance(t, str) for t in accepts):
        raise doc.error(path + ('accepts',), f'slot {name}: accepts must be a list of part types')
    default = slot.get('default', 'none')
    if default != 'none' and default not in accepts:
        raise doc.error(path + ('default',), f'slot {name} defaults to {default}, which it does '
                        f"not accept; accepts: {', '.join(accepts) or 'nothing'}")
    if slot.get('joint', 'fixed') not in SLOT_JOINTS:
        raise doc.error(path + ('joint',), f'slot {name}: joint must be one of '
                        f"{', '.join(SLOT_JOINTS)}")
    if not isinstance(slot.get('collision', True), bool):
        raise doc.error(path + ('collision',), f'slot {name}: collision must be true or false')


def _section(doc, name: str, data, valid, required) -> tuple:
    """A named data section: a mapping of known keys with the required ones present."""
    path = (name,)
    _mapping(doc, path, data, name)
    _keys(doc, path, data, valid, name)
    for key in required:
        if key not in data:
            raise doc.error(path, f'{name} needs {key}')
    return path


def _propeller(doc, data):
    path = _section(doc, 'propeller', data, PROPELLER_KEYS,
                    ('rotation', 'diameter', 'max_thrust', 'min_thrust', 'thrust_coefficient'))
    if data['rotation'] not in ROTATIONS:
        raise doc.error(path + ('rotation',), 'propeller rotation must be cw or ccw (seen from '
                        'astern, pushing forward)')
    for key in ('diameter', 'thrust_coefficient'):
        _number(doc, path + (key,), data[key], f'propeller {key}', positive=True)
    if 'max_rpm' in data:
        _number(doc, path + ('max_rpm',), data['max_rpm'], 'propeller max_rpm', positive=True)
    high = _number(doc, path + ('max_thrust',), data['max_thrust'], 'propeller max_thrust')
    low = _number(doc, path + ('min_thrust',), data['min_thrust'], 'propeller min_thrust')
    if not low < high:
        raise doc.error(path + ('min_thrust',), 'propeller min_thrust must be below max_thrust')


def _echosounder(doc, data, frames):
    path = _section(doc, 'echosounder', data, ECHOSOUNDER_KEYS,
                    ('frame', 'beam_width', 'range_min', 'range_max', 'update_rate'))
    if data['frame'] not in frames:
        raise doc.error(path + ('frame',), f"echosounder frame {data['frame']!r} is not one of "
                        f"the part's frames ({', '.join(frames) or 'none declared'})")
    for key in ('beam_width', 'range_max', 'update_rate'):
        _number(doc, path + (key,), data[key], f'echosounder {key}', positive=True)
    low = _number(doc, path + ('range_min',), data['range_min'], 'echosounder range_min')
    if not 0 <= low < float(data['range_max']):
        raise doc.error(path + ('range_min',), 'echosounder range_min must be >= 0 and below '
                        'range_max')
    if 'samples' in data and (not isinstance(data['samples'], int) or data['samples'] < 1):
        raise doc.error(path + ('samples',), 'echosounder samples must be a positive integer')


def _hydrodynamics(doc, data):
    path = ('hydrodynamics',)
    _mapping(doc, path, data, 'hydrodynamics')
    for key, value in data.items():
        if is_annotation(key):
            continue
        if not isinstance(key, str) or not HYDRODYNAMICS_NAME.match(key):
            raise doc.error(path + (key,), f'hydrodynamics has no coefficient {key!r}; valid: '
                            'added mass <f>Dot<v> (xDotU), linear damping <f><v> (xU), quadratic '
                            'damping <f><v>abs<v> (xUabsU), with <f> one of x y z k m n and <v> '
                            'one of U V W P Q R')
        _number(doc, path + (key,), value, f'hydrodynamics {key}')


def _installed_thrust(doc, data):
    """
    Check a base part's ``installed_thrust: fraction``.

    Its propulsors' thrust installed on it, as a fraction of their bench figures
    (bluerobotics_parts.propulsion).
    """
    path = _section(doc, 'installed_thrust', data, ('fraction',), ('fraction',))
    fraction = _number(doc, path + ('fraction',), data['fraction'], 'installed_thrust fraction',
                       positive=True)
    if fraction > 2:
        raise doc.error(path + ('fraction',), 'installed_thrust fraction is the installed '
                        'thrust over the bench figure: a number in (0, 2], usually below 1')


# -- provenance --------------------------------------------------------------------------------

def unsourced_facts(data, path=(), covered=False) -> list[tuple]:
    """Paths of numbers in part data with no ``<key>_source`` / ``<key>_unverified`` on the
    key itself or on an enclosing key. Colours are not facts."""
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
