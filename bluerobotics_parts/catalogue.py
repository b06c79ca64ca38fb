"""The part library as Python sees it: the same YAML files the resolver reads.

Shipped parts live in ``urdf/parts/<type>.yaml`` (listed in ``index.yaml``); a user's parts
come from the files a config names under ``part_files:`` (recorded in the URDF manifest, so
downstream steps find them without the config). Each file is checked against the part format
(part_format.py) with ``file:line`` messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
import os
from pathlib import Path
import stat

from . import paths
from .errors import ConfigError
from .inputs import file_kind
from .part_format import check_part, is_annotation
from .yaml_lines import load_file


@dataclass(frozen=True)
class SlotSpec:
    name: str
    xyz: tuple
    rpy: tuple
    accepts: tuple
    default: str
    joint: str
    collision: bool


@dataclass(frozen=True)
class Propeller:
    """Drive data of a propeller part, SI units. ``rotation`` is seen from astern while
    pushing the vessel forward."""

    rotation: str
    diameter: float
    max_thrust: float
    min_thrust: float
    thrust_coefficient: float
    max_rpm: float | None = None


@dataclass(frozen=True)
class Echosounder:
    """A single-beam echosounder: its frame, beam width (rad), range (m), rate (Hz)."""

    frame: str
    beam_width: float
    range_min: float
    range_max: float
    update_rate: float
    frequency: float | None = None
    samples: int = 1


@dataclass
class PartType:
    """One part type's data, where it came from, and the base its mesh paths are under."""

    type: str
    data: dict
    file: Path
    mesh_base: str
    shipped: bool
    lines: dict = field(default_factory=dict, repr=False)

    @property
    def description(self) -> str:
        return self.data.get('description', '')

    @property
    def family(self) -> str:
        """
        Return the vehicle family the part is made for (``blueboat``, ``bluerov2``).

        ``common`` for parts several families' slots take; empty when the part file does not
        say.
        """
        return self.data.get('family', '')

    @property
    def spawn_depth(self) -> float:
        """Return how deep a launch puts a vehicle on this base part (m; 0 for a boat)."""
        return float((self.data.get('hydrostatics') or {}).get('spawn_depth') or 0.0)

    @property
    def mass(self) -> float:
        return float((self.data.get('inertial') or {}).get('mass') or 0.0)

    @property
    def slots(self) -> dict[str, SlotSpec]:
        return {name: _slot_spec(name, spec) for name, spec in (self.data.get('slots') or {}).items()}

    @property
    def frames(self) -> dict[str, dict]:
        return dict(self.data.get('frames') or {})

    @property
    def axis(self) -> tuple:
        return tuple(float(v) for v in self.data.get('axis', (1.0, 0.0, 0.0)))

    @property
    def propeller(self) -> Propeller | None:
        data = self.data.get('propeller')
        if not data:
            return None
        return Propeller(rotation=data['rotation'], diameter=float(data['diameter']),
                         max_thrust=float(data['max_thrust']),
                         min_thrust=float(data['min_thrust']),
                         thrust_coefficient=float(data['thrust_coefficient']),
                         max_rpm=float(data['max_rpm']) if 'max_rpm' in data else None)

    @property
    def echosounder(self) -> Echosounder | None:
        data = self.data.get('echosounder')
        if not data:
            return None
        return Echosounder(frame=data['frame'], beam_width=float(data['beam_width']),
                           range_min=float(data['range_min']), range_max=float(data['range_max']),
                           update_rate=float(data['update_rate']),
                           frequency=float(data['frequency']) if 'frequency' in data else None,
                           samples=int(data.get('samples', 1)))

    @property
    def hydrodynamics(self) -> dict[str, float]:
        """gz Hydrodynamics coefficients by name (xUabsU, zW, ...), notes left out."""
        data = self.data.get('hydrodynamics') or {}
        return {key: float(value) for key, value in data.items() if not is_annotation(key)}

    def mesh_files(self) -> list[str]:
        """Mesh paths as written in the part data (relative to ``mesh_base``)."""
        items = list(self.data.get('visual') or []) + list(self.data.get('collision') or [])
        return [item['mesh'] for item in items if isinstance(item, dict) and 'mesh' in item]


def _slot_spec(name: str, spec: dict) -> SlotSpec:
    return SlotSpec(name=name, xyz=tuple(float(v) for v in spec.get('xyz', (0, 0, 0))),
                    rpy=tuple(float(v) for v in spec.get('rpy', (0, 0, 0))),
                    accepts=tuple(spec.get('accepts') or ()), default=spec.get('default') or 'none',
                    joint=spec.get('joint') or 'fixed', collision=spec.get('collision', True))


