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
The command-line tools as a user runs them.

Output, exit codes (1 for a mistake in the input, 2 for a fault of the program), and no
traceback for any config mistake from any command.
"""

from __future__ import annotations

import sys

from conftest import cli, CONFIG_DIR, run, SHIPPED_CONFIGS, tool, write_config
import pytest

DEFAULT_TREE = """\
vehicle blueboat
base_link (blueboat_chassis)
    [motor_port] motor_port (m200_weedless_prop_ccw)
        <frame rotor>
    [motor_stbd] motor_stbd (m200_weedless_prop_cw)
        <frame rotor>
    [flag] flag (blueboat_flag)
    [mast] (empty)
    [payload] (empty)
    [ping_mount] ping_mount (blueboat_ping_singlebeam_mount)
        [ping] ping (ping_singlebeam)
            <frame beam>
            <sensor echosounder /blueboat/ping/scan /blueboat/ping/range>
    [deck] deck (blueboat_electronics_deck)
        [navigator] navigator (navigator_flight_controller)
            <frame imu>
            <sensor imu /blueboat/navigator/imu>
            <sensor magnetometer /blueboat/navigator/magnetic_field>
        [gnss] gnss (blueboat_gnss)
            <frame antenna>
            <sensor navsat /blueboat/gnss/fix>
    [battery_port] battery_port (blueboat_battery)
    [battery_stbd] battery_stbd (blueboat_battery)
