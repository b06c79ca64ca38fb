"""``bluerobotics-parts export`` / ``verify`` and the Python API behind them, end to end: real
builds of real configs, real folders, the command run as a user runs it."""

from __future__ import annotations

import json
import os
from pathlib import Path
import re
import subprocess
import sys

from bluerobotics_parts import paths
from bluerobotics_parts.build import build
from bluerobotics_parts.export import description_files, description_identity, export, verify
from bluerobotics_parts.identity import DescriptionError, folder_identity, MANIFEST_FILE
import pytest

REPO = Path(__file__).resolve().parent.parent
IDENTITY_LINE = re.compile(r'^identity: (sha256:[0-9a-f]{64})$', re.MULTILINE)
MAST_CONFIG = """\
name: boat2
parts:
  - {type: blueboat_antenna_mast, name: aft_mast, xyz: [-0.3, 0, 0.2]}
"""
USER_PART = """\
type: sensor_pod
description: a pod of our own (test part)
inertial:
  mass: 0.3
  mass_unverified: test value
  inertia: {ixx: 0.0002, ixy: 0.0, ixz: 0.0, iyy: 0.0002, iyz: 0.0, izz: 0.0002}
  inertia_unverified: test value
visual:
  - mesh: pod.stl
    material: {name: pod_grey, rgba: [0.5, 0.5, 0.5, 1.0]}
collision:
  - box: [0.05, 0.05, 0.05]
    box_unverified: test value
"""
USER_PART_CONFIG = """\
part_files: [parts/sensor_pod.yaml]
parts:
  - {type: sensor_pod, name: pod, xyz: [0.4, 0, 0.1]}
"""
POD_STL = b"""solid pod
facet normal 0 0 1
 outer loop
  vertex 0 0 0
  vertex 0.05 0 0
  vertex 0 0.05 0
 endloop
endfacet
endsolid pod
"""


def run_cli(*args, cwd=REPO):
    environment = dict(os.environ, PYTHONPATH=str(REPO))  # also from another folder
    return subprocess.run([sys.executable, '-m', 'bluerobotics_parts.cli', *map(str, args)],
                          cwd=cwd, env=environment, capture_output=True, text=True, timeout=300)


def printed_identity(text: str) -> str:
    found = IDENTITY_LINE.findall(text)
    assert len(found) == 1, text
    return found[0]


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones too) by relative path."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob('*')) if p.is_file()}


def write_config(folder: Path, text: str, name: str = 'vehicle.yaml') -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text)
    return path


def user_part_config(folder: Path) -> Path:
    (folder / 'parts').mkdir(parents=True)
    (folder / 'parts' / 'sensor_pod.yaml').write_text(USER_PART)
    (folder / 'parts' / 'pod.stl').write_bytes(POD_STL)
    return write_config(folder, USER_PART_CONFIG)


@pytest.fixture(scope='module')
def exported(tmp_path_factory):
    """The default vehicle, exported once by the command."""
    folder = tmp_path_factory.mktemp('export') / 'blueboat'
    done = run_cli('export', paths.default_config(), folder)
    assert done.returncode == 0, done.stderr
    return folder, printed_identity(done.stdout), done


def copy_of(exported, tmp_path) -> Path:
    folder = tmp_path / 'copy'
    for relative, data in snapshot(exported[0]).items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_bytes(data)
    return folder


def first_mesh(folder: Path) -> str:
    manifest = json.loads((folder / MANIFEST_FILE).read_text())
    return next(p for p in manifest['files'] if p.startswith('meshes/'))


# -- what an export holds ------------------------------------------------------------------------

