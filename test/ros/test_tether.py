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
Nothing a launch starts outlives it: the tether (ros/launch/tether.py) and sitl_runner.

A small Python process plays the launch: it starts the tether as launch would (directly, or
through ``/bin/sh -c`` as ros_gz_sim starts gz) and is then killed with SIGKILL, the one stop
launch cannot pass on. The programs are ``sleep`` and a SITL stand-in that ignores SIGTERM, as
SITL does without its physics peer. Linux only (PR_SET_PDEATHSIG, pidfd).
"""

from __future__ import annotations

import os
from pathlib import Path
import signal
import subprocess
import sys
import time

from conftest import REPO
import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith('linux'),
                                reason='the tether uses Linux process facilities')
TETHER = [sys.executable, '-m', 'bluerobotics_parts.ros.launch.tether']
LAUNCH = """
import os, subprocess, sys, time
command = sys.argv[1:]
pid = str(os.getpid())
command = [word.replace('LAUNCH_PID', pid) for word in command]
child = subprocess.Popen(command)
print(child.pid, flush=True)
time.sleep(600)
"""


def environment() -> dict:
    return dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(REPO), os.environ.get('PYTHONPATH', '')]))


def alive(pid: int) -> bool:
    try:
        with open(f'/proc/{pid}/stat', encoding='ascii') as stat:
            return stat.read().rsplit(')', 1)[1].split()[0] != 'Z'
    except FileNotFoundError:
        return False


def descendants(pid: int) -> list:
    """Return every live process under ``pid`` (children first found through /proc)."""
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        for entry in os.listdir('/proc'):
            if not entry.isdigit():
                continue
            try:
                with open(f'/proc/{entry}/stat', encoding='ascii') as stat:
                    fields = stat.read().rsplit(')', 1)[1].split()
            except (FileNotFoundError, ProcessLookupError):
                continue
            if int(fields[1]) == parent and fields[0] != 'Z':
                found.append(int(entry))
                frontier.append(int(entry))
    return found


def wait_gone(pids, timeout: float) -> float:
    """Return how long it took every pid to end; fail after ``timeout`` seconds."""
    start = time.monotonic()
    while any(alive(pid) for pid in pids):
        assert time.monotonic() - start < timeout, [p for p in pids if alive(p)]
        time.sleep(0.05)
    return time.monotonic() - start


def launched(*command, settle: float = 1.0):
    """Start the stand-in launch with ``command`` (LAUNCH_PID filled in): it, the child, tree."""
    launch = subprocess.Popen([sys.executable, '-c', LAUNCH, *command], env=environment(),
                              stdout=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
    child = int(launch.stdout.readline())
    time.sleep(settle)  # the tether has set up (exec, or its child started)
    return launch, child, descendants(launch.pid)


def test_a_program_the_launch_started_becomes_the_program_and_ends_with_the_launch():
    launch, child, tree = launched(*TETHER, 'LAUNCH_PID', '--', 'sleep', '300')
    try:
        assert tree == [child]  # exec: no process more than the program
        assert Path(f'/proc/{child}/exe').resolve().name == 'sleep'
        launch.kill()
        assert wait_gone([child], timeout=5) < 5
    finally:
        launch.kill()
        for pid in tree:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_program_under_a_shell_is_stopped_once_the_launch_has_gone():
    """As ros_gz_sim starts gz: ``/bin/sh -c``, whose shell outlives a killed launch."""
    shell = ' '.join([*TETHER, 'LAUNCH_PID', '--', 'sleep', '300'])
    launch, child, tree = launched('/bin/sh', '-c', shell)
    try:
        assert len(tree) == 3, tree  # sh, the tether, sleep
        launch.kill()
        assert wait_gone(tree, timeout=10) < 10
    finally:
        launch.kill()
        for pid in tree:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_the_supervising_tether_passes_a_stop_on():
    shell = ' '.join([*TETHER, 'LAUNCH_PID', '--', 'sleep', '300'])
    launch, child, tree = launched('/bin/sh', '-c', shell)
    try:
        tether = [pid for pid in tree if pid != child and
                  b'tether' in Path(f'/proc/{pid}/cmdline').read_bytes()]
        assert len(tether) == 1
        os.kill(tether[0], signal.SIGINT)  # what stop_children_on_shutdown sends
        assert wait_gone(tree, timeout=5) < 5
        assert alive(launch.pid)  # the launch itself is untouched
    finally:
        launch.kill()
        for pid in tree:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_the_tether_says_how_it_is_used():
    done = subprocess.run([*TETHER, 'sleep', '1'], env=environment(), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and 'usage:' in done.stderr


STUBBORN_SITL = """#!/usr/bin/env python3
import signal, sys, time
signal.signal(signal.SIGTERM, lambda *a: None)  # SITL without its physics peer: never acts on it
print('started', flush=True)
while True:
    time.sleep(0.1)
"""


@pytest.fixture
def stubborn(tmp_path):
    program = tmp_path / 'ardusub'
    program.write_text(STUBBORN_SITL, encoding='utf-8')
    program.chmod(0o755)
    return program


def runner_tree(stubborn):
    runner = subprocess.Popen([sys.executable, '-m', 'bluerobotics_parts.ros.launch.sitl_runner',
                               str(stubborn)], env=environment(), stdout=subprocess.PIPE,
                              text=True, stdin=subprocess.DEVNULL)
    assert runner.stdout.readline().strip() == 'started'
    (sitl,) = descendants(runner.pid)
    return runner, sitl


def test_the_runner_ends_a_sitl_that_ignores_sigterm_before_launch_escalates(stubborn):
    """Launch sends SIGTERM 5 s after its SIGINT and SIGKILL 5 s after that (launch 3.4.3)."""
    runner, sitl = runner_tree(stubborn)
    try:
        runner.send_signal(signal.SIGINT)
        start = time.monotonic()
        assert runner.wait(timeout=10) == 0
        assert time.monotonic() - start < 5  # before launch's SIGTERM reaches the runner
        assert not alive(sitl)
    finally:
        runner.kill()
        if alive(sitl):
            os.kill(sitl, signal.SIGKILL)


def test_a_second_stop_kills_sitl_at_once(stubborn):
    runner, sitl = runner_tree(stubborn)
    try:
        runner.send_signal(signal.SIGINT)
        time.sleep(0.3)
        runner.send_signal(signal.SIGTERM)
        assert runner.wait(timeout=10) == 0
        assert wait_gone([sitl], timeout=2) < 2
    finally:
        runner.kill()
        if alive(sitl):
            os.kill(sitl, signal.SIGKILL)


def test_sitl_cannot_outlive_its_runner(stubborn):
    """The runner killed outright (launch's SIGKILL, a crash): SITL goes with it."""
    runner, sitl = runner_tree(stubborn)
    try:
        runner.kill()
        assert wait_gone([sitl], timeout=5) < 5
    finally:
        if alive(sitl):
            os.kill(sitl, signal.SIGKILL)
