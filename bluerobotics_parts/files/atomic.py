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
Writing outputs: all or nothing, and never over anything that is not an output's file.

Every output (``urdf -o``, ``build --output``, the launch's artefacts, ``Assembly.to_yaml``) is
written to a temporary beside its target and renamed over it; the old files are kept until
every new one is in place, and put back if anything fails. A target that is not a regular file
(a device, FIFO, socket, folder or symbolic link) is refused. Writers into one folder take turns
(an flock) and remove a killed writer's temporaries. A set of files (a URDF and its
bridge.yaml) is journalled (``JOURNAL``) before its renames, so the next writer completes a
set a killed writer left mixed; until then a reader can find it mixed
(docs/LIMITATIONS.md, "Outputs and exports"; docs/DESIGN.md, "Outputs").
"""

from __future__ import annotations

from contextlib import contextmanager
import errno
import fcntl
import json
import os
from pathlib import Path
import stat
import time

from .inputs import file_kind
from .. import paths
from ..errors import OutputError

TEMPORARY_PREFIX = '.bluerobotics_parts-tmp-'
KEPT_PREFIX = '.bluerobotics_parts-old-'
#: The renames a writer of several files still has to make (module doc).
JOURNAL = '.bluerobotics_parts-journal'
#: What the version before this one staged inside an output folder; removed when found.
LEGACY_STAGING_PREFIX = '.bluerobotics_parts-staging-'
#: The package's own folders (its data installed under share/bluerobotics_parts; in a source
#: checkout the same beside the Python package, with the sources): outputs never go there.
PACKAGE_DATA = ('urdf', 'meshes', 'config', 'launch', 'hook', 'hooks', 'resource', 'docs',
                'test', 'tools', 'schema')
#: The package's own files at the top of its data folder (a source checkout's root; an
#: installed share/bluerobotics_parts has package.xml): never replaced. A new file beside
#: them is the user's (the README's quick start writes boat.png there).
PACKAGE_ROOT_FILES = ('.gitignore', 'CONTRIBUTING.md', 'LICENSE', 'NOTES.md', 'README.md',
                      'colcon.pkg', 'package.xml', 'pyproject.toml', 'setup.cfg', 'setup.py')
#: How long a writer waits for another one writing the same folder.
LOCK_TIMEOUT = 300.0


def check_output_folder(folder: Path, label: Path | None = None,
                        names: tuple | None = None) -> None:
    """
    Refuse an output folder that is the file-system root or inside the package's data.

    ``names``: the files a command writes into ``folder``; None when it replaces the folder
    whole (export). The top of the package's data folder takes new files, never the package's.
    """
    label = label or folder
    _no_nul(folder, label)
    real = Path(os.path.realpath(folder))
    if real == Path(real.anchor):
        raise OutputError(f'cannot write {label}: {real} is the file-system root; write into '
                          'a folder of your own (nothing was written)')
    share = Path(os.path.realpath(paths.share_dir()))
    protected = [share / name for name in PACKAGE_DATA]
    protected.append(Path(os.path.realpath(paths.code_dir())))
    whole = real == share and names is None
    ours = [name for name in names or () if name in PACKAGE_ROOT_FILES] if real == share else []
    if whole or ours or any(real == place or place in real.parents for place in protected):
        what = f"{real / ours[0]} is one of the bluerobotics_parts package's own files" \
            if ours else f'{real} is part of the bluerobotics_parts package itself'
        raise OutputError(f'cannot write {label}: {what}; write into a folder of your own, or '
                          'name a new file (nothing was written)')


def check_not_inputs(targets, inputs: dict, label: Path | None = None) -> None:
    """
    Refuse to write a target that is one of the command's own inputs (nothing is written).

    ``targets``: the files a command is about to write; ``inputs``: path -> what it is to the
    command (``the config``, ``part file of camera_bracket``...). Files are compared, not names
    (device and inode), so ``./my.yaml``, a symbolic link to it or a hard link of it are the
    same file; a target not there yet is no input.
    """
    read = {}
    for path, role in inputs.items():
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            continue
        read.setdefault((info.st_dev, info.st_ino), (path, role))
    for target in targets:
        try:
            info = os.stat(target)
        except (OSError, ValueError):
            continue
        found = read.get((info.st_dev, info.st_ino))
        if found:
            path, role = found
            same = '' if os.path.abspath(target) == os.path.abspath(path) else \
                f' ({path}, under another name)'
            raise OutputError(f'cannot write {label or target}: it is {role}{same}, which '
                              'this command reads; name another output (nothing was written)')


def check_folder_holds_no_inputs(folder: Path, inputs: dict) -> None:
    """Refuse to replace a whole folder that holds one of the command's inputs (export)."""
    try:
        real = Path(os.path.realpath(folder))
    except (OSError, ValueError):
        return
    for path, role in inputs.items():
        try:
            where = Path(os.path.realpath(path))
        except (OSError, ValueError):
            continue
        if real == where or real in where.parents:
            raise OutputError(f'cannot replace {folder}: it holds {path}, {role}, which this '
                              'command reads; write into another folder (nothing was written)')