def test_export_writes_the_described_folder(exported):
    folder, identity, done = exported
    files = snapshot(folder)
    manifest = json.loads(files[MANIFEST_FILE])
    assert manifest['schema'] == 'bluerobotics_parts.description-manifest.v1'
    assert manifest['name'] == 'blueboat'
    assert manifest['files'] == sorted(set(files) - {MANIFEST_FILE})  # all of it, sorted
    assert {'robot.urdf', 'config.yaml', 'bridge.yaml'} <= set(manifest['files'])
    built = build(paths.default_config())
    assert files['robot.urdf'].decode() == built.urdf  # the Gazebo-composed URDF, as built
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
    built = build(config)
    in_memory = description_identity(built)
    result = export(config, tmp_path / 'out')
    assert result.identity == in_memory == folder_identity(tmp_path / 'out') == verify(tmp_path / 'out')
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
    assert json.loads((folder / MANIFEST_FILE).read_text())['name'] == 'boat7'
    assert '<robot name="boat7">' in (folder / 'robot.urdf').read_text()
    assert (folder / 'config.yaml').read_text() == 'name: boat7\n'


# -- user parts --------------------------------------------------------------------------------

def test_user_part_mesh_is_copied_and_its_uri_rewritten(tmp_path):
    config = user_part_config(tmp_path / 'project')
    done = run_cli('export', config, tmp_path / 'out')
    assert done.returncode == 0, done.stderr
    folder = tmp_path / 'out'
    assert (folder / 'meshes/user/sensor_pod/pod.stl').read_bytes() == POD_STL
    urdf = (folder / 'robot.urdf').read_text()
    assert 'filename="package://bluerobotics_parts/meshes/user/sensor_pod/pod.stl"' in urdf
    assert 'file://' not in urdf
    built = build(config)
    source_uri = f"file://{(tmp_path / 'project' / 'parts').resolve()}/pod.stl"
    assert source_uri in built.urdf  # the build itself still points at the user's file
    assert urdf == built.urdf.replace(
        source_uri, 'package://bluerobotics_parts/meshes/user/sensor_pod/pod.stl')
    effective = (folder / 'config.yaml').read_text()
    assert str((tmp_path / 'project' / 'parts' / 'sensor_pod.yaml').resolve()) in effective
    assert printed_identity(run_cli('verify', folder).stdout) == printed_identity(done.stdout)


def test_missing_user_mesh_fails_naming_part_and_path(tmp_path):
    config = user_part_config(tmp_path / 'project')
    (tmp_path / 'project' / 'parts' / 'pod.stl').unlink()
    done = run_cli('export', config, tmp_path / 'out')
    assert done.returncode == 1
    assert 'sensor_pod' in done.stderr and 'pod.stl' in done.stderr
    assert 'not found' in done.stderr and 'Traceback' not in done.stderr
    assert not (tmp_path / 'out').exists()
    assert [p.name for p in tmp_path.iterdir()] == ['project']  # no staging left behind


# -- verify catches changes ----------------------------------------------------------------------

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
    manifest = json.loads((folder / MANIFEST_FILE).read_text())
    manifest['files'].remove(mesh)  # the file stays on disk
    (folder / MANIFEST_FILE).write_text(json.dumps(manifest))
    done = run_cli('verify', folder)
    assert done.returncode == 1
    assert mesh in done.stderr and 'not listed' in done.stderr


