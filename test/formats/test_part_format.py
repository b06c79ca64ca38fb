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

"""The shipped part library: complete, well-formed, consistent, and every number sourced."""

from __future__ import annotations

from bluerobotics_parts import paths
from bluerobotics_parts.assembly.catalogue import shipped
from bluerobotics_parts.files.yaml_lines import load_file, load_text
from bluerobotics_parts.formats.part_format import check_part, unsourced_facts
import pytest

#: An ASCII STL of one triangle: the smallest mesh a user part's check takes.
ONE_TRIANGLE = (b'solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n'
                b'vertex 0 1 0\nendloop\nendfacet\nendsolid x\n')

PART_FILES = sorted(p for p in paths.parts_dir().glob('*.yaml') if p.name != 'index.yaml')


def test_index_lists_exactly_the_part_files():
    index = load_file(paths.parts_dir() / 'index.yaml').data
    assert index == sorted(index)
    assert index == [p.stem for p in PART_FILES]


def test_the_core_parts_are_there():
    assert {'blueboat_chassis', 'm200_weedless_prop_ccw', 'm200_weedless_prop_cw',
            't200_thruster_ccw', 't200_thruster_cw', 'blueboat_flag', 'blueboat_antenna_mast',
            'blueboat_payload_bracket', 'blueboat_ping_singlebeam_mount', 'ping_singlebeam',
            'blueboat_battery'} <= set(shipped().types())


@pytest.mark.parametrize('path', PART_FILES, ids=[p.stem for p in PART_FILES])
def test_every_number_carries_a_source_or_unverified_mark(path):
    assert unsourced_facts(load_file(path).data) == []


def test_the_provenance_rule_catches_a_bare_number():
    data = load_text('inertial:\n  mass: 1.0\n  com: [0, 0, 0]\n  com_source: x\n').data
    assert unsourced_facts(data) == [('inertial', 'mass')]
    data['inertial']['mass_unverified'] = 'estimate'
    assert unsourced_facts(data) == []


def test_slots_accept_known_types_and_default_to_an_accepted_one():
    catalogue = shipped()
    for part in catalogue.parts.values():
        for slot in part.slots.values():
            assert set(slot.accepts) <= set(catalogue.types()), (part.type, slot.name)
            assert slot.default == 'none' or slot.default in slot.accepts, (part.type, slot.name)


def test_the_chassis_slots_of_the_specification():
    slots = shipped()['blueboat_chassis'].slots
    assert slots['motor_port'].accepts == ('m200_weedless_prop_ccw', 't200_thruster_ccw')
    assert slots['motor_port'].default == 'm200_weedless_prop_ccw'
    assert slots['motor_stbd'].default == 'm200_weedless_prop_cw'
    for side in ('motor_port', 'motor_stbd'):
        assert slots[side].joint == 'fixed' and slots[side].collision is False
    assert slots['flag'].default == 'blueboat_flag'
    assert slots['mast'].default == 'none' and slots['payload'].default == 'none'
    assert slots['ping_mount'].default == 'blueboat_ping_singlebeam_mount'
    assert shipped()['blueboat_ping_singlebeam_mount'].slots['ping'].default == 'ping_singlebeam'
    assert 'beam' in shipped()['ping_singlebeam'].frames


def test_propellers_have_mass_and_drive_data():
    for part in shipped().parts.values():
        if part.propeller:
            assert part.mass > 0
            assert part.propeller.rotation == part.type.rsplit('_', 1)[1]


def test_a_material_name_always_means_the_same_colour():
    colours: dict = {}
    for part in shipped().parts.values():
        for item in part.data.get('visual') or []:
            material = item.get('material')
            if material:
                assert colours.setdefault(material['name'], material['rgba']) == material['rgba']


def test_thrust_coefficients_follow_from_their_stated_chart_points():
    import math

    for part in shipped().parts.values():
        drive = part.propeller
        if drive:
            omega = drive.max_rpm * 2 * math.pi / 60
            derived = drive.max_thrust / (1000 * drive.diameter ** 4 * omega ** 2)
            assert drive.thrust_coefficient == pytest.approx(derived, rel=1e-3), part.type


@pytest.mark.parametrize('text, fragment', [
    ('type: x\nmass: 3\n', "a part has no key 'mass'"),
    ('type: x\ninertial: {mass: -1}\n', 'must be positive'),
    ('type: x\nslots: {s: {accepts: [a], default: b}}\n',
     'slot s defaults to b, which it does not accept'),
    ('type: x\nvisual: [{box: [1, 1, 1], mesh: a.stl}]\n', 'needs exactly one of mesh, box'),
    ('type: x\npropeller: {rotation: left, diameter: 0.1, max_thrust: 1, min_thrust: 0, '
     'thrust_coefficient: 0.1}\n',
     'rotation must be cw or ccw'),
    ('type: x\ninertial: {mass: 1, inertia: {ixx: 1, iyy: 1, izz: 5}}\n',
     'inertia is not physical'),
    # the diagonal passes, the whole tensor does not: principal moments 6, -4, 1
    ('type: x\ninertial: {mass: 1, inertia: {ixx: 1, ixy: 5, iyy: 1, izz: 1}}\n',
     'inertia is not physical'),
    ('type: x\nhydrodynamics: {xDotU: 17.05}\n',
     'hydrodynamics xDotU 17.05 must be zero or negative'),
    ('type: x\nhydrodynamics: {mQabsQ: 0.5}\n',
     'hydrodynamics mQabsQ 0.5 must be zero or negative'),
    ('type: x\npropeller: {rotation: cw, diameter: 0.1, max_thrust: 50, min_thrust: 10, '
     'thrust_coefficient: 0.1}\n', 'min_thrust (full reverse) must be zero or negative'),
    ('type: x\ninertial: {mass: 1.0e+300, inertia: {ixx: 1, iyy: 1, izz: 1}}\n',
     'must be within -1e9 and 1e9, got 1e+300'),
    ('type: x\ninertial: {mass: 1.0e3, inertia: {ixx: 1, iyy: 1, izz: 1}}\n',
     'an exponent as a number only with a point and a sign'),
    ('type: x\ninertial: {mass: 1, com: [0, 1.0e+12, 0], inertia: {ixx: 1, iyy: 1, izz: 1}}\n',
     'three numbers within -1e9 and 1e9'),
])
def test_part_format_errors_name_the_problem_and_line(text, fragment):
    from bluerobotics_parts.errors import ConfigError

    with pytest.raises(ConfigError) as caught:
        check_part(load_text(text, 'my_part.yaml'))
    assert fragment in str(caught.value)
    assert str(caught.value).startswith('my_part.yaml:')


