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
Finding SITL and its defaults, its command line, and stopping it cleanly under launch.

Stand-in SITL programs (shell scripts) in a temporary ArduPilot-like checkout: what is checked
is where the package looks and what it runs, not ArduPilot itself (test_sitl_flight.py flies
the real one where it is installed).
"""

from __future__ import annotations

import os
from pathlib import Path
import signal
import subprocess
import sys
import time

from bluerobotics_parts.ardupilot import sitl
from bluerobotics_parts.errors import AutopilotError
import pytest

FAKE_SITL = """#!/bin/sh
# stand-in for ArduPilot SITL: exits 0 on SIGTERM (as SITL does), dies of SIGINT
trap 'echo stopped-by-term > "$0.out"; exit 0' TERM
echo started "$@" > "$0.out"
while :; do sleep 0.1; done
"""


def checkout(tmp_path: Path, firmware='ardusub') -> Path:
    """Lay out build/sitl/bin/<firmware> and Tools/autotest/default_params/ like ArduPilot's."""
    binary = tmp_path / 'ardupilot' / 'build' / 'sitl' / 'bin' / firmware
    binary.parent.mkdir(parents=True)
    binary.write_text(FAKE_SITL, encoding='utf-8')
    binary.chmod(0o755)
    defaults = tmp_path / 'ardupilot' / 'Tools' / 'autotest' / 'default_params'
    defaults.mkdir(parents=True)
    (defaults / 'sub.parm').write_text('FRAME_CONFIG 1\n', encoding='utf-8')
    return binary


def test_the_program_is_found_on_path_or_as_given(tmp_path, monkeypatch):
    binary = checkout(tmp_path)
    monkeypatch.setenv('PATH', str(binary.parent) + os.pathsep + os.environ['PATH'])
    assert sitl.find_binary('ardusub') == binary
    assert sitl.find_binary('ardusub', str(binary)) == binary
    monkeypatch.setenv('PATH', str(tmp_path))
    with pytest.raises(AutopilotError) as caught:
        sitl.find_binary('ardurover')
    assert "ArduPilot SITL's ardurover, which is not on PATH" in str(caught.value)
    assert './waf rover' in str(caught.value) and 'ardupilot_bin:=' in str(caught.value)
    with pytest.raises(AutopilotError, match='not an executable file'):
        sitl.find_binary('ardusub', str(tmp_path / 'nothing'))


def test_the_defaults_come_from_the_checkout_above_the_program(tmp_path):
    binary = checkout(tmp_path)
    expected = tmp_path / 'ardupilot' / 'Tools' / 'autotest' / 'default_params' / 'sub.parm'
    assert sitl.find_defaults(binary, 'sub.parm') == expected
    assert sitl.find_defaults(binary, 'sub.parm', str(expected.parent)) == expected
    with pytest.raises(AutopilotError, match='no Tools/autotest/default_params/rover.parm'):
        sitl.find_defaults(binary, 'rover.parm')
    with pytest.raises(AutopilotError, match='has no sub.parm'):
        sitl.find_defaults(binary, 'sub.parm', str(tmp_path))


def test_the_command_is_sitls_json_backend_with_both_parameter_files():
    line = sitl.command(Path('/ap/ardusub'), Path('/ap/sub.parm'), Path('/run/ardupilot.parm'),
                        2, (33.8468, -118.3985, 0.0, 0.0))
    assert line == ['/ap/ardusub', '--model', 'JSON', '--defaults',
                    '/ap/sub.parm,/run/ardupilot.parm', '-I', '2', '-w', '--sim-address',
                    '127.0.0.1', '--serial0', 'tcp:0', '--home', '33.8468,-118.3985,0.0,0.0']
    assert sitl.endpoint(2) == 'tcp:127.0.0.1:5780'


@pytest.mark.parametrize('stop', [signal.SIGINT, signal.SIGTERM])
def test_the_runner_turns_a_stop_into_the_sigterm_sitl_exits_on(tmp_path, stop):
    binary = checkout(tmp_path)
    runner = subprocess.Popen([sys.executable, '-m', 'bluerobotics_parts.ros.launch.sitl_runner',
                               str(binary), '--model', 'JSON'], stdin=subprocess.DEVNULL)
    output = Path(f'{binary}.out')
    deadline = time.monotonic() + 30
    while not output.is_file() or 'started' not in output.read_text():
        assert time.monotonic() < deadline, 'the stand-in never started'
        time.sleep(0.05)
    assert output.read_text().split() == ['started', '--model', 'JSON']
    runner.send_signal(stop)
    assert runner.wait(timeout=30) == 0
    assert output.read_text().strip() == 'stopped-by-term'


def test_the_runner_reports_sitls_own_exit(tmp_path):
    script = tmp_path / 'failing'
    script.write_text('#!/bin/sh\nexit 3\n', encoding='utf-8')
    script.chmod(0o755)
    assert subprocess.run([sys.executable, '-m', 'bluerobotics_parts.ros.launch.sitl_runner',
                           str(script)]).returncode == 3
