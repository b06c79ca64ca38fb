"""Writing outputs so that a failure leaves nothing half-written and nothing overwritten."""

from __future__ import annotations

import os
from pathlib import Path
import shutil
import tempfile

from .errors import OutputError

STAGING_PREFIX = '.bluerobotics_parts-staging-'


def write_text_atomically(path: Path, text: str) -> None:
    """Replace ``path`` in one step: write a sibling temporary file, then rename it."""
    path = Path(path)
    write_files_atomically(path.parent, {path.name: text.encode('utf-8')}, label=path)


def write_files_atomically(folder: Path, files: dict[str, bytes], remove=(),
                           label: Path | None = None) -> list[Path]:
    """Write every file (relative path -> bytes) into ``folder`` and delete the relative
    paths in ``remove``, or change nothing.

    The new files are staged in a hidden folder inside ``folder`` (the same filesystem as the
    targets, also when ``folder`` is a mount point), then moved over their targets one by one
    with each old file kept aside; if anything fails, the old files are put back, and folders
    created on the way are removed again. Files of ``folder`` not named are left alone. New
    files get the usual permissions (0666 less the umask). Messages name ``label`` (default:
    the folder).
    """
    folder = Path(folder)
    label = label or folder
    for place in [folder, *folder.absolute().parents]:
        if place.exists() or place.is_symlink():
            if not place.is_dir():
                raise OutputError(f'cannot write {label}: {place} is not a folder '
                                  '(nothing was changed)')
            break
    for relative in files:
        if (folder / relative).is_dir() and not (folder / relative).is_symlink():
            raise OutputError(f'cannot write {label}: {folder / relative} is a folder '
                              '(nothing was changed)')
    created = [p for p in [folder, *folder.absolute().parents] if not p.exists()]
    staging = None
    done: list = []  # (target, kept-aside old file or None, new file in place?)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=folder))
        for relative, data in files.items():
            (staging / 'new' / relative).parent.mkdir(parents=True, exist_ok=True)
            (staging / 'new' / relative).write_bytes(data)
        for relative in [*files, *remove]:
            target = folder / relative
            kept = None
            if target.exists() or target.is_symlink():
                kept = staging / 'old' / relative
                kept.parent.mkdir(parents=True, exist_ok=True)
                os.replace(target, kept)
            done.append([target, kept, False])
            if relative in files:
                _make_parents(target, folder, created)
                os.replace(staging / 'new' / relative, target)
                done[-1][2] = True
        for relative in remove:  # folders emptied by a removal go too
            for parent in (folder / relative).parents:
                if parent == folder or _not_empty(parent):
                    break
                parent.rmdir()
        return [folder / relative for relative in files]
    except OSError as error:
        _roll_back(done)
        _remove(staging)
        for created_folder in created:  # innermost first; only if nothing else is in it
            try:
                created_folder.rmdir()
            except OSError:
                pass
        raise OutputError(f'cannot write {label}: {error.strerror or error} '
                          '(nothing was changed)') from None
    finally:
        _remove(staging)


def _remove(staging: Path | None) -> None:
    if staging is not None:
        shutil.rmtree(staging, ignore_errors=True)


def _not_empty(path: Path) -> bool:
    return not path.is_dir() or any(path.iterdir())


def _make_parents(path: Path, top: Path, created: list) -> None:
    """Create ``path``'s missing parent folders below ``top``, remembering them (for the roll
    back)."""
    missing = []
    for parent in path.parents:
        if parent == top or parent.exists():
            break
        missing.append(parent)
    path.parent.mkdir(parents=True, exist_ok=True)
    created[:0] = missing  # innermost first


def _roll_back(done: list) -> None:
    """Put the old files back where new ones went."""
    for target, kept, placed in reversed(done):
        try:
            if placed:
                target.unlink()
            if kept is not None:
                os.replace(kept, target)
        except OSError:
            pass  # best effort: the original error is what gets reported
