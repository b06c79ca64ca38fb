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
A built vehicle as a self-contained description folder with a content identity.

The folder (``description_files``; docs/EXPORTS.md) names every mesh and user part file by its
path in the folder, so it loads with ``package://bluerobotics_parts`` pointed at it, builds
anywhere, and its identity (identity.py) does not depend on where the inputs were.
``description_files`` builds the exact file set in memory, ``description_identity`` hashes it
without writing, and ``export`` writes those same bytes in one step (folder_swap.py).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
import hashlib
from itertools import zip_longest
import os
from pathlib import Path, PurePosixPath
import stat
from xml.etree import ElementTree

import yaml

from .folder_swap import replace_folder
from .identity import (check_file_rules, check_folder_entries, check_identity_text, check_path,
                       check_paths, check_recorded_digests, folder_digests, identity_of,
                       identity_of_digests, manifest_bytes, MANIFEST_FILE, read_manifest, SCHEMA)
from .. import paths
from ..assembly.urdf_writer import urdf_text
from ..errors import BlueRoboticsPartsError, DescriptionError, InputError
from ..files.atomic import check_folder_holds_no_inputs, check_output_folder
from ..files.inputs import MESH_LIMIT, read_bytes

URDF_FILE = 'robot.urdf'
CONFIG_FILE = 'config.yaml'
BRIDGE_FILE = 'bridge.yaml'
#: The files every description has, besides its manifest.
REQUIRED_FILES = (URDF_FILE, CONFIG_FILE, BRIDGE_FILE)
SHIPPED_MESH_FOLDER = 'meshes'
USER_PARTS_FOLDER = 'user_parts'
MESH_URI_PREFIX = paths.PACKAGE_URI + SHIPPED_MESH_FOLDER + '/'
FILE_URI = 'file://'


# -- the file set ------------------------------------------------------------------------------

def description_files(build) -> dict[str, bytes]:
    """
    Return every file of the exported description (relative path -> bytes), manifest included.

    Everything is read and checked against the file rules here, before anything is written.
    ``robot.urdf`` (with the Gazebo blocks), ``config.yaml`` (the effective config),
    ``bridge.yaml``, every mesh the URDF references, the user's part files, and
    ``description_manifest.json`` listing them with their digests (identity.py)::

        robot.urdf  config.yaml  bridge.yaml  description_manifest.json
        meshes/<part type>/<file>            shipped meshes, as in the package's share folder
        user_parts/<part type>/<part file>   a user's part file, unchanged
        user_parts/<part type>/<mesh path>   its meshes, at the paths the part file names
    """
    return description_sources(build)[0]


def description_sources(build) -> tuple[dict[str, bytes], dict[str, Path]]:
    """
    Return the description's files and, for each user file in it, the file it came from.

    (relative path -> bytes, as ``description_files``; relative path -> the user's part file
    or mesh it is the bytes of.) The build cache records those bytes' digests.
    """
    user_parts = _user_part_files(build)
    root = copy.deepcopy(build.tree)  # the build's own tree, re-pointed here (never parsed)
    for record in root.findall('assembly_part_file'):
        record.set('path', user_parts[record.get('type')][0])
    meshes, mesh_sources = _export_meshes(root, build, user_parts)
    files = {URDF_FILE: urdf_text(root).encode('utf-8'),
             CONFIG_FILE: effective_config_text(build, user_parts).encode('utf-8'),
             BRIDGE_FILE: build.bridge_yaml.encode('utf-8')}
    files.update(meshes)
    for type_name, (exported, _) in user_parts.items():  # the text the build read, once
        files[exported] = build.catalogue[type_name].source.encode('utf-8')
    check_paths(files)
    check_mesh_references(root, set(files))
    files[MANIFEST_FILE] = manifest_bytes(build.name, files, build.gz_release)
    sources = dict(user_parts.values())
    sources.update({relative: source for relative, source in mesh_sources.items()
                    if relative.startswith(USER_PARTS_FOLDER + '/')})
    return dict(sorted(files.items())), sources


def description_identity(build) -> str:
    """Return the identity ``export`` would give this build (in memory, nothing written)."""
    return identity_of(description_files(build))


