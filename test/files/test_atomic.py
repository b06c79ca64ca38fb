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
Writing outputs all or nothing, and never over anything that is not a regular file.

A device, FIFO, socket, folder or symbolic link where an output goes is refused and left as it
was; the file-system root and the package's own data are never output folders.
"""

from __future__ import annotations

import os
from pathlib import Path
import signal
import socket
import stat
import subprocess
import sys
import textwrap

from bluerobotics_parts import paths
from bluerobotics_parts.errors import OutputError
from bluerobotics_parts.files.atomic import (check_output_folder, KEPT_PREFIX, PACKAGE_ROOT_FILES,
                                             TEMPORARY_PREFIX,
                                             write_files_atomically, write_text_atomically)
from conftest import REPO
import pytest

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason='mknod of a device node needs root '
                                '(the suite runs as root here and in CI)')


def null_device(folder: Path) -> Path:
    """Return a private character device node with /dev/null's numbers (1, 3)."""
    node = folder / 'null'
    os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    return node


def test_writes_files(tmp_path):
    (tmp_path / 'keep.txt').write_text('mine')
    (tmp_path / 'a.txt').write_text('old')
    written = write_files_atomically(tmp_path, {'a.txt': b'A', 'b.txt': b'B'})
    assert written == [tmp_path / 'a.txt', tmp_path / 'b.txt']
    assert (tmp_path / 'a.txt').read_bytes() == b'A' and (tmp_path / 'b.txt').read_bytes() == b'B'
    assert sorted(p.name for p in tmp_path.iterdir()) == ['a.txt', 'b.txt', 'keep.txt']


def write_with_size_limit(folder: Path, files: dict) -> str:
    """
    Call write_files_atomically in a process that cannot write files over 1000 bytes.

    A real EFBIG from the kernel (RLIMIT_FSIZE), no mock: the way a full disk fails.
    Returns what the process printed (the OutputError).
    """
    code = textwrap.dedent(f"""
        import resource, signal, sys
        from pathlib import Path
        sys.path.insert(0, {str(REPO)!r})
        from bluerobotics_parts.files.atomic import write_files_atomically
        from bluerobotics_parts.errors import OutputError
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # so the write fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))
        try:
            write_files_atomically(Path({str(folder)!r}), {files!r})
        except OutputError as error:
            print(error)
    """)
    done = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_failure_halfway_puts_the_old_files_back(tmp_path):
    (tmp_path / 'a.txt').write_text('OLD A')
    (tmp_path / 'b.txt').write_text('OLD B')
    printed = write_with_size_limit(tmp_path, {'a.txt': b'NEW', 'b.txt': b'x' * 5000})
    assert 'cannot write' in printed and 'nothing was changed' in printed
    assert (tmp_path / 'a.txt').read_text() == 'OLD A'
    assert (tmp_path / 'b.txt').read_text() == 'OLD B'
    assert sorted(p.name for p in tmp_path.iterdir()) == ['a.txt', 'b.txt']  # no temporaries


def test_folders_created_for_a_failed_write_are_removed(tmp_path):
    printed = write_with_size_limit(tmp_path / 'new' / 'deep', {'a.txt': b'x' * 5000})
    assert 'cannot write' in printed
    assert list(tmp_path.iterdir()) == []


def test_a_folder_in_the_way_changes_nothing(tmp_path):
    (tmp_path / 'a.txt').write_text('OLD')
    (tmp_path / 'b.txt').mkdir()
    with pytest.raises(OutputError, match=f"{tmp_path / 'b.txt'} is a directory"):
        write_files_atomically(tmp_path, {'a.txt': b'NEW', 'b.txt': b'B'})
    assert (tmp_path / 'a.txt').read_text() == 'OLD'


def test_a_file_where_the_folder_should_be(tmp_path):
    (tmp_path / 'out').write_text('x')
    with pytest.raises(OutputError, match=f"{tmp_path / 'out'} is a regular file, not a folder"):
        write_files_atomically(tmp_path / 'out' / 'deeper', {'a.txt': b'A'})


def test_files_get_the_usual_permissions(tmp_path):
    mask = os.umask(0o022)
    try:
        write_text_atomically(tmp_path / 'robot.urdf', '<robot/>')
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / 'robot.urdf').stat().st_mode) == 0o644


