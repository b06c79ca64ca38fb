"""The assembly check: what xacro cannot see across its recursion, caught right after it.

``problems(config, urdf)`` compares a config with the manifest recorded in the URDF it was
resolved to and lists:

* unknown keys, at every level, with the valid ones (``key_problems``: config only, so the
  pipeline runs it before resolving and a typo never reaches xacro);
* entries and ad hoc slots whose ``of:``/``slot:``/``parent:`` match nothing in the result;
* two instances with the same name (or an instance named like a slot or frame link).

``check`` raises AssemblyError with all of them. Messages start with ``file:line:`` where the
config came from a file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import catalogue as catalogue_module
from . import config as config_module
from .config import (ADHOC_SLOT_KEYS, BASE_KEYS, Config, entry_label, parse_vector, PLACEMENT_KEYS,
                     SLOT_ENTRY_KEYS, TOP_KEYS)
from .errors import AssemblyError, located
from .manifest import Manifest, ManifestError, parse_urdf, read

__all__ = ['AssemblyError', 'Problem', 'check', 'key_problems', 'manifest_problems',
           'name_problems', 'problems', 'read_manifest']

read_manifest = read  # the manifest reader, under the name this module's users look for

NOT_FROM_THIS_CONFIG = 'the URDF was not resolved from this config'


@dataclass(frozen=True)
class Problem:
    """One inconsistency, with where it is in the config when known."""

    message: str
    file: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        return located(self.message, self.file, self.line)


def as_config(config) -> Config:
    """Accept a Config, a path to a config file, a plain dict, or None (the shipped BlueBoat)."""
    if config is None:
        from . import paths

        return config_module.load(paths.default_config())
    if isinstance(config, Config):
        return config
    if isinstance(config, dict):
        return config_module.from_dict(config)
    return config_module.load(Path(config))


def problems(config, urdf) -> list[Problem]:
    """Every problem of a config (a Config, a path, a dict) against the URDF (its text, a
    Path to it, or a Manifest) resolved from it."""
    config = as_config(config)
    found = key_problems(config)
    if isinstance(urdf, Manifest):
        return found + manifest_problems(config, urdf)
    try:
        if isinstance(urdf, Path):
            urdf = urdf.read_text(encoding='utf-8')
        root = parse_urdf(urdf)
        manifest = read(root)
    except OSError as error:
        return found + [Problem(f'{urdf}: cannot read: {error.strerror or error}')]
    except UnicodeDecodeError:
        return found + [Problem(f'{urdf}: cannot read: not UTF-8 text (is it a URDF?)')]
    except ManifestError as error:
        return found + [Problem(str(error))]
    return found + manifest_problems(config, manifest, root)


def check(config, urdf) -> None:
    """Raise AssemblyError listing every problem; return quietly when consistent."""
    found = problems(config, urdf)
    if found:
        raise AssemblyError(found)


# -- keys ------------------------------------------------------------------------------------

def key_problems(config: Config) -> list[Problem]:
    """Unknown keys at any level of the config, each with the keys valid there."""
    found = []

    def unknown(path, mapping, valid, where, hint=''):
        for key in mapping:
            if key not in valid:
                found.append(_problem(config, path + (key,),
                                      f'{where}: unknown key {key!r}; valid keys: '
                                      f"{', '.join(valid)}{hint}"))

    data = config.data
    unknown((), data, TOP_KEYS, 'the top level')
    if isinstance(data.get('base'), dict):
        unknown(('base',), data['base'], BASE_KEYS, 'base')
    for index, entry in enumerate(config.entries):
        label = entry_label('parts', index, entry)
        if 'slot' in entry:
            unknown(('parts', index), entry, SLOT_ENTRY_KEYS, label,
                    ' (a slot entry takes its pose from the slot; place a part freely with a '
                    'free placement, or declare an ad hoc slot under slots:)')
        else:
            unknown(('parts', index), entry, PLACEMENT_KEYS, label,
                    ' (this is a free placement because it has no slot:)')
    for index, slot in enumerate(config.adhoc_slots):
        unknown(('slots', index), slot, ADHOC_SLOT_KEYS, entry_label('slots', index, slot))
    return found


# -- the config against the manifest ------------------------------------------------------------

def manifest_problems(config: Config, manifest: Manifest, urdf=None) -> list[Problem]:
    """Whether the manifest is what this config resolves to, both ways: every entry and ad hoc
    slot is in it (and matches), every recorded part, slot and placement is explained by the
    config or a default, names are unique and placements hang below the base. With the
    parsed URDF, placement poses are compared too."""
    return (entry_problems(config, manifest) + record_problems(config, manifest)
            + name_problems(config, manifest)
            + (pose_problems(config, urdf) if urdf is not None else []))


def entry_problems(config: Config, manifest: Manifest) -> list[Problem]:
    """Config entries and ad hoc slots whose of:/slot:/parent: match nothing in the result,
    or that the result contradicts."""
    found = []
    instances = [p.name for p in manifest.parts]
    known_instances = ', '.join(sorted(set(instances)))
    links = set(instances) | {s.link for s in manifest.slots} | {f.link for f in manifest.frames}
    base = config.base_name

    def no_instance(path, label, key, name):
        return _problem(config, path + (key,), f'{label}: {key}: {name} matches no fitted '
                        f'instance; instances: {known_instances}')

    for index, entry in enumerate(config.entries):
        path, label = ('parts', index), entry_label('parts', index, entry)
        if 'slot' in entry:
            of = entry.get('of', base)
            if of not in instances:
                found.append(no_instance(path, label, 'of', of))
                continue
            own = [s.name for s in manifest.slots_of(of)]
            if entry['slot'] not in own:
                found.append(_problem(config, path + ('slot',), f'{label}: {of} has no slot '
                                      f"{entry['slot']!r}; its slots: {', '.join(own) or '(none)'}"))
                continue
            occupant = manifest.occupant(of, entry['slot'])
            wanted = entry.get('type')
            actual = occupant.type if occupant else 'none'
            if wanted != actual:
                found.append(_problem(config, path + ('type',), f'{label}: the config fits '
                                      f'{wanted} but the URDF has {actual} in slot '
                                      f"{entry['slot']} of {of}: {NOT_FROM_THIS_CONFIG}"))
            elif occupant and occupant.name != entry.get('name', entry['slot']):
                found.append(_problem(config, path, f'{label}: the config names the occupant '
                                      f"{entry.get('name', entry['slot'])} but the URDF names "
                                      f'it {occupant.name}: {NOT_FROM_THIS_CONFIG}'))
        else:
            parent = entry.get('parent', base)
            if parent not in links:
                found.append(_problem(config, path + ('parent',), f'{label}: parent: {parent} '
                                      f'matches no link; instances: {known_instances} (slot and '
                                      'frame links such as base_link_mast or mast_top work too)'))
            placed = next((p for p in manifest.parts
                           if p.name == entry.get('name') and p.is_placement), None)
            if placed is None:
                found.append(_problem(config, path, f"{label}: {entry.get('name')} is not placed "
                                      f'in the URDF: {NOT_FROM_THIS_CONFIG}'))
            elif parent in links and (placed.type, placed.parent) != (entry.get('type'), parent):
                found.append(_problem(config, path, f'{label}: the config places a '
                                      f"{entry.get('type')} on {parent} but the URDF has a "
                                      f'{placed.type} on {placed.parent}: {NOT_FROM_THIS_CONFIG}'))
    recorded_slots = {(s.of, s.name) for s in manifest.slots}
    for index, slot in enumerate(config.adhoc_slots):
        path, label = ('slots', index), entry_label('slots', index, slot)
        of = slot.get('of', base)
        if of not in instances:
            found.append(no_instance(path, label, 'of', of))
        elif (of, slot.get('name')) not in recorded_slots:
            found.append(_problem(config, path, f"{label}: slot {slot.get('name')} of {of} is "
                                  f'not in the URDF: {NOT_FROM_THIS_CONFIG}'))
    return found


def record_problems(config: Config, manifest: Manifest) -> list[Problem]:
    """Records the config does not explain: another base, a slot neither the carrier's part
    type nor the config declares, an occupant that is not the slot's default where the config
    says nothing, a placement the config does not make."""
    found = []
    if (manifest.base.type, manifest.base.name) != (config.base_type, config.base_name):
        found.append(_problem(config, ('base',), f"the URDF's base is {manifest.base.name} "
                              f"({manifest.base.type}) but the config's is {config.base_name} "
                              f'({config.base_type}): {NOT_FROM_THIS_CONFIG}'))
        return found  # everything else hangs off the base
    parts = catalogue_module.catalogue(config.part_files)
    types = {p.name: p.type for p in manifest.parts}
    adhoc = {(s.get('of', config.base_name), s['name']): s for s in config.adhoc_slots}
    entries = {(e.get('of', config.base_name), e['slot']) for e in config.entries if 'slot' in e}

    def declared(of: str, slot: str):
        """The slot's declaration (SlotSpec of the part type, or the ad hoc slot), or None."""
        if types.get(of) in parts and slot in parts[types[of]].slots:
            return parts[types[of]].slots[slot].default
        if (of, slot) in adhoc:
            return adhoc[(of, slot)].get('default') or 'none'
        return None

    for slot in manifest.slots:
        if declared(slot.of, slot.name) is None:
            found.append(_problem(config, (), f'the URDF has slot {slot.name} on {slot.of}, '
                                  f'which neither its part type {types.get(slot.of)} nor the '
                                  f'config declares: {NOT_FROM_THIS_CONFIG}'))
    for part in manifest.parts:
        if part.slot and (part.of, part.slot) not in entries:
            default = declared(part.of, part.slot)
            if default is not None and (part.type, part.name) != (default, part.slot):
                found.append(_problem(config, (), f'the URDF has {part.name} ({part.type}) in '
                                      f'slot {part.slot} of {part.of}, where the config keeps '
                                      f'the default ({default}): {NOT_FROM_THIS_CONFIG}'))
        elif part.is_placement and not any('slot' not in e and e.get('name') == part.name
                                           for e in config.entries):
            found.append(_problem(config, (), f'the URDF places {part.name} ({part.type}) on '
                                  f'{part.parent}, which the config does not: '
                                  f'{NOT_FROM_THIS_CONFIG}'))
    return found


