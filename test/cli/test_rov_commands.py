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
Every command and the Python API on the BlueROV2 configs, unchanged.

build, export and verify, check_assembly on the URDF the urdf command prints, the bridge of a
built description, and the Assembly API building an ROV with its sonar fitted.
"""

from __future__ import annotations

from bluerobotics_parts.api import Assembly
from conftest import cli, CONFIG_DIR, run, tool
import pytest
import yaml

ROVS = {'bluerov2.yaml': ('bluerov2', 6), 'bluerov2_heavy.yaml': ('bluerov2_heavy', 8)}


@pytest.mark.parametrize('config', sorted(ROVS))
def test_build_export_and_verify(tmp_path, config):
    name, count = ROVS[config]
    built = cli('build', CONFIG_DIR / config, '--output', tmp_path / 'built')
    assert built.returncode == 0, built.stderr
    assert (tmp_path / 'built' / 'robot_description.urdf').is_file()
    bridge = yaml.safe_load((tmp_path / 'built' / 'bridge.yaml').read_text())
    assert sum(e['ros_topic_name'].startswith(f'/{name}/thruster_') for e in bridge) == count
    identity = next(line.split()[-1] for line in built.stdout.splitlines()
                    if 'sha256:' in line)
    exported = cli('export', CONFIG_DIR / config, tmp_path / 'description')
    assert exported.returncode == 0, exported.stderr
    verified = cli('verify', tmp_path / 'description', '--expect', identity)
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.splitlines()[-1] == f'identity: {identity}'


@pytest.mark.parametrize('config', sorted(ROVS))
def test_the_printed_urdf_passes_check_assembly_and_gives_the_same_bridge(tmp_path, config):
    name, count = ROVS[config]
    urdf = tmp_path / 'robot.urdf'
    assert cli('urdf', CONFIG_DIR / config, '-o', urdf).returncode == 0
    checked = run([tool('check_assembly'), CONFIG_DIR / config, urdf])
    assert checked.returncode == 0, checked.stderr
    bridge = cli('bridge', urdf)
    assert bridge.returncode == 0, bridge.stderr
    topics = [e['ros_topic_name'] for e in yaml.safe_load(bridge.stdout)]
    assert [t for t in topics if '/thruster_' in t] == [
        f'/{name}/thruster_{n}/thrust' for n in range(1, count + 1)]


def test_the_api_builds_an_rov_and_writes_a_config_that_resolves_the_same(tmp_path):
    rov = (Assembly(name='rov7', base_type='bluerov2_frame')
           .fit('sonar', 'ping_singlebeam').empty('light_stbd'))
    vehicle = rov.build_vehicle()
    assert sorted(vehicle.actuators) == [f'thruster_{n}' for n in range(1, 7)]
    assert 'sonar/scan' in vehicle.sensors and 'light_stbd' not in vehicle.parts
    assert vehicle.path_between('base_link', 'sonar_beam')[-1] == 'sonar_beam'
    path = rov.to_yaml(tmp_path / 'rov7.yaml')
    assert Assembly.from_yaml(path).build() == rov.build()


@pytest.mark.parametrize('config, speed', [('bluerov2.yaml', '0.985'),
                                           ('bluerov2_heavy.yaml', '0.744')])
def test_info_on_an_rov(config, speed):
    result = cli('info', CONFIG_DIR / config)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert f'vehicle: {ROVS[config][0]}\n' in out
    assert 'thrust limits, N (installed: 0.6828 x bench)' in out
    assert f'  full ahead: 88.3 N -> surge {speed} m/s' in out  # Blue Robotics: 9 kgf, 1 m/s