class Catalogue:
    """Part types by name: the shipped library plus any user part files."""

    def __init__(self, parts: dict[str, PartType]):
        self.parts = parts

    def __contains__(self, type_name: str) -> bool:
        return type_name in self.parts

    def __getitem__(self, type_name: str) -> PartType:
        try:
            return self.parts[type_name]
        except KeyError:
            raise KeyError(f'unknown part type {type_name!r}; known types: '
                           f"{', '.join(sorted(self.parts))}") from None

    def __iter__(self):
        return iter(sorted(self.parts))

    def types(self) -> list[str]:
        return sorted(self.parts)

    def with_part_files(self, files) -> 'Catalogue':
        """This catalogue plus the user's part files (absolute paths)."""
        parts = dict(self.parts)
        for file in files:
            part = load_part_file(Path(file), shipped=False)
            if part.type in parts:
                owner = 'the shipped library' if parts[part.type].shipped else parts[part.type].file
                raise ConfigError(f'defines part type {part.type}, which {owner} already '
                                  'defines; give your part a type name of its own',
                                  file=str(file), line=part.lines.get(('type',)))
            parts[part.type] = part
        for part in parts.values():
            if not part.shipped:
                _check_slot_types(part, parts)
        return Catalogue(parts)


@lru_cache(maxsize=None)
def shipped() -> Catalogue:
    """The library in ``urdf/parts`` (cached: it does not change while we run)."""
    folder = paths.parts_dir()
    index = load_file(folder / 'index.yaml').data or []
    parts = {}
    for name in index:
        part = load_part_file(folder / f'{name}.yaml', shipped=True)
        if part.type != name:
            raise ConfigError(f'declares type {part.type} but index.yaml lists it as {name}',
                              file=str(folder / f'{name}.yaml'))
        parts[name] = part
    return Catalogue(parts)


def catalogue(part_files=()) -> Catalogue:
    """The shipped library plus the given user part files."""
    return shipped().with_part_files(part_files) if part_files else shipped()


def load_part_file(path: Path, shipped: bool) -> PartType:
    doc = load_file(path, 'part file')
    check_part(doc)
    data = doc.data
    base = paths.PACKAGE_URI + 'meshes/' if shipped else f'file://{path.absolute().parent}/'
    if not shipped:
        _check_meshes_exist(doc, path)
    return PartType(type=data['type'], data=data, file=path, mesh_base=base, shipped=shipped,
                    lines=doc.lines)


def _check_meshes_exist(doc, path: Path) -> None:
    """
    Check a user part's meshes: inside its file's folder, or shipped, and regular files.

    Relative paths are taken from the part file's folder and must stay inside it once
    symbolic links are resolved; ``package://bluerobotics_parts/meshes/...`` names a shipped
    mesh. Nothing else (``file://``, absolute paths, ``..``, other packages): an export copies
    a part's meshes, so a path out of the folder would carry any local file along, and a
    missing mesh would only show as an empty link in RViz and Gazebo.
    """
    folder = path.absolute().parent
    shipped_meshes = Path(os.path.realpath(paths.share_dir() / 'meshes'))
    for section in ('visual', 'collision'):
        for index, item in enumerate(doc.data.get(section) or []):
            mesh = item.get('mesh')
            if not mesh:
                continue
            where = (section, index, 'mesh')
            if mesh.startswith(paths.PACKAGE_URI):
                target, inside = paths.share_dir() / mesh[len(paths.PACKAGE_URI):], shipped_meshes
            elif '://' in mesh or mesh.startswith('/') or '..' in mesh.split('/'):
                raise doc.error(where, f"mesh {mesh} is outside the part file's folder; a user "
                                "part's mesh is a path inside its part file's folder (e.g. "
                                f'meshes/bracket.stl) or a shipped mesh ({paths.PACKAGE_URI}'
                                'meshes/<type>/<file>)')
            else:
                target, inside = folder / mesh, Path(os.path.realpath(folder))
            if inside not in Path(os.path.realpath(target)).parents:
                raise doc.error(where, f'mesh {mesh} leads out of {inside} (symbolic links '
                                "resolved); a user part's meshes must lie inside its part "
                                "file's folder, a shipped mesh inside the package's meshes/")
            try:
                mode = os.stat(target).st_mode
            except OSError:
                raise doc.error(where, f'mesh {mesh} not found (looked for {target}); mesh '
                                "paths are relative to the part file's folder") from None
            if not stat.S_ISREG(mode):
                raise doc.error(where, f'mesh {mesh} is {file_kind(mode)} ({target}), not a '
                                'regular file; name a mesh file')


def _check_slot_types(part: PartType, parts: dict) -> None:
    """A user part's slots accept and default to part types that exist."""
    for name, slot in (part.data.get('slots') or {}).items():
        for key in ('accepts', 'default'):
            named = slot.get(key) or []
            for type_name in [named] if isinstance(named, str) else named:
                if type_name != 'none' and type_name not in parts:
                    raise ConfigError(f'slot {name}: {key} names unknown part type '
                                      f"{type_name!r}; known types: {', '.join(sorted(parts))}",
                                      file=str(part.file), line=part.lines.get(('slots', name, key)))