def _no_nul(path, label) -> None:
    """Refuse a path with a NUL byte: no file name holds one (the system raises ValueError)."""
    if '\0' in str(path):
        raise OutputError(f'cannot write {str(label)!r}: a path cannot hold a NUL byte '
                          '(nothing was written)')


def written_lines(written) -> str:
    """
    Return how a command lists the files it wrote: ``wrote:``, then one path a line.

    A path with a line break or another control character is quoted, so it stays one line.
    """
    return 'wrote:\n' + ''.join(f'  {_one_line(str(path))}\n' for path in written)


def _one_line(text: str) -> str:
    return repr(text) if any(ord(c) < 32 or ord(c) == 127 for c in text) else text


def write_text_atomically(path: Path, text: str) -> None:
    """Replace ``path`` in one step: write a sibling temporary file, then rename it."""
    path = Path(path)
    _no_nul(path, path)
    write_files_atomically(path.parent, {path.name: text.encode('utf-8')}, label=path)


def write_files_atomically(folder: Path, files: dict[str, bytes],
                           label: Path | None = None) -> list[Path]:
    """
    Write every file (plain name -> bytes) into ``folder``, or change nothing.

    ``folder`` and its missing parents are created (and removed again on failure). The path
    to ``folder`` is followed as given; the targets in it must be regular files or absent.
    New files get the usual permissions (0666 less the umask). Messages name ``label``
    (default: the folder).
    """
    folder = Path(folder)
    label = label or folder
    for name in files:
        if not _plain_name(name) or name == JOURNAL:
            raise ValueError(f'{name!r} is not a plain file name')
    _check_parents(folder, label)
    created = [place for place in [folder, *folder.absolute().parents]
               if not os.path.lexists(place)]
    try:
        with locked_folder(folder, created) as top:
            _finish_interrupted(top, folder, label)
            _remove_stale_temporaries(top, folder)
            for name in files:
                _check_target(top, name, folder / name, label)
            _replace_all(top, files, folder, label)
    except OSError as error:
        remove_created(created)
        raise OutputError(f'cannot write {label}: {error.strerror or error} '
                          '(nothing was changed)') from None
    except OutputError:
        remove_created(created)
        raise
    return [folder / name for name in files]


@contextmanager
def locked_folder(folder: Path, created: list | None = None):
    """
    Hold an exclusive flock on the folder now at ``folder`` (created if missing).

    Yields the open folder descriptor. A folder replaced while we waited (an export swaps
    its folder) is locked again at its new identity. Folders this creates are appended to
    ``created``.
    """
    deadline = time.monotonic() + LOCK_TIMEOUT
    while True:
        if time.monotonic() > deadline:
            raise OutputError(f'cannot write {folder}: it keeps being replaced while this '
                              'command waits to write it (nothing was changed)')
        try:
            descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except FileNotFoundError:
            folder.mkdir(parents=True, exist_ok=True)
            if created is not None and folder not in created:
                created.insert(0, folder)
            continue
        try:
            _wait_for_lock(descriptor, folder, deadline)
            here = os.fstat(descriptor)
            try:
                now = os.stat(folder)  # the path as named (a link to a folder is followed)
            except FileNotFoundError:
                now = None
            if now is not None and (now.st_dev, now.st_ino) == (here.st_dev, here.st_ino):
                yield descriptor
                return
        finally:
            os.close(descriptor)  # also releases the lock


