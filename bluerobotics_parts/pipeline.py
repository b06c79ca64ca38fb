"""Config -> URDF with manifest, checked: the one path every entry point takes.

Order matters for the messages users see: the strict loader first (syntax, duplicate keys,
value types, with lines), then unknown keys (so a typo is named as such, not as a missing
key), then the user's part files, then the xacro expansion, then the manifest check.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
import re
import tempfile

import yaml

from . import catalogue as catalogue_module
from . import resolve as resolve_module
from .assembly import as_config, key_problems, manifest_problems
from .config import Config, name_problem
from .errors import AssemblyError, ConfigError, ResolveError
from .manifest import Manifest, parse_urdf, read


@dataclass(frozen=True)
class Resolved:
    """A checked resolution: the config, the URDF text (ROS description with the manifest,
    no Gazebo blocks), and the manifest read from it."""

    config: Config
    urdf: str
    manifest: Manifest

    @property
    def name(self) -> str:
        return self.manifest.robot_name

    def catalogue(self) -> catalogue_module.Catalogue:
        return catalogue_module.catalogue([path for _, path in self.manifest.part_files])


def check_vehicle_name(name: str) -> str:
    """``name`` if it can be a vehicle name (ROS namespace, TF prefix, Gazebo model name)."""
    problem = name_problem(name)
    if problem:
        raise ConfigError(f'vehicle name {name!r} cannot be a ROS namespace: {problem}')
    return name


def resolve_config(config, name: str | None = None) -> Resolved:
    """Load (if given a path), check and resolve a config. Raises ConfigError (file:line) or
    AssemblyError (every problem)."""
    config = as_config(config)
    if name is not None:
        check_vehicle_name(name)
    found = key_problems(config)
    if found:
        raise AssemblyError(found)
    catalogue_module.catalogue(config.part_files)  # a bad part file is named with its line
    with _config_file(config) as path:
        try:
            urdf = resolve_module.resolve(path, name)
        except ResolveError as error:
            raise _located(config, error) from None
    root = parse_urdf(urdf)
    manifest = read(root)
    found = manifest_problems(config, manifest, root)
    if found:
        raise AssemblyError(found)
    return Resolved(config, urdf, manifest)


@contextmanager
def _config_file(config: Config):
    """The config as a file xacro can read: the file it was loaded from, or a temporary copy
    of a config built or changed in Python (part file paths made absolute first)."""
    if config.from_file:
        yield Path(config.file)
        return
    data = dict(config.data)
    if data.get('part_files'):
        data['part_files'] = [str(p) for p in config.part_files]
    with tempfile.TemporaryDirectory(prefix='bluerobotics_parts_') as folder:
        path = Path(folder) / 'config.yaml'
        path.write_text(yaml.safe_dump(data, sort_keys=False), encoding='utf-8')
        yield path


_ENTRY = re.compile(r'\b(parts|slots) entry #(\d+)')


def _located(config: Config, error: ResolveError) -> ConfigError:
    """Point a resolver message at the config line of the entry it names."""
    match = _ENTRY.search(error.message)
    line = config.line((match.group(1), int(match.group(2)) - 1)) if match else None
    file = None if config.file.startswith('<') else config.file
    return ResolveError(error.message, file=file, line=line)