def test_removing_a_manifest_entry_changes_the_identity(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    manifest = json.loads((folder / MANIFEST_FILE).read_text())
    manifest['files'].remove('bridge.yaml')  # no rule needs it listed; the identity tells
    (folder / MANIFEST_FILE).write_text(json.dumps(manifest))
    done = run_cli('verify', folder)
    assert done.returncode == 0, done.stderr
    assert printed_identity(done.stdout) != exported[1]
    done = run_cli('verify', folder, '--expect', exported[1])
    assert done.returncode == 1 and exported[1] in done.stderr


def test_verify_with_expect_catches_an_edited_mesh(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    mesh = folder / first_mesh(folder)
    data = bytearray(mesh.read_bytes())
    data[-1] ^= 0x01  # one bit of one byte
    mesh.write_bytes(bytes(data))
    done = run_cli('verify', folder, '--expect', exported[1])
    assert done.returncode == 1
    changed = folder_identity(folder)
    assert exported[1] in done.stderr and changed in done.stderr  # both identities shown
    assert run_cli('verify', folder).returncode == 0  # the rules still hold


def test_verify_refuses_a_mesh_reference_outside_the_description(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    urdf = folder / 'robot.urdf'
    mesh = first_mesh(folder)
    urdf.write_text(urdf.read_text().replace(f'package://bluerobotics_parts/{mesh}',
                                             f'file://{paths.share_dir() / mesh}'))
    with pytest.raises(DescriptionError, match='not inside the description'):
        verify(folder)


def test_verify_refuses_a_robot_name_other_than_the_manifest(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    manifest = json.loads((folder / MANIFEST_FILE).read_text())
    manifest['name'] = 'other_boat'
    (folder / MANIFEST_FILE).write_text(json.dumps(manifest))
    with pytest.raises(DescriptionError, match="'blueboat'.*'other_boat'"):
        verify(folder)


def test_verify_refuses_a_malformed_expected_identity(exported):
    done = run_cli('verify', exported[0], '--expect', 'sha256:1234')
    assert done.returncode == 1 and '64 lowercase hex digits' in done.stderr


# -- where an export may go ----------------------------------------------------------------------

def test_export_updates_a_previous_export_and_keeps_provenance(exported, tmp_path):
    """The old export's files are replaced or removed; anything else in the folder (notes,
    recorded bags) is provenance and stays."""
    folder = copy_of(exported, tmp_path)
    (folder / 'notes.txt').write_text('left over')
    (folder / 'bags').mkdir()
    (folder / 'bags' / 'run1.db3').write_bytes(b'data')
    done = run_cli('export', write_config(tmp_path, 'parts:\n  - {slot: ping_mount, type: none}\n'),
                   folder)
    assert done.returncode == 0, done.stderr
    after = snapshot(folder)
    assert after.pop('notes.txt') == b'left over' and after.pop('bags/run1.db3') == b'data'
    listed = json.loads(after[MANIFEST_FILE])['files']
    assert sorted(after) == sorted(listed + [MANIFEST_FILE])
    # the Ping's meshes were listed by the old export and are gone with it
    assert not (folder / 'meshes' / 'ping_singlebeam').exists()
    assert verify(folder) == done.stdout.split('identity: ')[1].strip()
    assert sorted(p.name for p in tmp_path.iterdir()) == ['copy', 'vehicle.yaml']


def test_export_into_the_current_folder(exported, tmp_path):
    folder = copy_of(exported, tmp_path)
    done = run_cli('export', paths.default_config(), '.', cwd=folder)
    assert done.returncode == 0, done.stderr
    assert snapshot(folder) == snapshot(exported[0])


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
    done = run_cli('export', config, tmp_path / 'new')
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


def test_user_meshes_that_would_share_a_name_are_refused(tmp_path):
    config = user_part_config(tmp_path / 'project')
    parts = tmp_path / 'project' / 'parts'
    for folder in ('visual', 'collision'):
        (parts / folder).mkdir()
        (parts / folder / 'pod.stl').write_bytes(POD_STL + folder.encode())
    (parts / 'sensor_pod.yaml').write_text(
        USER_PART.replace('mesh: pod.stl', 'mesh: visual/pod.stl')
        .replace('  - box: [0.05, 0.05, 0.05]\n    box_unverified: test value\n',
                 '  - mesh: collision/pod.stl\n'))
    with pytest.raises(DescriptionError) as caught:
        export(config, tmp_path / 'out')
    message = str(caught.value)
    assert 'sensor_pod' in message and 'meshes/user/sensor_pod/pod.stl' in message
    assert 'distinct names' in message
    assert not (tmp_path / 'out').exists()
