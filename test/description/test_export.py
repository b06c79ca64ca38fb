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
``bluerobotics-parts export`` / ``verify`` and the Python API behind them, end to end.

Real builds of real configs, real folders, the command run as a user runs it.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
import random
import re
import shutil

from bluerobotics_parts import paths
from bluerobotics_parts.build import build_gazebo
from bluerobotics_parts.description.export import (description_files, description_identity, export,
                                                   verify)
from bluerobotics_parts.description.identity import folder_identity, MANIFEST_FILE
from bluerobotics_parts.errors import DescriptionError
from export_helpers import (copy_tree, manifest_of, MAST_CONFIG, POD_STL, printed_identity,
                            relist, run_cli, siblings, snapshot, USER_PART, user_part_config,
                            write_config, write_manifest)
import pytest

POD_URI = 'package://bluerobotics_parts/user_parts/sensor_pod/pod.stl'


@pytest.fixture(scope='module')
def exported(tmp_path_factory):
    """Return the default vehicle, exported once by the command."""
    folder = tmp_path_factory.mktemp('export') / 'blueboat'
    done = run_cli('export', paths.default_config(), folder)
    assert done.returncode == 0, done.stderr
    return folder, printed_identity(done.stdout), done


@pytest.fixture(scope='module')
def exported_user_part(tmp_path_factory):
    """Return a vehicle with a user part (and its mesh), exported once."""
    base = tmp_path_factory.mktemp('user_export')
    config = user_part_config(base / 'project')
    done = run_cli('export', config, base / 'out')
    assert done.returncode == 0, done.stderr
    return base / 'out', printed_identity(done.stdout), config


def copy_of(exported, tmp_path) -> Path:
    return copy_tree(exported[0], tmp_path / 'copy')


def first_mesh(folder: Path) -> str:
    return next(p for p in manifest_of(folder)['files'] if p.startswith('meshes/'))


def canonical(urdf) -> bytes:
    """Return the XML of a URDF as ElementTree writes it (formatting and comments aside)."""
    from xml.etree import ElementTree

    return ElementTree.tostring(ElementTree.fromstring(urdf))


# -- what an export holds ------------------------------------------------------------------------

def test_export_writes_the_described_folder(exported):
    folder, identity, done = exported
    files = snapshot(folder)
    manifest = json.loads(files[MANIFEST_FILE])
    assert manifest['schema'] == 'bluerobotics_parts.description-manifest.v2'
    assert manifest['name'] == 'blueboat' and manifest['gz_release'] == 'harmonic'
    listed = manifest['files']
    assert list(listed) == sorted(set(files) - {MANIFEST_FILE})  # all of it, sorted
    for path, digest in listed.items():  # the digest of every file, as written
        assert hashlib.sha256(files[path]).hexdigest() == digest, path
    assert {'robot.urdf', 'config.yaml', 'bridge.yaml'} <= set(listed)
    built = build_gazebo(paths.default_config())
    assert canonical(files['robot.urdf']) == canonical(built.urdf)  # the composed URDF
    assert b'<gazebo' in files['robot.urdf']
    assert files['bridge.yaml'].decode() == built.bridge_yaml
    assert files['config.yaml'].decode() == 'name: blueboat\n'
    referenced = set(re.findall(r'filename="package://bluerobotics_parts/(meshes/[^"]+)"',
                                built.urdf))
    assert referenced and referenced == {p for p in files if p.startswith('meshes/')}
    for relative in referenced:  # the share layout: the same bytes as the package's mesh
        assert files[relative] == (paths.share_dir() / relative).read_bytes()
    assert 'exported blueboat' in done.stdout and f'{len(files)} files' in done.stdout
    assert f'{sum(map(len, files.values()))} bytes' in done.stdout


def test_verify_command_prints_the_same_identity(exported):
    folder, identity, _ = exported
    done = run_cli('verify', folder)
    assert done.returncode == 0, done.stderr
    assert printed_identity(done.stdout) == identity == folder_identity(folder)
    done = run_cli('verify', folder, '--expect', identity)
    assert done.returncode == 0, done.stderr


