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
Replacing a description folder in one step, so that nobody ever sees half of one.

The complete new folder is written beside the target, with the old one's provenance (notes,
recorded bags) as hard links, and the two are swapped with one rename: renameat2(2) with
RENAME_EXCHANGE (Linux 3.15 and later; man-pages, rename(2)), so even after a kill the target is
the complete old or new description. Exports take turns (``atomic.locked_folder``), each
cleaning up what a killed one left. Nothing is followed through a symbolic link or deleted
unless a previous export wrote it (with the recorded digest) or it links to a file in the target.
"""

from __future__ import annotations

import ctypes
import errno
import hashlib
import os
from pathlib import Path
import secrets
import shutil
import stat

from .identity import check_path, MANIFEST_FILE, read_manifest, walk
from ..errors import BlueRoboticsPartsError, DescriptionError, InputError, OutputError
from ..files.atomic import (LEGACY_STAGING_PREFIX, locked_folder, remove_created,
                            remove_if_empty)
from ..files.inputs import file_kind, MESH_LIMIT, read_bytes

STAGING_MARK = '.bluerobotics_parts-staging-'
LEFTOVER_MARK = '.bluerobotics_parts-leftover-'
#: renameat2(2) flag and the "current folder" descriptor, from the Linux UAPI headers
#: (include/uapi/linux/fs.h: RENAME_EXCHANGE (1 << 1); include/uapi/linux/fcntl.h:
#: AT_FDCWD -100); util-linux's misc-utils/exch.c calls it the same way.
RENAME_EXCHANGE = 1 << 1
AT_FDCWD = -100
#: What renameat2 answers on a kernel or file system that cannot exchange (NFS, for one).
UNSUPPORTED = (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP)


def replace_folder(directory: Path, files: dict[str, bytes],
                   narrower: dict | None = None) -> list[str]:
    """
    Make ``directory`` hold exactly ``files`` plus its provenance, in one step.

    ``narrower``: relative path -> the permission bits of the file it copies; the copy never
    gets a permission the original lacks (a user's mode 0600 mesh stays 0600).

    The folder is created if missing. A non-empty folder must hold a previous export
    (``description_manifest.json``); its listed files are replaced only if unchanged since.
    Returns notes for the user (a leftover folder, a replaced current folder). Raises
    DescriptionError or OutputError, with nothing changed.
    """
    directory = Path(os.path.abspath(directory))
    created = [place for place in [directory, *directory.parents]
               if not os.path.lexists(place)]
    try:
        with locked_folder(directory, created):
            notes = _clean_stale(directory)
            old = os.lstat(directory)
            claimed = _claims(directory, strict=True)
            folders, carried = _provenance(directory, claimed, files)
            staging = _stage(directory, old, files, folders, carried, narrower or {})
            # the new folder is locked before it takes the target's place, so the next
            # export waits until this one has also retired the old folder
            with locked_folder(staging):
                inside = _current_folder_inside(directory)
                swapped = _swap(staging, directory)
                if inside is not None:
                    notes += _enter_again(directory, inside)
                if swapped:
                    notes += _retire(staging, directory)
                try:
                    _sync(directory.parent)  # durable after a power cut, not only after a kill
                except OSError:
                    pass  # the swap is done: what follows must not report "nothing changed"
        return notes
    except OSError as error:
        remove_created(created)
        raise OutputError(f'cannot write {directory}: {error.strerror or error} '
                          '(nothing was changed)') from None
    except BlueRoboticsPartsError:
        remove_created(created)
        raise


# -- what the old folder holds ---------------------------------------------------------------

def _claims(folder: Path, strict: bool) -> dict[str, str | None]:
    """
    Return the files a previous export in ``folder`` wrote: path -> recorded SHA-256 (hex).

    None for a digest the manifest does not record (schema v1, or the manifest itself). With
    ``strict``, a non-empty folder without a manifest is refused: it is not an export.
    """
    if not os.path.lexists(folder / MANIFEST_FILE):
        if strict and any(not entry.name.startswith(LEGACY_STAGING_PREFIX)
                          for entry in os.scandir(folder)):
            raise DescriptionError(
                f'{folder} is not empty and holds no {MANIFEST_FILE}, so it is not a previous '
                'export; export into a new or empty folder, or into a previous export to '
                'update it (nothing was written)')
        return {}
    try:
        manifest = read_manifest(folder)
    except DescriptionError:
        return {MANIFEST_FILE: None}  # a broken manifest: only itself is known to be ours
    claimed: dict[str, str | None] = {MANIFEST_FILE: None}
    for path in manifest['files']:
        try:
            check_path(path)  # anything else in an old manifest is not ours to touch
        except DescriptionError:
            continue
        claimed[path] = (manifest['sha256'] or {}).get(path)
    return claimed


def _provenance(directory: Path, claimed: dict, files: dict) -> tuple[dict, list]:
    """
    Return (folders to recreate: path -> mode, files to carry) of the old folder.

    Refuses links and special files anywhere, a listed file changed since its export, and
    an unlisted entry where the new export puts a file.
    """
    new_folders = {'/'.join(path.split('/')[:depth]) for path in files
                   for depth in range(1, path.count('/') + 1)}
    folders: dict[str, int] = {}
    children: dict[str, int] = {}
    carried: list[str] = []
    for relative, mode in walk(directory):
        if relative.split('/')[0].startswith(LEGACY_STAGING_PREFIX):
            continue
        parent = relative.rpartition('/')[0]
        children[parent] = children.get(parent, 0) + 1
        shown = directory / relative
        if stat.S_ISDIR(mode):
            if relative in files:
                raise _in_the_way(shown, relative)
            folders[relative] = mode
        elif not stat.S_ISREG(mode):
            raise DescriptionError(
                f'{shown} is {file_kind(mode)}; a description folder holds only regular files '
                'and folders, and an export never follows or replaces anything else; move it '
                'out (nothing was written)')
        elif relative in claimed:
            if claimed[relative] is not None and _digest(shown) != claimed[relative]:
                raise DescriptionError(
                    f'{shown} was changed after the previous export wrote it (its SHA-256 '
                    f'differs from {MANIFEST_FILE}); an export replaces only files it wrote '
                    'itself: move it away or restore it (nothing was written)')
        elif relative in files or relative in new_folders:
            raise _in_the_way(shown, relative)
        else:
            carried.append(relative)
    keep = {path for path in folders if not children.get(path)}  # empty: the user's
    for path in [*carried, *list(keep)]:
        keep.update('/'.join(path.split('/')[:depth]) for depth in range(1, path.count('/') + 1))
    return {path: folders[path] for path in sorted(keep)}, carried


def _in_the_way(shown: Path, relative: str) -> DescriptionError:
    return DescriptionError(
        f'{shown} was not written by a previous export (it is not listed in its '
        f'{MANIFEST_FILE}), and the new export writes {relative}; move it away (nothing was '
        'written)')


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(read_bytes(path, MESH_LIMIT, 'exported file')).hexdigest()
    except InputError:
        return None


# -- the new folder --------------------------------------------------------------------------

def _staging_prefix(directory: Path) -> str:
    """Return the name prefix of ``directory``'s staging folders (same parent, hidden)."""
    digest = hashlib.sha256(os.fsencode(directory.name)).hexdigest()[:12]
    return f'.{directory.name[:32]}.{digest}{STAGING_MARK}'


def _stage(directory: Path, old: os.stat_result, files: dict, folders: dict, carried: list,
           narrower: dict) -> Path:
    """
    Write the complete new folder beside ``directory``; return its path.

    Its name records the old folder's inode, so a cleaner can tell a staging folder that
    was never swapped in (everything in it is disposable) from the old folder swapped out.
    """
    staging = directory.parent / f'{_staging_prefix(directory)}{old.st_ino}-{secrets.token_hex(6)}'
    os.mkdir(staging, 0o700)
    try:
        for relative, data in files.items():
            (staging / relative).parent.mkdir(parents=True, exist_ok=True)
            _write_new(staging / relative, data)
            if relative in narrower:
                made = stat.S_IMODE(os.stat(staging / relative).st_mode)
                os.chmod(staging / relative, made & narrower[relative])
        for relative in folders:
            (staging / relative).mkdir(parents=True, exist_ok=True)
        for relative in carried:
            try:
                os.link(directory / relative, staging / relative, follow_symlinks=False)
            except OSError as error:
                raise OutputError(
                    f'cannot keep {directory / relative} in {directory}: '
                    f'{error.strerror or error}; an export keeps files it did not write by '
                    'linking them into the new folder; move it out (nothing was changed)') \
                    from None
        for relative in sorted(folders, key=lambda path: -path.count('/')):
            _copy_owner_and_mode(staging / relative, os.lstat(directory / relative))
        _copy_owner_and_mode(staging, old)
        _sync(staging)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return staging


def _write_new(path: Path, data: bytes) -> None:
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                         | os.O_CLOEXEC, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(descriptor, view):]
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _copy_owner_and_mode(path: Path, like: os.stat_result) -> None:
    if (like.st_uid, like.st_gid) != (os.getuid(), os.getgid()):
        try:
            os.chown(path, like.st_uid, like.st_gid, follow_symlinks=False)
        except PermissionError:
            pass  # only root can give a folder away; it stays the writer's
    os.chmod(path, stat.S_IMODE(like.st_mode))


