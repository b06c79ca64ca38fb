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
Content identity of a description folder, and the rules its files must follow.

``description_manifest.json`` lists the folder's files with the SHA-256 of each; the identity
is one SHA-256 over the manifest and every listed file, so a log line or a recorded bag names
exactly which description was used, and ``verify`` names a file that changed. The rules keep
listed paths inside the folder, unambiguous, and free of symbolic links. Bytes and paths only
(no part data, no URDF): anyone holding the algorithm (``identity_of_digests``) and the
manifest layout (``manifest_bytes``) can check an identity.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
import re
import stat

from ..errors import DescriptionError, InputError
from ..files.inputs import file_kind, JSON_LIMIT, MESH_LIMIT, read_bytes

MANIFEST_FILE = 'description_manifest.json'
SCHEMA = 'bluerobotics_parts.description-manifest.v2'
SCHEMA_V1 = 'bluerobotics_parts.description-manifest.v1'
DOMAIN = b'bluerobotics_parts.vehicle-description.identity.v1'
IDENTITY_PATTERN = re.compile(r'^sha256:[0-9a-f]{64}$')
DIGEST_PATTERN = re.compile(r'^[0-9a-f]{64}$')
#: The largest listed file read (a mesh is the largest kind of file a description holds).
LISTED_FILE_LIMIT = MESH_LIMIT


# -- identity ----------------------------------------------------------------------------------

def identity_of(entries: dict[str, bytes]) -> str:
    """Return the identity of a file set: relative path -> bytes, the manifest included."""
    if MANIFEST_FILE not in entries:
        raise DescriptionError(f'a description needs its {MANIFEST_FILE} among the files '
                               'it is identified by')
    digests = {path: hashlib.sha256(data).digest() for path, data in entries.items()}
    return identity_of_digests(digests)


def identity_of_digests(digests: dict[str, bytes]) -> str:
    """
    Return the identity of entries given as path -> 32-byte SHA-256 digest.

    The algorithm:

    1. entries: the manifest (path ``description_manifest.json``) plus every listed file, each
       as its path and the SHA-256 of its bytes;
    2. sorted by path bytes;
    3. SHA-256 over: the ASCII domain + one 0x00 byte; the entry count as big-endian uint64;
       per entry the path length (big-endian uint64), the path bytes, the 32-byte digest;
    4. written ``sha256:`` + 64 lowercase hex digits.
    """
    encoded = sorted((path.encode('utf-8'), digest) for path, digest in digests.items())
    hasher = hashlib.sha256()
    hasher.update(DOMAIN + b'\x00')
    hasher.update(len(encoded).to_bytes(8, 'big'))
    for path, digest in encoded:
        hasher.update(len(path).to_bytes(8, 'big'))
        hasher.update(path)
        hasher.update(digest)
    return 'sha256:' + hasher.hexdigest()


def folder_identity(directory: Path) -> str:
    """Read the folder's manifest, check the file rules, and return its identity."""
    directory = Path(directory)
    manifest = read_manifest(directory)
    return identity_of_digests(folder_digests(directory, manifest))


def folder_digests(directory: Path, manifest: dict) -> dict[str, bytes]:
    """
    Return the SHA-256 of the manifest and of every listed file, by path.

    The file rules are checked first; every file is read through ``inputs`` (a regular file
    of bounded size).
    """
    directory = Path(directory)
    check_file_rules(manifest, directory)
    digests = {}
    for path in [MANIFEST_FILE, *manifest['files']]:
        try:
            data = read_bytes(directory / path, LISTED_FILE_LIMIT, 'listed file')
        except InputError as error:
            raise DescriptionError(f'listed file {path!r} cannot be read in {directory}: '
                                   f'{error.message}') from None
        digests[path] = hashlib.sha256(data).digest()
    return digests


def check_recorded_digests(manifest: dict, digests: dict[str, bytes], directory) -> None:
    """Refuse a folder whose listed files differ from the digests its manifest records."""
    recorded = manifest.get('sha256')
    if recorded is None:
        raise DescriptionError(
            f'{directory}: {MANIFEST_FILE} has schema {manifest["schema"]}, which records no '
            'digests, so its files cannot be checked on their own; export it again with this '
            'version, or check it against its identity with --expect')
    for path in manifest['files']:
        if digests[path].hex() != recorded[path]:
            raise DescriptionError(
                f'{directory}: {path} was changed: its SHA-256 is {digests[path].hex()}, '
                f'{MANIFEST_FILE} records {recorded[path]}')


def check_identity_text(identity: str) -> str:
    """Return an identity as a user typed it (``--expect``), refused unless well-formed."""
    if not isinstance(identity, str) or not IDENTITY_PATTERN.match(identity):
        raise DescriptionError(f'identity {identity!r} is not of the form sha256: followed by '
                               '64 lowercase hex digits')
    return identity