"""


def test_parts_lists_the_catalogue_with_slots():
    result = cli('parts')
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert 'blueboat_chassis  (14.07 kg)' in out
    assert ('    slot motor_port: accepts m200_weedless_prop_ccw, t200_thruster_ccw; default '
            'm200_weedless_prop_ccw  (no collision)') in out
    assert '    slot mast: accepts blueboat_antenna_mast; default none' in out
    assert '    slot ping: accepts ping_singlebeam; default ping_singlebeam' in out
    for name in ('t200_thruster_cw', 'blueboat_flag', 'ping_singlebeam', 'blueboat_battery'):
        assert f'\n{name}  (' in out


def test_parts_with_a_user_part_file():
    result = cli('parts', '--part-file',
                 CONFIG_DIR / 'examples' / 'user_parts' / 'camera_bracket.yaml')
    assert result.returncode == 0, result.stderr
    assert 'camera_bracket  (0.2 kg)  [from ' in result.stdout
    assert '    frame camera' in result.stdout


def test_tree_of_the_default_config():
    result = cli('tree', CONFIG_DIR / 'blueboat.yaml')
    assert result.returncode == 0, result.stderr
    assert result.stdout == DEFAULT_TREE


def test_an_empty_config_argument_is_the_shipped_blueboat():
    """The help says so: ``''`` is the default vehicle, not the working folder."""
    result = cli('tree', '')
    assert result.returncode == 0, result.stderr
    assert result.stdout == DEFAULT_TREE


@pytest.mark.parametrize('example, lines', [
    ('t200.yaml', ['    [motor_port] motor_port (t200_thruster_ccw)',
                   '    [motor_stbd] motor_stbd (t200_thruster_cw)']),
    ('mast_and_payload.yaml', ['vehicle survey_boat', '    [mast] mast (blueboat_antenna_mast)',
                               '        <frame top>',
                               '    [payload] payload (blueboat_payload_bracket)']),
    ('no_ping.yaml', ['    [ping_mount] (empty)']),
    ('ping_at_bow.yaml', ['    [ping_mount] (empty)',
                          '    [bow_ping] bow_ping (ping_singlebeam)']),
    ('free_placement.yaml', ['    placed on base_link: aft_mast (blueboat_antenna_mast)',
                             '        [pennant] pennant (blueboat_flag)']),
    ('user_part.yaml', ['        placed on payload_mount: camera_bracket (camera_bracket)',
                        '            <frame camera>']),
])
def test_tree_of_the_examples(example, lines):
    result = cli('tree', CONFIG_DIR / 'examples' / example)
    assert result.returncode == 0, result.stderr
    for line in lines:
        assert line in result.stdout.splitlines(), (line, result.stdout)


def test_urdf_command_prints_the_checked_urdf_and_writes_a_file(tmp_path):
    result = cli('urdf', CONFIG_DIR / 'blueboat.yaml', '--name', 'boat7')
    assert result.returncode == 0, result.stderr
    assert '<robot name="boat7">' in result.stdout
    out = tmp_path / 'boat.urdf'
    assert cli('urdf', CONFIG_DIR / 'blueboat.yaml', '-o', out).returncode == 0
    assert out.read_text().startswith('<?xml')


def test_check_assembly_ok_and_problems(tmp_path):
    good = write_config(tmp_path, 'parts:\n  - {slot: mast, type: blueboat_antenna_mast}\n',
                        'good.yaml')
    urdf = tmp_path / 'good.urdf'
    assert cli('urdf', good, '-o', urdf).returncode == 0
    ok = run([tool('check_assembly'), good, urdf])
    assert ok.returncode == 0 and ok.stderr == ''
    assert ok.stdout == f'OK: {urdf} is consistent with {good}\n'

    bad = write_config(tmp_path, 'colour: red\nparts:\n  - {slot: mast, type: none}\n'
                                 '  - {slot: x, of: nobody, type: none}\n', 'bad.yaml')
    result = run([tool('check_assembly'), bad, urdf])
    assert result.returncode == 1 and result.stdout == ''
    lines = result.stderr.splitlines()
    assert lines == [
        f"error: {bad}:1: the top level: unknown key 'colour'; valid keys: name, base, parts, "
        'slots, part_files, water',
        f'error: {bad}:3: parts entry #1 (slot mast): the config fits none but the URDF has '
        'blueboat_antenna_mast in slot mast of base_link: the URDF was not resolved from this '
        'config',
        f'error: {bad}:4: parts entry #2 (slot x): of: nobody matches no fitted instance; '
        'instances: base_link, battery_port, battery_stbd, deck, flag, gnss, motor_port, '
        'motor_stbd, navigator, ping, ping_mount',
    ]


def test_check_subcommand_matches_check_assembly(tmp_path):
    config = CONFIG_DIR / 'blueboat.yaml'
    urdf = tmp_path / 'b.urdf'
    assert cli('urdf', config, '-o', urdf).returncode == 0
    result = cli('check', config, urdf)
    assert result.returncode == 0 and result.stdout.startswith('OK: ')


def test_check_assembly_with_unreadable_inputs(tmp_path):
    result = run([tool('check_assembly'), tmp_path / 'none.yaml', tmp_path / 'none.urdf'])
    assert result.returncode == 1
    assert 'none.yaml: no such file' in result.stderr and 'Traceback' not in result.stderr


BAD_CONFIGS = {
    'duplicate key': ('parts:\n  - slot: mast\n    type: none\n    type: none\n',
                      "boat.yaml:4: duplicate key 'type'"),
    'not yaml': ('parts: [\n', 'not valid YAML'),
    'unknown type': ('parts:\n  - {slot: mast, type: mastt}\n', "unknown part type 'mastt'"),
    'not accepted': ('parts:\n  - {slot: mast, type: blueboat_flag}\n',
                     'does not accept blueboat_flag'),
    'unknown key': ('parts:\n  - {slot: mast, typ: none}\n', "unknown key 'typ'"),
    'matches nothing': ('parts:\n  - {slot: ping, of: nobody, type: none}\n',
                        'of: nobody matches no fitted instance'),
    'same name': ('parts:\n  - {slot: mast, type: blueboat_antenna_mast, name: flag}\n',
                  '2 instances are named flag'),
    'bad name': ("name: 'my boat'\n", 'cannot be a ROS namespace'),
    'bad part file': ('part_files: [p.yaml]\n', "p.yaml:2: a part has no key 'colour'"),
}


@pytest.mark.parametrize('command', ['urdf', 'tree', 'build', 'export'])
@pytest.mark.parametrize('case', sorted(BAD_CONFIGS))
def test_no_traceback_for_any_config_error(tmp_path, command, case):
    text, fragment = BAD_CONFIGS[case]
    (tmp_path / 'p.yaml').write_text('type: p\ncolour: red\n')
    config = write_config(tmp_path, text)
    out = tmp_path / 'out'
    args = {'urdf': ['urdf', config], 'tree': ['tree', config],
            'build': ['build', config, '--output', out],
            'export': ['export', config, out]}[command]
    result = cli(*args)
    assert result.returncode == 1, result.stdout + result.stderr
    assert 'Traceback' not in result.stderr
    assert result.stderr.startswith('error: ')
    assert fragment in result.stderr, result.stderr
    assert not out.exists()


def test_missing_config_file_is_named():
    result = cli('tree', '/nonexistent/boat.yaml')
    assert result.returncode == 1
    assert result.stderr == 'error: /nonexistent/boat.yaml: no such file\n'


def test_every_shipped_config_resolves_from_the_command_line():
    for config in SHIPPED_CONFIGS:
        assert cli('tree', config).returncode == 0, config


@pytest.mark.parametrize('command', ['build', 'urdf', 'export'])
def test_an_unwritable_output_is_a_message_not_a_traceback(command):
    config = CONFIG_DIR / 'blueboat.yaml'
    args = {'build': ['build', config, '--output', '/proc/none/out'],
            'urdf': ['urdf', config, '-o', '/proc/none/robot.urdf'],
            'export': ['export', config, '/proc/none/out']}[command]
    result = cli(*args)
    assert result.returncode == 1
    assert 'Traceback' not in result.stderr
    assert result.stderr.startswith('error: ') and '/proc/none' in result.stderr


@pytest.mark.parametrize('command', ['check_assembly', 'check', 'bridge'])
def test_a_urdf_that_is_not_text_is_a_message(tmp_path, command):
    urdf = tmp_path / 'robot.urdf'
    urdf.write_bytes(b'\xff\xfe')
    config = CONFIG_DIR / 'blueboat.yaml'
    result = {'check_assembly': lambda: run([tool('check_assembly'), config, urdf]),
              'check': lambda: cli('check', config, urdf),
              'bridge': lambda: cli('bridge', urdf)}[command]()
    assert result.returncode == 1
    assert result.stderr == f'error: {urdf}: cannot read: not UTF-8 text (is it a URDF?)\n'


# -- exit status: 1 for a mistake in the input (usage too), 2 for a fault of the program -------

@pytest.mark.parametrize('args', [['build'], ['frobnicate'], ['build', 'boat.yaml'],
                                  ['urdf', 'boat.yaml', '--colour', 'red']])
def test_a_usage_mistake_exits_1_with_the_usage(args):
    result = cli(*args)
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith('usage: bluerobotics-parts')
    assert 'bluerobotics-parts' in result.stderr and 'error: ' in result.stderr
    assert 'Traceback' not in result.stderr


def test_check_assembly_usage_mistake_exits_1():
    result = run([tool('check_assembly'), 'only_one.yaml'])
    assert result.returncode == 1
    assert result.stderr.startswith('usage: check_assembly')


def test_a_fault_of_the_program_exits_2_with_its_traceback(capsys):
    from bluerobotics_parts.cli import main as cli_module

    def broken(args):
        raise ZeroDivisionError('a bug')

    assert cli_module.run(broken, None) == 2
    err = capsys.readouterr().err
    assert 'Traceback (most recent call last)' in err and 'ZeroDivisionError: a bug' in err
    assert err.rstrip().endswith('please report it with the traceback above')


def test_a_fault_in_a_command_exits_2(tmp_path):
    code = ('import sys\n'
            'from bluerobotics_parts.assembly import pipeline\n'
            'from bluerobotics_parts.cli import main as cli\n'
            'def broken(*args, **kwargs):\n'
            '    raise RuntimeError("a bug")\n'
            'pipeline.resolve_config = broken\n'
            "sys.exit(cli.main(['urdf', 'config/blueboat.yaml']))\n")
    result = run([sys.executable, '-c', code])
    assert result.returncode == 2
    assert 'RuntimeError: a bug' in result.stderr and 'internal error' in result.stderr


def test_gz_release_has_one_name(tmp_path):
    config = CONFIG_DIR / 'blueboat.yaml'
    new = cli('build', config, '-o', tmp_path / 'a', '--gz-release', 'ionic')
    assert new.returncode == 0, new.stderr
    old = cli('build', config, '-o', tmp_path / 'b', '--gz-version', 'ionic')
    assert old.returncode == 1 and 'unrecognized arguments: --gz-version' in old.stderr
    help_text = cli('build', '--help').stdout
    assert '--gz-release' in help_text and '--gz-version' not in help_text


def test_a_chain_of_two_thousand_slots_goes_through_every_command(tmp_path):
    lines, carrier = ['slots:'], 'base_link'
    for level in range(2000):
        lines.append(f'  - {{of: {carrier}, name: s{level}, xyz: [0, 0, 0.1], '
                     'accepts: [blueboat_flag], default: blueboat_flag}')
        carrier = f's{level}'
    config = write_config(tmp_path, '\n'.join(lines) + '\n')
    tree = cli('tree', config)
    assert tree.returncode == 0, tree.stderr[-2000:]
    assert tree.stdout.rstrip().endswith('[s1999] s1999 (blueboat_flag)')
    urdf = tmp_path / 'deep.urdf'
    assert cli('urdf', config, '-o', urdf).returncode == 0
    checked = cli('check', config, urdf)
    assert checked.returncode == 0, checked.stderr[-2000:]
    built = cli('build', config, '-o', tmp_path / 'out')
    assert built.returncode == 0, built.stderr[-2000:]


def test_bridge_of_an_exported_urdf_finds_its_part_files_from_anywhere(tmp_path):
    from bluerobotics_parts.model.vehicle import Vehicle

    example = CONFIG_DIR / 'examples' / 'user_part.yaml'
    exported = cli('export', example, tmp_path / 'export')
    assert exported.returncode == 0, exported.stderr
    urdf = tmp_path / 'export' / 'robot.urdf'
    bridge = cli('bridge', urdf, cwd=tmp_path)  # not the export's folder
    assert bridge.returncode == 0, bridge.stderr
    assert '/blueboat/motor_port/thrust' in bridge.stdout
    vehicle = Vehicle.from_urdf(urdf.read_text(encoding='utf-8'), folder=urdf.parent)
    assert vehicle.parts['camera_bracket'].type == 'camera_bracket'