def test_build_identity_in_memory_equals_the_exported_folder(tmp_path):
    config = write_config(tmp_path, MAST_CONFIG)
    built = build_gazebo(config)
    in_memory = description_identity(built)
    result = export(config, tmp_path / 'out')
    assert result.identity == in_memory == folder_identity(tmp_path / 'out')
    assert verify(tmp_path / 'out') == in_memory
    assert snapshot(tmp_path / 'out') == description_files(built)
    assert result.name == 'boat2' and f'identity: {in_memory}' in result.summary()


def test_export_is_deterministic(tmp_path):
    config = write_config(tmp_path, MAST_CONFIG)
    first = export(config, tmp_path / 'first')
    second = export(config, tmp_path / 'second')
    assert first.identity == second.identity
    assert snapshot(tmp_path / 'first') == snapshot(tmp_path / 'second')
    again = export(config, tmp_path / 'first')  # replacing a previous export
    assert again.identity == first.identity


def test_changing_one_number_changes_the_identity(tmp_path):
    before = export(write_config(tmp_path / 'a', MAST_CONFIG), tmp_path / 'a' / 'out')
    moved = MAST_CONFIG.replace('[-0.3, 0, 0.2]', '[-0.3, 0, 0.25]')
    after = export(write_config(tmp_path / 'b', moved), tmp_path / 'b' / 'out')
    assert before.identity != after.identity


def test_exported_config_rebuilds_the_same_description(tmp_path):
    config = write_config(tmp_path, MAST_CONFIG)
    first = export(config, tmp_path / 'first', name='renamed')
    assert (tmp_path / 'first' / 'config.yaml').read_text().startswith('name: renamed\n')
    second = export(tmp_path / 'first' / 'config.yaml', tmp_path / 'second')
    assert second.identity == first.identity


def test_vehicle_name_override_reaches_every_file(tmp_path):
    done = run_cli('export', paths.default_config(), tmp_path / 'out', '--name', 'boat7')
    assert done.returncode == 0, done.stderr
    folder = tmp_path / 'out'
    assert manifest_of(folder)['name'] == 'boat7'
    assert '<robot name="boat7">' in (folder / 'robot.urdf').read_text()
    assert (folder / 'config.yaml').read_text() == 'name: boat7\n'


def test_gazebo_release_is_recorded_and_verified(tmp_path):
    done = run_cli('export', paths.default_config(), tmp_path / 'out', '--gz-release', 'ionic')
    assert done.returncode == 0, done.stderr
    assert manifest_of(tmp_path / 'out')['gz_release'] == 'ionic'
    assert '<frame_id>' in (tmp_path / 'out' / 'robot.urdf').read_text()  # Ionic's element
    assert verify(tmp_path / 'out') == printed_identity(done.stdout)


# -- user parts: the export carries them ------------------------------------

def test_user_part_file_and_mesh_are_copied_and_referenced_inside(exported_user_part):
    folder, identity, config = exported_user_part
    files = snapshot(folder)
    assert files['user_parts/sensor_pod/pod.stl'] == POD_STL
    assert files['user_parts/sensor_pod/sensor_pod.yaml'].decode() == USER_PART  # unchanged
    urdf = files['robot.urdf'].decode()
    assert f'filename="{POD_URI}"' in urdf
    assert 'path="user_parts/sensor_pod/sensor_pod.yaml"' in urdf  # the part file record
    assert str(config.parent) not in urdf and 'file://' not in urdf  # nothing absolute
    effective = files['config.yaml'].decode()
    assert 'part_files: [user_parts/sensor_pod/sensor_pod.yaml]' in effective
    assert str(config.parent) not in effective
    built = build_gazebo(config)  # the build itself still points at the user's files
    assert f"file://{(config.parent / 'parts').absolute()}/pod.stl" in built.urdf
    assert verify(folder) == identity