def test_a_symbolic_link_to_the_folder_is_followed(tmp_path):
    """Follow the path the user names, as the OS does (only targets are never links)."""
    (tmp_path / 'real').mkdir()
    os.symlink(tmp_path / 'real', tmp_path / 'via')
    write_text_atomically(tmp_path / 'via' / 'robot.urdf', '<robot/>')
    assert (tmp_path / 'real' / 'robot.urdf').read_text() == '<robot/>'


def test_temporaries_of_a_killed_writer_are_removed(tmp_path):
    (tmp_path / f'{TEMPORARY_PREFIX}0123').write_text('half')
    (tmp_path / f'{KEPT_PREFIX}4567').write_text('old')
    (tmp_path / '.bluerobotics_parts-staging-89ab' / 'new').mkdir(parents=True)
    write_text_atomically(tmp_path / 'robot.urdf', '<robot/>')
    assert sorted(p.name for p in tmp_path.iterdir()) == ['robot.urdf']


# -- what is never replaced ---------------------------------------------

@needs_root
def test_a_device_node_is_refused_and_left_alone(tmp_path):
    node = null_device(tmp_path)
    with pytest.raises(OutputError) as caught:
        write_text_atomically(node, '<robot/>')
    assert f'{node} is a character device' in str(caught.value)
    assert 'only ever replaces a regular file' in str(caught.value)
    assert stat.S_ISCHR(os.lstat(node).st_mode) and os.lstat(node).st_rdev == os.makedev(1, 3)


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / 'pipe'
    os.mkfifo(fifo)
    signal.alarm(20)  # a write that opened the FIFO would block: fail instead of hanging
    try:
        with pytest.raises(OutputError, match=f'{fifo} is a FIFO'):
            write_files_atomically(tmp_path, {'ok.txt': b'A', 'pipe': b'B'})
    finally:
        signal.alarm(0)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert not (tmp_path / 'ok.txt').exists()  # checked before anything was written


def test_a_socket_is_refused(tmp_path):
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tmp_path / 'sock'))
        with pytest.raises(OutputError, match='sock is a socket'):
            write_text_atomically(tmp_path / 'sock', 'x')
        assert stat.S_ISSOCK(os.lstat(tmp_path / 'sock').st_mode)
    finally:
        server.close()


@pytest.mark.parametrize('points_to', ['inside.txt', '../outside.txt'])
def test_a_symbolic_link_target_is_refused_and_left_alone(tmp_path, points_to):
    folder = tmp_path / 'out'
    folder.mkdir()
    (folder / 'inside.txt').write_text('inside')
    (tmp_path / 'outside.txt').write_text('outside')
    os.symlink(points_to, folder / 'robot.urdf')
    with pytest.raises(OutputError, match='robot.urdf is a symbolic link'):
        write_text_atomically(folder / 'robot.urdf', '<robot/>')
    assert os.readlink(folder / 'robot.urdf') == points_to
    assert (folder / 'inside.txt').read_text() == 'inside'
    assert (tmp_path / 'outside.txt').read_text() == 'outside'


# -- where outputs may go --------------------------------------------

@pytest.mark.parametrize('folder', ['/', '/tmp/..', '/./'])
def test_the_file_system_root_is_no_output_folder(folder):
    with pytest.raises(OutputError, match='file-system root'):
        check_output_folder(Path(folder))


@pytest.mark.parametrize('inside', ['', 'urdf', 'urdf/parts', 'meshes/blueboat_flag', 'config',
                                    'launch', 'bluerobotics_parts'])
def test_the_package_itself_is_no_output_folder(inside):
    folder = paths.share_dir() / inside if inside != 'bluerobotics_parts' else \
        Path(__file__).resolve().parents[2] / 'bluerobotics_parts'
    with pytest.raises(OutputError, match='part of the bluerobotics_parts package'):
        check_output_folder(folder)


def test_a_folder_of_ones_own_is_fine(tmp_path):
    check_output_folder(tmp_path / 'out')
    check_output_folder(paths.share_dir() / 'out')  # beside the data, in a source checkout