def _swap(staging: Path, directory: Path) -> bool:
    """
    Put ``staging`` in ``directory``'s place in one step; return whether they were exchanged.

    Exchanged, ``staging`` names the old folder afterwards. Without RENAME_EXCHANGE an empty
    old folder is replaced by a plain rename (also one step); a non-empty one is refused.
    """
    try:
        _exchange(staging, directory)
        return True
    except OSError as error:
        failure = error
    if failure.errno in UNSUPPORTED:
        try:
            os.rename(staging, directory)  # replaces an empty folder, refuses any other
            return False
        except OSError:
            pass
    shutil.rmtree(staging, ignore_errors=True)
    if failure.errno in UNSUPPORTED:
        raise OutputError(
            f'cannot replace {directory} in one step here ({failure.strerror}: this file '
            'system does not support renameat2 RENAME_EXCHANGE); export into a new folder '
            '(nothing was changed)')
    raise OutputError(f'cannot replace {directory}: {failure.strerror or failure} (nothing '
                      'was changed)')


def _exchange(first: Path, second: Path) -> None:
    """Swap two paths atomically: renameat2(AT_FDCWD, first, AT_FDCWD, second, EXCHANGE)."""
    function = getattr(ctypes.CDLL(None, use_errno=True), 'renameat2', None)
    if function is None:  # a C library older than glibc 2.28
        raise OSError(errno.ENOSYS, 'renameat2 is not available')
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                         ctypes.c_uint]
    function.restype = ctypes.c_int
    if function(AT_FDCWD, os.fsencode(first), AT_FDCWD, os.fsencode(second),
                RENAME_EXCHANGE) != 0:
        number = ctypes.get_errno()
        raise OSError(number, os.strerror(number))


