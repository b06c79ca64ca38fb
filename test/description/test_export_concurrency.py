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
Concurrent and interrupted exports into one folder.

Real processes: four exports at once take turns and leave one complete description; a reader
never finds robot.urdf missing nor a mixed set; an export killed at any step leaves the old or
the new description complete, with its provenance, and the next export removes what it left.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time

from bluerobotics_parts.description.export import verify
from export_helpers import (MANIFEST, manifest_of, printed_identity, REPO, run_cli, siblings,
                            snapshot, write_config)

CONFIGS = {  # four vehicles with different file sets (the Ping's meshes come and go)
    'boat_a': 'name: boat_a\n',
    'boat_b': 'name: boat_b\nparts:\n  - {slot: ping_mount, type: none}\n',
    'boat_c': 'name: boat_c\nparts:\n  - {slot: mast, type: blueboat_antenna_mast}\n',
    'boat_d': 'name: boat_d\nparts:\n  - {slot: motor_port, type: t200_thruster_ccw}\n'
              '  - {slot: motor_stbd, type: t200_thruster_cw}\n',
}
#: Runs the real command, but kills its own process (SIGKILL, as a power cut or kill -9 would)
#: right after the N-th return of a named step of folder_swap: an interruption at a known
#: moment. Nothing is replaced or simulated; the step itself runs as it always does.
KILL_AFTER = textwrap.dedent(f"""
    import os, signal, sys
    sys.path.insert(0, {str(REPO)!r})
    from bluerobotics_parts.cli import main as cli
    from bluerobotics_parts.description import folder_swap
    step, count = sys.argv[1], int(sys.argv[2])
    original = getattr(folder_swap, step)
    calls = []
    def interrupted(*args, **kwargs):
        result = original(*args, **kwargs)
        calls.append(step)
        if len(calls) == count:
            os.kill(os.getpid(), signal.SIGKILL)
        return result
    setattr(folder_swap, step, interrupted)
    sys.exit(cli.main(sys.argv[3:]))
""")


def configs(folder: Path) -> dict[str, Path]:
    return {name: write_config(folder, text, f'{name}.yaml') for name, text in CONFIGS.items()}


def export_process(config: Path, target: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, '-m', 'bluerobotics_parts.cli.main', 'export', config,
                             target], cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            stdin=subprocess.DEVNULL)


def check_one_set(files: dict[str, bytes]) -> str:
    """Return the vehicle name of a file set after checking it is one export's, not a mix."""
    manifest = json.loads(files[MANIFEST])
    for path, digest in manifest['files'].items():
        assert hashlib.sha256(files[path]).hexdigest() == digest, f'{path} of another export'
    assert f'<robot name="{manifest["name"]}">'.encode() in files['robot.urdf']
    return manifest['name']


class Reader(threading.Thread):
    """
    Read the folder over and over while exports replace it.

    By path, robot.urdf must always be there. Through a descriptor of the folder (the way
    to read several files of one description), every complete read must be one export's set;
    a read that finds a file gone saw a folder being removed after the swap, and starts over.
    """

    def __init__(self, folder: Path):
        super().__init__(daemon=True)
        self.folder, self.stop, self.sets, self.problems = folder, threading.Event(), 0, []

    def run(self):
        while not self.stop.is_set():
            try:
                with open(self.folder / 'robot.urdf', 'rb'):
                    pass
            except FileNotFoundError:
                self.problems.append('robot.urdf missing')
            try:
                descriptor = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY)
            except FileNotFoundError:
                self.problems.append('folder missing')
                continue
            try:
                files = {}
                names = json.loads(_read_at(descriptor, MANIFEST))['files']
                for name in [MANIFEST, *names]:
                    files[name] = _read_at(descriptor, name)
                check_one_set(files)
                self.sets += 1
            except FileNotFoundError:
                continue  # the old folder, emptied after the swap: read the new one
            except AssertionError as error:
                self.problems.append(str(error))
            finally:
                os.close(descriptor)


def _read_at(folder: int, relative: str) -> bytes:
    descriptor = os.open(relative, os.O_RDONLY, dir_fd=folder)
    with os.fdopen(descriptor, 'rb') as stream:
        return stream.read()


def add_provenance(folder: Path) -> None:
    (folder / 'notes.txt').write_text('trial 12, calm water')
    (folder / 'bags').mkdir(exist_ok=True)
    (folder / 'bags' / 'run1.db3').write_bytes(b'recorded data')