def effective_config_text(build, user_parts: dict | None = None) -> str:
    """
    Return the config as resolved: the user's data with the vehicle name actually used.

    Part files are named by their path in the exported folder, so the file rebuilds the same
    vehicle from there, wherever the folder is.
    """
    user_parts = _user_part_files(build) if user_parts is None else user_parts
    data = dict(build.resolved.config.data)
    if 'name' in data:
        data['name'] = build.name
    else:
        data = {'name': build.name, **data}
    if data.get('part_files'):
        data['part_files'] = [user_parts[type_name][0]
                              for type_name, _ in build.resolved.record.part_files]
    return yaml.dump(data, Dumper=_ConfigDumper, sort_keys=False, default_flow_style=False,
                     allow_unicode=True)


class _ConfigDumper(yaml.SafeDumper):
    """Block style, except lists of plain values (xyz, accepts) on one line as users write."""

    def represent_list(self, data):
        flat = all(not isinstance(item, (dict, list)) for item in data)
        return self.represent_sequence('tag:yaml.org,2002:seq', data, flow_style=flat or None)


_ConfigDumper.add_representer(list, _ConfigDumper.represent_list)


def _user_part_files(build) -> dict[str, tuple[str, Path]]:
    """Return part type -> (its part file's path in the export, the file it is copied from)."""
    found = {}
    for type_name, source in build.resolved.record.part_files:
        exported = f'{USER_PARTS_FOLDER}/{type_name}/{Path(source).name}'
        try:
            check_path(exported)
        except DescriptionError as error:
            raise DescriptionError(f'part type {type_name}: part file {source}: {error}') \
                from None
        found[type_name] = (exported, Path(source))
    return found


def _export_meshes(root: ElementTree.Element, build, user_parts: dict) -> tuple[dict, dict]:
    """
    Re-point every mesh of the URDF tree into the folder.

    Return the mesh files by path, and the file each comes from.
    """
    owners = {id(mesh): link.get('name', '') for link in root.iter('link')
              for mesh in link.iter('mesh')}
    sources: dict[str, tuple[Path, str]] = {}  # exported path -> (source file, part type)
    for mesh in root.iter('mesh'):
        uri = mesh.get('filename', '')
        part = build.resolved.record.part(owners.get(id(mesh), ''))
        part_type = part.type if part else '(no part)'
        relative, source = _exported_mesh(uri, part_type, user_parts)
        try:
            check_path(relative)
        except DescriptionError as error:
            raise DescriptionError(f'part type {part_type}: mesh {uri!r}: {error}') from None
        earlier = sources.get(relative)
        if earlier and earlier[0] != source:
            raise DescriptionError(
                f'part type {part_type}: meshes {earlier[0]} and {source} would both be '
                f"exported as {relative}; give the part's mesh files distinct names")
        sources[relative] = (source, part_type)
        mesh.set('filename', paths.PACKAGE_URI + relative)
    files = {relative: _read(source, MESH_LIMIT, f'part type {part_type}: mesh', relative)
             for relative, (source, part_type) in sources.items()}
    return files, {relative: source for relative, (source, _) in sources.items()}


def _exported_mesh(uri: str, part_type: str, user_parts: dict) -> tuple[str, Path]:
    """Return (path in the folder, source file) of one mesh URI of a part of ``part_type``."""
    if uri.startswith(MESH_URI_PREFIX):
        return uri[len(paths.PACKAGE_URI):], paths.share_dir() / uri[len(paths.PACKAGE_URI):]
    if uri.startswith(FILE_URI) and part_type in user_parts:
        source = Path(os.path.normpath(uri[len(FILE_URI):]))
        folder = Path(os.path.normpath(user_parts[part_type][1].absolute().parent))
        if folder in source.parents:
            inside = PurePosixPath(source.relative_to(folder).as_posix())
            return f'{USER_PARTS_FOLDER}/{part_type}/{inside}', source
    raise DescriptionError(
        f'part type {part_type}: mesh {uri!r} cannot be exported; an export carries shipped '
        f"meshes ({MESH_URI_PREFIX}<file>) and a user part's meshes inside its part file's "
        'folder')


def _read(source: Path, limit: int, what: str, relative: str) -> bytes:
    try:
        return read_bytes(source, limit, what)
    except InputError as error:
        raise DescriptionError(f'{what} {source} (to be exported as {relative}): '
                               f'{error.message}') from None