def test_identity_does_not_depend_on_where_the_config_was(tmp_path):
    first = export(user_part_config(tmp_path / 'here'), tmp_path / 'out1')
    second = export(user_part_config(tmp_path / 'elsewhere' / 'deeper'), tmp_path / 'out2')
    assert first.identity == second.identity
    assert snapshot(tmp_path / 'out1') == snapshot(tmp_path / 'out2')


def test_a_moved_export_still_builds_and_verifies(exported_user_part, tmp_path):
    folder, identity, config = exported_user_part
    moved = copy_tree(folder, tmp_path / 'somewhere' / 'else')
    assert verify(moved) == identity
    done = run_cli('build', moved / 'config.yaml', '--output', tmp_path / 'built', cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert 'pod: sensor_pod' in done.stdout and printed_identity(done.stdout) == identity
    again = export(moved / 'config.yaml', tmp_path / 'again')
    assert again.identity == identity


def test_moved_export_builds_without_the_original_project(tmp_path):
    config = user_part_config(tmp_path / 'project')
    identity = export(config, tmp_path / 'out').identity
    shutil.rmtree(tmp_path / 'project')
    (tmp_path / 'out').rename(tmp_path / 'moved')
    done = run_cli('build', tmp_path / 'moved' / 'config.yaml', '-o', tmp_path / 'b')
    assert done.returncode == 0, done.stderr
    assert printed_identity(done.stdout) == identity
    assert f'file://{tmp_path}/moved/user_parts/sensor_pod/pod.stl' in \
        (tmp_path / 'b' / 'robot_description.urdf').read_text()


def test_missing_user_mesh_fails_naming_part_and_path(tmp_path):
    config = user_part_config(tmp_path / 'project')
    (tmp_path / 'project' / 'parts' / 'pod.stl').unlink()
    done = run_cli('export', config, tmp_path / 'out')
    assert done.returncode == 1
    assert 'sensor_pod.yaml' in done.stderr and 'pod.stl' in done.stderr
    assert 'not found' in done.stderr and 'Traceback' not in done.stderr
    assert not (tmp_path / 'out').exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ['project']  # no staging left


def test_user_meshes_in_subfolders_keep_their_paths(tmp_path):
    config = user_part_config(tmp_path / 'project')
    parts = tmp_path / 'project' / 'parts'
    for folder in ('visual', 'collision'):
        (parts / folder).mkdir()
        (parts / folder / 'pod.stl').write_bytes(POD_STL + folder.encode())
    (parts / 'sensor_pod.yaml').write_text(
        USER_PART.replace('mesh: pod.stl', 'mesh: visual/pod.stl')
        .replace('  - box: [0.05, 0.05, 0.05]\n    box_unverified: test value\n',
                 '  - mesh: collision/pod.stl\n'))
    result = export(config, tmp_path / 'out')
    files = snapshot(tmp_path / 'out')
    assert files['user_parts/sensor_pod/visual/pod.stl'] == POD_STL + b'visual'
    assert files['user_parts/sensor_pod/collision/pod.stl'] == POD_STL + b'collision'
    assert verify(tmp_path / 'out') == result.identity


# -- verify catches changes ----------------------------------------------------

def test_verify_catches_a_single_byte_change_in_any_file_without_expect(exported_user_part,
                                                                        tmp_path):
    folder = exported_user_part[0]
    chance = random.Random(8)
    for path in manifest_of(folder)['files']:
        copy = copy_tree(folder, tmp_path / path.replace('/', '_'))
        data = bytearray((copy / path).read_bytes())
        data[chance.randrange(len(data))] ^= 0x01  # one bit of one byte
        (copy / path).write_bytes(bytes(data))
        with pytest.raises(DescriptionError, match=f'{re.escape(path)} was changed'):
            verify(copy)


def test_verify_command_names_the_changed_file(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    mesh = folder / first_mesh(folder)
    mesh.write_bytes(mesh.read_bytes()[:-1] + b'!')
    done = run_cli('verify', folder)
    assert done.returncode == 1 and 'Traceback' not in done.stderr
    assert f'{first_mesh(folder)} was changed' in done.stderr
    assert 'identity:' not in done.stdout


def test_verify_catches_a_deleted_mesh(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    mesh = first_mesh(folder)
    (folder / mesh).unlink()
    done = run_cli('verify', folder)
    assert done.returncode == 1
    assert mesh in done.stderr and 'is missing' in done.stderr
    assert 'identity:' not in done.stdout


def test_verify_rule_mesh_referenced_but_not_listed(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    mesh = first_mesh(folder)
    document = manifest_of(folder)
    del document['files'][mesh]  # the file stays on disk
    write_manifest(folder, document)
    done = run_cli('verify', folder)
    assert done.returncode == 1
    assert mesh in done.stderr and 'not listed' in done.stderr


@pytest.mark.parametrize('required', ['robot.urdf', 'config.yaml', 'bridge.yaml'])
def test_verify_requires_the_files_of_a_description(exported, tmp_path, required):
    folder = copy_of(exported, tmp_path)
    document = manifest_of(folder)
    del document['files'][required]  # the file stays on disk
    write_manifest(folder, document)
    assert folder_identity(folder) != exported[1]  # the identity tells, too
    done = run_cli('verify', folder)
    assert done.returncode == 1 and 'Traceback' not in done.stderr
    assert f'does not list {required}' in done.stderr


@pytest.mark.parametrize('where', ['link_to_passwd', 'meshes/link_to_passwd'])
def test_verify_refuses_a_symbolic_link_anywhere(exported, tmp_path, where):
    folder = copy_of(exported, tmp_path)
    os.symlink('/etc/passwd', folder / where)  # not listed: provenance, but a link
    done = run_cli('verify', folder)
    assert done.returncode == 1 and 'Traceback' not in done.stderr
    assert f'{folder / where} is a symbolic link' in done.stderr


def test_verify_refuses_a_fifo_in_the_folder(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    os.mkfifo(folder / 'pipe')
    with pytest.raises(DescriptionError, match='pipe is a FIFO'):
        verify(folder)


def test_verify_with_expect_catches_an_edited_mesh(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    mesh = first_mesh(folder)
    data = bytearray((folder / mesh).read_bytes())
    data[-1] ^= 0x01
    (folder / mesh).write_bytes(bytes(data))
    relist(folder, mesh)  # the digest matches again; the identity still tells
    done = run_cli('verify', folder, '--expect', exported[1])
    assert done.returncode == 1
    changed = folder_identity(folder)
    assert exported[1] in done.stderr and changed in done.stderr  # both identities shown


def test_verify_refuses_a_mesh_reference_outside_the_description(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    urdf = folder / 'robot.urdf'
    mesh = first_mesh(folder)
    urdf.write_text(urdf.read_text().replace(f'package://bluerobotics_parts/{mesh}',
                                             f'file://{paths.share_dir() / mesh}'))
    relist(folder, 'robot.urdf')
    with pytest.raises(DescriptionError, match='not inside the description'):
        verify(folder)


def test_verify_refuses_a_robot_name_other_than_the_manifest(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    document = manifest_of(folder)
    document['name'] = 'other_boat'
    write_manifest(folder, document)
    with pytest.raises(DescriptionError, match="'blueboat'.*'other_boat'"):
        verify(folder)


def test_verify_refuses_a_malformed_expected_identity(exported):
    done = run_cli('verify', exported[0], '--expect', 'sha256:1234')
    assert done.returncode == 1 and '64 lowercase hex digits' in done.stderr


def test_verify_refuses_a_version_1_manifest(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    document = manifest_of(folder)
    write_manifest(folder, {'schema': 'bluerobotics_parts.description-manifest.v1',
                            'name': document['name'], 'files': sorted(document['files'])})
    with pytest.raises(DescriptionError, match='older bluerobotics_parts'):
        verify(folder)
    folder_identity(folder)  # its identity can still be computed


# -- verify checks consistency ---------------------------------------------

def test_verify_catches_an_edited_config(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    (folder / 'config.yaml').write_text(
        'name: blueboat\nparts:\n  - {slot: ping_mount, type: none}\n')
    with pytest.raises(DescriptionError, match='config.yaml was changed'):
        verify(folder)
    relist(folder, 'config.yaml')  # digests consistent again: the build still disagrees
    done = run_cli('verify', folder)
    assert done.returncode == 1 and 'Traceback' not in done.stderr
    assert 'robot.urdf is not what building config.yaml gives' in done.stderr


def test_verify_catches_an_edited_urdf_with_a_matching_digest(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    urdf = folder / 'robot.urdf'
    urdf.write_text(urdf.read_text().replace('<mass value="14.07"', '<mass value="1.407"'))
    relist(folder, 'robot.urdf')
    with pytest.raises(DescriptionError, match=r'robot.urdf is not what building config.yaml '
                                               r'gives.*line \d+ is .*1\.407'):
        verify(folder)


def test_verify_catches_a_config_that_no_longer_builds(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    (folder / 'config.yaml').write_text('name: blueboat\nparts: [{slot: nowhere, type: none}]\n')
    relist(folder, 'config.yaml')
    with pytest.raises(DescriptionError, match='config.yaml does not build.*nowhere'):
        verify(folder)


# -- where an export may go ----------------------------------------------------------------------

def test_export_updates_a_previous_export_and_keeps_provenance(exported, tmp_path):
    """
    Replace or remove the old export's files; keep anything else in the folder.

    Notes and recorded bags are provenance: they stay, the very same files (hard links).
    """
    folder = copy_of(exported, tmp_path)
    (folder / 'notes.txt').write_text('left over')
    (folder / 'bags').mkdir()
    (folder / 'bags' / 'run1.db3').write_bytes(b'data')
    (folder / 'empty').mkdir()
    (folder / 'meshes' / 'README').write_text('mine')  # in a folder of the export
    bag = os.stat(folder / 'bags' / 'run1.db3')
    no_ping = write_config(tmp_path, 'parts:\n  - {slot: ping_mount, type: none}\n')
    done = run_cli('export', no_ping, folder)
    assert done.returncode == 0, done.stderr
    after = snapshot(folder)
    assert after.pop('notes.txt') == b'left over' and after.pop('bags/run1.db3') == b'data'
    assert after.pop('meshes/README') == b'mine' and (folder / 'empty').is_dir()
    assert os.stat(folder / 'bags' / 'run1.db3').st_ino == bag.st_ino  # the same file
    listed = manifest_of(folder)['files']
    assert sorted(after) == sorted([*listed, MANIFEST_FILE])
    # the Ping's meshes were listed by the old export and are gone with it
    assert not (folder / 'meshes' / 'ping_singlebeam').exists()
    assert verify(folder) == printed_identity(done.stdout)
    assert sorted(p.name for p in tmp_path.iterdir()) == ['copy', 'vehicle.yaml']


def test_export_into_the_current_folder(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    done = run_cli('export', paths.default_config(), '.', cwd=folder)
    assert done.returncode == 0, done.stderr
    assert snapshot(folder) == snapshot(exported[0])
    assert f'cd {folder}' in done.stdout  # the shell inside the folder is told


def test_export_refuses_a_folder_that_is_not_an_export(tmp_path):
    folder = tmp_path / 'mine'
    folder.mkdir()
    (folder / 'thesis.txt').write_text('precious')
    done = run_cli('export', paths.default_config(), folder)
    assert done.returncode == 1
    assert str(folder) in done.stderr and MANIFEST_FILE in done.stderr
    assert snapshot(folder) == {'thesis.txt': b'precious'}
    assert sorted(p.name for p in tmp_path.iterdir()) == ['mine']


def test_export_refuses_a_file_as_folder(tmp_path):
    target = tmp_path / 'out'
    target.write_text('a file')
    done = run_cli('export', paths.default_config(), target)
    assert done.returncode == 1 and 'not a folder' in done.stderr
    assert target.read_text() == 'a file'


def test_export_into_an_empty_folder(tmp_path):
    (tmp_path / 'out').mkdir()
    result = export(paths.default_config(), tmp_path / 'out')
    assert verify(tmp_path / 'out') == result.identity


def test_bad_config_writes_nothing(tmp_path):
    config = write_config(tmp_path, 'parts:\n  - {slot: motor_port, type: ping_singlebeam}\n')
    done = run_cli('export', config, tmp_path / 'new' / 'deeper')
    assert done.returncode == 1
    assert 'motor_port' in done.stderr and 'Traceback' not in done.stderr
    assert not (tmp_path / 'new').exists()


def test_bad_config_leaves_a_previous_export_untouched(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    before = snapshot(folder)
    config = write_config(tmp_path / 'cfg', 'parts:\n  - {slot: no_such_slot, type: none}\n')
    done = run_cli('export', config, folder)
    assert done.returncode == 1 and 'no_such_slot' in done.stderr
    assert snapshot(folder) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ['cfg', 'copy']


# -- nothing outside the folder, nothing it did not write -----------------------

def test_export_never_removes_through_a_link_in_the_old_folder(exported, tmp_path):
    """Refuse the reported case, change nothing: ``link/secret.txt`` listed, ``link`` a link."""
    folder = copy_of(exported, tmp_path / 'work')
    outside = tmp_path / 'work' / 'outside'
    outside.mkdir()
    (outside / 'secret.txt').write_text('not yours')
    (outside / 'other.txt').write_text('also not yours')
    os.symlink('../outside', folder / 'link')
    for schema in ('v1', 'v2'):  # v1: the manifest of the reported case
        document = manifest_of(exported[0])
        if schema == 'v2':
            document['files']['link/secret.txt'] = hashlib.sha256(b'not yours').hexdigest()
        else:
            document = {'schema': 'bluerobotics_parts.description-manifest.v1',
                        'name': 'blueboat', 'files': [*document['files'], 'link/secret.txt']}
        write_manifest(folder, document)
        before = snapshot(folder)
        done = run_cli('export', write_config(tmp_path, 'name: other\n'), folder)
        assert done.returncode == 1 and 'Traceback' not in done.stderr
        assert f'{folder / "link"} is a symbolic link' in done.stderr
        assert (outside / 'secret.txt').read_text() == 'not yours'
        assert sorted(p.name for p in outside.iterdir()) == ['other.txt', 'secret.txt']
        assert snapshot(folder) == before and os.path.islink(folder / 'link')
        assert siblings(folder) == ['copy', 'outside']


def test_export_does_not_replace_a_listed_file_changed_since(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    (folder / 'bridge.yaml').write_text('# my own edits\n')
    before = snapshot(folder)
    done = run_cli('export', paths.default_config(), folder)
    assert done.returncode == 1 and 'bridge.yaml was changed after the previous export' in \
        done.stderr
    assert snapshot(folder) == before


def test_export_does_not_replace_an_unlisted_file_it_would_write(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    document = manifest_of(folder)
    del document['files']['bridge.yaml']  # so bridge.yaml is the user's now
    write_manifest(folder, document)
    done = run_cli('export', paths.default_config(), folder)
    assert done.returncode == 1 and 'bridge.yaml was not written by a previous export' in \
        done.stderr


def test_export_removes_what_a_killed_export_of_the_old_version_left(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    stale = folder / '.bluerobotics_parts-staging-abc123'
    (stale / 'new').mkdir(parents=True)
    (stale / 'new' / 'robot.urdf').write_text('half')
    assert export(paths.default_config(), folder).identity == exported[1]
    assert not stale.exists() and verify(folder) == exported[1]


def test_export_refuses_a_symbolic_link_as_target(exported, tmp_path):
    os.symlink(exported[0], tmp_path / 'link')
    done = run_cli('export', paths.default_config(), tmp_path / 'link')
    assert done.returncode == 1 and 'is a symbolic link' in done.stderr
