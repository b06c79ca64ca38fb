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
Reading input files without letting them hang or exhaust a command.

Every file a command reads on a user's behalf (configs, part files, URDFs, meshes, exported
descriptions) comes through here: it must be a regular file (not a FIFO, which would block
forever; not a device such as /dev/zero, which never ends; not a folder) of at most a stated
size, checked on the open descriptor before the first byte is read.
"""

from __future__ import annotations

import os
from pathlib import Path
import stat

from ..errors import InputError

MIB = 1024 * 1024
#: Configs and part files: a real one is a few kilobytes; 10 MiB leaves room for thousands
#: of generated placements and still parses in seconds.
YAML_LIMIT = 10 * MIB
#: URDFs handed to check_assembly, bridge and verify.
URDF_LIMIT = 64 * MIB
#: One mesh file, copied into an export or hashed by verify.
MESH_LIMIT = 256 * MIB
#: Small JSON documents (an export's manifest).
JSON_LIMIT = 10 * MIB


def file_kind(mode: int) -> str:
    """Name what a file mode describes, for messages ('a FIFO', 'a directory', ...)."""
    for test, name in ((stat.S_ISDIR, 'a directory'), (stat.S_ISFIFO, 'a FIFO (named pipe)'),
                       (stat.S_ISCHR, 'a character device'), (stat.S_ISBLK, 'a block device'),
                       (stat.S_ISSOCK, 'a socket'), (stat.S_ISLNK, 'a symbolic link'),
                       (stat.S_ISREG, 'a regular file')):
        if test(mode):
            return name
    return 'not a regular file'


def open_checked(path, limit: int, what: str = 'file') -> tuple:
    """
    Return (an open descriptor, its size) of ``path``, a regular file of at most ``limit`` bytes.

    The file is opened without blocking (a FIFO would otherwise wait for a writer forever)
    and checked on its descriptor, so what is checked is what is read. The caller closes it.
    """
    flags = os.O_RDONLY | getattr(os, 'O_NONBLOCK', 0) | getattr(os, 'O_CLOEXEC', 0)
    try:
        descriptor = os.open(path, flags)
    except FileNotFoundError:
        raise InputError('no such file', file=str(path)) from None
    except OSError as error:
        raise InputError(f'{what}: cannot open: {error.strerror or error}',
                         file=str(path)) from None
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f'{what} is {file_kind(info.st_mode)}, not a regular file; '
                             'name a file', file=str(path))
        if info.st_size > limit:
            raise InputError(f'{what} is {info.st_size:,} bytes, more than the limit of '
                             f'{limit:,} bytes', file=str(path))
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor, info.st_size


def read_bytes(path, limit: int, what: str = 'file') -> bytes:
    """Return the bytes of ``path``, a regular file of at most ``limit`` bytes (open_checked)."""
    path = Path(path)
    descriptor, _ = open_checked(path, limit, what)
    try:
        chunks, size = [], 0
        while size <= limit:  # the file may grow while we read: never read past the limit
            chunk = os.read(descriptor, min(1 * MIB, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise InputError(f'{what} grew past the limit of {limit:,} bytes while being '
                             'read', file=str(path))
        return b''.join(chunks)
    except OSError as error:
        raise InputError(f'{what}: cannot read: {error.strerror or error}',
                         file=str(path)) from None
    finally:
        os.close(descriptor)


def read_text(path, limit: int, what: str = 'file') -> str:
    """Return the UTF-8 text of ``path`` (see ``read_bytes``)."""
    data = read_bytes(path, limit, what)
    try:
        return data.decode('utf-8')
    except UnicodeDecodeError as error:
        line = data.count(b'\n', 0, error.start) + 1
        column = error.start - (data.rfind(b'\n', 0, error.start) + 1) + 1
        raise InputError(f'{what} is not UTF-8 text: byte {data[error.start]:#04x} at column '
                         f'{column} (save the file as UTF-8)', file=str(path),
                         line=line) from None
