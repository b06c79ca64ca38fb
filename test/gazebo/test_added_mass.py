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
Added mass reaches Gazebo as the root link's ``<fluid_added_mass>``.

The part data's Fossen terms become SDF's elements; the composed URDF carries them in a
``<gazebo reference>`` block; a real URDF-to-SDF conversion (Debian's SDFormat 12 here,
``gz sdf`` where Harmonic is installed) copies them into the link, and ``fold`` puts them in
its ``<inertial>``, where SDFormat reads them.
"""

from xml.etree import ElementTree

from bluerobotics_parts.assembly.catalogue import shipped
from bluerobotics_parts.build import build_gazebo
from bluerobotics_parts.gazebo import added_mass as carrying, spawned_model
from bluerobotics_parts.physics.added_mass import added_mass, ELEMENTS
from conftest import CONFIG_DIR, tool
import gz_support
import pytest

# The 21 child elements of <fluid_added_mass>, as gazebosim/sdformat sdformat14_14.9.0
# sdf/1.11/inertial.sdf declares them (read there; src/Link.cc Link::Load reads the same).
SDFORMAT_ELEMENTS = ('xx', 'xy', 'xz', 'xp', 'xq', 'xr', 'yy', 'yz', 'yp', 'yq', 'yr', 'zz',
                     'zp', 'zq', 'zr', 'pp', 'pq', 'pr', 'qq', 'qr', 'rr')


def test_the_elements_are_sdformats():
    assert ELEMENTS == SDFORMAT_ELEMENTS


def test_fossen_terms_become_positive_masses_with_one_isotropic_translation():
    values = added_mass({'xDotU': -6.36, 'yDotV': -7.12, 'zDotW': -18.68, 'kDotP': -0.189,
                         'mDotQ': -0.135, 'nDotR': -0.222, 'xUabsU': -141.0})
    assert values == {'xx': 6.36, 'yy': 6.36, 'zz': 6.36, 'pp': 0.189, 'qq': 0.135,
                      'rr': 0.222}
    assert list(values) == [e for e in SDFORMAT_ELEMENTS if e in values]  # SDFormat's order


def test_a_coupling_term_and_its_transpose_are_one_element():
    assert added_mass({'mDotW': -0.5, 'nDotR': -1.0}) == {'zq': 0.5, 'rr': 1.0}
    assert added_mass({'zDotQ': -0.5}) == {'zq': 0.5}


def test_no_added_mass_no_element():
    assert added_mass({'xUabsU': -8.0}) == {}
    assert added_mass({}) == {}


@pytest.mark.parametrize('config, base, surge', [('blueboat.yaml', 'blueboat_chassis', 0.85),
                                                 ('bluerov2.yaml', 'bluerov2_frame', 3.74),
                                                 ('bluerov2_heavy.yaml', 'bluerov2_heavy_frame',
                                                  6.36)])
def test_the_composed_urdf_carries_the_base_parts_added_mass(config, base, surge):
    root = ElementTree.fromstring(build_gazebo(CONFIG_DIR / config).urdf)
    (block,) = [g for g in root.findall('gazebo') if g.find('inertial') is not None]
    assert block.get('reference') == 'base_link'
    (inertial,) = block
    assert [child.tag for child in inertial] == ['fluid_added_mass']
    values = {e.tag: float(e.text) for e in inertial.find('fluid_added_mass')}
    data = shipped()[base].hydrodynamics
    assert values == {'xx': surge, 'yy': surge, 'zz': surge, 'pp': -data['kDotP'],
                      'qq': -data['mDotQ'], 'rr': -data['nDotR']}
    assert surge == -data['xDotU']
    # the ROS description's own inertial is untouched: one per link
    assert all(len(link.findall('inertial')) <= 1 for link in root.findall('link'))


def test_the_hydrodynamics_system_gets_no_added_mass():
    """Never both paths: Harmonic 8.14 would count it twice, without a word."""
    root = ElementTree.fromstring(build_gazebo(CONFIG_DIR / 'bluerov2.yaml').urdf)
    (hydro,) = root.findall("gazebo/plugin[@name='gz::sim::systems::Hydrodynamics']")
    assert hydro.findtext('disable_added_mass') == 'true'
    assert not [e.tag for e in hydro if 'Dot' in e.tag]


def composed(tmp_path, config='bluerov2.yaml'):
    text = build_gazebo(CONFIG_DIR / config).urdf
    path = tmp_path / 'robot_description.urdf'
    path.write_text(text, encoding='utf-8')
    return text


def test_a_real_conversion_then_fold_puts_it_in_the_links_inertial(tmp_path):
    """Debian's SDFormat 12 (``ign sdf -p``) copies the block into the link, as 14 does."""
    sdf = spawned_model.gazebo_sdf(composed(tmp_path), gz=tool('ign'))
    model = ElementTree.fromstring(sdf).find('model')
    (base,) = [link for link in model.findall('link') if link.get('name') == 'base_link']
    (inertial,) = base.findall('inertial')
    assert inertial.find('mass') is not None
    values = {e.tag: float(e.text) for e in inertial.find('fluid_added_mass')}
    assert values == {'xx': 3.74, 'yy': 3.74, 'zz': 3.74, 'pp': 0.189, 'qq': 0.135, 'rr': 0.222}
    assert all(len(link.findall('inertial')) == 1 for link in model.findall('link'))


def test_fold_leaves_any_other_second_inertial_alone():
    sdf = ('<sdf version="1.11"><model name="m"><link name="a"><inertial><mass>1</mass>'
           '</inertial><inertial><mass>2</mass></inertial></link></model></sdf>')
    assert len(ElementTree.fromstring(carrying.fold(sdf)).find('model/link')) == 2


def test_a_conversion_that_fails_says_so(tmp_path):
    with pytest.raises(spawned_model.ConversionError) as caught:
        spawned_model.gazebo_sdf('<robot name="x"><link', gz=tool('ign'))
    assert 'sdf -p failed' in str(caught.value)
    with pytest.raises(spawned_model.ConversionError) as caught:
        spawned_model.gazebo_sdf(composed(tmp_path), gz=str(tmp_path / 'no_such_gz'))
    assert 'no_such_gz' in str(caught.value)


def test_sdformat14_reads_the_folded_model_without_a_warning(tmp_path):
    """Where Harmonic is installed: ``gz sdf -p``, then SDFormat 14 loads the result cleanly."""
    gz_support.require()
    sdformat14 = gz_support.sdformat14()
    sdf = spawned_model.gazebo_sdf(composed(tmp_path, 'bluerov2_heavy.yaml'))
    root = sdformat14.Root()
    errors = root.load_sdf_string(sdf)
    assert not errors, [str(e) for e in errors]
    assert root.model().link_by_name('base_link').inertial().mass_matrix().mass() > 13.0
    inertial = ElementTree.fromstring(sdf).find("model/link[@name='base_link']/inertial")
    assert float(inertial.findtext('fluid_added_mass/xx')) == 6.36