def assert_provenance(folder: Path) -> None:
    assert (folder / 'notes.txt').read_text() == 'trial 12, calm water'
    assert (folder / 'bags' / 'run1.db3').read_bytes() == b'recorded data'


def test_four_concurrent_exports_take_turns_and_readers_never_see_a_mix(tmp_path):
    paths = configs(tmp_path / 'configs')
    folder = tmp_path / 'out' / 'vehicle'
    first = run_cli('export', paths['boat_a'], folder)
    assert first.returncode == 0, first.stderr
    add_provenance(folder)
    reader = Reader(folder)
    reader.start()
    try:
        for _ in range(3):
            processes = [export_process(path, folder) for path in paths.values()]
            outputs = [(process.wait(timeout=600), *process.communicate())
                       for process in processes]
            for code, _, stderr in outputs:
                assert code == 0, stderr  # serialised: every one finished
            identities = {printed_identity(stdout) for _, stdout, _ in outputs}
            identity = verify(folder)  # one complete, consistent description
            assert identity in identities and len(identities) == 4
            files = snapshot(folder)
            assert files.pop('notes.txt') and files.pop('bags/run1.db3')
            assert sorted(files) == sorted([*manifest_of(folder)['files'], MANIFEST])  # no strays
            assert siblings(folder) == ['vehicle']  # no staging folders left
            assert_provenance(folder)
    finally:
        reader.stop.set()
        reader.join(timeout=60)
    assert reader.problems == [] and reader.sets > 0


def test_an_export_killed_at_any_step_leaves_a_complete_description(tmp_path):
    paths = configs(tmp_path / 'configs')
    folder = tmp_path / 'out' / 'vehicle'
    done = run_cli('export', paths['boat_a'], folder)
    assert done.returncode == 0, done.stderr
    add_provenance(folder)
    identities = {'boat_a': printed_identity(done.stdout)}
    steps = [('_same_file', 3),  # swapped, the old folder beside the new, half emptied
             ('_write_new', 3),  # the new folder half written, beside the old one
             ('_stage', 1),  # the new folder complete, not swapped in
             ('_exchange', 1)]  # swapped: the old folder beside the new, not emptied
    current = 'boat_a'
    for step, count in steps:
        vehicle = 'boat_b' if current == 'boat_a' else 'boat_a'
        killed = subprocess.run([sys.executable, '-c', KILL_AFTER, step, str(count), 'export',
                                 paths[vehicle], folder], capture_output=True, text=True,
                                timeout=600)
        assert killed.returncode == -signal.SIGKILL, (step, killed.stderr)
        # what it left beside the folder (and only that: the earlier one was cleaned up)
        assert len(siblings(folder)) == 2, (step, siblings(folder))
        if step in ('_same_file', '_exchange'):
            current = vehicle
        identity = verify(folder)  # complete and consistent: the old one or the new one
        assert manifest_of(folder)['name'] == current, step
        assert identity == identities.setdefault(current, identity), step
        assert_provenance(folder)
    done = run_cli('export', paths['boat_c'], folder)  # cleans up what the killed ones left
    assert done.returncode == 0, done.stderr
    assert siblings(folder) == ['vehicle']
    assert_provenance(folder)
    assert verify(folder) == printed_identity(done.stdout)


def test_exports_killed_at_random_moments(tmp_path):
    """Kill plain export commands at random moments; the folder is always one complete set."""
    paths = configs(tmp_path / 'configs')
    folder = tmp_path / 'out' / 'vehicle'
    assert run_cli('export', paths['boat_a'], folder).returncode == 0
    add_provenance(folder)
    chance = random.Random(87)
    names = list(paths)
    for _ in range(5):
        process = export_process(paths[chance.choice(names)], folder)
        time.sleep(chance.uniform(0.3, 2.5))
        process.send_signal(signal.SIGKILL)
        process.communicate(timeout=600)
        assert check_one_set(snapshot(folder)) in CONFIGS
        verify(folder)
        assert_provenance(folder)
    assert run_cli('export', paths['boat_d'], folder).returncode == 0
    assert siblings(folder) == ['vehicle']
    assert manifest_of(folder)['name'] == 'boat_d'
    assert_provenance(folder)