def check_mesh_references(urdf, listed) -> None:
    """
    Check every ``<mesh filename>`` is ``package://bluerobotics_parts/<a listed file>``.

    ``urdf``: the URDF's bytes, or its parsed tree.
    """
    root = urdf if isinstance(urdf, ElementTree.Element) else _parse_urdf(urdf)
    for mesh in root.iter('mesh'):
        uri = mesh.get('filename', '')
        relative = uri[len(paths.PACKAGE_URI):]
        if not uri.startswith(paths.PACKAGE_URI) or relative.split('/')[0] not in (
                SHIPPED_MESH_FOLDER, USER_PARTS_FOLDER):
            raise DescriptionError(
                f'{URDF_FILE} references mesh {uri!r}, which is not inside the description; '
                f'meshes of an exported description are referenced as {paths.PACKAGE_URI}'
                f'{SHIPPED_MESH_FOLDER}/<file> or {paths.PACKAGE_URI}{USER_PARTS_FOLDER}/<file>')
        try:
            check_path(relative)
        except DescriptionError as error:
            raise DescriptionError(f'{URDF_FILE} references mesh {uri!r}: {error}') from None
        if relative not in listed:
            raise DescriptionError(
                f'{URDF_FILE} references mesh {uri!r}, but {relative} is not listed in '
                f'{MANIFEST_FILE}; every mesh the URDF uses must be listed')


def _parse_urdf(data: bytes) -> ElementTree.Element:
    """Parse URDF bytes, comments kept (they are part of what the build wrote)."""
    parser = ElementTree.XMLParser(target=ElementTree.TreeBuilder(insert_comments=True))
    try:
        root = ElementTree.fromstring(data, parser=parser)
    except ElementTree.ParseError as error:
        raise DescriptionError(f'{URDF_FILE}: not well-formed XML: {error}') from None
    if root.tag != 'robot':
        raise DescriptionError(f'{URDF_FILE}: not a URDF: the root element is <{root.tag}>')
    return root


# -- export --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ExportResult:
    """What an export wrote, and what it prints."""

    directory: Path
    name: str  # the vehicle name
    identity: str
    files: tuple  # relative paths written, sorted, manifest included
    total_bytes: int
    notes: tuple = ()  # things the user should know (a leftover folder, a replaced cwd)

    def summary(self) -> str:
        """Return what ``bluerobotics-parts export`` prints."""
        lines = [f'exported {self.name} to {self.directory}: {len(self.files)} files, '
                 f'{self.total_bytes} bytes', f'identity: {self.identity}']
        lines += [f'note: {note}' for note in self.notes]
        return '\n'.join(lines) + '\n'


def export(config, directory, name: str | None = None,
           gz_release: str | None = None) -> ExportResult:
    """
    Build the vehicle and write its description folder, all or nothing.

    ``gz_release``: harmonic (default), ionic or jetty.

    ``directory`` is created, or replaced when it holds a previous export: the files that
    export wrote (listed, unchanged since) go, anything else in the folder is provenance and
    stays. Any other non-empty folder is refused, so no user file is ever overwritten. The
    whole folder changes in one step, so a reader (or a kill) never sees half of it.
    """
    from ..build import build_gazebo  # only here: verify needs no Gazebo composition

    directory = Path(directory)
    check_output_folder(directory)
    if directory.is_symlink():
        raise DescriptionError(f'{directory} is a symbolic link; export into a real folder '
                               '(nothing was written)')
    if directory.exists() and not directory.is_dir():
        raise DescriptionError(f'{directory} exists and is not a folder; export into a new '
                               'folder (nothing was written)')
    built = build_gazebo(config, name=name, gz_release=gz_release)
    check_folder_holds_no_inputs(directory, built.resolved.input_files())
    files, sources = description_sources(built)
    narrower = {}  # a copy never gets a permission its user file lacks
    for relative, source in sources.items():
        try:
            narrower[relative] = stat.S_IMODE(os.stat(source).st_mode)
        except OSError:
            narrower[relative] = 0o600  # gone since it was read: the narrowest usual mode
    if isinstance(config, (str, os.PathLike)) and str(config):  # the user's config file,
        try:  # rewritten as config.yaml: its mode too
            narrower[CONFIG_FILE] = stat.S_IMODE(os.stat(config).st_mode)
        except (OSError, ValueError):
            narrower[CONFIG_FILE] = 0o600
    notes = replace_folder(directory, files, narrower)
    return ExportResult(directory, built.name, identity_of(files), tuple(files),
                        sum(len(data) for data in files.values()), tuple(notes))


# -- verify --------------------------------------------------------------------------------------

