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
Reusing a build whose inputs have not changed, keyed by their content.

An entry is keyed by the SHA-256 of the request (the config's bytes and path, vehicle name,
Gazebo release, current) and of the package's code and data; it records the digest of every
user file the build read, and its own. Anything but an intact entry whose files are unchanged
is a miss, rebuilt and replaced. Entries are JSON (never code) in ``folder()``, which is made
private to the user; an entry another user could have written (owner, or a folder or file
others may write) is never read, and what one holds is data each result type checks field by
field (``from_data``). ``BLUEROBOTICS_PARTS_CACHE=off`` turns the cache off. Nothing of the
pipeline is imported here, so a hit costs hashing, not resolving.
"""

from __future__ import annotations

from functools import lru_cache
import hashlib
import importlib.machinery
import json
import os
from pathlib import Path
import stat
import sys

from .. import __version__, paths
from ..errors import InputError
from ..files.inputs import MESH_LIMIT, read_bytes, URDF_LIMIT, YAML_LIMIT

FORMAT = 'bluerobotics_parts.build-cache.v1'
SWITCH_ENV = 'BLUEROBOTICS_PARTS_CACHE'
OFF = ('0', 'off', 'false', 'no')
#: What the package's own fingerprint covers: its code and the data a build reads.
PACKAGE_FOLDERS = ('urdf', 'meshes')
#: A cached entry is at most this large (a 3,000-part URDF is a few MB).
ENTRY_LIMIT = URDF_LIMIT
#: The launch's cache under ``$ROS_HOME/bluerobotics_parts``, beside a folder per vehicle name
#: (ros/launch/artefacts.py): a vehicle name starts with a letter (formats/config.py,
#: NAME_PATTERN), so no vehicle, ``cache`` included, writes its artefacts into it.
LAUNCH_FOLDER = '.cache'


def folder(environ=None, launch: bool = False) -> Path | None:
    """Return the cache folder, or None when the cache is off (``SWITCH_ENV``)."""
    environ = os.environ if environ is None else environ
    if environ.get(SWITCH_ENV, '').strip().lower() in OFF:
        return None
    if launch:
        ros_home = environ.get('ROS_HOME') or str(Path.home() / '.ros')
        return Path(ros_home) / paths.PACKAGE / LAUNCH_FOLDER
    base = environ.get('XDG_CACHE_HOME') or str(Path.home() / '.cache')
    return Path(base) / paths.PACKAGE


@lru_cache(maxsize=None)
def package_fingerprint() -> str:
    """Return the SHA-256 of the package's code and data (read once per process)."""
    digest = hashlib.sha256()
    digest.update(f'{__version__}\0{sys.version}\0'.encode())
    code = paths.code_dir()
    share = paths.share_dir()
    roots = [('code', code)] + [(name, share / name) for name in PACKAGE_FOLDERS]
    # PyYAML's dumper writes the effective config an identity covers: its Python code counts
    # (found without the cost of importing it, or importlib.util; its version is in
    # __init__.py, so its compiled parser, 2.7 MB, is left out)
    spec = importlib.machinery.PathFinder.find_spec('yaml')
    if spec is not None and spec.submodule_search_locations:
        roots += [('yaml', Path(folder)) for folder in spec.submodule_search_locations]
    digest.update(f'{share}\0'.encode())
    for label, root in roots:
        for relative in _files_under(str(root)):
            if label == 'yaml' and not relative.endswith('.py'):
                continue
            digest.update(f'{label}/{relative}\0'.encode())
            with open(os.path.join(root, relative), 'rb') as file:
                digest.update(hashlib.sha256(file.read()).digest())
    return digest.hexdigest()


def _files_under(root: str, prefix: str = '', seen=None) -> list[str]:
    """
    Return the relative paths of the files under ``root``, sorted, no bytecode.

    Symbolic links are followed (``colcon build --symlink-install`` installs the share
    folder as links to the sources), each folder once.
    """
    seen = set() if seen is None else seen
    here = os.path.join(root, prefix) if prefix else root
    real = os.path.realpath(here)
    if real in seen:
        return []
    seen.add(real)
    found = []
    with os.scandir(here) as entries:
        for entry in sorted(entries, key=lambda e: e.name):
            relative = f'{prefix}{entry.name}'
            if entry.is_dir() and entry.name != '__pycache__':
                found += _files_under(root, relative + '/', seen)
            elif entry.is_file():
                found.append(relative)
    return found