# -- the old folder, and what killed exports left ---------------------------------------------

def _clean_stale(directory: Path) -> list[str]:
    """
    Remove what killed exports into ``directory`` left beside it; return notes.

    Called with the folder's lock held, so no live export owns any of them. A staging folder
    that was never swapped in holds new files and second links only; an old folder that was
    swapped out is retired as after a successful export.
    """
    notes = []
    prefix = _staging_prefix(directory)
    for entry in os.scandir(directory.parent):
        if not entry.name.startswith(prefix) or not entry.is_dir(follow_symlinks=False):
            continue
        recorded = entry.name[len(prefix):].partition('-')[0]
        tree = directory.parent / entry.name
        if recorded.isdigit() and os.lstat(tree).st_ino == int(recorded):
            notes += _retire(tree, directory)
        else:
            shutil.rmtree(tree, ignore_errors=True)
    return notes


def _retire(tree: Path, directory: Path) -> list[str]:
    """
    Empty and remove the old folder ``tree`` swapped out of ``directory``; return notes.

    Deleted: second links of files now in ``directory``, and the files its manifest lists
    with their recorded digests. Anything else (a file written into the old folder in the
    moment before the swap) is moved into ``directory``, or, if its name is taken there, the
    old folder stays beside it under a visible name.
    """
    try:
        claimed = _claims(tree, strict=False)
        entries = list(walk(tree))
        for relative, mode in entries:
            if stat.S_ISDIR(mode):
                continue
            source, target = tree / relative, directory / relative
            if relative.split('/')[0].startswith(LEGACY_STAGING_PREFIX):
                continue
            if _same_file(source, target) or (
                    relative in claimed and relative != MANIFEST_FILE and stat.S_ISREG(mode)
                    and claimed[relative] in (None, _digest(source))):
                os.unlink(source)
            elif not os.path.lexists(target):
                target.parent.mkdir(parents=True, exist_ok=True)
                os.rename(source, target)
        for entry in os.scandir(tree):
            if entry.name.startswith(LEGACY_STAGING_PREFIX) and entry.is_dir(
                    follow_symlinks=False):
                shutil.rmtree(tree / entry.name, ignore_errors=True)
        if MANIFEST_FILE in claimed and os.path.lexists(tree / MANIFEST_FILE):
            os.unlink(tree / MANIFEST_FILE)  # last: it tells what else was the export's
        for relative, mode in sorted(entries, key=lambda item: -item[0].count('/')):
            if stat.S_ISDIR(mode):
                remove_if_empty(tree / relative)
        remove_if_empty(tree)
    except (OSError, BlueRoboticsPartsError):
        pass  # what stays is reported below, and cleaned up by the next export
    if not os.path.lexists(tree):
        return []
    leftover = directory.parent / f'{directory.name}{LEFTOVER_MARK}{secrets.token_hex(4)}'
    try:
        os.rename(tree, leftover)
    except OSError:
        return [f'{tree} holds files written while {directory} was replaced; look through it']
    return [f'{leftover} holds files written into the old {directory.name} while it was '
            f'replaced, whose names the new one already has; look through it']


def _same_file(first: Path, second: Path) -> bool:
    try:
        one, other = os.lstat(first), os.lstat(second)
    except OSError:
        return False
    return (one.st_dev, one.st_ino) == (other.st_dev, other.st_ino)


# -- the current folder of this process ---------------------------------------------------------

def _current_folder_inside(directory: Path) -> str | None:
    """Return this process's current folder relative to ``directory``, if it is in it."""
    try:
        current = Path(os.getcwd())
    except OSError:
        return None
    real = Path(os.path.realpath(directory))
    if current == real:
        return ''
    if real in current.parents:
        return current.relative_to(real).as_posix()
    return None


def _enter_again(directory: Path, relative: str) -> list[str]:
    """Move this process into the new folder (its old current folder is being removed)."""
    target = directory / relative if relative else directory
    try:
        os.chdir(target if target.is_dir() else directory)
    except OSError:
        pass
    return [f'{directory} was replaced by a new folder; a shell that was inside it sees the '
            f'new files after cd {directory}']


def _sync(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
