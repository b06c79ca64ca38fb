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
``bluerobotics-parts build CONFIG --output DIR [--name NAME]`` and ``bridge URDF``.

As a user runs them: files, summary, exit status, and nothing touched on failure.
"""

from __future__ import annotations

import os
from pathlib import Path
import re
import sys
from xml.etree import ElementTree

from bluerobotics_parts.build import BRIDGE_FILE, build_gazebo, summary_head, URDF_FILE
from bluerobotics_parts.files.atomic import written_lines
from conftest import cli, CONFIG_DIR, tool, write_config
import pytest
import yaml

ARTEFACTS = [BRIDGE_FILE, URDF_FILE]


def snapshot(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob('*')) if p.is_file()}


@pytest.fixture(scope='module')
def default_build(tmp_path_factory):
    out = tmp_path_factory.mktemp('build') / 'out'
    result = cli('build', CONFIG_DIR / 'blueboat.yaml', '--output', out)
    return result, out


def test_build_writes_exactly_the_two_artefacts(default_build):
    result, out = default_build
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == ARTEFACTS
    urdf = (out / URDF_FILE).read_text(encoding='utf-8')
    root = ElementTree.fromstring(urdf.encode())
    assert root.get('name') == 'blueboat'
    # 2 thrusters, the echosounder, the IMU, magnetometer and GNSS, 3 vehicle systems, the
    # base link's added mass
    assert len(root.findall('gazebo')) == 10
    assert isinstance(yaml.safe_load((out / BRIDGE_FILE).read_text(encoding='utf-8')), list)


def test_build_prints_the_summary(default_build):
    result, out = default_build
    text = result.stdout
    assert text.startswith('vehicle: blueboat (Gazebo harmonic)\n')
    assert '  motor_port: m200_weedless_prop_ccw\n' in text
    assert '  ping: ping_singlebeam\n' in text
    assert ('  motor_port: joint motor_port_rotor_joint, command /blueboat/motor_port/thrust '
            '(std_msgs/Float64, N)\n') in text
    assert ('  motor_stbd: joint motor_stbd_rotor_joint, command /blueboat/motor_stbd/thrust'
            in text)
    assert ('  ping/scan: echosounder, frame blueboat/ping_beam, scan /blueboat/ping/scan, '
            'range /blueboat/ping/range\n') in text
    masses = [float(m.get('value')) for m in
              ElementTree.parse(out / URDF_FILE).getroot().iter('mass')]
    assert f'total mass: {sum(masses):.2f} kg\n' in text
    assert 'total mass: 17.05 kg\n' in text
    assert f'  {out / URDF_FILE}\n' in text and f'  {out / BRIDGE_FILE}\n' in text
    assert result.stderr == ''


def test_build_prints_the_identity_an_export_of_it_has(default_build, tmp_path):
    result, _ = default_build
    printed = re.findall(r'^identity: (sha256:[0-9a-f]{64})$', result.stdout, re.M)
    exported = cli('export', CONFIG_DIR / 'blueboat.yaml', tmp_path / 'description')
    assert exported.returncode == 0, exported.stderr
    assert printed and f'identity: {printed[0]}' in exported.stdout.splitlines()
    verified = cli('verify', tmp_path / 'description', '--expect', printed[0])
    assert verified.returncode == 0, verified.stderr


def test_the_identity_follows_the_gazebo_release_on_both_sides(tmp_path):
    config = CONFIG_DIR / 'blueboat.yaml'
    built = cli('build', config, '-o', tmp_path / 'b', '--gz-release', 'ionic')
    exported = cli('export', config, tmp_path / 'e', '--gz-release', 'ionic')
    harmonic = cli('export', config, tmp_path / 'h')
    identity = re.compile(r'^identity: (sha256:[0-9a-f]{64})$', re.M)
    assert identity.findall(built.stdout) == identity.findall(exported.stdout)
    assert identity.findall(built.stdout) != identity.findall(harmonic.stdout)


def test_bridge_command_prints_the_same_yaml(default_build):
    _, out = default_build
    result = cli('bridge', out / URDF_FILE)
    assert result.returncode == 0, result.stderr
    assert result.stdout == (out / BRIDGE_FILE).read_text(encoding='utf-8')


@pytest.mark.parametrize('name', ['my_config.yaml', 'my_config.txt'])
def test_bridge_takes_a_config_as_well(default_build, tmp_path, name):
    """``bridge my_config.yaml`` answered 'not well-formed XML: line 1, column 1'."""
    _, out = default_build
    config = tmp_path / name
    config.write_bytes((CONFIG_DIR / 'blueboat.yaml').read_bytes())
    result = cli('bridge', config)
    assert result.returncode == 0, result.stderr
    assert result.stdout == (out / BRIDGE_FILE).read_text(encoding='utf-8')
    renamed = cli('bridge', config, '--name', 'boat2')
    assert renamed.returncode == 0 and '/boat2/motor_port/thrust' in renamed.stdout
    bad = write_config(tmp_path, 'parts:\n  - {slot: motor_port, type: m200_weedless_prop}\n',
                       name='bad.yaml')
    refused = cli('bridge', bad)
    assert refused.returncode == 1 and f'{bad}:2:' in refused.stderr
    assert 'm200_weedless_prop_ccw' in refused.stderr and refused.stdout == ''


def test_build_with_a_name_renames_everything(tmp_path):
    out = tmp_path / 'out'
    result = cli('build', CONFIG_DIR / 'blueboat.yaml', '--output', out, '--name', 'boat2')
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith('vehicle: boat2 ')
    assert 'command /boat2/motor_port/thrust' in result.stdout
    bridge_text = (out / BRIDGE_FILE).read_text(encoding='utf-8')
    urdf = (out / URDF_FILE).read_text(encoding='utf-8')
    assert 'blueboat' not in bridge_text
    assert '<namespace>boat2</namespace>' in urdf
    assert cli('bridge', out / URDF_FILE).stdout == bridge_text


def test_summary_without_sensors(tmp_path):
    config = write_config(tmp_path, 'parts:\n  - {slot: ping_mount, type: none}\n'
                                    '  - {slot: navigator, of: deck, type: none}\n'
                                    '  - {slot: gnss, of: deck, type: none}\n'
                                    '  - {slot: motor_port, type: t200_thruster_ccw}\n')
    result = build_gazebo(config)
    text = summary_head(result, 'sha256:' + '0' * 64) + written_lines([tmp_path / URDF_FILE])
    assert '\nsensors: none\n' in text
    assert '  motor_port: t200_thruster_ccw\n' in text
    assert f'total mass: {result.vehicle.total_mass:.2f} kg\n' in text
    assert text.endswith(f'wrote:\n  {tmp_path / URDF_FILE}\n')


BAD = {
    'unknown type': ('parts:\n  - {slot: mast, type: blueboat_antena_mast}\n', [],
                     'blueboat_antena_mast'),
    'duplicate key': ('name: a\nname: b\n', [], 'name'),
    'bad name in the config': ('name: 2boat\n', [], '2boat'),
    'bad name given': ('', ['--name', 'my-boat'], 'my-boat'),
    'unknown Gazebo release': ('', ['--gz-release', 'fortress'], 'fortress'),
    'malformed camera': ('', ['--camera', '640:360'], "camera '640:360': give WIDTHxHEIGHT"),
}


@pytest.mark.parametrize('case', list(BAD))
def test_a_failing_build_leaves_the_output_untouched(case, tmp_path):
    text, extra, item = BAD[case]
    config = write_config(tmp_path, text)
    out = tmp_path / 'out'
    out.mkdir()
    (out / URDF_FILE).write_text('old urdf', encoding='utf-8')
    (out / BRIDGE_FILE).write_text('old bridge', encoding='utf-8')
    (out / 'notes.txt').write_text('mine', encoding='utf-8')
    before = snapshot(out)
    result = cli('build', config, '--output', out, *extra)
    assert result.returncode == 1, result.stdout + result.stderr
    assert 'Traceback' not in result.stderr
    assert result.stderr.startswith('error: ')
    assert item in result.stderr
    assert result.stdout == ''
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ['boat.yaml', 'out']  # no leftovers


def test_the_messages_say_what_is_valid(tmp_path):
    config = write_config(tmp_path, '')
    result = cli('build', config, '--output', tmp_path / 'out', '--gz-release', 'fortress')
    assert 'valid: harmonic, ionic, jetty' in result.stderr
    result = cli('build', config, '--output', tmp_path / 'out', '--name', 'my-boat')
    assert 'letters, digits and underscores, starting with a letter' in result.stderr
    assert not (tmp_path / 'out').exists()


def test_gz_release_switches_the_sensor_frame_tag(tmp_path):
    result = cli('build', CONFIG_DIR / 'blueboat.yaml', '--output', tmp_path, '--gz-release',
                 'ionic')
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith('vehicle: blueboat (Gazebo ionic)')
    urdf = (tmp_path / URDF_FILE).read_text(encoding='utf-8')
    assert '<frame_id>blueboat/ping_beam</frame_id>' in urdf
    assert 'gz_frame_id' not in urdf


def test_bridge_command_on_a_urdf_without_manifest(tmp_path):
    path = tmp_path / 'plain.urdf'
    path.write_text('<robot name="r"><link name="a"/></robot>', encoding='utf-8')
    result = cli('bridge', path)
    assert result.returncode == 1
    assert 'Traceback' not in result.stderr
    assert re.search(r'error: .*no <assembly_part> records', result.stderr)


# -- build --sdf: the model a launch spawns ------------------------------------------------------

def stand_in_gz(folder: Path) -> Path:
    """
    Write ``gz``, a stand-in for Gazebo Harmonic's: it runs Debian's ``ign`` (SDFormat 12).

    Both have ``sdf -p``; what Harmonic's own conversion gives is tested where it is installed
    (test/gazebo/test_added_mass.py).
    """
    script = folder / 'gz'
    script.write_text(f'#!/bin/sh\nexec {tool("ign")} "$@"\n', encoding='utf-8')
    script.chmod(0o755)
    return folder


def test_build_sdf_writes_the_model_with_its_added_mass(tmp_path):
    out = tmp_path / 'out'
    bin_folder = stand_in_gz(tmp_path)
    result = cli('build', CONFIG_DIR / 'bluerov2.yaml', '-o', out, '--sdf',
                 env={**os.environ, 'PATH': f'{bin_folder}:{os.environ["PATH"]}'})
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(ARTEFACTS + ['gazebo_model.sdf'])
    model = ElementTree.parse(out / 'gazebo_model.sdf').getroot().find('model')
    (inertial,) = model.find("link[@name='base_link']").findall('inertial')
    assert float(inertial.findtext('fluid_added_mass/xx')) == 3.74
    assert str(out / 'gazebo_model.sdf') in result.stdout


def test_build_sdf_without_gz_writes_nothing(tmp_path):
    out = tmp_path / 'out'
    result = cli('build', CONFIG_DIR / 'bluerov2.yaml', '-o', out, '--sdf',
                 env={**os.environ, 'PATH': str(Path(sys.executable).parent)})
    assert result.returncode == 1
    assert 'no gz on PATH' in result.stderr and 'Gazebo Harmonic' in result.stderr
    assert not out.exists()


def test_camera_sets_every_cameras_size_and_rate_and_the_cache_keeps_them_apart(tmp_path):
    """--camera renders the ROV's HD camera smaller; the cached full-size build is not reused."""
    urdfs = {}
    for setting in ('', '320x180@10', ''):
        out = tmp_path / f'out{len(urdfs)}{setting}'
        result = cli('build', CONFIG_DIR / 'bluerov2.yaml', '--output', out,
                     *(['--camera', setting] if setting else []))
        assert result.returncode == 0, result.stderr
        (camera,) = [s for s in ElementTree.parse(out / URDF_FILE).getroot().iter('sensor')
                     if s.get('type') == 'camera']
        urdfs[setting or f'part {len(urdfs)}'] = (
            camera.findtext('camera/image/width'), camera.findtext('camera/image/height'),
            camera.findtext('update_rate'), camera.findtext('camera/horizontal_fov'))
    assert urdfs['part 0'] == urdfs['part 2'] == ('1920', '1080', '30.0', urdfs['part 0'][3])
    assert urdfs['320x180@10'] == ('320', '180', '10.0', urdfs['part 0'][3])  # same view


def test_esc_linear_keeps_the_plugins_map_and_a_bad_one_is_refused(tmp_path):
    args = (CONFIG_DIR / 'bluerov2.yaml', '--autopilot', 'ardupilot')
    curve, linear = tmp_path / 'curve', tmp_path / 'linear'
    assert cli('build', *args, '--output', curve).returncode == 0
    assert cli('build', *args, '--output', linear, '--esc', 'linear').returncode == 0
    assert 'PythonSystemLoader' in (curve / URDF_FILE).read_text(encoding='utf-8')
    assert 'PythonSystemLoader' not in (linear / URDF_FILE).read_text(encoding='utf-8')
    refused = cli('build', *args, '--output', tmp_path / 'bad', '--esc', 'cubic')
    assert refused.returncode == 1 and "invalid choice: 'cubic'" in refused.stderr
    assert not (tmp_path / 'bad').exists()
