"""Writing outputs so that a failure leaves nothing half-written and nothing overwritten."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from .errors import OutputError


def write_text_atomically(path: Path, text: str) -> None:
    """Replace ``path`` in one step: write a sibling temporary file, then rename it."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as error:
        raise _cannot_write(path, error) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise _cannot_write(path, error) from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_files_atomically(folder: Path, files: dict[str, bytes]) -> list[Path]:
    """Write every file (relative path -> bytes) into ``folder``, or none of them.

    Everything is first written to a staging folder beside ``folder``; only when all of it
    is there are the files moved into place. Files of ``folder`` not named in ``files`` are
    left alone.
    """
    folder = Path(folder)
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.staging.", dir=folder.parent))
    except OSError as error:
        raise _cannot_write(folder, error) from None
    try:
        for relative, data in files.items():
            target = staging / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        for relative in files:
            target = folder / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(staging / relative, target)
            written.append(target)
        return written
    except OSError as error:
        raise _cannot_write(folder, error) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _cannot_write(path: Path, error: OSError) -> OutputError:
    return OutputError(f"cannot write {path}: {error.strerror or error}")
