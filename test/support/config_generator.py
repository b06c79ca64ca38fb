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
A seeded generator of configs (and user part files) for the differential test.

Each case is the text of a config and of the part files it names, mostly well-formed YAML of
the right shape, so that what differs is the assembly rules: slot entries (of:, none, names,
accepted or unknown types, missing or twice-configured slots, bare on: keys), free placements,
ad hoc slots, user part files with slots and frames (clashing or self-containing types), names
used twice, unknown keys. The mix is tuned so that about half resolve.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import random

import yaml

WORDS = ['bow', 'stern', 'top', 'tip', 'aft', 'fore', 'port_rail', 'stbd_rail', 'a', 'b',
         'c', 'spare', 'cam', 'sensor', 'rack'] + [f'x{n}' for n in range(30)]
GOOD_VECTORS = [[0, 0, 0], [0.1, -0.2, 0.3], [1, 2.5, -3], [0.0, 0.0, 1.5707963267948966],
                '0 0 0.5', '-0.45 0 0.18', '1e-3 2E+1 .5', '0.1  0.2\t0.3', ['0.5', 0, '1e2'],
                [-0.0, 0.25, 100]]
BAD_VECTORS = [[1, 2], 'a b c', [True, 0, 0], '1 2 3 4', [0, 0, '1_0'], 5, {'x': 1},
               [0, 0, '.'], '1e 0 0', [0, None, 0], '', [0.1, 0.2, '1.2.3']]


@dataclass
class Case:
    config: str
    part_files: dict = field(default_factory=dict)  # file name -> text


