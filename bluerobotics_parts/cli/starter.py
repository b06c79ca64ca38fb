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
``bluerobotics-parts new --from VEHICLE [FILE]``: a commented config to start from.

It names the vehicle and its base, as the shipped config does, so it builds as it is into the
same vehicle; below, commented out, one entry per slot of that vehicle (its own and those of
the parts that fill them), each with what the slot accepts and its default, and for an empty
slot the slots its parts would bring. A user uncomments an entry and changes its type rather
than guesses names. Written through files/atomic.py: a file that exists is replaced only with
``--force``, never one the command reads.
"""

from __future__ import annotations

from pathlib import Path
import sys

from ..errors import ConfigError, OutputError, printable

#: Where an entry's comment starts, and how long a listing line may grow.
WIDTH = 99


def vehicles() -> dict:
    """Return the shipped vehicles ``--from`` takes: name -> config file (config/*.yaml)."""
    from ..paths import config_dir

    return {path.stem: path for path in sorted(config_dir().glob('*.yaml'))}


def arguments(sub) -> None:
    """Declare ``new``'s arguments on its subparser (cli/main.py's parser)."""
    sub.add_argument('--from', dest='source', default='blueboat', metavar='VEHICLE',
                     help='the vehicle to start from: ' + ', '.join(vehicles())
                     + ' (default blueboat)')
    sub.add_argument('output', nargs='?', type=Path,
                     help='the config file to write (default: print it)')
    sub.add_argument('--force', action='store_true', help='replace FILE if it exists')


def run(args) -> int:
    """Write (or print) the starting config; refuse an existing file without --force."""
    from ..files.atomic import check_not_inputs, check_output_folder, write_text_atomically

    known = vehicles()
    if args.source not in known:
        raise ConfigError(f'new --from {args.source}: no such vehicle; valid: '
                          + ', '.join(known))
    text = starter_text(args.source)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    out = args.output
    check_output_folder(out.parent, label=out, names=(out.name,))
    check_not_inputs([out], {known[args.source]: f'the shipped config of {args.source}'})
    if (out.exists() or out.is_symlink()) and not args.force:
        raise OutputError(f'{out} exists: name a new file, or give --force to replace it '
                          '(nothing was written)')
    write_text_atomically(out, text)
    print(printable(f'wrote {out}: a {args.source} to start from, every slot listed; next: '
                    f'bluerobotics-parts info {out}'), file=sys.stderr)
    return 0


def starter_text(source: str) -> str:
    """Return the commented config of a shipped vehicle (``vehicles()``)."""
    from ..assembly.pipeline import resolve_config

    resolved = resolve_config(vehicles()[source])
    record, catalogue = resolved.record, resolved.catalogue()
    base = record.base
    lines = [f'# A {source} to start from (bluerobotics-parts new --from {source}). It builds',
             f'# as it is, into the same vehicle as the shipped config/{source}.yaml. Every slot',
             '# of the vehicle is listed below, commented out, with what it accepts and what',
             '# fills it by default: uncomment an entry and change its type to fit another part,',
             '# or type: none to leave the slot empty (docs/CONFIG.md has every rule).',
             '#   bluerobotics-parts info FILE      how it floats and drives, in its water',
             '#   bluerobotics-parts tree FILE      what it resolves to',
             '#   bluerobotics-parts render FILE -o FILE.png',
             f'name: {record.robot_name}    # ROS namespace, TF prefix and Gazebo model name',
             f'base: {{type: {base.type}}}'
             + ('' if base.name == 'base_link' else f'  # name: {base.name}'),
             '# water: fresh    # the water it dives in: sea (1025 kg/m^3, the default), fresh',
             '#                 # (997) or a density in kg/m^3',
             'parts:']
    for part in record.parts:
        slots = record.slots_of(part.name)
        if not slots:
            continue
        lines.append(f'  # -- slots of {part.name} ({part.type})')
        for slot in slots:
            lines += _slot_lines(record, catalogue, part, slot.name, base.name)
    if catalogue[base.type].spawn_depth > 0:  # it dives: trim it (physics/trim.py)
        example = ('trimming it with foam (bluerobotics-parts info says how much):',
                   'subsea_buoyancy_foam, name: foam', '0.135, 0.085, 0.079')
    else:
        example = ('a second antenna mast aft:', 'blueboat_antenna_mast, name: aft_mast',
                   '-0.45, 0, 0.18')
    lines += ['  # -- free placements: a part where no slot is (docs/CONFIG.md), e.g.',
              f'  #    {example[0]}',
              f'  # - {{type: {example[1]}, parent: {base.name}, xyz: [{example[2]}]}}']
    return '\n'.join(lines) + '\n'


def _slot_lines(record, catalogue, part, slot: str, base: str) -> list:
    """Return one slot's comment and its commented-out entry (and an empty slot's nested)."""
    spec = catalogue[part.type].slots[slot]
    occupant = record.occupant(part.name, slot)
    fill = occupant.type if occupant is not None else (spec.accepts[0] if spec.accepts
                                                       else 'none')
    of = '' if part.name == base else f', of: {part.name}'
    state = f'default {spec.default}' + (' (empty)' if occupant is None else '')
    lines = _wrapped(f'  # {slot}: accepts {", ".join(spec.accepts) or "nothing"}; {state}')
    lines.append(f'  # - {{slot: {slot}{of}, type: {fill}}}')
    if occupant is None:
        for type_name in spec.accepts:
            inner = catalogue[type_name].slots if type_name in catalogue else {}
            for name, nested in inner.items():
                lines += _wrapped(f'  # ({type_name} in {slot} brings slot {name}): accepts '
                                  f'{", ".join(nested.accepts) or "nothing"}; default '
                                  f'{nested.default}')
                fitted = nested.accepts[0] if nested.accepts else 'none'
                lines.append(f'  # - {{slot: {name}, of: {slot}, type: {fitted}}}')
    return lines


def _wrapped(text: str) -> list:
    """Return a comment line, broken between words where it would pass WIDTH."""
    indent = text[:len(text) - len(text.lstrip(' #'))]
    lines, line = [], indent.rstrip(' ')
    for word in text[len(indent):].split(' '):
        if len(line) + 1 + len(word) > WIDTH and line.strip(' #'):
            lines.append(line)
            line = indent + '    ' + word
        else:
            line = f'{line} {word}'
    return lines + [line]
