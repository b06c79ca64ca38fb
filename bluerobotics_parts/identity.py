"""Content identity of a description folder, and the rules its file list must follow.

A description is a folder with ``description_manifest.json`` listing its files. Its identity
is one SHA-256 over the manifest and every listed file, so a log line or a recorded bag can
name exactly which vehicle description was used, and ``verify`` can tell whether a folder
still is that description. The rules keep a listed path inside the folder and unambiguous.

Everything here works on bytes and paths only (no part data, no URDF), so the identity of a
folder can be checked by anyone holding this algorithm:

1. entries: the manifest (path ``description_manifest.json``) plus every listed file, each
   as its path and the SHA-256 of its bytes;
2. sorted by path bytes;
3. SHA-256 over: the ASCII domain + one 0x00 byte; the entry count as big-endian uint64;
   per entry the path length (big-endian uint64), the path bytes, the 32-byte digest;
4. written ``sha256:`` + 64 lowercase hex digits.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
import re
import stat

from .errors import BlueRoboticsPartsError

MANIFEST_FILE = 'description_manifest.json'
SCHEMA = 'bluerobotics_parts.description-manifest.v1'
DOMAIN = b'bluerobotics_parts.vehicle-description.identity.v1'
IDENTITY_PATTERN = re.compile(r'^sha256:[0-9a-f]{64}$')


class DescriptionError(BlueRoboticsPartsError):
    """A description folder (or file set) that breaks a file rule or its expected identity."""


# -- identity ----------------------------------------------------------------------------------

def identity_of(entries: dict[str, bytes]) -> str:
    """The identity of a file set: relative path -> bytes, the manifest included."""
    if MANIFEST_FILE not in entries:
        raise DescriptionError(f'a description needs its {MANIFEST_FILE} among the files '
                               'it is identified by')
    digests = {path: hashlib.sha256(data).digest() for path, data in entries.items()}
    return _identity_of_digests(digests)


def _identity_of_digests(digests: dict[str, bytes]) -> str:
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
    check_file_rules(manifest, directory)
    digests = {}
    for path in [MANIFEST_FILE, *manifest['files']]:
        try:
            digests[path] = _file_digest(directory / path)
        except OSError as error:
            raise DescriptionError(f'listed file {path!r} cannot be read in {directory}: '
                                   f'{error.strerror or error}') from None
    return _identity_of_digests(digests)


def _file_digest(path: Path) -> bytes:
    hasher = hashlib.sha256()
    with open(path, 'rb') as stream:
        for block in iter(lambda: stream.read(1 << 20), b''):
            hasher.update(block)
    return hasher.digest()


def check_identity_text(identity: str) -> str:
    """An identity as a user typed it (``--expect``), refused unless well-formed."""
    if not isinstance(identity, str) or not IDENTITY_PATTERN.match(identity):
        raise DescriptionError(f'identity {identity!r} is not of the form sha256: followed by '
                               '64 lowercase hex digits')
    return identity


# -- the manifest --------------------------------------------------------------------------------

def manifest_bytes(name: str, files) -> bytes:
    """The manifest file's exact bytes: compact JSON with sorted keys, one newline."""
    document = {'schema': SCHEMA, 'name': name, 'files': sorted(files)}
    text = json.dumps(document, sort_keys=True, separators=(',', ':'), ensure_ascii=False)
    return (text + '\n').encode('utf-8')


def read_manifest(directory: Path) -> dict:
    """The parsed manifest of a folder, refused unless it has the v1 shape."""
    path = Path(directory) / MANIFEST_FILE
    if not Path(directory).is_dir():
        raise DescriptionError(f'{directory}: not a folder (a description is a folder with '
                               f'{MANIFEST_FILE})')
    if not _is_regular_file(path):
        raise DescriptionError(f'{path}: missing or not a regular file; a description folder '
                               f'has its file list in {MANIFEST_FILE}')
    try:
        document = json.loads(path.read_bytes().decode('utf-8'),
                              object_pairs_hook=_refuse_duplicate_keys)
    except (UnicodeDecodeError, ValueError) as error:
        raise DescriptionError(f'{path}: not valid JSON: {error}') from None
    except RecursionError:
        raise DescriptionError(f'{path}: nested too deeply to be a manifest') from None
    except OSError as error:
        raise DescriptionError(f'{path}: cannot read: {error.strerror or error}') from None
    return parse_manifest(document, where=str(path))


def parse_manifest(document, where: str = MANIFEST_FILE) -> dict:
    """Check the manifest's shape: schema, name and a list of path strings, nothing else."""
    expected = {'schema', 'name', 'files'}
    if not isinstance(document, dict):
        raise DescriptionError(f'{where}: must be a JSON object with the keys schema, name, files')
    unknown = sorted(set(document) - expected)
    if unknown:
        raise DescriptionError(f'{where}: unknown key {unknown[0]!r}; valid keys: files, name, '
                               'schema')
    if document.get('schema') != SCHEMA:
        raise DescriptionError(f"{where}: schema is {document.get('schema')!r}; this version "
                               f'reads {SCHEMA!r}')
    if not isinstance(document.get('name'), str) or not document['name']:
        raise DescriptionError(f'{where}: name must be the vehicle name (a non-empty string)')
    files = document.get('files')
    if not isinstance(files, list) or not all(isinstance(p, str) for p in files):
        raise DescriptionError(f'{where}: files must be a list of relative paths (strings)')
    return document


def _refuse_duplicate_keys(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f'duplicate key {key!r}')
        seen[key] = value
    return seen


# -- file rules ------------------------------------------------------------------------------------

def check_paths(files) -> None:
    """The rules on the listed names alone: relative, forward slashes, no ``.``/``..``
    segment, no duplicates, and not the manifest itself."""
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
    """One listed path: non-empty, relative, ``/``-separated, no empty, ``.`` or ``..`` segment."""
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
    """All file rules of a folder: the name rules, then every listed entry is a regular file
    inside the folder (no symbolic link anywhere on its way, no folder)."""
    manifest = parse_manifest(manifest)
    check_paths(manifest['files'])
    directory = Path(directory)
    for path in manifest['files']:
        problem = _entry_problem(directory, path)
        if problem:
            raise DescriptionError(f'listed file {path!r} {problem} in {directory}; every '
                                   'listed entry must be a regular file in the folder')


def _entry_problem(directory: Path, path: str) -> str | None:
    current = directory
    segments = path.split('/')
    for index, segment in enumerate(segments):
        current = current / segment
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError:
            return 'is missing'
        except NotADirectoryError:
            return 'is missing (a parent is not a folder)'
        except OSError as error:  # a name too long, no permission, ...
            return f'cannot be looked at ({error.strerror or error})'
        if stat.S_ISLNK(mode):
            where = 'is' if index == len(segments) - 1 else f"goes through {'/'.join(segments[:index + 1])!r}, which is"
            return f'{where} a symbolic link'
        last = index == len(segments) - 1
        if last and not stat.S_ISREG(mode):
            return 'is a folder' if stat.S_ISDIR(mode) else 'is not a regular file'
        if not last and not stat.S_ISDIR(mode):
            return f"is missing ({'/'.join(segments[:index + 1])!r} is not a folder)"
    return None


def _is_regular_file(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False