def test_the_top_of_the_package_takes_new_files_but_keeps_its_own():
    """The README's quick start renders boat.png into the checkout's root."""
    check_output_folder(paths.share_dir(), names=('boat.png',))
    for name in ('README.md', 'package.xml', 'setup.py'):
        with pytest.raises(OutputError, match=f'{name} is one of the bluerobotics_parts'):
            check_output_folder(paths.share_dir(), names=('boat.png', name))
    with pytest.raises(OutputError, match='part of the bluerobotics_parts package'):
        check_output_folder(paths.share_dir())  # a folder replaced whole: export


def test_the_protected_top_files_are_the_packages():
    """Every file git tracks at the top of the checkout is protected (none may be replaced)."""
    listed = subprocess.run(['git', 'ls-files'], cwd=paths.share_dir(), capture_output=True,
                            text=True, stdin=subprocess.DEVNULL)
    if listed.returncode != 0:
        pytest.skip(f'no git checkout here: {listed.stderr.strip()}')
    top = sorted(name for name in listed.stdout.splitlines() if '/' not in name)
    assert top == sorted(PACKAGE_ROOT_FILES)


# -- a set of files: writers take turns, a killed one is finished -----------

KILL_AT_SECOND_KEEP = textwrap.dedent(f"""
    import os, signal, sys
    sys.path.insert(0, {str(REPO)!r})
    from bluerobotics_parts.cli import main as cli
    from bluerobotics_parts.files import atomic
    original, calls = atomic._keep, []
    def keep(*args):
        calls.append(args)
        if len(calls) == 2:  # the first file is renamed, the second not yet
            os.kill(os.getpid(), signal.SIGKILL)
        return original(*args)
    atomic._keep = keep
    sys.exit(cli.main(sys.argv[1:]))
""")


def vehicle_of(folder: Path) -> tuple:
    """Return the vehicle names robot_description.urdf and bridge.yaml are for."""
    urdf = (folder / 'robot_description.urdf').read_text(encoding='utf-8')
    bridge = (folder / 'bridge.yaml').read_text(encoding='utf-8')
    robot = urdf.split('<robot name="', 1)[1].split('"', 1)[0]
    vehicle = bridge.split('for vehicle ', 1)[1].split(',', 1)[0]
    return robot, vehicle


def cli_build(config: str, folder: Path, name: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, '-m', 'bluerobotics_parts.cli.main', 'build', config,
                             '--output', str(folder), '--name', name], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            stdin=subprocess.DEVNULL)


def half_renamed_build(tmp_path) -> Path:
    """Return a folder where a build of boat_b over boat_a was killed between its renames."""
    folder = tmp_path / 'out'
    first = cli_build('', folder, 'boat_a')
    assert first.wait(timeout=120) == 0, first.stderr.read()
    killed = subprocess.run([sys.executable, '-c', KILL_AT_SECOND_KEEP, 'build', '',
                             '--output', str(folder), '--name', 'boat_b'], cwd=REPO,
                            capture_output=True, text=True, timeout=120)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert vehicle_of(folder) == ('boat_b', 'boat_a')  # the window the journal closes
    return folder


def test_a_build_killed_between_its_renames_is_finished_by_the_next_writer(tmp_path):
    folder = half_renamed_build(tmp_path)
    # Any next writer into the folder first finishes the killed one's set.
    write_files_atomically(folder, {'notes.txt': b'a file of my own\n'})
    assert vehicle_of(folder) == ('boat_b', 'boat_b')
    assert sorted(p.name for p in folder.iterdir()) == ['bridge.yaml', 'notes.txt',
                                                        'robot_description.urdf']


