"""A built vehicle as a self-contained description folder with a content identity.

The folder holds ``robot.urdf`` (with the Gazebo blocks), ``config.yaml`` (the effective
config), ``bridge.yaml``, every mesh the URDF references under ``meshes/``, and
``description_manifest.json`` listing them (see ``identity.py`` for the rules and the hash).

The folder is laid out like the package's share directory for the files it uses: the URDF
keeps ``package://bluerobotics_parts/meshes/<file>`` references, so pointing
``package://bluerobotics_parts`` at the folder (e.g. a ``GZ_SIM_RESOURCE_PATH`` entry whose
``bluerobotics_parts`` is this folder) loads it without the package. A user part's mesh
(``file:///...``) is copied to ``meshes/user/<part type>/<file name>`` and its reference
rewritten to match. ``config.yaml`` names user part files by absolute path: those stay
outside the folder (the URDF and meshes inside it are complete without them).

One vehicle has one identity wherever it shows up: ``description_files`` builds the exact
file set in memory, ``description_identity`` hashes it without writing, and ``export``
writes those same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
import re
from xml.etree import ElementTree

import yaml

from . import paths
from .atomic import write_files_atomically
from .identity import (check_file_rules, check_identity_text, check_path, check_paths,
                       DescriptionError, folder_identity, identity_of, manifest_bytes,
                       MANIFEST_FILE, read_manifest)
from .record import parse_urdf, RecordError as ManifestError

URDF_FILE = 'robot.urdf'
CONFIG_FILE = 'config.yaml'
BRIDGE_FILE = 'bridge.yaml'
MESH_URI_PREFIX = paths.PACKAGE_URI + 'meshes/'  # package://bluerobotics_parts/meshes/
USER_MESH_FOLDER = 'meshes/user'


# -- the file set ------------------------------------------------------------------------------

def description_files(build) -> dict[str, bytes]:
    """Every file of the exported description (relative path -> bytes), manifest included,
    checked against the file rules before anything is written."""
    manifest = build.resolved.manifest
    urdf, meshes = _exported_meshes(build.urdf, manifest)
    files = {URDF_FILE: urdf.encode('utf-8'),
             CONFIG_FILE: effective_config_text(build).encode('utf-8'),
             BRIDGE_FILE: build.bridge_yaml.encode('utf-8')}
    files.update(meshes)
    check_paths(files)
    check_mesh_references(files[URDF_FILE], set(files))
    files[MANIFEST_FILE] = manifest_bytes(build.name, files)
    return dict(sorted(files.items()))


def description_identity(build) -> str:
    """The identity ``export`` would give this build (computed in memory, nothing written)."""
    return identity_of(description_files(build))


def effective_config_text(build) -> str:
    """The config as resolved: the user's data with the vehicle name actually used and the
    part files made absolute, so the file rebuilds the same vehicle from anywhere."""
    config = build.resolved.config
    data = dict(config.data)
    if 'name' in data:
        data['name'] = build.name
    else:
        data = {'name': build.name, **data}
    if data.get('part_files'):
        data['part_files'] = [str(path) for path in config.part_files]
    return yaml.dump(data, Dumper=_ConfigDumper, sort_keys=False, default_flow_style=False,
                     allow_unicode=True)


class _ConfigDumper(yaml.SafeDumper):
    """Block style, except lists of plain values (xyz, accepts) on one line as users write
    them."""

    def represent_list(self, data):
        flat = all(not isinstance(item, (dict, list)) for item in data)
        return self.represent_sequence('tag:yaml.org,2002:seq', data, flow_style=flat or None)


_ConfigDumper.add_representer(list, _ConfigDumper.represent_list)


_MESH_FILENAME = re.compile(r"""(<mesh\b[^>]*?\bfilename\s*=\s*)(["'])(.*?)\2""", re.DOTALL)


def _exported_meshes(urdf: str, manifest) -> tuple[str, dict[str, bytes]]:
    """The URDF with user meshes re-pointed into the folder, and the mesh files by path."""
    root = _parse_urdf(urdf.encode('utf-8'))
    owners = {id(mesh): link.get('name', '') for link in root.iter('link')
              for mesh in link.iter('mesh')}
    sources: dict[str, tuple[Path, str]] = {}  # exported path -> (source file, part type)
    rewrites: dict[str, str] = {}
    for mesh in root.iter('mesh'):
        uri = mesh.get('filename', '')
        part = manifest.part(owners.get(id(mesh), ''))
        part_type = part.type if part else '(no part)'
        if uri.startswith(MESH_URI_PREFIX):
            relative = uri[len(paths.PACKAGE_URI):]
            source = paths.resolve_uri(uri)
        elif uri.startswith('file://') and part is None:
            raise DescriptionError(f'mesh {uri!r} is not inside the link of a recorded part, '
                                   'so it has no part type to be exported under')
        elif uri.startswith('file://'):
            source = Path(uri[len('file://'):])
            relative = f'{USER_MESH_FOLDER}/{part_type}/{source.name}'
            rewrites[uri] = paths.PACKAGE_URI + relative
        else:
            raise DescriptionError(
                f'part type {part_type}: mesh {uri!r} cannot be exported; an export carries '
                f'meshes given as {MESH_URI_PREFIX}<file> or file:///<absolute path>')
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
    files = {relative: _read_mesh(source, part_type, relative)
             for relative, (source, part_type) in sources.items()}
    return _rewrite_mesh_uris(urdf, rewrites), files


def _read_mesh(source: Path, part_type: str, relative: str) -> bytes:
    try:
        return source.read_bytes()
    except FileNotFoundError:
        raise DescriptionError(f'part type {part_type}: mesh file {source} not found (to be '
                               f"exported as {relative}); add the file or fix the part's "
                               'mesh: path') from None
    except OSError as error:
        raise DescriptionError(f'part type {part_type}: cannot read mesh file {source}: '
                               f'{error.strerror or error}') from None


def _rewrite_mesh_uris(urdf: str, rewrites: dict[str, str]) -> str:
    """Replace mesh filename values in the text, leaving every other byte as built."""
    if not rewrites:
        return urdf
    # imported here: xml.sax.saxutils imports urllib.request (and http, email, ssl), a tenth
    # of a second that every build would pay for what only user meshes need
    from xml.sax.saxutils import escape, unescape

    def replace(match):
        value = unescape(match.group(3), {'&quot;': '"', '&apos;': "'"})
        if value not in rewrites:
            return match.group(0)
        quote = match.group(2)
        return match.group(1) + quote + escape(rewrites[value], {quote: '&quot;' if quote == '"'
                                                                 else '&apos;'}) + quote

    return _MESH_FILENAME.sub(replace, urdf)


def check_mesh_references(urdf: bytes, listed) -> None:
    """Every ``<mesh filename>`` must be ``package://bluerobotics_parts/meshes/<file>`` with
    ``meshes/<file>`` among the listed files."""
    for mesh in _parse_urdf(urdf).iter('mesh'):
        uri = mesh.get('filename', '')
        if not uri.startswith(MESH_URI_PREFIX):
            raise DescriptionError(
                f'{URDF_FILE} references mesh {uri!r}, which is not inside the description; '
                f'meshes of an exported description are referenced as {MESH_URI_PREFIX}<file>')
        relative = uri[len(paths.PACKAGE_URI):]
        try:
            check_path(relative)
        except DescriptionError as error:
            raise DescriptionError(f'{URDF_FILE} references mesh {uri!r}: {error}') from None
        if relative not in listed:
            raise DescriptionError(
                f'{URDF_FILE} references mesh {uri!r}, but {relative} is not listed in '
                f'{MANIFEST_FILE}; every mesh the URDF uses must be listed')


def _parse_urdf(data: bytes) -> ElementTree.Element:
    try:
        return parse_urdf(data)
    except ManifestError as error:
        raise DescriptionError(f'{URDF_FILE}: {error}') from None


# -- export --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ExportResult:
    directory: Path
    name: str  # the vehicle name
    identity: str
    files: tuple  # relative paths written, sorted, manifest included
    total_bytes: int

    def summary(self) -> str:
        return (f'exported {self.name} to {self.directory}: {len(self.files)} files, '
                f'{self.total_bytes} bytes\n'
                f'identity: {self.identity}\n')


def export(config, directory, name: str | None = None,
           gz_version: str = 'harmonic') -> ExportResult:
    """Build the vehicle and write its description folder, all or nothing.

    ``directory`` is created, or updated when it holds a previous export: the files that
    export listed are replaced or removed, anything else in the folder is provenance and
    stays. Any other non-empty folder is refused, so no user file is ever overwritten.
    """
    from .build import build  # the Gazebo composition is only needed here, not by verify

    directory = Path(directory)
    previous = _previous_export_files(directory)  # refuse a wrong target before any work
    built = build(config, name=name, gz_version=gz_version)
    files = description_files(built)
    write_files_atomically(directory, files, remove=sorted(previous - set(files)))
    return ExportResult(directory, built.name, identity_of(files), tuple(files),
                        sum(len(data) for data in files.values()))


def _previous_export_files(directory: Path) -> set:
    """The files (manifest included) of a previous export in ``directory``; empty for a new
    or empty folder. Refuses any other target."""
    if directory.is_symlink():
        raise DescriptionError(f'{directory} is a symbolic link; export into a real folder '
                               '(nothing was written)')
    if not directory.exists():
        return set()
    if not directory.is_dir():
        raise DescriptionError(f'{directory} exists and is not a folder; export into a new '
                               'folder (nothing was written)')
    if (directory / MANIFEST_FILE).is_file():
        try:
            listed = read_manifest(directory)['files']
        except DescriptionError:
            listed = []  # a broken manifest: only its own files are replaced
        return {MANIFEST_FILE, *(path for path in listed if _is_plain(path))}
    if any(directory.iterdir()):
        raise DescriptionError(
            f'{directory} is not empty and holds no {MANIFEST_FILE}, so it is not a previous '
            'export; export into a new or empty folder, or into a previous export to update '
            'it (nothing was written)')
    return set()


def _is_plain(path) -> bool:
    """A relative path inside the folder (what the file rules allow); anything else in an
    old manifest is not ours to delete."""
    try:
        check_path(path)
    except DescriptionError:
        return False
    return True


# -- verify --------------------------------------------------------------------------------------

def verify(directory, expect: str | None = None) -> str:
    """Re-check a description folder against every rule; return its identity.

    Raises DescriptionError naming the first broken rule, or showing both identities when
    ``expect`` is given and differs.
    """
    if expect is not None:
        check_identity_text(expect)
    directory = Path(directory)
    manifest = read_manifest(directory)
    check_file_rules(manifest, directory)
    if URDF_FILE in manifest['files']:  # the rules about the URDF, when there is one
        urdf = (directory / URDF_FILE).read_bytes()
        robot = _parse_urdf(urdf).get('name')
        if robot != manifest['name']:
            raise DescriptionError(f'{directory}: {URDF_FILE} describes robot {robot!r} but '
                                   f"{MANIFEST_FILE} names the vehicle {manifest['name']!r}")
        check_mesh_references(urdf, set(manifest['files']))
    identity = folder_identity(directory)
    if expect is not None and identity != expect:
        raise DescriptionError(f'{directory}: identity {identity} differs from the expected '
                               f"{expect}; the description's content changed")
    return identity
