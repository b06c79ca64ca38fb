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
The build cache: reused only when every input is unchanged.

Each test runs ``bluerobotics-parts build`` in this process with the cache on in a folder of
its own. Whether a run built or reused is seen by counting the calls of the function that
builds (cli/main.py's ``_build_products``); a reused run must print and write exactly what
building would.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
import shutil

from bluerobotics_parts.cli import main as cli
from bluerobotics_parts.description import cache
from conftest import REPO, write_config
import pytest

PART = """\
type: camera_bracket
inertial:
  mass: 0.2
  mass_unverified: test
visual:
  - mesh: bracket.stl
"""
MESH = REPO / 'meshes' / 'blueboat_flag' / 'blueboat_flag.stl'


@pytest.fixture
def cached(tmp_path, monkeypatch):
    """Turn the cache on in a folder of the test's; return a runner counting real builds."""
    monkeypatch.setenv('BLUEROBOTICS_PARTS_CACHE', 'on')
    monkeypatch.setenv('XDG_CACHE_HOME', str(tmp_path / 'cache'))
    builds = []
    real = cli._build_products

    def counting(args):
        builds.append(args.config)
        return real(args)

    monkeypatch.setattr(cli, '_build_products', counting)

    def build(config, *options, output=None):
        output = output or tmp_path / 'out'
        argv = ['build', '' if config is None else str(config), '--output', str(output),
                *options]
        code = cli.main(argv)
        files = {p.name: p.read_bytes() for p in output.iterdir()} if output.exists() else {}
        return code, len(builds), files

    build.folder = tmp_path / 'cache' / 'bluerobotics_parts'
    return build


def user_config(folder: Path) -> Path:
    (folder / 'parts').mkdir(parents=True)
    (folder / 'parts' / 'camera_bracket.yaml').write_text(PART, encoding='utf-8')
    shutil.copyfile(MESH, folder / 'parts' / 'bracket.stl')
    return write_config(folder, 'part_files: [parts/camera_bracket.yaml]\nparts:\n'
                                '  - {slot: payload, type: blueboat_payload_bracket}\n'
                                '  - {type: camera_bracket, name: cam, parent: payload, '
                                'xyz: [0, 0, 0.05]}\n')


def test_a_second_build_of_unchanged_inputs_is_reused(cached, capsys):
    assert cached(None)[:2] == (0, 1)
    first = capsys.readouterr().out
    code, builds, files = cached(None)
    assert (code, builds) == (0, 1)  # nothing built the second time
    assert capsys.readouterr().out == first
    cli.main(['build', '', '--output', str(cached.folder.parent / 'fresh'), '--no-cache'])
    fresh = {p.name: p.read_bytes() for p in (cached.folder.parent / 'fresh').iterdir()}
    assert files == fresh  # what was reused is what building gives


def test_each_input_is_part_of_the_key(cached, tmp_path):
    config = user_config(tmp_path / 'boat')
    assert cached(config)[1] == 1
    assert cached(config)[1] == 1
    assert cached(config, '--name', 'other')[1] == 2
    assert cached(config, '--gz-release', 'ionic')[1] == 3
    part = tmp_path / 'boat' / 'parts' / 'camera_bracket.yaml'
    part.write_text(PART.replace('0.2', '0.3'), encoding='utf-8')
    assert cached(config)[1] == 4  # a user part file changed
    mesh = tmp_path / 'boat' / 'parts' / 'bracket.stl'
    mesh.write_bytes(mesh.read_bytes()[:-1] + b'\x01')
    assert cached(config)[1] == 5  # its mesh changed (the identity covers it)
    config.write_text(config.read_text(encoding='utf-8') + '# a comment\n', encoding='utf-8')
    assert cached(config)[1] == 6  # the config's bytes changed
    assert cached(config)[1] == 6


def test_another_package_version_misses(cached, monkeypatch):
    assert cached(None)[1] == 1
    monkeypatch.setattr(cache, 'package_fingerprint', lambda: 'another package')
    assert cached(None)[1] == 2


@pytest.mark.parametrize('damage', ['truncated', 'result edited', 'check edited', 'not json',
                                    'a folder'])
def test_a_damaged_entry_is_rebuilt_never_used(cached, damage, capsys):
    assert cached(None)[1] == 1
    good = capsys.readouterr().out
    (entry,) = cached.folder.iterdir()
    text = entry.read_text(encoding='utf-8')
    body = json.loads(text)
    if damage == 'truncated':
        entry.write_text(text[:len(text) // 2], encoding='utf-8')
    elif damage == 'result edited':
        body['result']['summary'] = body['result']['summary'].replace('blueboat', 'evilboat')
        entry.write_text(json.dumps(body), encoding='utf-8')
    elif damage == 'check edited':
        body['check'] = '0' * 64
        entry.write_text(json.dumps(body), encoding='utf-8')
    elif damage == 'not json':
        entry.write_bytes(b'\xff\xfe not json')
    else:
        entry.unlink()
        entry.mkdir()
    code, builds, _ = cached(None)
    assert (code, builds) == (0, 2)
    assert capsys.readouterr().out == good
    if damage != 'a folder':  # replaced by a good entry, which the next build uses
        assert cached(None)[1] == 2


def test_a_failed_build_is_not_cached(cached, tmp_path, capsys):
    config = write_config(tmp_path, 'parts:\n  - {slot: motorport, type: none}\n')
    assert cached(config)[0] == 1
    assert not cached.folder.exists() or not list(cached.folder.iterdir())


def test_an_unwritable_cache_costs_only_the_reuse(cached, tmp_path, monkeypatch):
    blocked = tmp_path / 'blocked'
    blocked.write_text('a file where the cache folder would go\n', encoding='utf-8')
    monkeypatch.setenv('XDG_CACHE_HOME', str(blocked))
    assert cached(None)[:2] == (0, 1)
    assert cached(None)[:2] == (0, 2)


def test_the_cache_can_be_turned_off(cached, monkeypatch):
    monkeypatch.setenv('BLUEROBOTICS_PARTS_CACHE', 'off')
    assert cached(None)[1] == 1
    assert cached(None)[1] == 2
    assert not cached.folder.exists()
    monkeypatch.setenv('BLUEROBOTICS_PARTS_CACHE', 'on')
    assert cached(None, '--no-cache')[1] == 3
    assert not cached.folder.exists()


def test_the_launch_keeps_its_cache_under_ros_home(tmp_path):
    assert cache.folder({'ROS_HOME': str(tmp_path)}, launch=True) == \
        tmp_path / 'bluerobotics_parts' / '.cache'
    assert cache.folder({'XDG_CACHE_HOME': str(tmp_path)}) == tmp_path / 'bluerobotics_parts'
    assert cache.folder({'BLUEROBOTICS_PARTS_CACHE': 'OFF'}) is None


# -- the launch: the same cache, under ROS_HOME -------------------------------------------------

def launch(ros_home: Path, cache_switch: str = 'on', **values):
    """Plan vehicle.launch.py as the launch file does (gazebo:=false: nothing asked)."""
    from bluerobotics_parts.ros.launch import plan as launch_plan

    environ = {'ROS_HOME': str(ros_home), 'BLUEROBOTICS_PARTS_CACHE': cache_switch}
    return launch_plan.plan({'gazebo': 'false', **{k: str(v) for k, v in values.items()}},
                            environ=environ)


@pytest.fixture
def launch_builds(monkeypatch):
    """Count the launch's real builds (``launch_plan.build_vehicle``)."""
    from bluerobotics_parts.ros.launch import plan as launch_plan

    builds = []
    real = launch_plan.build_vehicle

    def counting(args):
        builds.append(args['config'])
        return real(args)

    monkeypatch.setattr(launch_plan, 'build_vehicle', counting)
    return builds


def artefacts_of(plan) -> dict:
    return {p.name: p.read_bytes() for p in plan.artefact_dir.iterdir()}


def test_a_second_launch_of_unchanged_inputs_reuses_the_first(tmp_path, launch_builds):
    first = launch(tmp_path / 'ros', rviz='true')
    written = artefacts_of(first)
    again = launch(tmp_path / 'ros', rviz='true')
    assert len(launch_builds) == 1
    assert again == first and artefacts_of(again) == written
    fresh = launch(tmp_path / 'fresh', 'off', rviz='true')  # built, never cached
    assert len(launch_builds) == 2
    assert repr(fresh.nodes).replace(str(tmp_path / 'fresh'), 'ROS_HOME') == \
        repr(first.nodes).replace(str(tmp_path / 'ros'), 'ROS_HOME')  # the same nodes
    assert artefacts_of(fresh) == written
    assert not (tmp_path / 'fresh' / 'bluerobotics_parts' / '.cache').exists()
    assert list((tmp_path / 'ros' / 'bluerobotics_parts' / '.cache').iterdir())


def test_launch_arguments_that_do_not_change_the_vehicle_keep_the_cache(
        tmp_path, launch_builds):
    launch(tmp_path, x=1.0)
    moved = launch(tmp_path, x=-3.0, y=2.0, yaw=1.0, rviz='true', use_sim_time='false')
    assert len(launch_builds) == 1
    spawn = next(n for n in moved.nodes if n.executable == 'create').arguments
    assert spawn[spawn.index('-x') + 1] == '-3.0'
    assert not moved.use_sim_time
    launch(tmp_path, name='boat2')  # another vehicle name: another vehicle
    launch(tmp_path, gz_release='ionic')
    launch(tmp_path, current='0.5 0 0')
    launch(tmp_path, config=REPO / 'config' / 'examples' / 't200.yaml')
    assert len(launch_builds) == 5


def test_the_key_is_the_config_the_build_reads_through_links(cached, tmp_path):
    """``link/../boat.yaml`` is the file the system opens, not the one the text names."""
    (tmp_path / 'real' / 'sub').mkdir(parents=True)
    write_config(tmp_path, 'name: outer\n')
    write_config(tmp_path / 'real', 'name: inner\n')
    (tmp_path / 'link').symlink_to(tmp_path / 'real' / 'sub')
    cached(tmp_path / 'boat.yaml')
    code, builds, files = cached(tmp_path / 'link' / '..' / 'boat.yaml')
    assert builds == 2 and b'<robot name="inner">' in files['robot_description.urdf']


def test_a_linked_share_folder_is_fingerprinted_through_its_links(tmp_path, monkeypatch):
    """A colcon --symlink-install puts the data in as links: their targets count."""
    share = tmp_path / 'share'
    for folder in ('urdf', 'meshes'):
        for source in (REPO / folder).rglob('*'):
            if source.is_file():
                target = share / folder / source.relative_to(REPO / folder)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.symlink_to(source if source.name != 'blueboat_flag.yaml'
                                  else tmp_path / 'flag.yaml')
    (tmp_path / 'flag.yaml').write_bytes((REPO / 'urdf' / 'parts' / 'blueboat_flag.yaml')
                                         .read_bytes())
    monkeypatch.setattr(cache.paths, 'share_dir', lambda: share)
    cache.package_fingerprint.cache_clear()
    try:
        before = cache.package_fingerprint()
        cache.package_fingerprint.cache_clear()
        (tmp_path / 'flag.yaml').write_text('# edited\n' + (tmp_path / 'flag.yaml')
                                            .read_text(encoding='utf-8'), encoding='utf-8')
        assert cache.package_fingerprint() != before
    finally:
        cache.package_fingerprint.cache_clear()


def test_a_user_file_edited_during_the_build_is_not_recorded_as_built(cached, tmp_path,
                                                                      monkeypatch):
    """The entry records the bytes the build read, not the file as it is afterwards."""
    from bluerobotics_parts import build as build_module

    config = user_config(tmp_path / 'boat')
    part = tmp_path / 'boat' / 'parts' / 'camera_bracket.yaml'
    real = build_module.build_gazebo

    def edited_meanwhile(*args, **kwargs):
        result = real(*args, **kwargs)
        part.write_text(PART.replace('0.2', '0.4'), encoding='utf-8')  # after it was read
        return result

    monkeypatch.setattr(build_module, 'build_gazebo', edited_meanwhile)
    assert cached(config)[0] == 0
    monkeypatch.setattr(build_module, 'build_gazebo', real)
    code, _, files = cached(config, '--no-cache')
    fresh = files['robot_description.urdf']
    code, _, files = cached(config)  # the entry (0.2 kg) must not stand for the file (0.4)
    assert files['robot_description.urdf'] == fresh


# -- an entry is data: what a forged one can do -------------------------

def forge(entry: Path, change) -> None:
    """Rewrite an entry's result with ``change`` and a valid self-check, as an attacker can."""
    body = json.loads(entry.read_text(encoding='utf-8'))
    body.pop('check')
    change(body['result'])
    body['check'] = cache._check(body)
    entry.write_text(json.dumps(body), encoding='utf-8')


@pytest.mark.parametrize('change', [
    lambda result: result['artefacts'].update({'.bashrc': 'echo pwned\n'}),
    lambda result: result['artefacts'].update({'/tmp/evil.urdf': '<robot/>'}),
    lambda result: result['artefacts'].pop('bridge.yaml'),
    lambda result: result.update(summary=result['summary'] + '\x1b]0;pwned\x07\x1b[2J'),
], ids=['an extra file', 'an absolute name', 'a file missing', 'terminal escapes'])
def test_a_forged_build_entry_is_rebuilt_never_used(cached, change, capsys):
    assert cached(None)[1] == 1
    good = capsys.readouterr().out
    (entry,) = cached.folder.iterdir()
    forge(entry, change)
    code, builds, files = cached(None)
    assert (code, builds) == (0, 2)
    assert sorted(files) == ['bridge.yaml', 'robot_description.urdf']
    assert capsys.readouterr().out == good and '\x1b' not in good


def test_a_deeply_nested_entry_is_rebuilt(cached, capsys):
    """The JSON decoder's recursion limit is damage like any other (it was an exit 2)."""
    assert cached(None)[1] == 1
    (entry,) = cached.folder.iterdir()
    entry.write_text('{"result": ' + '[' * 100000 + ']' * 100000 + '}', encoding='utf-8')
    assert cached(None)[:2] == (0, 2)
    entry.write_text('[' * 100000 + ']' * 100000, encoding='utf-8')
    assert cached(None)[:2] == (0, 3)


def test_the_cache_folder_is_private_and_an_entry_others_can_write_is_ignored(cached):
    assert cached(None)[1] == 1
    assert cached.folder.stat().st_mode & 0o777 == 0o700
    (entry,) = cached.folder.iterdir()
    assert entry.stat().st_mode & 0o777 == 0o600
    entry.chmod(0o622)  # anyone may have changed it
    assert cached(None)[1] == 2  # not read: rebuilt (and stored again, private)
    assert cached(None)[1] == 2
    cached.folder.chmod(0o777)  # anyone may have put it there
    assert cached(None)[1] == 3


def test_an_entry_another_user_owns_is_ignored(cached):
    if os.geteuid() != 0:
        pytest.skip('giving a file to another user needs root (CI runs as root)')
    assert cached(None)[1] == 1
    (entry,) = cached.folder.iterdir()
    os.chown(entry, 65534, 65534)  # nobody
    assert cached(None)[1] == 2


@pytest.mark.parametrize('change', [
    lambda v: v.update(name='../../../../tmp/outside'),
    lambda v: v.update(name='/tmp/outside'),
    lambda v: v['artefacts'].update({'/tmp/outside.txt': 'x'}),
    lambda v: v['converters'].append({'kind': 'evil_pkg/evil_exe --pwn', 'instance': 'x',
                                      'parameters': {}}),
    lambda v: v['converters'].append({'kind': 'echosounder', 'instance': 'x --pwn',
                                      'parameters': {}}),
    lambda v: v.update(counts='\x1b[2J'),
    lambda v: v.update(spawn_z=float('nan')),
    lambda v: v['converters'].append({'kind': 'echosounder', 'instance': 'x',
                                      'parameters': {'evil': 'x'}}),
], ids=['a name up the tree', 'an absolute name', 'an artefact outside', 'a node of its own',
        'an instance with options', 'terminal escapes', 'not a height',
        'a parameter its node does not take'])
def test_a_forged_launch_entry_is_rebuilt_never_used(tmp_path, launch_builds, change):
    first = launch(tmp_path / 'ros')
    (entry,) = (tmp_path / 'ros' / 'bluerobotics_parts' / '.cache').iterdir()
    forge(entry, change)
    again = launch(tmp_path / 'ros')
    assert len(launch_builds) == 2
    assert again == first
    assert not os.path.lexists('/tmp/outside') and not os.path.lexists('/tmp/outside.txt')


def test_an_entry_for_another_vehicle_name_is_rebuilt(tmp_path, launch_builds):
    """An entry naming a vehicle other than the one asked for would move its folder and nodes."""
    first = launch(tmp_path / 'ros', name='boat2')
    (entry,) = (tmp_path / 'ros' / 'bluerobotics_parts' / '.cache').iterdir()
    forge(entry, lambda v: v.update(name='victim'))
    again = launch(tmp_path / 'ros', name='boat2')
    assert len(launch_builds) == 2 and again == first
    assert not (tmp_path / 'ros' / 'bluerobotics_parts' / 'victim').exists()
    launch(tmp_path / 'ros', name='boat2')  # the rebuilt entry replaced the forged one
    assert len(launch_builds) == 2
