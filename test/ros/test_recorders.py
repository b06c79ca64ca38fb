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
The recorders the launch tests put in front of every program: record, then the real one.

A stand-in "real" program (a shell script that writes its pid, arguments and the signal it got)
takes the place of an installed robot_state_publisher or gz, so the hand-over is checked here,
without ROS or Gazebo installed: the recorder records, then the real program runs with the
same arguments (the same process for a ROS program, a child that gets the stop signal for gz).
Which program the launch tests run where is ``ros_support.programs_to_run``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
import signal
import subprocess
import sys
import time

from conftest import skip_if_set_up_without
import pytest
import ros_support

FAKE = """#!/bin/sh
# stand-in for an installed program: writes its pid and arguments, waits for a signal
out="{out}"
trap 'echo "stopped by signal" >> "$out.signals"; exit 0' INT TERM
echo "$$ $*" > "$out.partial" && mv "$out.partial" "$out"
{tail}
"""


def fake_program(path: Path, out: Path, waits: bool) -> Path:
    tail = 'while :; do sleep 0.1; done' if waits else 'exit 0'
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(FAKE.format(out=out, tail=tail), encoding='utf-8')
    path.chmod(0o755)
    return path


def wait_for(path: Path, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    while not path.is_file():
        assert time.monotonic() < deadline, f'{path} never appeared'
        time.sleep(0.05)
    return path.read_text(encoding='utf-8')


def records(folder: Path) -> list:
    return [json.loads(p.read_text(encoding='utf-8')) for p in sorted(folder.glob('*.json'))]


def test_a_ros_recorder_records_then_becomes_the_real_program(tmp_path, ros):
    real = fake_program(tmp_path / 'prefix' / 'lib' / 'robot_state_publisher' /
                        'robot_state_publisher', tmp_path / 'ran', waits=False)
    folder = tmp_path / 'records'
    folder.mkdir()
    arguments = ['--ros-args', '-r', '__ns:=/boat', '-p', 'publish_frequency:=20.0']
    run = subprocess.run(
        [sys.executable, ros_support.DOUBLES / 'recording_node.py', '--real', real,
         'robot_state_publisher', 'robot_state_publisher', *arguments],
        env=dict(os.environ, **{ros_support.RECORDS_ENV: str(folder),
                                'ROS_AUTOMATIC_DISCOVERY_RANGE': 'LOCALHOST'}),
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert run.returncode == 0, run.stderr
    (record,) = records(folder)
    assert (record['namespace'], record['parameters']['publish_frequency']) == ('/boat', 20.0)
    pid, *ran_with = wait_for(tmp_path / 'ran').split()
    assert ran_with == arguments  # the real program got the same arguments...
    assert int(pid) == record['pid']  # ...in the same process: launch's pid is the real one


def test_a_ros_recorder_without_a_real_program_stands_in(tmp_path, ros):
    folder = tmp_path / 'records'
    folder.mkdir()
    run = subprocess.run(
        [sys.executable, ros_support.DOUBLES / 'recording_node.py', 'ros_gz_sim', 'create',
         '--ros-args', '-r', '__ns:=/boat'],
        env=dict(os.environ, **{ros_support.RECORDS_ENV: str(folder)}),
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert run.returncode == 0, run.stderr  # the create double "spawns" and exits 0
    (record,) = records(folder)
    assert record['executable'] == 'create' and record['namespace'] == '/boat'


@pytest.mark.parametrize('display', ['', ':0'])
def test_the_gz_recorder_forwards_to_a_real_gz_and_passes_the_stop_on(tmp_path, display):
    if not ros_support.executable('ruby'):
        skip_if_set_up_without('ruby')  # the set-up could not install it, and said why
        pytest.fail('needs ruby: tools/setup.sh test installs it', pytrace=False)
    real = fake_program(tmp_path / 'bin' / 'gz', tmp_path / 'ran', waits=True)
    folder = tmp_path / 'records'
    folder.mkdir()
    world = tmp_path / 'water.sdf'
    world.write_text('<sdf version="1.9"><world name="water"/></sdf>', encoding='utf-8')
    env = {k: v for k, v in os.environ.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY')}
    env.update({ros_support.RECORDS_ENV: str(folder), ros_support.REAL_GZ_ENV: str(real),
                'DISPLAY': display})
    recorder = subprocess.Popen(['ruby', ros_support.DOUBLES / 'gz', 'sim', '-r', world],
                                env=env, stdin=subprocess.DEVNULL)
    try:
        ran = wait_for(tmp_path / 'ran').split()
        (record,) = records(folder)
        recorder.send_signal(signal.SIGINT)
        assert recorder.wait(timeout=30) == 0
    finally:
        recorder.kill()
    assert record['arguments'] == ['sim', '-r', str(world)] and record['real'] == str(real)
    # without a display the real gz runs its server alone (-s): no GUI to fail
    assert ran[1:] == ['sim', '-r', str(world)] + ([] if display else ['-s'])
    assert 'stopped by signal' in wait_for(tmp_path / 'ran.signals')
    assert (folder / f"gz.sim.{record['pid']}.stopped").read_text() == 'INT'
    assert not list(folder.glob('gz_world.*'))  # the real gz answers gz service -l itself


def test_the_real_programs_are_chosen_from_the_ament_index(tmp_path, monkeypatch):
    import gz_support

    for package, program in (('robot_state_publisher', 'robot_state_publisher'),
                             ('rviz2', 'rviz2'), ('ros_gz_sim', 'create')):
        fake_program(tmp_path / 'lib' / package / program, tmp_path / 'unused', waits=False)
    (tmp_path / 'lib' / 'ros_gz_bridge').mkdir()
    (tmp_path / 'lib' / 'ros_gz_bridge' / 'parameter_bridge').write_text('not executable')
    monkeypatch.setenv('AMENT_PREFIX_PATH', os.pathsep.join(['/nonexistent', str(tmp_path)]))
    monkeypatch.setattr(gz_support, 'harmonic_gz', lambda: '/opt/gz/bin/gz')
    for display, rviz in (('', None), (':0', str(tmp_path / 'lib' / 'rviz2' / 'rviz2'))):
        monkeypatch.setenv('DISPLAY', display)
        monkeypatch.delenv('WAYLAND_DISPLAY', raising=False)
        assert ros_support.programs_to_run() == {
            'robot_state_publisher': str(tmp_path / 'lib' / 'robot_state_publisher' /
                                         'robot_state_publisher'),
            'parameter_bridge': None,  # not executable: not a program
            'create': str(tmp_path / 'lib' / 'ros_gz_sim' / 'create'),
            'rviz2': rviz,  # a GUI program only with a display
            'joint_state_publisher_gui': None,
            'gz': '/opt/gz/bin/gz',  # the real create spawns into a real world
        }
    os.remove(tmp_path / 'lib' / 'ros_gz_sim' / 'create')
    assert ros_support.programs_to_run()['gz'] is None  # the create double: the gz double