# -- the manifest ----------------------------------------------------------------------------

def manifest_bytes(name: str, files: dict[str, bytes], gz_release: str) -> bytes:
    """
    Return the manifest's exact bytes for ``files`` (relative path -> bytes).

    The manifest (schema v2) is compact JSON with sorted keys and one final newline::

        {"files":{"bridge.yaml":"<64 hex>",...},"gz_release":"harmonic","name":"blueboat",
         "schema":"bluerobotics_parts.description-manifest.v2"}
    """
    document = {'schema': SCHEMA, 'name': name, 'gz_release': gz_release,
                'files': {path: hashlib.sha256(data).hexdigest()
                          for path, data in sorted(files.items())}}
    text = json.dumps(document, sort_keys=True, separators=(',', ':'), ensure_ascii=False)
    return (text + '\n').encode('utf-8')


def read_manifest(directory: Path) -> dict:
    """
    Return the parsed manifest of a folder, refused unless it has the v2 (or v1) shape.

    The result has ``schema``, ``name``, ``files`` (the listed paths), ``sha256`` (path ->
    hex digest; None for v1) and ``gz_release`` (None for v1).
    """
    path = Path(directory) / MANIFEST_FILE
    if not Path(directory).is_dir():
        what = 'not a folder' if Path(directory).exists() else 'no such folder'
        raise DescriptionError(f'{directory}: {what} (a description is a folder with '
                               f'{MANIFEST_FILE})')
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        raise DescriptionError(f'{path}: missing; a description folder has its file list in '
                               f'{MANIFEST_FILE}') from None
    if not stat.S_ISREG(mode):
        raise DescriptionError(f'{path}: is {file_kind(mode)}, not a regular file; a '
                               f'description folder has its file list in {MANIFEST_FILE}')
    try:
        document = json.loads(read_bytes(path, JSON_LIMIT, 'manifest').decode('utf-8'),
                              object_pairs_hook=_refuse_duplicate_keys)
    except InputError as error:
        raise DescriptionError(str(error)) from None
    except (UnicodeDecodeError, ValueError) as error:
        raise DescriptionError(f'{path}: not valid JSON: {error}') from None
    except RecursionError:
        raise DescriptionError(f'{path}: nested too deeply to be a manifest') from None
    return parse_manifest(document, where=str(path))


def parse_manifest(document, where: str = MANIFEST_FILE) -> dict:
    """
    Check the manifest's shape (schema v2 or v1) and return it in the v2 form.

    Schema v1 (``"files"`` a list of paths, no digests, no release) is still read, so the
    identity of an older folder can be computed, but it cannot be verified without ``--expect``.
    """
    if not isinstance(document, dict):
        raise DescriptionError(f'{where}: must be a JSON object with the keys files, '
                               'gz_release, name, schema')
    if document.get('schema') == SCHEMA_V1:
        return _parse_v1(document, where)
    if document.get('schema') != SCHEMA:
        raise DescriptionError(f"{where}: schema is {document.get('schema')!r}; this version "
                               f'reads {SCHEMA!r} (and {SCHEMA_V1!r})')
    _known_keys(document, ('files', 'gz_release', 'name', 'schema'), where)
    _check_name(document, where)
    if not isinstance(document.get('gz_release'), str) or not document['gz_release']:
        raise DescriptionError(f'{where}: gz_release must name the Gazebo release the '
                               'description was composed for (a non-empty string)')
    files = document.get('files')
    if not isinstance(files, dict) or not all(
            isinstance(digest, str) and DIGEST_PATTERN.match(digest) for digest in files.values()):
        raise DescriptionError(f'{where}: files must map each relative path to the SHA-256 of '
                               'its bytes (64 lowercase hex digits)')
    return {'schema': SCHEMA, 'name': document['name'], 'gz_release': document['gz_release'],
            'files': list(files), 'sha256': dict(files)}


def _parse_v1(document: dict, where: str) -> dict:
    _known_keys(document, ('files', 'name', 'schema'), where)
    _check_name(document, where)
    files = document.get('files')
    if not isinstance(files, list) or not all(isinstance(p, str) for p in files):
        raise DescriptionError(f'{where}: files must be a list of relative paths (strings)')
    return {'schema': SCHEMA_V1, 'name': document['name'], 'gz_release': None,
            'files': list(files), 'sha256': None}


def _known_keys(document: dict, expected: tuple, where: str) -> None:
    unknown = sorted(set(document) - set(expected))
    if unknown:
        raise DescriptionError(f'{where}: unknown key {unknown[0]!r}; valid keys: '
                               f"{', '.join(expected)}")


