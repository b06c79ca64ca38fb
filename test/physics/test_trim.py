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
Net buoyancy, the water it is in, and what trims a vehicle (physics/trim.py, formats/water.py).

What a user sees: ``info``'s net buoyancy line and what would fix it, ``build``'s one-line
warning, and the shipped payload example trimmed slightly positive in its own config.
"""

from __future__ import annotations

import math

from bluerobotics_parts.assembly.catalogue import shipped
from bluerobotics_parts.cli.info import vehicle_info
from bluerobotics_parts.errors import ConfigError
from bluerobotics_parts.formats import water
from bluerobotics_parts.physics import trim
from conftest import cli, CONFIG_DIR, write_config
import pytest

PAYLOAD = CONFIG_DIR / 'examples' / 'bluerov2_payload.yaml'


def test_the_water_rule_names_sea_fresh_or_a_density():
    assert water.density() == water.density('sea') == 1025.0
    assert water.density('fresh') == 997.0
    assert water.density(1010) == 1010.0
    assert water.label(997.0) == 'fresh water (997 kg/m^3)'
    assert water.label(1010.0) == 'water of 1010 kg/m^3'
    for wrong in ('salt', 1.0, 'Fresh', True, '1010'):
        with pytest.raises(ConfigError, match=r'water must be sea \(1025 kg/m\^3\), fresh'):
            water.density(wrong)


def test_the_shipped_payload_example_is_trimmed_slightly_positive_in_its_own_config():
    info = vehicle_info(PAYLOAD)
    assert 0.05 < info.trim.net < 0.3
    assert not info.trim.verdict and info.rests  # it floats at the surface, awash
    line = info.trim.line()
    assert line.startswith('net buoyancy under water: +0.12 kg in sea water (1025 kg/m^3): ')


def test_info_prints_the_net_buoyancy_and_what_trims_a_sinking_rov(tmp_path):
    config = write_config(tmp_path, 'name: rov\nbase: {type: bluerov2_frame}\nparts:\n'
                                    '  - {slot: payload, type: bluerov2_payload_skid}\n'
                                    '  - {slot: dvl, of: payload, type: dvl_a50}\n'
                                    '  - {slot: gripper, type: newton_gripper}\n')
    result = cli('info', config)
    assert result.returncode == 0, result.stderr
    assert ('net buoyancy under water: -0.20 kg in sea water (1025 kg/m^3): 12.33 kg of water '
            'displaced, 12.53 kg of vehicle\n  to trim it to +0.20 kg: add 1 x '
            'subsea_buoyancy_foam (+0.49 kg each here), high on the frame') in result.stdout


def test_the_bluerov2_sinks_in_fresh_water_and_info_says_how_much(tmp_path):
    """Blue Robotics' +0.2 kg is taken in sea water: in fresh water the same ROV sinks."""
    sea, fresh = (vehicle_info(CONFIG_DIR / 'bluerov2.yaml', water=w) for w in ('sea', 'fresh'))
    assert sea.trim.net == pytest.approx(0.2, abs=1e-3)  # the frame's published figure
    assert fresh.trim.net == pytest.approx(sea.trim.volume * 997 - 10.5, abs=1e-9)
    assert fresh.trim.net == pytest.approx((10.5 + 0.2) * 997 / 1025 - 10.5, abs=1e-3)
    assert fresh.trim.verdict == trim.SINKS
    result = cli('info', CONFIG_DIR / 'bluerov2.yaml', '--water', 'fresh')
    assert 'net buoyancy under water: -0.09 kg in fresh water (997 kg/m^3)' in result.stdout
    assert 'at rest in fresh water (997 kg/m^3): none at the surface: the vehicle sinks' \
        in result.stdout
    config = write_config(tmp_path, 'name: rov\nbase: {type: bluerov2_frame}\nwater: fresh\n')
    assert vehicle_info(config).trim.net == pytest.approx(fresh.trim.net)


def test_build_warns_in_one_line_when_it_sinks_or_floats_too_high(tmp_path):
    sinks = write_config(tmp_path, 'name: rov\nbase: {type: bluerov2_frame}\nwater: fresh\n',
                         'sinks.yaml')
    result = cli('build', sinks, '-o', tmp_path / 'a')
    assert result.returncode == 0, result.stderr
    (line,) = [line for line in result.stdout.splitlines() if 'warning' in line]
    assert line == ('warning: the vehicle sinks in fresh water (997 kg/m^3): net buoyancy '
                    '-0.09 kg under water; bluerobotics-parts info says how to trim it')
    light = write_config(tmp_path, 'name: rov\nbase: {type: bluerov2_frame}\nparts:\n'
                         + ''.join(f'  - {{type: subsea_buoyancy_foam, name: f{n}}}\n'
                                   for n in range(2)), 'light.yaml')
    result = cli('build', light, '-o', tmp_path / 'b')
    assert 'warning: the vehicle floats too high in sea water (1025 kg/m^3): net buoyancy ' \
        '+1.18 kg under water' in result.stdout
    assert 'add 6 x bluerov2_ballast_weight (-0.17 kg each here), low on the frame' in \
        cli('info', light).stdout
    for shipped_config in ('blueboat.yaml', 'bluerov2.yaml', 'bluerov2_heavy.yaml'):
        built = cli('build', CONFIG_DIR / shipped_config, '-o', tmp_path / shipped_config)
        assert 'warning' not in built.stdout, shipped_config


def test_the_trim_parts_float_and_sink_as_their_sources_say():
    catalogue = shipped()
    foam, ballast = catalogue[trim.FOAM_TYPE], catalogue[trim.BALLAST_TYPE]
    assert ballast.mass == 0.2 and 'Ballast Weight (200g' in \
        ballast.data['inertial']['mass_source']
    assert trim.part_volume(foam) * 192.2 == pytest.approx(foam.mass, rel=1e-4)
    assert trim.part_net(foam, 1025.0) == pytest.approx(0.4913, abs=1e-4)
    assert trim.part_net(ballast, 997.0) == pytest.approx(-(0.2 - 0.025 * 0.997), abs=1e-6)
    assert math.isclose(trim.part_volume(ballast), 0.2 / 8000.0)


def test_the_config_refuses_a_water_that_is_none(tmp_path):
    config = write_config(tmp_path, 'water: salty\n')
    result = cli('info', config)
    assert result.returncode == 1
    assert result.stderr.startswith(f'error: {config}:1: water must be sea (1025 kg/m^3), '
                                    'fresh (997) or a density in kg/m^3 from 900 to 1300, got ')
    usage = cli('info', config, '--water', '1.0')
    assert usage.returncode == 1 and 'argument --water: must be sea' in usage.stderr


def test_the_thrusters_fluid_density_follows_the_water_and_nothing_else_changes(tmp_path):
    """The shipped configs give no water: their output is the sea's, as before."""
    from bluerobotics_parts.build import build_gazebo

    sea = build_gazebo(CONFIG_DIR / 'bluerov2.yaml')
    fresh = build_gazebo(write_config(tmp_path, 'name: bluerov2\nbase: {type: bluerov2_frame}\n'
                                                'water: fresh\n'))
    assert sea.urdf.count('<fluid_density>1025.0</fluid_density>') == 6
    assert fresh.urdf == sea.urdf.replace('<fluid_density>1025.0</fluid_density>',
                                          '<fluid_density>997.0</fluid_density>')
