"""Writing outputs all or nothing: a failure halfway leaves the old files as they were."""

from __future__ import annotations

import os
import stat

from bluerobotics_parts.atomic import write_files_atomically, write_text_atomically
from bluerobotics_parts.errors import OutputError
import pytest


def test_writes_files_and_removes_the_named_ones(tmp_path):
    (tmp_path / 'old').mkdir()
    (tmp_path / 'old' / 'gone.txt').write_text('x')
    (tmp_path / 'keep.txt').write_text('mine')
    written = write_files_atomically(tmp_path, {'a.txt': b'A', 'sub/b.txt': b'B'},
                                     remove=['old/gone.txt'])
    assert written == [tmp_path / 'a.txt', tmp_path / 'sub' / 'b.txt']
    assert (tmp_path / 'sub' / 'b.txt').read_bytes() == b'B'
    assert not (tmp_path / 'old').exists()  # emptied by the removal
    assert (tmp_path / 'keep.txt').read_text() == 'mine'
    assert sorted(p.name for p in tmp_path.iterdir()) == ['a.txt', 'keep.txt', 'sub']


def test_a_failure_halfway_puts_the_old_files_back(tmp_path):
    (tmp_path / 'a.txt').write_text('OLD A')
    (tmp_path / 'b').write_text('OLD B')  # b/c.txt cannot be written: b is a file
    with pytest.raises(OutputError, match='cannot write'):
        write_files_atomically(tmp_path, {'a.txt': b'NEW', 'b/c.txt': b'C'})
    assert (tmp_path / 'a.txt').read_text() == 'OLD A'
    assert (tmp_path / 'b').read_text() == 'OLD B'
    assert sorted(p.name for p in tmp_path.iterdir()) == ['a.txt', 'b']  # no staging left


def test_a_folder_in_the_way_changes_nothing(tmp_path):
    (tmp_path / 'a.txt').write_text('OLD')
    (tmp_path / 'b.txt').mkdir()
    with pytest.raises(OutputError, match=f"{tmp_path / 'b.txt'} is a folder"):
        write_files_atomically(tmp_path, {'a.txt': b'NEW', 'b.txt': b'B'})
    assert (tmp_path / 'a.txt').read_text() == 'OLD'


def test_a_file_where_the_folder_should_be(tmp_path):
    (tmp_path / 'out').write_text('x')
    with pytest.raises(OutputError, match=f"{tmp_path / 'out'} is not a folder"):
        write_files_atomically(tmp_path / 'out' / 'deeper', {'a.txt': b'A'})


def test_folders_created_for_a_failed_write_are_removed(tmp_path):
    with pytest.raises(OutputError):
        write_files_atomically(tmp_path / 'new' / 'deep', {'a.txt': b'A', 'a.txt/x': b'X'})
    assert list(tmp_path.iterdir()) == []


def test_files_get_the_usual_permissions(tmp_path):
    mask = os.umask(0o022)
    try:
        write_text_atomically(tmp_path / 'robot.urdf', '<robot/>')
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / 'robot.urdf').stat().st_mode) == 0o644