def _wait_for_lock(descriptor: int, folder: Path, deadline: float) -> None:
    while True:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > deadline:
                raise OutputError(f'cannot write {folder}: another bluerobotics_parts command '
                                  f'has been writing it for {LOCK_TIMEOUT:.0f} s (nothing was '
                                  'changed)') from None
            time.sleep(0.05)


def _check_parents(folder: Path, label: Path) -> None:
    """Refuse a folder path whose nearest existing ancestor is not a folder."""
    for place in [folder, *folder.absolute().parents]:
        try:
            mode = os.stat(place).st_mode
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError as error:
            raise OutputError(f'cannot write {label}: {place}: {error.strerror or error} '
                              '(nothing was changed)') from None
        if not stat.S_ISDIR(mode):
            raise OutputError(f'cannot write {label}: {place} is {file_kind(mode)}, not a '
                              'folder (nothing was changed)')
        return


def _check_target(top: int, name: str, shown: Path, label: Path) -> None:
    """Refuse a target that exists and is not a regular file (never followed if a link)."""
    try:
        mode = os.stat(name, dir_fd=top, follow_symlinks=False).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        raise OutputError(f'cannot write {label}: {shown} is {file_kind(mode)}, and an output '
                          'only ever replaces a regular file; name another file (nothing was '
                          'changed)')


def _replace_all(top: int, files: dict[str, bytes], folder: Path, label: Path) -> None:
    """Stage every file, then rename each over its target; undo everything on failure."""
    staged: dict[str, str] = {}
    done: list = []  # (name, kept old file name or None)
    try:
        for name, data in files.items():
            staged[name] = _write_temporary(top, data)
        for name in files:
            _check_target(top, name, folder / name, label)  # again: nothing slipped in
        if len(files) > 1:  # from here on the set is complete: a killed writer is finished
            _check_target(top, JOURNAL, folder / JOURNAL, label)
            _write_journal(top, staged)
        for name in files:
            kept = _keep(top, name)
            os.replace(staged.pop(name), name, src_dir_fd=top, dst_dir_fd=top)
            done.append((name, kept))
        os.fsync(top)
        _unlink_quietly(top, JOURNAL)
    except BaseException:
        _unlink_quietly(top, JOURNAL)  # an error (not a kill): undone below, nothing to finish
        for name, kept in reversed(done):
            try:
                if kept is None:
                    os.unlink(name, dir_fd=top)
                else:
                    os.replace(kept, name, src_dir_fd=top, dst_dir_fd=top)
            except OSError:
                pass  # best effort: the original error is what gets reported
        done = []
        raise
    finally:
        for temporary in [*staged.values(), *(kept for _, kept in done if kept)]:
            _unlink_quietly(top, temporary)


def _write_journal(top: int, staged: dict[str, str]) -> None:
    """Record the renames still to make (target -> staged temporary), durably, in one step."""
    temporary = _write_temporary(top, json.dumps(staged, sort_keys=True).encode('utf-8'))
    os.replace(temporary, JOURNAL, src_dir_fd=top, dst_dir_fd=top)
    os.fsync(top)


def _finish_interrupted(top: int, folder: Path, label: Path) -> None:
    """
    Make the renames a killed writer's journal lists, so its set is whole again.

    Only a journal this user wrote (a regular file of ours, one link), only plain names, only
    staged temporaries of ours (one link) still there, only over regular files or none: a
    journal anyone else could have planted renames nothing. The journal goes in every case,
    so a damaged one never blocks the folder.
    """
    try:
        pending = _our_journal(top)
        for name, temporary in sorted(pending.items()):
            if not (_plain_name(name) and isinstance(temporary, str) and _plain_name(temporary)
                    and temporary.startswith(TEMPORARY_PREFIX) and name != JOURNAL):
                continue
            try:
                staged = os.stat(temporary, dir_fd=top, follow_symlinks=False)
                target = os.stat(name, dir_fd=top, follow_symlinks=False)
            except FileNotFoundError as missing:
                if missing.filename == temporary:
                    continue  # renamed before the kill
                target = None
            if not _ours(staged) or (target is not None and not stat.S_ISREG(target.st_mode)):
                continue
            os.replace(temporary, name, src_dir_fd=top, dst_dir_fd=top)
        if pending:
            os.fsync(top)
    finally:
        _remove_journal(top)