def request_key(config, name, gz_release, current, purpose: str = 'build',
                extra=None) -> str | None:
    """
    Return the key of a build request; None for a config that cannot be read.

    ``config``: a config file's path, or None for the shipped BlueBoat. (The build then says
    why the config cannot be read.) ``purpose``: whose result it is (``build``, ``launch``:
    they store different things); ``extra``: anything else the result depends on.
    """
    path = paths.default_config() if config is None else Path(config)
    try:  # the bytes at the path as the build opens it (a link and .. resolve as the system does)
        data = read_bytes(path, YAML_LIMIT, 'config')
    except InputError:
        return None
    # the path as the resolution takes relative part files from (Config.folder_text)
    request = {'config': str(path.absolute()) if config is not None else None,
               'config_sha256': hashlib.sha256(data).hexdigest(), 'name': name,
               'gz_release': gz_release, 'current': current, 'purpose': purpose,
               'extra': extra, 'package': package_fingerprint()}
    text = json.dumps(request, sort_keys=True, default=str)
    return hashlib.sha256(f'{FORMAT}\0{text}'.encode()).hexdigest()


def file_digests(files) -> dict[str, str]:
    """Return path -> SHA-256 of each file (the user files an entry records)."""
    found = {}
    for file in files:
        found[str(file)] = hashlib.sha256(read_bytes(file, MESH_LIMIT, 'file')).hexdigest()
    return found


def digests_read(files: dict, sources: dict) -> dict[str, str]:
    """
    Return source path -> SHA-256 of the bytes a build read from it.

    ``files``: an export's file set (path -> bytes, export.description_sources), ``sources``:
    exported path -> the user file it came from. The bytes, not the file now: a file edited
    while the build ran must not be recorded with a digest the result was not built from.
    """
    return {str(source): hashlib.sha256(files[relative]).hexdigest()
            for relative, source in sources.items()}


def reuse(where: Path | None, request: tuple, make, kind, fits=None):
    """
    Return the cached result of ``request`` (request_key's arguments), or ``make()`` it.

    ``make`` returns (result, files_read: digests_read's); the result is stored as
    ``result.to_data()`` unless the config changed while it ran. ``kind.from_data`` turns a
    stored entry back into a result, or None for one that is not of its shape; ``fits(result)``
    says whether it answers this request. Either way a misfit is rebuilt and replaced.
    """
    key = request_key(*request) if where is not None else None
    data = load(where, key)
    made = kind.from_data(data) if data is not None else None
    if made is not None and fits is not None and not fits(made):
        made = None
    if made is None:
        made, files_read = make()
        if key and request_key(*request) == key:
            store(where, key, files_read, made.to_data())
    return made


def load(where: Path | None, key: str | None) -> dict | None:
    """Return the cached result for ``key``: None on a miss, a stale or a damaged entry."""
    if where is None or key is None or not (_trusted(where, stat.S_ISDIR)
                                            and _trusted(where / f'{key}.json', stat.S_ISREG)):
        return None
    try:
        entry = json.loads(read_bytes(where / f'{key}.json', ENTRY_LIMIT, 'cache entry'))
    except (InputError, ValueError, RecursionError):  # deep nesting is damage too
        return None
    if not isinstance(entry, dict) or entry.get('format') != FORMAT or entry.get('key') != key:
        return None
    body = {k: v for k, v in entry.items() if k != 'check'}
    if entry.get('check') != _check(body):
        return None  # damaged or edited: rebuilt, never used
    recorded = entry.get('files')
    if not isinstance(recorded, dict):
        return None
    try:
        if file_digests(recorded) != recorded:
            return None  # a user file changed (or is gone): stale
    except InputError:
        return None
    return entry.get('result')


def store(where: Path | None, key: str, files: dict, result: dict) -> None:
    """Write an entry, all or nothing; a cache that cannot be written is no error."""
    if where is None:
        return
    from ..errors import OutputError
    from ..files.atomic import write_files_atomically

    body = {'format': FORMAT, 'key': key, 'files': files, 'result': result}
    body['check'] = _check(body)
    data = json.dumps(body).encode('utf-8')
    if len(data) > ENTRY_LIMIT:
        return  # load would refuse it
    try:  # private, whatever the umask: only its user writes (and reads) entries
        os.makedirs(where, mode=0o700, exist_ok=True)
        if os.lstat(where).st_uid == os.geteuid():
            os.chmod(where, 0o700)
        write_files_atomically(where, {f'{key}.json': data})
        os.chmod(where / f'{key}.json', 0o600)
    except (OutputError, OSError):
        pass


def _trusted(path: Path, kind) -> bool:
    """
    Return whether ``path`` is of ``kind`` (not a link), the user's, and theirs alone to change.

    An entry anyone else could have written is not read.
    """
    try:
        status = os.lstat(path)
    except OSError:
        return False
    return (kind(status.st_mode) and status.st_uid == os.geteuid()
            and not status.st_mode & (stat.S_IWGRP | stat.S_IWOTH))


def _check(body: dict) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode('utf-8')).hexdigest()
