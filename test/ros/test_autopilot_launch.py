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
vehicle.launch.py with autopilot:=ardupilot: planned without ROS, and run by ros2 launch.

A stand-in SITL (support/fake_sitl.py) records how it was started; the SITL runner passes
launch's Ctrl-C on as the SIGTERM SITL exits on. The real SITL flies in
test/ardupilot/test_sitl_flight.py where it is installed.
"""

from __future__ import annotations

import os
from pathlib import Path
import time

from bluerobotics_parts.errors import BlueRoboticsPartsError
from conftest import CONFIG_DIR
import fake_sitl
from plans import make_plan
import pytest
import ros_support
import yaml


def test_the_plan_starts_sitl_with_its_defaults_and_the_vehicles_parameters(tmp_path):
    binary = fake_sitl.checkout(tmp_path)
    plan = make_plan(tmp_path / 'ros', config=CONFIG_DIR / 'bluerov2.yaml', gazebo='false',
                     autopilot='ardupilot', autopilot_instance=1, ardupilot_bin=binary)
    folder = plan.artefact_dir
    assert (folder / 'ardupilot.parm').read_text().startswith('# ArduPilot parameters')
    defaults = tmp_path / 'ardupilot' / 'Tools' / 'autotest' / 'default_params' / 'sub.parm'
    command = list(plan.autopilot.cmd)
    assert command[1:3] == ['-m', 'bluerobotics_parts.ros.launch.sitl_runner']
    assert command[3:] == [str(binary), '--model', 'JSON', '--defaults',
                           f'{defaults},{folder / "ardupilot.parm"}', '-I', '1', '-w',
                           '--sim-address', '127.0.0.1', '--serial0', 'tcp:0', '--home',
                           '33.8468,-118.3985,0.0,0.0']
    assert plan.autopilot.cwd == str(folder / 'sitl')
    assert 'MAVLink on tcp:127.0.0.1:5770' in plan.summary
    bridge = yaml.safe_load((folder / 'bridge.yaml').read_text())
    # the autopilot drives the thrusters; the camera's tilt is still commanded from ROS
    assert [e['ros_topic_name'] for e in bridge if e['direction'] == 'ROS_TO_GZ'] == [
        '/bluerov2/camera/tilt']
    assert not [n for n in plan.nodes if n.executable == 'thrust_allocator']  # and ROS does not
    urdf = (folder / 'robot_description.urdf').read_text()
    assert '<fdm_port_in>9012</fdm_port_in>' in urdf


def test_without_sitl_the_launch_stops_before_anything_is_written(tmp_path, monkeypatch):
    monkeypatch.setenv('PATH', str(tmp_path))
    with pytest.raises(BlueRoboticsPartsError) as caught:
        make_plan(tmp_path / 'ros', config=CONFIG_DIR / 'blueboat.yaml', gazebo='false',
                  autopilot='ardupilot')
    assert "ArduPilot SITL's ardurover, which is not on PATH" in str(caught.value)
    assert not (tmp_path / 'ros' / 'bluerobotics_parts' / 'blueboat').exists()


def test_without_an_autopilot_there_is_no_sitl(tmp_path):
    plan = make_plan(tmp_path / 'ros', gazebo='false')
    assert plan.autopilot is None and 'ArduPilot' not in plan.summary


@pytest.fixture(scope='module')
def prefix(tmp_path_factory):
    ros_support.require_launch()
    return ros_support.make_prefix(tmp_path_factory.mktemp('ament_prefix'))


def test_ros2_launch_starts_sitl_and_stops_it_cleanly(prefix, tmp_path):
    from test_launch_runs import BRIDGE, RSP, shut_down, vehicle

    binary = fake_sitl.checkout(tmp_path)
    run = vehicle(tmp_path / 'run', prefix, f'config:={CONFIG_DIR / "bluerov2.yaml"}',
                  'gazebo:=false', 'autopilot:=ardupilot', f'ardupilot_bin:={binary}')
    output = Path(f'{binary}.out')
    try:
        run.wait_for([RSP, BRIDGE])
        deadline = time.monotonic() + 60
        while not output.is_file():
            assert time.monotonic() < deadline and run.process.poll() is None, run.log
            time.sleep(0.2)
    finally:
        shut_down(run)
    words = output.read_text().split()
    assert words[:4] == ['started', '--model', 'JSON', '--defaults'] and words[-1] == \
        'stopped-by-term'
    assert 'MAVLink on tcp:127.0.0.1:5760' in run.log
    assert os.path.isdir(tmp_path / 'run' / 'ros_home' / 'bluerobotics_parts' / 'bluerov2' /
                         'sitl')