def test_hydrodynamics_cross_terms_may_take_either_sign():
    """Lift terms (sway force from surge speed) push either way: only an axis' own resists."""
    check_part(load_text('type: x\nhydrodynamics: {yVabsU: 5.0, nVabsU: -2.0, xDotU: -1.0, '
                         'xU: 0.0}\n', 'my_part.yaml'))


def test_a_rotated_inertia_with_products_is_physical():
    """A slender rod's tensor turned 45 deg about z: off-diagonal terms, still a body."""
    check_part(load_text('type: x\ninertial: {mass: 1, inertia: {ixx: 0.5, ixy: -0.49, '
                         'iyy: 0.5, izz: 0.99}}\n', 'my_part.yaml'))


def test_a_user_part_with_a_missing_mesh_is_named_at_its_line(tmp_path):
    from bluerobotics_parts.assembly.catalogue import catalogue
    from bluerobotics_parts.errors import ConfigError

    part = tmp_path / 'bracket.yaml'
    part.write_text('type: bracket\nvisual:\n  - mesh: bracket.stl\n')
    with pytest.raises(ConfigError) as caught:
        catalogue([part])
    assert str(caught.value).startswith(f'{part}:3: mesh bracket.stl not found')


def test_a_user_part_slot_naming_an_unknown_type_is_named_at_its_line(tmp_path):
    from bluerobotics_parts.assembly.catalogue import catalogue
    from bluerobotics_parts.errors import ConfigError

    part = tmp_path / 'bracket.yaml'
    part.write_text('type: bracket\nslots:\n  s:\n    accepts: [ping_singlbeam]\n')
    with pytest.raises(ConfigError) as caught:
        catalogue([part])
    assert str(caught.value).startswith(f'{part}:4: slot s: accepts names unknown part type '
                                        "'ping_singlbeam'; known types: bar30_pressure_sensor, "
                                        'blueboat_antenna_mast')


@pytest.mark.parametrize('mesh', ['../outside.stl', '/etc/passwd', 'file:///etc/passwd',
                                  'link/outside.stl', 'http://example.com/x.stl'])
def test_a_user_part_mesh_from_outside_its_folder_is_refused(tmp_path, mesh):
    from bluerobotics_parts.assembly.catalogue import catalogue
    from bluerobotics_parts.errors import ConfigError

    folder = tmp_path / 'parts'
    folder.mkdir()
    (tmp_path / 'outside.stl').write_bytes(b'solid x\nendsolid x\n')
    (folder / 'link').symlink_to(tmp_path)  # inside the folder by name, outside in fact
    part = folder / 'bracket.yaml'
    part.write_text(f'type: bracket\nvisual:\n  - mesh: {mesh}\n', encoding='utf-8')
    with pytest.raises(ConfigError) as caught:
        catalogue([part])
    assert str(caught.value).startswith(f'{part}:3: mesh {mesh} ')
    assert 'folder' in str(caught.value)


def test_a_user_part_mesh_in_its_folder_or_the_package_is_accepted(tmp_path):
    from bluerobotics_parts.assembly.catalogue import catalogue

    (tmp_path / 'sub').mkdir()
    (tmp_path / 'sub' / 'a.stl').write_bytes(ONE_TRIANGLE)
    part = tmp_path / 'bracket.yaml'
    part.write_text('type: bracket\nvisual:\n  - mesh: sub/a.stl\n  - mesh: package://'
                    'bluerobotics_parts/meshes/blueboat_flag/blueboat_flag.stl\n',
                    encoding='utf-8')
    assert catalogue([part])['bracket'].mesh_base == f'file://{tmp_path}/'


def test_a_user_part_files_problems_come_in_line_order(tmp_path):
    """``parts --part-file`` lists them as ``tree`` does: the mesh's line among the others."""
    from conftest import cli

    part = tmp_path / 'bad.yaml'
    part.write_text('type: bad_part\ncolour: red\ninertial:\n  mass: -1\nvisual:\n'
                    '  - mesh: nothere.stl\ncollision:\n  - box: [0, 1, 1]\n', encoding='utf-8')
    result = cli('parts', '--part-file', part)
    lines = [int(line.split(':')[2]) for line in result.stderr.splitlines()
             if line.startswith(f'error: {part}:')]
    assert result.returncode == 1 and len(lines) == 4, result.stderr
    assert lines == sorted(lines)