def verify(directory, expect: str | None = None) -> str:
    """
    Re-check a description folder against every rule; return its identity.

    The rules: the manifest's shape, nothing but regular files and folders in the folder, the
    listed files present with the digests the manifest records, the files a description must
    have, the URDF's robot name and mesh references, and consistency: building the folder's
    ``config.yaml`` gives exactly the listed files. Raises DescriptionError naming the first
    broken rule, or showing both identities when ``expect`` is given and differs.
    """
    if expect is not None:
        check_identity_text(expect)
    directory = Path(directory)
    if directory.is_symlink():
        raise DescriptionError(f'{directory} is a symbolic link; verify the folder itself')
    manifest = read_manifest(directory)
    if manifest['schema'] != SCHEMA:
        raise DescriptionError(
            f'{directory}: {MANIFEST_FILE} has schema {manifest["schema"]}, written by an older '
            'bluerobotics_parts: it records neither digests nor the Gazebo release, so it '
            'cannot be verified; export the vehicle again')
    check_folder_entries(directory)
    check_file_rules(manifest, directory)
    missing = [path for path in REQUIRED_FILES if path not in manifest['files']]
    if missing:
        raise DescriptionError(f'{directory}: {MANIFEST_FILE} does not list {missing[0]}; a '
                               f"description has {', '.join(REQUIRED_FILES)}")
    digests = folder_digests(directory, manifest)
    identity = identity_of_digests(digests)
    if expect is not None and identity != expect:
        raise DescriptionError(f'{directory}: identity {identity} differs from the expected '
                               f"{expect}; the description's content changed")
    check_recorded_digests(manifest, digests, directory)
    urdf = read_bytes(directory / URDF_FILE, MESH_LIMIT, URDF_FILE)
    robot = _parse_urdf(urdf).get('name')
    if robot != manifest['name']:
        raise DescriptionError(f'{directory}: {URDF_FILE} describes robot {robot!r} but '
                               f"{MANIFEST_FILE} names the vehicle {manifest['name']!r}")
    check_mesh_references(urdf, set(manifest['files']))
    _check_consistency(directory, manifest, digests)
    return identity


def _check_consistency(directory: Path, manifest: dict, digests: dict) -> None:
    """Refuse a folder whose files are not what building its own config.yaml gives."""
    from ..build import build_gazebo

    try:
        rebuilt = description_files(build_gazebo(directory / CONFIG_FILE,
                                                 gz_release=manifest['gz_release']))
    except BlueRoboticsPartsError as error:
        raise DescriptionError(f'{directory}: {CONFIG_FILE} does not build: {error}') from None
    every = set(rebuilt) | set(manifest['files'])
    for path in [URDF_FILE, BRIDGE_FILE, *sorted(every - {URDF_FILE, BRIDGE_FILE})]:
        if path == MANIFEST_FILE:
            continue
        if path not in rebuilt:
            raise DescriptionError(
                f'{directory}: {path} is listed, but building {CONFIG_FILE} does not give it; '
                'the description is not what its config builds')
        if path not in digests:
            raise DescriptionError(
                f'{directory}: building {CONFIG_FILE} gives {path}, which is not listed; the '
                'description is not what its config builds')
        if hashlib.sha256(rebuilt[path]).digest() != digests[path]:
            where = _first_difference(directory / path, rebuilt[path])
            raise DescriptionError(
                f'{directory}: {path} is not what building {CONFIG_FILE} gives with this '
                f'version of bluerobotics_parts{where}; export the vehicle again from its '
                'config')
    if rebuilt[MANIFEST_FILE] != read_bytes(directory / MANIFEST_FILE, MESH_LIMIT, 'manifest'):
        raise DescriptionError(f'{directory}: {MANIFEST_FILE} is not the manifest building '
                               f'{CONFIG_FILE} gives (vehicle name or Gazebo release)')


def _first_difference(path: Path, expected: bytes) -> str:
    """Describe the first differing line of two texts, for a message (empty for binaries)."""
    try:
        found = read_bytes(path, MESH_LIMIT).decode('utf-8').splitlines()
        wanted = expected.decode('utf-8').splitlines()
    except (InputError, UnicodeDecodeError):
        return ''
    for number, (have, want) in enumerate(zip_longest(found, wanted), 1):
        if have != want:
            have = '(end of file)' if have is None else have.strip()[:80]
            want = '(end of file)' if want is None else want.strip()[:80]
            return f' (line {number} is {have!r}, the build has {want!r})'
    return ''
