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
Random configs and user part files, valid and not, from a seeded generator.

The generator knows the config format and the shipped parts, so most inputs get past the
YAML syntax and reach the resolution; a share of them are then damaged as text (a tag, a
deleted or repeated line, a truncation) to reach the loader's own checks. Deterministic for a
seed, so a failure names the seed and the input that caused it.
"""

import random

import yaml

SHIPPED_TYPES = ['blueboat_antenna_mast', 'blueboat_battery', 'blueboat_chassis',
                 'blueboat_flag', 'blueboat_payload_bracket', 'blueboat_ping_singlebeam_mount',
                 'm200_weedless_prop_ccw', 'm200_weedless_prop_cw', 'ping_singlebeam',
                 't200_thruster_ccw', 't200_thruster_cw']
SLOTS = ['motor_port', 'motor_stbd', 'flag', 'mast', 'payload', 'ping_mount', 'ping',
         'battery_port', 'battery_stbd', 'top', 'plate']
INSTANCES = ['base_link', 'ping_mount', 'mast', 'payload', 'ping', 'motor_port', 'flag']
LINKS = INSTANCES + ['base_link_mast', 'mast_top', 'payload_mount', 'ping_beam']
# Slot entries that the default BlueBoat accepts: (of, slot, types it accepts besides none).
FITTING = [('base_link', 'motor_port', ['m200_weedless_prop_ccw', 't200_thruster_ccw']),
           ('base_link', 'motor_stbd', ['m200_weedless_prop_cw', 't200_thruster_cw']),
           ('base_link', 'flag', ['blueboat_flag']),
           ('base_link', 'mast', ['blueboat_antenna_mast']),
           ('base_link', 'payload', ['blueboat_payload_bracket']),
           ('base_link', 'ping_mount', ['blueboat_ping_singlebeam_mount']),
           ('ping_mount', 'ping', ['ping_singlebeam'])]
CONFIG_KEYS = ['name', 'base', 'parts', 'slots', 'part_files']
ENTRY_KEYS = ['slot', 'of', 'type', 'name', 'parent', 'xyz', 'rpy']
ADHOC_KEYS = ['of', 'name', 'xyz', 'rpy', 'accepts', 'default', 'collision', 'joint', 'axis',
              'limits']
PART_KEYS = ['type', 'description', 'inertial', 'visual', 'collision', 'slots', 'frames',
             'attach', 'axis', 'dimensions']


class Generator:
    """One stream of inputs for a seed."""

    def __init__(self, seed: int):
        self.random = random.Random(seed)
        # How careless this input is: about half the seeds make few mistakes, so that many
        # inputs reach a successful build and the rest reach every kind of refusal.
        self.noise = self.random.choice([0.0, 0.1, 0.3, 1.0, 1.5])

    def chance(self, p: float) -> bool:
        return self.random.random() < p

    def good(self, p: float) -> bool:
        """Return True with probability p when careful, less the more careless the input."""
        return self.random.random() < 1 - (1 - p) * self.noise

    def pick(self, items):
        return self.random.choice(items)

    # -- scalars -------------------------------------------------------------------------------

    def name(self):
        if self.good(0.8):
            return self.pick(['boat', 'survey', 'b2', 'my_part', 'cam', 'bow_ping', 'x',
                              'base_link', 'mast', 'ping', 'flag', 'motor_port', 'p1'])
        return self.weird()

    def key(self):
        """Return a mapping key: a name, or an odd scalar YAML can still use as a key."""
        value = self.name()
        return value if isinstance(value, (str, int, float, bool, type(None))) else 'odd'

    def weird(self):
        return self.pick([
            '', ' ', 'nan', 'True', 'inf', '1abc', 'has space', 'a/b', '../up', 'dé',
            'x' * 300, '9' * 5000, 'none', 'on', None, True, 0, -1, 10 ** 400, 1e308, 2.5,
            [], {}, [1, 2], {'a': 1}, 'a' * 64, '<robot>', '${1+1}', '$(arg x)',
            '"quoted"', "it's", 'line\nbreak', '\x00', '\u202e'])

    def number(self):
        if self.good(0.85):
            return self.pick([0, 1, -1, 0.1, -0.25, 0.5, 1.5707963, 3.0, 1e-3, 100])
        return self.pick([10 ** 400, -10 ** 400, float('inf'), float('nan'), '1:30', '0x10',
                          '1e5', 'abc', None, True, [], '1 2', 1e308, -1e308])

    def vector(self):
        if self.good(0.8):
            values = [self.number() for _ in range(3)]
            if self.chance(0.3) and all(isinstance(v, (int, float)) for v in values):
                return ' '.join(str(v) for v in values)
            return values
        return self.pick([[1, 2], [1, 2, 3, 4], '1 2', 'a b c', 5, None, {'x': 1},
                          [[1], [2], [3]], [self.weird() for _ in range(3)]])

    def part_type(self, extra=()):
        pool = SHIPPED_TYPES + list(extra)
        if self.good(0.85):
            return self.pick(pool + ['none'])
        return self.pick(['nope', 'M200', 'none ', self.weird()])

    # -- a config ------------------------------------------------------------------------------

    def config(self, user_types=(), part_files=()):
        data = {}
        if self.chance(0.4):
            data['name'] = self.name()
        if self.chance(0.15):
            base = {}
            if self.chance(0.7):
                base['type'] = self.part_type(user_types)
            if self.chance(0.5):
                base['name'] = self.name()
            data['base'] = base if self.good(0.9) else self.weird()
        if self.chance(0.8):
            used = set()
            data['parts'] = [self.entry(user_types, used)
                             for _ in range(self.random.randint(0, 6))]
        if self.chance(0.4):
            data['slots'] = [self.adhoc_slot(user_types) for _ in range(self.random.randint(0, 3))]
        if part_files and self.chance(0.9):
            data['part_files'] = list(part_files)
        elif self.chance(0.05):
            data['part_files'] = self.pick([['missing.yaml'], ['/etc/passwd'], ['../x.yaml'],
                                            'one.yaml', [None]])
        if self.chance(0.05 * self.noise):
            data[self.pick(['nmae', 'part', True, 'extra'])] = self.name()
        if self.chance(0.05):  # a chain of placements, each on the one before
            parent = self.pick(INSTANCES)
            chain = []
            for index in range(self.random.randint(20, 400)):
                chain.append({'type': 'blueboat_flag', 'name': f'chain_{index}',
                              'parent': parent})
                parent = f'chain_{index}'
            if self.chance(0.3):  # closed into a loop
                chain[0]['parent'] = parent
            data['parts'] = list(data.get('parts') or []) + chain
        return data

    def entry(self, user_types, used):
        if self.chance(0.6) and self.good(0.8):  # a slot entry the boat accepts
            of, slot, types = self.pick(FITTING)
            if (of, slot) not in used or not self.good(0.9):
                used.add((of, slot))
                entry = {'slot': slot, 'type': self.pick(types + ['none'])}
                if of != 'base_link' or self.chance(0.2):
                    entry['of'] = of
                return entry
        if self.chance(0.5):  # another slot entry
            entry = {'slot': self.pick(SLOTS) if self.good(0.9) else self.name()}
            if self.chance(0.3):
                entry['of'] = self.pick(INSTANCES) if self.good(0.9) else self.name()
            if self.good(0.95):
                entry['type'] = self.part_type(user_types)
            if self.chance(0.2):
                entry['name'] = self.name()
        else:  # a free placement
            entry = {}
            if self.good(0.95):
                entry['type'] = self.part_type(user_types)
            if self.good(0.95):
                entry['name'] = self.name() if self.chance(0.5) else f'placed_{len(used)}'
                used.add(('placement', len(used)))
            if self.chance(0.5):
                entry['parent'] = self.pick(LINKS) if self.good(0.9) else self.name()
            for key in ('xyz', 'rpy'):
                if self.chance(0.5):
                    entry[key] = self.vector()
        if self.chance(0.05 * self.noise):
            entry[self.pick(['on', True, 'typo', 'rpy', 'accepts'])] = self.name()
        return entry if self.good(0.97) else self.weird()

    def adhoc_slot(self, user_types):
        slot = {}
        if self.good(0.95):
            slot['name'] = self.name()
        if self.chance(0.4):
            slot['of'] = self.pick(INSTANCES) if self.good(0.9) else self.name()
        for key in ('xyz', 'rpy'):
            if self.chance(0.5):
                slot[key] = self.vector()
        if self.chance(0.7):
            accepts = [self.part_type(user_types) for _ in range(self.random.randint(0, 3))]
            slot['accepts'] = accepts if self.good(0.95) else self.weird()
        if self.chance(0.5):
            slot['default'] = (self.pick(slot['accepts']) if slot.get('accepts') and
                               isinstance(slot['accepts'], list) and self.chance(0.8)
                               else self.part_type(user_types))
        if self.chance(0.2):
            slot['collision'] = (self.pick([True, False]) if self.good(0.9)
                                 else self.pick(['yes', 1, None]))
        if self.chance(0.2):
            slot['joint'] = (self.pick(['fixed', 'continuous']) if self.good(0.9)
                             else self.pick(['hinge', 5]))
        return slot

    # -- a user part file ---------------------------------------------------------------------

    def part_file(self, type_name: str):
        data = {'type': type_name if self.good(0.95) else self.weird(),
                'description': 'fuzzed part'}
        if self.chance(0.9):
            data['inertial'] = {
                'mass': self.number() if self.chance(0.2 * self.noise) else 0.3,
                'mass_unverified': 'fuzz',
                'com': self.vector() if self.chance(0.2 * self.noise) else [0, 0, 0],
                'com_unverified': 'fuzz',
                'inertia': {k: (0.001 if k in ('ixx', 'iyy', 'izz') else 0.0)
                            if not self.chance(0.1 * self.noise) else self.number()
                            for k in ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')},
                'inertia_unverified': 'fuzz'}
        for section in ('visual', 'collision'):
            if self.chance(0.7):
                data[section] = [self.geometry() for _ in range(self.random.randint(0, 2))]
        if self.chance(0.5):
            data['slots'] = {self.key() if self.chance(0.2) else f'top{i}': self.part_slot()
                             for i in range(self.random.randint(0, 2))}
        if self.chance(0.4):
            data['frames'] = {'tip': {'xyz': self.vector(), 'xyz_unverified': 'fuzz'}}
        if self.chance(0.2):
            data['attach'] = {'xyz': self.vector(), 'xyz_unverified': 'fuzz'}
        if self.chance(0.1):
            data['axis'] = self.vector()
        if self.chance(0.05 * self.noise):
            data[self.pick(['mesh', 'typo', 'propeller', 'echosounder'])] = self.weird()
        return data

    def geometry(self):
        item = {}
        kind = (self.pick(['box', 'cylinder', 'sphere', 'mesh']) if self.good(0.9)
                else self.pick(['two', 'none']))
        if kind in ('box', 'two'):
            item['box'] = self.vector() if self.chance(0.3 * self.noise) else [0.1, 0.1, 0.1]
            item['box_unverified'] = 'fuzz'
        if kind in ('cylinder', 'two'):
            item['cylinder'] = {'radius': 0.05 if self.good(0.9) else self.number(),
                                'length': 0.1}
            item['cylinder_unverified'] = 'fuzz'
        if kind == 'sphere':
            item['sphere'] = {'radius': 0.05}
            item['sphere_unverified'] = 'fuzz'
        if kind == 'mesh':
            item['mesh'] = self.pick(['part.stl', 'missing.stl', '../outside.stl',
                                      '/etc/passwd', 'file:///etc/passwd', 'file:///dev/zero',
                                      'package://other_pkg/x.stl',
                                      'package://bluerobotics_parts/meshes/blueboat_flag/'
                                      'blueboat_flag.stl', 'x' * 300 + '.stl', 'part.stl\0.png',
                                      'linked.stl', 'empty.stl', 'garbage.stl'])
        if self.chance(0.3):
            item['xyz'] = self.vector()
            item['xyz_unverified'] = 'fuzz'
        if self.chance(0.1):
            item['material'] = self.pick([{'name': 'm', 'rgba': [1, 0, 0, 1]}, {'name': 'm'},
                                          'red', {'rgba': [1, 2]}])
        return item

    def part_slot(self):
        slot = {'xyz': self.vector() if self.chance(0.3 * self.noise) else [0, 0, 0.1],
                'xyz_unverified': 'fuzz'}
        if self.chance(0.8):
            slot['accepts'] = [self.part_type() for _ in range(self.random.randint(0, 2))]
        if self.chance(0.5):
            slot['default'] = (self.pick(slot['accepts']) if slot.get('accepts') and
                               self.good(0.8) else self.part_type())
        if self.chance(0.1):
            slot['joint'] = self.pick(['fixed', 'continuous', 'prismatic'])
        return slot

    # -- text damage --------------------------------------------------------------------------

    def text(self, data) -> str:
        try:
            text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
        except yaml.YAMLError:
            text = repr(data)
        if self.chance(0.15 * self.noise):
            text = self.damage(text)
        return text

    def damage(self, text: str) -> str:
        lines = text.splitlines(keepends=True) or ['\n']
        index = self.random.randrange(len(lines))
        kind = self.pick(['tag', 'delete', 'repeat', 'truncate', 'byte', 'alias', 'indent',
                          'nul'])
        if kind == 'tag':
            lines[index] = lines[index].replace(': ', ': !radians ', 1)
        elif kind == 'delete':
            del lines[index]
        elif kind == 'repeat':
            lines.insert(index, lines[index])
        elif kind == 'truncate':
            return text[:self.random.randrange(len(text) + 1)]
        elif kind == 'byte':
            position = self.random.randrange(len(text) + 1)
            return text[:position] + self.pick(['\t', '{', '[', '&a', '*a', '\x7f', '%', '@',
                                                '\ufeff', ': ']) + text[position:]
        elif kind == 'nul':
            position = self.random.randrange(len(text) + 1)
            return text[:position] + '\0' + text[position:]
        elif kind == 'alias':
            return 'x: &a [1, 2, 3]\n' + text + 'y: *a\n'
        else:
            lines[index] = '   ' + lines[index]
        return ''.join(lines)