def _check_name(document: dict, where: str) -> None:
    if not isinstance(document.get('name'), str) or not document['name']:
        raise DescriptionError(f'{where}: name must be the vehicle name (a non-empty string)')


def _refuse_duplicate_keys(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f'duplicate key {key!r}')
        seen[key] = value
    return seen


# -- file rules ----------------------------------------------------------------------------

def check_paths(files) -> None:
    """
    Check the rules on the listed names alone.

    Relative, forward slashes, no ``.``/``..`` segment, no duplicates, and not the manifest
    itself.
    """
    seen = set()
    for path in files:
        check_path(path)
        if path == MANIFEST_FILE:
            raise DescriptionError(f'listed file {path!r}: the manifest must not list itself '
                                   '(it is always part of the identity)')
        if path in seen:
            raise DescriptionError(f'listed file {path!r} is listed twice; list each file once')
        seen.add(path)


def check_path(path: str) -> None:
    """Check one listed path: non-empty, relative, ``/``-separated, no ``.``/``..`` segment."""
    if not isinstance(path, str) or path == '':
        raise DescriptionError("listed file '': an empty path; list paths relative to the "
                               'description folder, e.g. meshes/part/part.stl')
    if '\\' in path:
        raise DescriptionError(f'listed file {path!r} contains a backslash; separate folders '
                               'with / (e.g. meshes/part/part.stl)')
    if path.startswith('/'):
        raise DescriptionError(f'listed file {path!r} is absolute; list paths relative to the '
                               'description folder')
    for segment in path.split('/'):
        if segment in ('.', '..'):
            raise DescriptionError(f'listed file {path!r} has a {segment!r} segment; list plain '
                                   'paths inside the description folder')
        if segment == '':
            raise DescriptionError(f'listed file {path!r} has an empty segment (// or a '
                                   'trailing /); list plain file paths')
    if '\x00' in path:
        raise DescriptionError(f'listed file {path!r} contains a NUL byte')
    try:
        path.encode('utf-8')
    except UnicodeEncodeError:
        raise DescriptionError(f'listed file {path!r} is not valid Unicode text; list UTF-8 '
                               'file names') from None


def check_file_rules(manifest: dict, directory: Path) -> None:
    """
    Check every file rule of a folder's listed entries.

    The name rules, then every listed entry is a regular file inside the folder (no symbolic
    link anywhere on its way, no folder).
    """
    check_paths(manifest['files'])
    directory = Path(directory)
    for path in manifest['files']:
        problem = _entry_problem(directory, path)
        if problem:
            raise DescriptionError(f'listed file {path!r} {problem} in {directory}; every '
                                   'listed entry must be a regular file in the folder')


def check_folder_entries(directory: Path) -> None:
    """
    Refuse a description folder holding anything but regular files and folders.

    Listed or not (provenance): a symbolic link could make a later export or a loader reach
    outside the folder, and a FIFO or device is never part of a description.
    """
    for relative, mode in walk(directory):
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            raise DescriptionError(
                f'{Path(directory) / relative} is {file_kind(mode)}; a description folder '
                'holds only regular files and folders (move it out or replace it by a copy)')


def walk(directory: Path):
    """
    Yield (relative path, lstat mode) of everything below ``directory``, never following links.

    Folders come before their contents; siblings in name order. Iterative, so depth is no
    limit.
    """
    directory = Path(directory)
    pending = ['']
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(directory / folder if folder else directory) as entries:
                found = sorted((entry.name, entry.stat(follow_symlinks=False).st_mode)
                               for entry in entries)
        except OSError as error:
            raise DescriptionError(f'{directory / folder}: cannot be listed: '
                                   f'{error.strerror or error}') from None
        for name, mode in reversed(found):
            relative = f'{folder}/{name}' if folder else name
            if stat.S_ISDIR(mode):
                pending.append(relative)
        for name, mode in found:
            yield (f'{folder}/{name}' if folder else name), mode


def _entry_problem(directory: Path, path: str) -> str | None:
    current = directory
    segments = path.split('/')
    for index, segment in enumerate(segments):
        current = current / segment
        last = index == len(segments) - 1
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError:
            return 'is missing'
        except NotADirectoryError:
            return 'is missing (a parent is not a folder)'
        except OSError as error:  # a name too long, no permission, ...
            return f'cannot be looked at ({error.strerror or error})'
        if stat.S_ISLNK(mode):
            through = '/'.join(segments[:index + 1])
            return 'is a symbolic link' if last else \
                f'goes through {through!r}, which is a symbolic link'
        if last and not stat.S_ISREG(mode):
            return 'is a folder' if stat.S_ISDIR(mode) else f'is {file_kind(mode)}'
        if not last and not stat.S_ISDIR(mode):
            return f"is missing ({'/'.join(segments[:index + 1])!r} is not a folder)"
    return None
