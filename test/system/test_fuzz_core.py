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
Fuzzed configs and part files end in a result or a message, never in a traceback.

Beside test_fuzz.py: seeded configs from the differential test's generator, then mutated
(hostile values, dropped or repeated lines, tags and aliases), and user part files likewise,
through the build, the check and the API. Each succeeds (urdfdom's check_urdf accepting the URDF,
for a sample) or raises the package's own error; nothing else, within 2 s of CPU per input, and
the process grows by less than 300 MB over the run.
"""

from __future__ import annotations

import copy
import random
import resource
import time

from conftest import run, tool
import pytest
import yaml

CASES = 300
SEED = 8086

HOSTILE = [10 ** 400, -10 ** 400, 'x' * 5000, '', None, True, 0.0, -0.0, 1e308, float('inf'),
           float('nan'), [], {}, [[[[[[[[1]]]]]]]], {'a': {'b': {'c': 1}}}, 'nan', 'True',
           'inf', 'a/b', 'a b', '../../etc/passwd', '/dev/zero', 'base_link', 'none',
           'ping_mount', 'é', '\t', '0x10', '1:30', [0, 0], [1, 2, 3, 4], '1e400 0 0',
           {'x': 1}, 'blueboat_flag', 'continuous', -1, 3]


def mutate_data(rng: random.Random, data):
    """Replace a few values at random places (keys and items alike) by hostile ones."""
    data = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        places = list(_places(data))
        if not places:
            break
        container, key = rng.choice(places)
        container[key] = copy.deepcopy(rng.choice(HOSTILE))
    return data


def _places(value, depth=0):
    if depth > 6:
        return
    if isinstance(value, dict):
        for key in list(value):
            yield value, key
            yield from _places(value[key], depth + 1)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield value, index
            yield from _places(item, depth + 1)


def mutate_text(rng: random.Random, text: str) -> str:
    """Drop, repeat or tag a line, or insert an alias."""
    lines = text.splitlines() or ['']
    index = rng.randrange(len(lines))
    roll = rng.random()
    if roll < 0.25:
        del lines[index]
    elif roll < 0.5:
        lines.insert(index, lines[index])
    elif roll < 0.7:
        lines[index] = lines[index].replace(': ', ': !radians ', 1)
    elif roll < 0.85:
        lines[index] = lines[index].replace(': ', ': &a ', 1) + '\nextra: *a'
    else:
        lines[index] = lines[index][:rng.randrange(len(lines[index]) + 1)]
    return '\n'.join(lines) + '\n'


def hostile_cases(count: int = CASES, seed: int = SEED):
    from bluerobotics_parts.assembly.catalogue import shipped
    from config_generator import Generator

    rng = random.Random(seed)
    generator = Generator(seed, shipped())
    for _ in range(count):
        case = generator.case()
        config = yaml.safe_load(case.config) or {}
        if rng.random() < 0.6:
            config = mutate_data(rng, config)
        text = yaml.safe_dump(config, sort_keys=False) if _dumpable(config) else case.config
        if rng.random() < 0.3:
            text = mutate_text(rng, text)
        parts = {}
        for name, part_text in case.part_files.items():
            part = yaml.safe_load(part_text)
            if rng.random() < 0.5:
                part = mutate_data(rng, part)
            parts[name] = yaml.safe_dump(part, sort_keys=False) if _dumpable(part) \
                else part_text
        yield text, parts


def _dumpable(data) -> bool:
    try:
        yaml.safe_dump(data)
    except (yaml.YAMLError, ValueError, OverflowError):
        return False
    return True


def test_fuzzed_inputs_give_a_result_or_a_message(tmp_path):
    from bluerobotics_parts.api import Assembly
    from bluerobotics_parts.assembly import urdf_check
    from bluerobotics_parts.assembly.pipeline import resolve_config
    from bluerobotics_parts.build import build_gazebo
    from bluerobotics_parts.errors import BlueRoboticsPartsError
    from bluerobotics_parts.files.yaml_lines import load_text

    default_urdf = resolve_config(None).urdf
    start_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    built, refused, slowest, to_check = 0, 0, 0.0, []
    for number, (text, parts) in enumerate(hostile_cases()):
        folder = tmp_path / f'case{number}'
        folder.mkdir()
        for name, part_text in parts.items():
            (folder / name).write_text(part_text, encoding='utf-8')
        path = folder / 'config.yaml'
        path.write_text(text, encoding='utf-8')
        began = time.process_time()  # CPU: the machine's other load does not count
        try:
            result = build_gazebo(path)
            built += 1
            if len(to_check) < 40:
                urdf = folder / 'robot.urdf'
                urdf.write_text(result.resolved.urdf, encoding='utf-8')
                to_check.append(urdf)
        except BlueRoboticsPartsError as error:
            refused += 1
            assert str(error).strip(), text
        except Exception as error:  # the package's fault: show the input
            pytest.fail(f'{type(error).__name__}: {error}\n--- config:\n{text}\n'
                        + ''.join(f'--- {n}:\n{t}' for n, t in parts.items()))
        try:
            urdf_check.problems(path, default_urdf)
        except BlueRoboticsPartsError:
            pass
        try:  # the package's loader: PyYAML's global one may carry xacro's evaluating tags
            data = load_text(text).data
        except BlueRoboticsPartsError:
            data = None
        if isinstance(data, dict) and not data.get('part_files'):
            try:
                Assembly.from_dict(data).build()
            except BlueRoboticsPartsError:
                pass
        slowest = max(slowest, time.process_time() - began)
        assert slowest < 2.0, (slowest, text)
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - start_rss) / 1024
    assert grown_mb < 300, grown_mb
    assert built >= 15 and refused >= 150, (built, refused)
    for urdf in to_check:
        checked = run([tool('check_urdf'), urdf])
        assert checked.returncode == 0, (urdf.read_text(encoding='utf-8')[:2000], checked.stderr)
