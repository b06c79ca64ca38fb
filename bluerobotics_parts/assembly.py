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

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from . import config as config_module
from .config import (ADHOC_SLOT_KEYS, BASE_KEYS, PLACEMENT_KEYS, SLOT_ENTRY_KEYS, TOP_KEYS,
                     Config, entry_label)
from .errors import AssemblyError, located
from .manifest import Manifest, ManifestError, read

__all__ = ["AssemblyError", "Problem", "check", "key_problems", "manifest_problems", "problems",
           "read_manifest"]

read_manifest = read  # the manifest reader, under the name this module's users look for


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
    """Every problem of a config against the URDF (text) resolved from it."""
    config = as_config(config)
    found = key_problems(config)
    try:
        manifest = urdf if isinstance(urdf, Manifest) else read(urdf)
    except ManifestError as error:
        return found + [Problem(str(error))]
    return found + manifest_problems(config, manifest)


def check(config, urdf) -> None:
    """Raise AssemblyError listing every problem; return quietly when consistent."""
    found = problems(config, urdf)
    if found:
        raise AssemblyError(found)


# -- keys ------------------------------------------------------------------------------------

def key_problems(config: Config) -> list[Problem]:
    """Unknown keys at any level of the config, each with the keys valid there."""
    found = []

    def unknown(path, mapping, valid, where, hint=""):
        for key in mapping:
            if key not in valid:
                found.append(_problem(config, path + (key,),
                                      f"{where}: unknown key {key!r}; valid keys: "
                                      f"{', '.join(valid)}{hint}"))

    data = config.data
    unknown((), data, TOP_KEYS, "the top level")
    if isinstance(data.get("base"), dict):
        unknown(("base",), data["base"], BASE_KEYS, "base")
    for index, entry in enumerate(config.entries):
        label = entry_label("parts", index, entry)
        if "slot" in entry:
            unknown(("parts", index), entry, SLOT_ENTRY_KEYS, label,
                    " (a slot entry takes its pose from the slot; place a part freely with a "
                    "free placement, or declare an ad hoc slot under slots:)")
        else:
            unknown(("parts", index), entry, PLACEMENT_KEYS, label,
                    " (this is a free placement because it has no slot:)")
    for index, slot in enumerate(config.adhoc_slots):
        unknown(("slots", index), slot, ADHOC_SLOT_KEYS, entry_label("slots", index, slot))
    return found


# -- the config against the manifest ------------------------------------------------------------

def manifest_problems(config: Config, manifest: Manifest) -> list[Problem]:
    found = []
    instances = [p.name for p in manifest.parts]
    known_instances = ", ".join(sorted(set(instances)))
    slot_links = {s.link for s in manifest.slots}
    frame_links = {f.link for f in manifest.frames}
    base = config.base_name

    def no_instance(path, label, key, name):
        return _problem(config, path + (key,), f"{label}: {key}: {name} matches no fitted "
                        f"instance; instances: {known_instances}")

    for index, entry in enumerate(config.entries):
        path, label = ("parts", index), entry_label("parts", index, entry)
        if "slot" in entry:
            of = entry.get("of", base)
            if of not in instances:
                found.append(no_instance(path, label, "of", of))
                continue
            own = [s.name for s in manifest.slots_of(of)]
            if entry["slot"] not in own:
                found.append(_problem(config, path + ("slot",), f"{label}: {of} has no slot "
                                      f"{entry['slot']!r}; its slots: {', '.join(own) or '(none)'}"))
                continue
            occupant = manifest.occupant(of, entry["slot"])
            wanted = entry.get("type")
            actual = occupant.type if occupant else "none"
            if wanted != actual:
                found.append(_problem(config, path + ("type",), f"{label}: the config fits "
                                      f"{wanted} but the URDF has {actual} in slot "
                                      f"{entry['slot']} of {of}: the URDF was not resolved from "
                                      "this config"))
        else:
            parent = entry.get("parent", base)
            links = set(instances) | slot_links | frame_links
            if parent not in links:
                found.append(_problem(config, path + ("parent",), f"{label}: parent: {parent} "
                                      f"matches no link; instances: {known_instances} (slot and "
                                      "frame links such as base_link_mast or mast_top work too)"))
            if entry.get("name") not in instances:
                found.append(_problem(config, path, f"{label}: {entry.get('name')} is not in "
                                      "the URDF: the URDF was not resolved from this config"))
    for index, slot in enumerate(config.adhoc_slots):
        path, label = ("slots", index), entry_label("slots", index, slot)
        of = slot.get("of", base)
        if of not in instances:
            found.append(no_instance(path, label, "of", of))
        elif (of, slot.get("name")) not in {(s.of, s.name) for s in manifest.slots}:
            found.append(_problem(config, path, f"{label}: slot {slot.get('name')} of {of} is "
                                  "not in the URDF: the URDF was not resolved from this config"))

    for name, count in sorted(Counter(instances).items()):
        if count > 1:
            parents = ", ".join(p.parent for p in manifest.parts if p.name == name)
            found.append(_problem(config, _entry_path_named(config, name),
                                  f"{count} instances are named {name} (under {parents}); "
                                  "instance names become link names and must be unique: give "
                                  "one a name: of its own"))
    for name in sorted(set(instances) & (slot_links | frame_links)):
        kind = "slot" if name in slot_links else "frame"
        found.append(_problem(config, _entry_path_named(config, name),
                              f"instance {name} has the name of a {kind} link; rename it"))
    return found


def _entry_path_named(config: Config, name: str) -> tuple:
    """The config entry that gives an instance its name, for the line number."""
    for index, entry in enumerate(config.entries):
        if entry.get("name", entry.get("slot")) == name:
            return ("parts", index)
    return ()


def _problem(config: Config, path: tuple, message: str) -> Problem:
    if config.file.startswith("<"):  # built in Python: no file to point at
        return Problem(message)
    return Problem(message, file=config.file, line=config.line(path) if path else None)