def name_problems(config: Config, manifest: Manifest) -> list[Problem]:
    """Names used twice (instances, slot links, frame links all become links) and free
    placements hung inside their own subtree. A repeat that only follows from another (the
    slots of an instance that is there twice) is not reported again."""
    found = []
    owner = {p.name: p.name for p in manifest.parts}
    owner.update({s.link: s.of for s in manifest.slots})
    owner.update({f.link: f.of for f in manifest.frames})
    uses: dict = {}  # link name -> [(description, the instance it comes from)]
    for part in manifest.parts:
        uses.setdefault(part.name, []).append(
            (f"under {part.parent or 'no parent (the root)'}", owner.get(part.parent)))
    for slot in manifest.slots:
        uses.setdefault(slot.link, []).append((f'slot {slot.name} of {slot.of}', slot.of))
    for frame in manifest.frames:
        uses.setdefault(frame.link, []).append((f'frame {frame.name} of {frame.of}', frame.of))
    repeated = {name for name, found_uses in uses.items() if len(found_uses) > 1}
    for link, link_uses in sorted(uses.items()):
        if link not in repeated or all(source in repeated for _, source in link_uses):
            continue
        instances = [what for what in (u for u, _ in link_uses) if what.startswith('under ')]
        if len(instances) == len(link_uses):
            message = (f"{len(link_uses)} instances are named {link} ({', '.join(instances)}); "
                       'instance names become link names and must be unique: give one a '
                       'name: of its own')
        else:
            described = [f'instance {u}' if u.startswith('under ') else u for u, _ in link_uses]
            message = (f'the link name {link} is used {len(link_uses)} times: '
                       + ', '.join(described) + '; link names must be unique: rename the '
                       'instance or the slot')
        found.append(_problem(config, _entry_path_named(config, link), message))
    records = {p.name: p for p in manifest.parts}
    for part in manifest.parts:
        if not part.is_placement:
            continue
        seen, instance = [part.name], owner.get(part.parent)
        while instance in records and instance not in seen:
            seen.append(instance)
            instance = owner.get(records[instance].parent)
        if instance == part.name:
            found.append(_problem(config, _entry_path_named(config, part.name),
                                  f'{part.name} is placed on {part.parent}, which is inside '
                                  f"{part.name} itself ({' < '.join(seen + [part.name])}): place "
                                  'it on a link outside its own subtree'))
    return found