def _our_journal(top: int) -> dict:
    """Return the pending renames of a journal this user wrote, or {} for anything else."""
    try:  # without blocking: a FIFO under the name must not hang the writer
        descriptor = os.open(JOURNAL, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
                             | os.O_CLOEXEC, dir_fd=top)
    except OSError:  # none, a link, a folder, unreadable
        return {}
    try:
        if not _ours(os.fstat(descriptor)):
            return {}
        text = os.read(descriptor, 1 << 16)
    finally:
        os.close(descriptor)
    try:
        pending = json.loads(text)
    except ValueError:
        return {}
    return pending if isinstance(pending, dict) else {}


def _ours(info: os.stat_result) -> bool:
    """Return whether a file is a regular file this user wrote and nothing else links to."""
    return stat.S_ISREG(info.st_mode) and info.st_uid == os.geteuid() and info.st_nlink == 1


def _remove_journal(top: int) -> None:
    """Remove the journal, whatever stands under its name (a folder too, if empty)."""
    try:
        os.unlink(JOURNAL, dir_fd=top)
    except IsADirectoryError:
        try:
            os.rmdir(JOURNAL, dir_fd=top)
        except OSError:
            pass
    except OSError:
        pass


def _plain_name(name) -> bool:
    return (isinstance(name, str) and bool(name) and name not in ('.', '..') and '/' not in name
            and '\x00' not in name)


def _write_temporary(top: int, data: bytes) -> str:
    """Write ``data`` to a new hidden file in the folder; return its name."""
    name = TEMPORARY_PREFIX + os.urandom(8).hex()  # (secrets costs a cached build 4 ms)
    descriptor = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                         | os.O_CLOEXEC, 0o666, dir_fd=top)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(descriptor, view):]
        os.fsync(descriptor)
    except BaseException:
        os.close(descriptor)
        _unlink_quietly(top, name)
        raise
    os.close(descriptor)
    return name


def _keep(top: int, name: str) -> str | None:
    """Keep the current target under a hidden name (a hard link) for the undo; None if new."""
    kept = KEPT_PREFIX + os.urandom(8).hex()
    try:
        os.link(name, kept, src_dir_fd=top, dst_dir_fd=top, follow_symlinks=False)
    except FileNotFoundError:
        return None
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EMLINK):
            raise
        os.rename(name, kept, src_dir_fd=top, dst_dir_fd=top)  # no hard links here
    return kept


def _remove_stale_temporaries(top: int, folder: Path) -> None:
    """Remove what killed writers left in the folder (every live writer holds the lock)."""
    for entry in os.scandir(top):
        if entry.name.startswith((TEMPORARY_PREFIX, KEPT_PREFIX)) and entry.is_file(
                follow_symlinks=False):
            _unlink_quietly(top, entry.name)
        elif entry.name.startswith(LEGACY_STAGING_PREFIX) and entry.is_dir(
                follow_symlinks=False):
            import shutil  # only here: a cached build never needs it

            shutil.rmtree(folder / entry.name, ignore_errors=True)  # follows no link


def _unlink_quietly(top: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=top)
    except OSError:
        pass


def finish_interrupted_writes(folder: Path) -> None:
    """
    Finish the set of files a killed writer left half renamed in ``folder``, if it did.

    For a command that reads that folder, or fails before writing it: the set a later
    command sees is never half old, half new. Nothing happens without a journal, or when the
    folder cannot be locked or changed (the next writer finishes it).
    """
    folder = Path(folder)
    if not os.path.lexists(folder / JOURNAL):
        return
    try:
        with locked_folder(folder) as top:
            _finish_interrupted(top, folder, folder)
    except (OSError, OutputError):
        pass


def remove_created(created: list) -> None:
    """Remove the folders a failed writer created, innermost first, each only if empty."""
    for folder in created:
        remove_if_empty(folder)


def remove_if_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass
