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
The JSON Schemas of the config and the part format, against the loader they come from.

The shipped schema files are the generated ones; every shipped config and part file passes;
invalid files fail both the schema and the loader; over mutations of every shipped file the
schema never refuses what the loader takes; a section added to part_format the usual way
appears in the schema by itself.
"""

from __future__ import annotations

import copy
import functools
import json

from bluerobotics_parts.assembly import schema
from bluerobotics_parts.assembly.pipeline import config_problems
from bluerobotics_parts.errors import ConfigError
from bluerobotics_parts.files.yaml_lines import load_file, LocatedDocument
from bluerobotics_parts.formats import part_format
from bluerobotics_parts.formats.config import from_data
from conftest import cli, CONFIG_DIR, REPO, SHIPPED_CONFIGS
import jsonschema
import pytest

PART_FILES = sorted(p for p in [*(REPO / 'urdf' / 'parts').glob('*.yaml'),
                                *(CONFIG_DIR / 'examples' / 'user_parts').glob('*.yaml')]
                    if p.name != 'index.yaml')


@functools.lru_cache(maxsize=None)
def validator(which):
    return jsonschema.Draft7Validator(schema.schema(which))


def schema_errors(which, data):
    return [error.message for error in validator(which).iter_errors(data)]


def part_loader_problems(data):
    return part_format.part_problems(LocatedDocument(data, 'part.yaml', {}))


def config_loader_problems(data, path=None):
    """Return the loader's problems with a config (read as if from ``path``, for part_files)."""
    try:
        return config_problems(from_data(copy.deepcopy(data), file=str(path or '<dict>')))
    except ConfigError as error:  # what the loader raises instead of listing
        return [error]


@pytest.mark.parametrize('which', schema.KINDS)
def test_the_shipped_schema_is_the_generated_one(which):
    jsonschema.Draft7Validator.check_schema(schema.schema(which))
    shipped = REPO / 'schema' / schema.FILES[which]
    assert shipped.read_text(encoding='utf-8') == schema.schema_text(which), (
        f'{shipped} is stale: run tools/make_schemas.py')
    assert schema.shipped_file(which) == shipped


@pytest.mark.parametrize('which', schema.KINDS)
def test_the_schema_command_prints_it(which):
    result = cli('schema', which)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == schema.schema(which)


def test_the_schema_command_names_the_choices():
    result = cli('schema', 'vehicle')
    assert result.returncode == 1
    assert "invalid choice: 'vehicle'" in result.stderr and "'part'" in result.stderr
    missing = cli('schema')  # names the choices, not "required: which"
    assert missing.returncode == 1  # argparse's 2 is turned into a usage error's 1
    assert 'required: {config,part}' in missing.stderr


@pytest.mark.parametrize('path', SHIPPED_CONFIGS, ids=lambda p: p.name)
def test_every_shipped_config_passes(path):
    assert schema_errors('config', load_file(path).data) == []


@pytest.mark.parametrize('path', PART_FILES, ids=lambda p: p.name)
def test_every_shipped_part_file_passes(path):
    assert schema_errors('part', load_file(path).data) == []


INVALID_CONFIGS = {
    'unknown top key': {'colour': 'red'},
    'misspelt entry key': {'parts': [{'slot': 'mast', 'typ': 'none'}]},
    'slot entry with a pose': {'parts': [{'slot': 'mast', 'type': 'blueboat_antenna_mast',
                                          'xyz': [0, 0, 1]}]},
    'placement without a name': {'parts': [{'type': 'blueboat_flag'}]},
    'placement of none': {'parts': [{'type': 'none', 'name': 'x'}]},
    'vector of two': {'parts': [{'type': 'blueboat_flag', 'name': 'f', 'xyz': [0, 1]}]},
    'vector text': {'slots': [{'name': 's', 'xyz': '0 0 one'}]},
    'collision as text': {'slots': [{'name': 's', 'collision': 'no'}]},
    'joint': {'slots': [{'name': 's', 'joint': 'hinge'}]},
    'name with a space': {'name': 'my boat'},
    'name xacro reads as a number': {'name': 'Inf'},
    'parts not a list': {'parts': {'slot': 'mast'}},
    'revolute slot without limits': {'slots': [{'name': 's', 'joint': 'revolute'}]},
    'limits on a fixed slot': {'slots': [{'name': 's', 'limits': {
        'lower': 0, 'upper': 1, 'effort': 1, 'velocity': 1}}]},
    'limits null': {'slots': [{'name': 's', 'limits': None}]},
}


@pytest.mark.parametrize('case', sorted(INVALID_CONFIGS))
def test_invalid_configs_fail_the_schema_and_the_loader(case):
    data = INVALID_CONFIGS[case]
    assert schema_errors('config', data), case
    assert config_loader_problems(data), case


INVALID_PARTS = {
    'no type': {'family': 'blueboat'},
    'type none': {'type': 'none'},
    'unknown key': {'type': 'p', 'colour': 'red'},
    'negative mass': {'type': 'p', 'inertial': {'mass': -1}},
    'two shapes': {'type': 'p', 'visual': [{'box': [1, 1, 1], 'mesh': 'a.stl'}]},
    'rotation': {'type': 'p', 'propeller': {'rotation': 'left', 'diameter': 0.1,
                                            'max_thrust': 1, 'min_thrust': 0,
                                            'thrust_coefficient': 0.1}},
    'propeller without diameter': {'type': 'p', 'propeller': {
        'rotation': 'cw', 'max_thrust': 1, 'min_thrust': 0, 'thrust_coefficient': 0.1}},
    'slot key': {'type': 'p', 'slots': {'s': {'acepts': ['p']}}},
    'hydrodynamics name': {'type': 'p', 'hydrodynamics': {'xFast': 1.0}},
    'samples': {'type': 'p', 'frames': {'f': {}}, 'echosounder': {
        'frame': 'f', 'beam_width': 0.4, 'range_min': 0, 'range_max': 10, 'update_rate': 1,
        'samples': 0}},
    'material key': {'type': 'p', 'visual': [{'box': [1, 1, 1], 'material': {
        'name': 'm', 'rgba': [1, 1, 1, 1], 'colour': 'red'}}]},
    'prismatic slot without limits': {'type': 'p', 'slots': {'s': {'joint': 'prismatic'}}},
    'limits null': {'type': 'p', 'slots': {'s': {'limits': None}}},
    'limits on a continuous frame': {'type': 'p', 'frames': {'f': {
        'joint': 'continuous', 'limits': {'lower': 0, 'upper': 1, 'effort': 1, 'velocity': 1},
        'inertial': {'mass': 0.1, 'mass_unverified': 'x'}}}},
}


@pytest.mark.parametrize('case', sorted(INVALID_PARTS))
def test_invalid_part_files_fail_the_schema_and_the_loader(case):
    data = INVALID_PARTS[case]
    assert schema_errors('part', data), case
    assert part_loader_problems(data), case


# -- the schema never refuses what the loader takes -----------------------------------------

BAD_VALUES = ('x', 'none', -1, 0, 2.5, True, None, [], [1, 2], [1, 2, 3], '1 2 3', {},
              {'zz': 1})


def shapes(data, path=()):
    """Yield every path into ``data`` (list indexes and names under slots/frames collapsed)."""
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from shapes(value, path + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from shapes(value, path + (index,))


def shape_of(path):
    """Return a path with list indexes, names and notes collapsed (one mutation per shape)."""
    return tuple('*' if isinstance(p, int) or (i and path[i - 1] in NAMED)
                 else '<note>' if part_format.is_annotation(p) else p
                 for i, p in enumerate(path))


NAMED = ('slots', 'frames', 'dimensions', 'hydrodynamics')


def mutations(files):
    """
    Yield (file, path, value, mutated data): each value replaced, each key dropped, one added.

    Each shape of path once, met in the smallest file that has it (the schema check is slow
    on big files).
    """
    seen = set()
    for path in sorted(files, key=lambda p: p.stat().st_size):
        data = load_file(path).data or {}
        for where in shapes(data):
            if not where or shape_of(where) in seen:
                continue
            seen.add(shape_of(where))
            for value in BAD_VALUES + ('<drop>',):
                mutated = copy.deepcopy(data)
                holder = mutated
                for step in where[:-1]:
                    holder = holder[step]
                if value == '<drop>':
                    holder.pop(where[-1]) if isinstance(holder, dict) else holder.pop(where[-1])
                else:
                    holder[where[-1]] = copy.deepcopy(value)
                yield path, where, value, mutated
            target = data
            for step in where:
                target = target[step]
            if isinstance(target, dict):
                mutated = copy.deepcopy(data)
                holder = mutated
                for step in where:
                    holder = holder[step]
                holder['zz_unknown'] = 1
                yield path, where, 'an unknown key', mutated


def test_the_part_schema_never_refuses_what_the_loader_takes():
    agreed = refused = 0
    for path, where, value, data in mutations(PART_FILES):
        loader = part_loader_problems(data)
        by_schema = schema_errors('part', data)
        assert loader or not by_schema, (path.name, where, value, by_schema)
        refused += bool(loader)
        agreed += bool(loader and by_schema)
    # and it is not vacuous: it catches most mistakes of shape and value type itself
    assert refused > 100 and agreed / refused > 0.75, (agreed, refused)


def test_the_config_schema_never_refuses_what_the_loader_takes():
    agreed = refused = 0
    for path, where, value, data in mutations(SHIPPED_CONFIGS):
        loader = config_loader_problems(data, path)
        by_schema = schema_errors('config', data)
        assert loader or not by_schema, (path.name, where, value, by_schema)
        refused += bool(loader)
        agreed += bool(loader and by_schema)
    assert refused > 50 and agreed / refused > 0.6, (agreed, refused)


# -- one set of definitions ------------------------------------------------------------------

def test_the_part_schema_has_every_key_of_the_format_and_no_other():
    generated = schema.part_schema()
    assert tuple(generated['properties']) == part_format.PART_KEYS
    assert set(part_format.SECTION_CHECKS) <= set(part_format.PART_KEYS)
    slots = generated['properties']['slots']['additionalProperties']
    assert tuple(slots['properties']) == part_format.SLOT_KEYS
    items = generated['properties']['visual']['items']
    assert tuple(items['properties']) == part_format.ITEM_KEYS
    assert tuple(generated['properties']['propeller']['properties']) == \
        part_format.PROPELLER_KEYS


def test_a_section_added_the_usual_way_appears_in_the_schema(monkeypatch):
    """A section as part_format's doc says: a KEYS tuple, PART_KEYS, SECTION_CHECKS."""
    def check_thermometer(checker, data, frames):
        checker.section('thermometer', data, part_format.THERMOMETER_KEYS, ('frame',))

    monkeypatch.setattr(part_format, 'THERMOMETER_KEYS', ('frame', 'update_rate', 'noise'),
                        raising=False)
    monkeypatch.setattr(part_format, 'PART_KEYS', part_format.PART_KEYS + ('thermometer',))
    monkeypatch.setitem(part_format.SECTION_CHECKS, 'thermometer', check_thermometer)
    generated = schema.part_schema()
    section = generated['properties']['thermometer']
    assert tuple(section['properties']) == ('frame', 'update_rate', 'noise')
    assert section['additionalProperties'] is False
    part = {'type': 'thermo_part', 'thermometer': {'frame': 'f', 'update_rate': 100}}
    assert list(jsonschema.Draft7Validator(generated).iter_errors(part)) == []
    part['thermometer']['rate'] = 1
    assert list(jsonschema.Draft7Validator(generated).iter_errors(part))
    assert part_loader_problems(part)  # the loader refuses the same key
    # with <SECTION>_REQUIRED declared, the schema requires them too
    monkeypatch.setattr(part_format, 'THERMOMETER_REQUIRED', ('frame',), raising=False)
    assert schema.part_schema()['properties']['thermometer']['required'] == ['frame']


def test_every_section_of_the_sensor_registry_is_in_the_schema_as_the_checker_reads_it():
    """A sensor kind's keys, kinds and required keys come from sensors.KINDS, for both."""
    from bluerobotics_parts.formats.sensor_kinds import KINDS

    generated = schema.part_schema()['properties']
    for section, kind in KINDS.items():
        assert section in part_format.PART_KEYS and section in part_format.SECTION_CHECKS
        assert tuple(generated[section]['properties']) == tuple(kind.fields), section
        assert generated[section]['required'] == list(kind.required), section
        missing = {'type': 'p', section: {}}
        assert [p.message for p in part_loader_problems(missing)] == \
            [f'{section} needs {key}' for key in kind.required], section


def test_the_config_schema_offers_the_shipped_types_and_slots():
    generated = schema.config_schema()
    entry = generated['properties']['parts']['items']
    types = entry['properties']['type']['anyOf'][0]
    assert 'ping_singlebeam' in types['enum'] and 'none' in types['enum']
    assert len(types['enumDescriptions']) == len(types['enum'])
    slots = entry['properties']['slot']['anyOf'][0]['enum']
    assert {'motor_port', 'ping', 'thruster_8', 'mast'} <= set(slots)
    assert tuple(generated['properties']) == ('name', 'base', 'parts', 'slots', 'part_files',
                                              'water')
