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
Fuzzing configs and user part files through the whole build.

Every generated input (test/support/fuzz_inputs.py, seeded) must end in a build whose URDFs
urdfdom's check_urdf accepts, or in a BlueRoboticsPartsError each of whose messages names its
file and line. Anything else, more than 2 s or more than 300 MB for one input fails and names
the seed, replayed with ``python test/system/test_fuzz.py SEED``.
BLUEROBOTICS_PARTS_FUZZ_EXAMPLES sets the count (the default takes about a minute in CI).
"""

import os
from pathlib import Path
import resource
import shutil
import signal
import subprocess
import sys
import time
import traceback

from conftest import REPO, tool
from fuzz_inputs import Generator

EXAMPLES = int(os.environ.get('BLUEROBOTICS_PARTS_FUZZ_EXAMPLES', '300'))
SECONDS_PER_INPUT = 2.0
MEMORY_PER_INPUT = 300 * 1024 * 1024  # bytes
USER_TYPES = ['my_part', 'cam']
MESH = REPO / 'meshes' / 'blueboat_flag' / 'blueboat_flag.stl'


def write_input(seed: int, folder: Path) -> Path:
    """Write the config (and its part files and meshes) of ``seed`` into ``folder``."""
    generator = Generator(seed)
    folder.mkdir(parents=True)
    (folder / 'sub').mkdir()
    shutil.copyfile(MESH, folder / 'part.stl')
    shutil.copyfile(MESH, folder.parent / 'outside.stl')
    os.link(folder.parent / 'outside.stl', folder / 'linked.stl')  # a second name from outside
    (folder / 'empty.stl').write_bytes(b'')
    (folder / 'garbage.stl').write_bytes(b'\x00' * 84 + b'not triangles')
    part_files = []
    for type_name in USER_TYPES[:generator.random.randint(0, 2)]:
        file_name = f'{type_name}.yaml'
        (folder / file_name).write_bytes(not_always_utf8(
            generator, generator.text(generator.part_file(type_name)).encode('utf-8')))
        part_files.append(file_name)
    config = folder / 'config.yaml'
    user_types = [Path(f).stem for f in part_files] if generator.good(0.9) else USER_TYPES
    data = generator.text(generator.config(user_types, part_files)).encode('utf-8')
    config.write_bytes(not_always_utf8(generator, data))
    return config


def not_always_utf8(generator, data: bytes) -> bytes:
    """Return ``data``, now and then with a byte that is not UTF-8 (Latin-1 text, binary)."""
    if not generator.chance(0.03):
        return data
    position = generator.random.randrange(len(data) + 1)
    return data[:position] + generator.pick([b'\xff', b'\xe9', b'\xc3(']) + data[position:]


class Deadline(Exception):
    """An input ran past the per-input time budget."""


def _alarm(signum, frame):
    raise Deadline()


def run_one(config: Path):
    """
    Return ('built', [urdf texts]) or ('refused', [messages without file:line]).

    Other exceptions propagate.
    """
    from bluerobotics_parts.build import build_gazebo
    from bluerobotics_parts.errors import BlueRoboticsPartsError

    try:
        result = build_gazebo(config)
    except BlueRoboticsPartsError as error:
        found = getattr(error, 'problems', None) or [error]
        return 'refused', [str(p) for p in found
                           if not (getattr(p, 'file', None) and getattr(p, 'line', None))]
    return 'built', [result.resolved.urdf, result.urdf]


def max_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux reports KiB


def fuzz(count: int, folder: Path):
    """Run ``count`` seeds; return (failures, built URDF files, refusals)."""
    failures, built, refused = [], [], 0
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for seed in range(count):
            config = write_input(seed, folder / f'seed_{seed}' / 'work')
            rss_before, start = max_rss_bytes(), time.monotonic()
            signal.setitimer(signal.ITIMER_REAL, 4 * SECONDS_PER_INPUT)
            try:
                outcome, detail = run_one(config)
            except Deadline:
                failures.append(f'seed {seed}: still running after {4 * SECONDS_PER_INPUT} s')
                continue
            except Exception:  # noqa: B902 - the point: any other exception is a failure
                failures.append(f'seed {seed}: {traceback.format_exc()}')
                continue
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            elapsed, grown = time.monotonic() - start, max_rss_bytes() - rss_before
            if elapsed > SECONDS_PER_INPUT:
                failures.append(f'seed {seed}: took {elapsed:.2f} s')
            if grown > MEMORY_PER_INPUT:
                failures.append(f'seed {seed}: peak memory grew by {grown / 2**20:.0f} MiB')
            if outcome == 'refused':
                refused += 1
                failures += [f'seed {seed}: a message without file:line: {message[:300]}'
                             for message in detail]
                continue
            for index, text in enumerate(detail):
                path = folder / f'seed_{seed}' / f'urdf_{index}.urdf'
                path.write_text(text, encoding='utf-8')
                built.append((seed, path))
    finally:
        signal.signal(signal.SIGALRM, previous)
    return failures, built, refused


def test_every_fuzzed_input_builds_or_is_refused_with_a_message(tmp_path):
    failures, built, refused = fuzz(EXAMPLES, tmp_path)
    check_urdf = tool('check_urdf')
    for seed, path in built:
        result = subprocess.run([check_urdf, str(path)], capture_output=True, text=True,
                                timeout=60)
        if result.returncode != 0:
            failures.append(f'seed {seed}: check_urdf rejects {path.name}: '
                            f'{(result.stdout + result.stderr).strip()[-300:]}')
    print(f'{EXAMPLES} inputs: {len(built) // 2} built, {refused} refused')
    assert not failures, '\n'.join(failures[:10])
    # The generator must exercise both outcomes, or the test proves little.
    assert len(built) // 2 >= EXAMPLES // 20
    assert refused >= EXAMPLES // 4


if __name__ == '__main__':  # replay one seed: python test/system/test_fuzz.py SEED [FOLDER]
    import tempfile

    sys.path.insert(0, str(REPO))
    seed_arg = int(sys.argv[1])
    where = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(tempfile.mkdtemp())
    config_path = write_input(seed_arg, where / 'work')
    print(config_path.read_text(encoding='utf-8'))
    print(run_one(config_path))