class Generator:
    """Configs drawn from a seeded random source, against a part library's layout."""

    def __init__(self, seed: int, library):
        self.rng = random.Random(seed)
        # the moving joints' own stream, so adding them left every other choice as it was
        self.joint_rng = random.Random(seed + 1)
        self.joints_made = 0
        self.types = sorted(library.types())
        self.slots = {name: {s: list(spec.accepts) for s, spec in part.slots.items()}
                      for name, part in library.parts.items()}
        self.defaults = {name: {s: spec.default for s, spec in part.slots.items()}
                         for name, part in library.parts.items()}
        self.frames = {name: list(part.frames) for name, part in library.parts.items()}

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, items):
        return self.rng.choice(list(items))

    # -- one case

    def case(self) -> Case:
        rng = self.rng
        data: dict = {}
        files: dict = {}
        user_types = self.user_parts(data, files) if self.chance(0.25) else []
        types = self.types + user_types
        if self.chance(0.2):
            data['name'] = self.pick(['boat2', 'survey_boat', 'b7'])
        base_type, base_name = 'blueboat_chassis', 'base_link'
        if self.chance(0.15):
            base = {}
            if self.chance(0.5):
                base_name = self.pick(['hull', 'body'])
                base['name'] = base_name
            if self.chance(0.3):
                base_type = self.pick(['blueboat_chasis', 'blueboat_flag',
                                       'blueboat_payload_bracket'] + user_types)
                base['type'] = base_type
            if self.chance(0.1):
                base[True] = 'x'
            data['base'] = base
        # instances likely there, with their type, to aim entries at
        known = {base_name: base_type}
        for slot, default in self.defaults.get(base_type, {}).items():
            if default != 'none':
                known[slot] = default
                for inner, inner_default in self.defaults.get(default, {}).items():
                    if inner_default != 'none':
                        known[inner] = inner_default
        adhoc = [self.adhoc_slot(base_name, known, types)
                 for _ in range(self.pick([0, 0, 0, 1, 1, 2, 3, 5]))]
        placements = []
        entries = []
        for _ in range(self.count()):
            if self.chance(0.35):
                placement = self.placement(base_name, known, types)
                placements.append(placement)
                entries.append(placement)
            else:
                entries.append(self.slot_entry(base_name, known, adhoc, types))
        if entries and self.chance(0.05):
            entries.append(dict(self.pick(entries)))  # configured twice, or a name twice
        rng.shuffle(entries)
        if entries:
            data['parts'] = entries
        if adhoc:
            data['slots'] = adhoc
        if self.chance(0.05):
            data[self.pick(['colour', 'nmae', 'slot'])] = 'x'
        return Case(self.dump(data), files)

    def count(self) -> int:
        return self.pick([0, 0, 1, 1, 2, 2, 3, 4, 5, 7])

    def dump(self, data: dict) -> str:
        style = self.pick([None, None, False, True])
        text = yaml.safe_dump(data, sort_keys=False, default_flow_style=style, width=100)
        if self.chance(0.3):
            text = '# a generated config\n\n' + text
        return text

    # -- pieces

    def user_parts(self, data: dict, files: dict) -> list:
        names = []
        for index in range(self.pick([1, 1, 2])):
            type_name = f'user_part_{index}'
            if self.chance(0.05):
                type_name = self.pick(self.types + names) if names else self.pick(self.types)
            part = {'type': type_name, 'inertial': {'mass': self.pick([0.1, 1, 2.5])},
                    'visual': [{'box': [0.1, 0.1, 0.1]}]}
            if self.chance(0.5):
                frame = {'xyz': [0, 0, 0.1]}
                if self.joint_rng.random() < 0.7:  # a moving frame: revolute or prismatic
                    frame.update(self.limited_joint(), inertial={'mass': 0.05})
                part['frames'] = {self.pick(['tip', 'face', 'top']): frame}
            if self.chance(0.3):
                part['attach'] = {'xyz': [0, 0, 0.02], 'rpy': [0, 0, 3.14]}
            if self.chance(0.6):
                slots = {}
                for _ in range(self.pick([1, 2])):
                    accepts = self.rng.sample(self.types, self.pick([1, 2]))
                    if self.chance(0.15):
                        accepts.append(type_name)  # may contain itself
                    default = self.pick(accepts + ['none'])
                    slot = {'xyz': [0, 0, 0.05], 'accepts': accepts, 'default': default}
                    if self.chance(0.2):
                        slot['joint'] = 'continuous'
                    elif self.joint_rng.random() < 0.5:
                        slot.update(self.limited_joint())
                    if self.chance(0.2):
                        slot['collision'] = False
                    slots[self.pick(['mount', 'socket', 'end'])] = slot
                part['slots'] = slots
            file_name = f'part_{index}.yaml'
            files[file_name] = yaml.safe_dump(part, sort_keys=False)
            names.append(type_name)
        data['part_files'] = list(files)
        return [n for n in names if n not in self.types]

    def limited_joint(self) -> dict:
        """Return a revolute or prismatic joint's keys: the kind, maybe an axis, its limits."""
        rng = self.joint_rng
        self.joints_made += 1  # the kinds in turn
        joint = {'joint': ('revolute', 'prismatic')[self.joints_made % 2]}
        if rng.random() < 0.5:
            joint['axis'] = rng.choice([[0, 1, 0], [0, 0, 1], [1, 1, 0]])
        joint['limits'] = {'lower': rng.choice([-1.5, -0.5, 0]), 'upper': rng.choice([0.25, 1]),
                           'effort': rng.choice([1, 2.5]), 'velocity': rng.choice([0.5, 3])}
        return joint

    def vector(self):
        return self.pick(BAD_VECTORS) if self.chance(0.025) else self.pick(GOOD_VECTORS)

    def adhoc_slot(self, base_name: str, known: dict, types: list) -> dict:
        slot: dict = {}
        if self.chance(0.6):
            of = self.pick(list(known) + ['nobody', 'mast'])
            slot['of'] = of
        else:
            of = base_name
        name = self.pick(WORDS)
        if self.chance(0.05):
            name = self.pick(list(self.slots.get(known.get(of), {})) or WORDS)  # a clash
        if self.chance(0.03):
            name = of  # would contain itself, if its default is named after it
        if not self.chance(0.015):
            slot['name'] = name
        for key in ('xyz', 'rpy'):
            if self.chance(0.6):
                slot[key] = self.vector()
        accepts = self.rng.sample(types, self.pick([0, 1, 1, 2, 3]))
        if self.chance(0.02):
            accepts.append('ping_single_beam')
        if accepts or self.chance(0.5):
            slot['accepts'] = accepts
        if self.chance(0.5):
            default = self.pick(accepts + ['none'] if accepts else ['none'])
            if self.chance(0.04):
                default = self.pick(types + ['blueboat_flagg'])
            slot['default'] = default
            if default != 'none' and 'name' in slot:
                known.setdefault(name, default)
        if self.chance(0.15):
            slot['joint'] = self.pick(['fixed', 'continuous', 'continuous', 'continuous',
                                       'hinge'])  # hinge: no joint kind (rule slot-joint)
        if self.joint_rng.random() < 0.1:  # a config's own moving slot
            slot.update(self.limited_joint())
        if self.chance(0.15):
            slot['collision'] = self.pick([True, False])
        if self.chance(0.01):
            slot['of'] = slot.pop('of', base_name)
            slot[True] = slot.pop('of')
        return slot

    def slot_entry(self, base_name: str, known: dict, adhoc: list, types: list) -> dict:
        carriers = [(of, slot) for of, kind in known.items()
                    for slot in self.slots.get(kind, {})]
        carriers += [(s.get('of', base_name), s['name']) for s in adhoc if 'name' in s]
        if not carriers or self.chance(0.05):
            carriers = [(base_name, self.pick(['motr_port', 'bow', 'pingg']))]
        of, slot = self.pick(carriers)
        entry: dict = {'slot': slot}
        if of != base_name or self.chance(0.2):
            entry['of'] = of
        kind = known.get(of)
        accepts = self.slots.get(kind, {}).get(slot)
        if accepts is None:
            accepts = next((s.get('accepts') or [] for s in adhoc
                            if s.get('name') == slot and s.get('of', base_name) == of), [])
        roll = self.rng.random()
        if roll < 0.55 and accepts:
            entry['type'] = self.pick(accepts)
        elif roll < 0.75:
            entry['type'] = 'none'
        elif roll < 0.95:
            entry['type'] = self.pick(types)
        elif roll < 0.985:
            entry['type'] = self.pick(['blueboat_antena_mast', 't300_thruster'])
        if self.chance(0.15) and entry.get('type') != 'none':
            entry['name'] = self.pick(WORDS + ['flag', 'ping_mount', 'mast'])
        elif entry.get('type') == 'none' and self.chance(0.1):
            entry['name'] = self.pick(WORDS)  # on an empty slot: no effect, named
        if entry.get('type') not in (None, 'none'):
            known.setdefault(entry.get('name', slot), entry['type'])
        if self.chance(0.008):
            entry[True] = entry.pop('of', 'ping_mount')
        if self.chance(0.03):
            entry['xyz'] = [0, 0, 1]
        return entry

    def placement(self, base_name: str, known: dict, types: list) -> dict:
        entry: dict = {}
        roll = self.rng.random()
        if roll < 0.96:
            entry['type'] = self.pick(types)
        elif roll < 0.98:
            entry['type'] = self.pick(['none', 'blueboat_flagg'])
        name = self.pick(WORDS + ['p1', 'p2', 'p3'])
        if self.chance(0.08):
            name = self.pick(list(known) + ['base_link_mast'])
        if not self.chance(0.015):
            entry['name'] = name
        if self.chance(0.6):
            links = list(known) + [f'{base_name}_mast', f'{base_name}_flag', 'mast_top',
                                   'ping_beam', 'nowhere', f'{name}_top']
            entry['parent'] = self.pick(links)
        for key in ('xyz', 'rpy'):
            if self.chance(0.6):
                entry[key] = self.vector()
        if 'type' in entry and 'name' in entry and entry['type'] in types:
            known.setdefault(name, entry['type'])
        return entry