@pytest.mark.parametrize('later', ['a failing build', 'bridge', 'check'])
def test_a_command_that_reads_or_fails_on_the_folder_finishes_the_killed_set(tmp_path, later):
    """Not only a successful write repairs the set: any command that reads or fails on it."""
    folder = half_renamed_build(tmp_path)
    bad = tmp_path / 'bad.yaml'
    bad.write_text('parts:\n  - {slot: motorport, type: none}\n', encoding='utf-8')
    command = {'a failing build': ['build', str(bad), '--output', str(folder)],
               'bridge': ['bridge', str(folder / 'robot_description.urdf')],
               'check': ['check', '', str(folder / 'robot_description.urdf')]}[later]
    subprocess.run([sys.executable, '-m', 'bluerobotics_parts.cli.main', *command], cwd=REPO,
                   capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert vehicle_of(folder) == ('boat_b', 'boat_b')


def test_a_journal_that_is_not_ours_is_removed_unused(tmp_path):
    from bluerobotics_parts.files.atomic import JOURNAL

    write_files_atomically(tmp_path, {'a.txt': b'a\n', 'b.txt': b'b\n'})
    (tmp_path / 'secret').write_text('keep me\n', encoding='utf-8')
    (tmp_path / JOURNAL).write_text('{"a.txt": "secret", "../x": "' + TEMPORARY_PREFIX
                                    + 'x", "b.txt": "../../etc/passwd"}', encoding='utf-8')
    write_files_atomically(tmp_path, {'c.txt': b'c\n'})
    assert (tmp_path / 'a.txt').read_text(encoding='utf-8') == 'a\n'
    assert (tmp_path / 'secret').read_text(encoding='utf-8') == 'keep me\n'
    assert not (tmp_path / JOURNAL).exists()


def test_concurrent_builds_into_one_folder_take_turns(tmp_path):
    folder = tmp_path / 'out'
    names = [f'boat_{n}' for n in range(4)]
    for _ in range(3):
        runs = [cli_build('', folder, name) for name in names]
        for run in runs:
            assert run.wait(timeout=300) == 0, run.stderr.read()
        robot, vehicle = vehicle_of(folder)
        assert robot == vehicle and robot in names
        assert sorted(p.name for p in folder.iterdir()) == ['bridge.yaml',
                                                            'robot_description.urdf']


def test_a_planted_journal_renames_nothing_of_anyone_else(tmp_path):
    """A journal naming a temporary that is not ours (another link to it) changes nothing."""
    from bluerobotics_parts.files.atomic import JOURNAL

    (tmp_path / 'notes.txt').write_text('mine\n', encoding='utf-8')
    planted = tmp_path / (TEMPORARY_PREFIX + 'evil')
    planted.write_text('planted\n', encoding='utf-8')
    os.link(planted, tmp_path / 'keeps_a_second_link')
    (tmp_path / JOURNAL).write_text('{"notes.txt": "%s"}' % planted.name, encoding='utf-8')
    write_files_atomically(tmp_path, {'a.txt': b'a\n', 'b.txt': b'b\n'})
    assert (tmp_path / 'notes.txt').read_text(encoding='utf-8') == 'mine\n'
    assert not (tmp_path / JOURNAL).exists()


@pytest.mark.parametrize('kind', ['fifo', 'empty folder'])
def test_a_journal_that_is_not_a_file_neither_hangs_nor_blocks_the_folder(tmp_path, kind):
    from bluerobotics_parts.files.atomic import JOURNAL

    journal = tmp_path / JOURNAL
    os.mkfifo(journal) if kind == 'fifo' else journal.mkdir()
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(REPO)!r})
        from pathlib import Path
        from bluerobotics_parts.files.atomic import write_files_atomically
        write_files_atomically(Path({str(tmp_path)!r}), {{'a.txt': b'a', 'b.txt': b'b'}})
    """)
    done = subprocess.run([sys.executable, '-c', script], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / 'a.txt').read_bytes() == b'a' and not journal.exists()


def test_a_journal_naming_a_folder_is_dropped_and_the_write_goes_on(tmp_path):
    from bluerobotics_parts.files.atomic import JOURNAL

    (tmp_path / 'sub').mkdir()
    staged = tmp_path / (TEMPORARY_PREFIX + 'left')
    staged.write_bytes(b'x')
    (tmp_path / JOURNAL).write_text('{"sub": "%s"}' % staged.name, encoding='utf-8')
    write_files_atomically(tmp_path, {'a.txt': b'a\n', 'b.txt': b'b\n'})
    assert (tmp_path / 'sub').is_dir() and (tmp_path / 'a.txt').exists()
    assert not (tmp_path / JOURNAL).exists()