def pose_problems(config: Config, urdf) -> list[Problem]:
    """Free placements whose joint pose in the URDF is not the config's xyz/rpy."""
    found = []
    joints = {j.get('name'): j for j in urdf.findall('joint')}
    for index, entry in enumerate(config.entries):
        if 'slot' in entry or f"{entry.get('name')}_joint" not in joints:
            continue
        origin = joints[f"{entry['name']}_joint"].find('origin')
        for key in ('xyz', 'rpy'):
            wanted = parse_vector(entry.get(key, [0, 0, 0]))
            text = origin.get(key, '0 0 0') if origin is not None else '0 0 0'
            try:
                actual = [float(v) for v in text.split()]
            except ValueError:
                actual = []
            if len(actual) != 3 or any(abs(a - w) > 1e-9 for a, w in zip(actual, wanted)):
                found.append(_problem(config, ('parts', index, key),
                                      f"{entry_label('parts', index, entry)}: {key} is "
                                      f'{wanted} in the config but {text!r} in the URDF: '
                                      f'{NOT_FROM_THIS_CONFIG}'))
    return found


def _entry_path_named(config: Config, name: str) -> tuple:
    """The config entry or ad hoc slot that gives a link its name, for the line number."""
    for index, entry in enumerate(config.entries):
        if entry.get('name', entry.get('slot')) == name:
            return ('parts', index)
    for index, slot in enumerate(config.adhoc_slots):
        if slot.get('name') == name or f"{slot.get('of', config.base_name)}_{slot.get('name')}" == name:
            return ('slots', index)
    return ()


def _problem(config: Config, path: tuple, message: str) -> Problem:
    if config.file.startswith('<'):  # built in Python: no file to point at
        return Problem(message)
    return Problem(message, file=config.file, line=config.line(path) if path else None)
