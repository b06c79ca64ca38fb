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

import math
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


@pytest.mark.parametrize('problem, esc, wanted', [
    (None, 'curve', 'curve'),  # Gazebo's Python can run the ESC system
    ('python3 cannot import gz.transport13', 'curve', 'linear'),  # it cannot: the linear map
    ('never asked', 'linear', 'linear'),  # asked for
])
def test_the_esc_argument_and_its_fallback_when_gazebos_python_cannot_run_it(
        tmp_path, problem, esc, wanted):
    from xml.etree import ElementTree

    from bluerobotics_parts.ros.launch import plan as launch_plan
    from plans import converted

    asked = []

    def esc_problem(environ):
        asked.append(environ)
        return problem

    binary = fake_sitl.checkout(tmp_path)
    plan = launch_plan.plan({'config': str(CONFIG_DIR / 'bluerov2.yaml'), 'gazebo': 'false',
                             'autopilot': 'ardupilot', 'esc': esc, 'ardupilot_bin': str(binary)},
                            {'ROS_HOME': str(tmp_path / 'ros'), 'HOME': str(tmp_path)},
                            lambda: (), converted, lambda: False, esc_problem)
    assert len(asked) == (esc == 'curve')
    urdf = ElementTree.parse(plan.urdf_file).getroot()
    systems = [p for p in urdf.iter('plugin')
               if p.get('name') == 'gz::sim::systems::PythonSystemLoader']
    assert len(systems) == (wanted == 'curve')
    warned = 'WARNING: thrust through the linear PWM map' in plan.summary
    assert warned == (esc == 'curve' and wanted == 'linear')
    if warned:
        assert problem in plan.summary and 'esc:=linear' in plan.summary


def test_the_esc_probe_names_what_gazebos_python_lacks(tmp_path):
    """The probe asks python3 on PATH; here a real python3 with one module hidden, and none."""
    import sys

    from bluerobotics_parts.ros.launch.gazebo_detection import esc_python_problem

    assert esc_python_problem(dict(os.environ, PATH=str(tmp_path))) == 'no python3 on PATH'
    hidden = tmp_path / 'hidden'
    (hidden / 'gz').mkdir(parents=True)  # a gz package without transport13 shadows any other
    (hidden / 'gz' / '__init__.py').write_text('')
    (tmp_path / 'python3').symlink_to(sys.executable)
    found = esc_python_problem(dict(os.environ, PATH=str(tmp_path), PYTHONPATH=str(hidden)))
    assert found.startswith(f"{tmp_path / 'python3'} cannot import gz.transport13"), found


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


def _sitl_processes(under: Path) -> list:
    """Return the pids of SITL programs whose working folder is inside ``under``."""
    found = []
    for entry in Path('/proc').iterdir():
        if not entry.name.isdigit():
            continue
        try:
            program = Path(os.readlink(entry / 'exe')).name
            folder = os.readlink(entry / 'cwd')
        except OSError:
            continue
        if program in ('ardusub', 'ardurover') and folder.startswith(str(under)):
            found.append(int(entry.name))
    return found


@pytest.mark.parametrize('stop', ['SIGTERM', 'SIGKILL'])
def test_gazebo_stopped_first_leaves_no_sitl_and_the_next_launch_starts(prefix, tmp_path, stop):
    """
    Real programs: gz closed (SIGTERM) or crashed (SIGKILL) under a flying launch.

    SITL, left without its physics, ignores SIGTERM; it must still be gone 15 s later, and a
    second launch right after starts its own SITL on the same ports.
    """
    import signal

    from test_launch_runs import GZ, RSP, vehicle
    import sitl_support

    real = ros_support.recorders(prefix)
    reason = sitl_support.missing('ardusub') or (
        None if real.get('create') and real.get('gz') else
        'needs the real ros_gz_sim create and gz (ROS 2 Jazzy with ros_gz, Gazebo Harmonic)')
    if reason:
        pytest.skip(reason)
    config = f'config:={CONFIG_DIR / "bluerov2.yaml"}'
    for attempt in ('first', 'second'):  # the second finds the ports the first held free
        run = vehicle(tmp_path / attempt, prefix, config, 'autopilot:=ardupilot', 'gui:=false',
                      f'world:={ros_support.headless_world(tmp_path)}')
        try:
            run.wait_for([RSP, GZ])
            deadline = time.monotonic() + 90
            while not _sitl_processes(tmp_path / attempt):
                assert time.monotonic() < deadline and run.process.poll() is None, run.log
                time.sleep(0.5)
            time.sleep(5)  # SITL connected and flying
            for record in run.records_of(*GZ):
                os.kill(record['pid'], getattr(signal, stop))
            time.sleep(15)
            left = _sitl_processes(tmp_path / attempt)
            assert not left, f'{attempt} launch: SITL {left} outlived gz by 15 s\n{run.log}'
        finally:
            run.stop()
        assert 'MAVLink on tcp:127.0.0.1:5760' in run.log, run.log


def _arm(link, timeout: float = 120.0) -> None:
    """Arm in MANUAL with the normal checks, as a ground station does."""
    from pymavlink import mavutil

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        link.set_mode(link.mode_mapping()['MANUAL'])
        link.mav.command_long_send(link.target_system, link.target_component,
                                   mavutil.mavlink.MAV_CMD_COMPONENT_ARM_DISARM, 0,
                                   1, 0, 0, 0, 0, 0, 0)
        until = time.monotonic() + 3
        while time.monotonic() < until:
            message = link.recv_match(type='HEARTBEAT', blocking=True, timeout=0.5)
            if message is not None and message.get_srcSystem() == link.target_system and \
                    message.base_mode & mavutil.mavlink.MAV_MODE_FLAG_SAFETY_ARMED:
                return
    raise AssertionError('never armed')


def _positions(env: dict, names) -> dict:
    """Subscribe to each model's odometry in the launch's gz partition: name -> [(x, y)]."""
    import gz.transport13 as transport
    from gz.msgs10.odometry_pb2 import Odometry

    for key in ('GZ_PARTITION', 'GZ_IP'):  # read when the node is made
        os.environ[key] = env[key]
    node = transport.Node()
    seen = {name: [] for name in names}
    for name in names:
        node.subscribe(Odometry, f'/model/{name}/odometry',
                       lambda m, n=name: seen[n].append((m.pose.position.x, m.pose.position.y)))
    seen['_node'] = node  # kept alive with the result
    return seen


def test_two_rovs_each_flown_by_its_own_sitl_in_one_world(prefix, tmp_path):
    """
    Real programs: two launches, SITL instances 0 and 1, one world.

    Full forward stick on the first autopilot moves the first ROV only, as Gazebo's odometry
    shows: each autopilot flies its own vehicle (ports 5760 and 5770; the plugins' JSON on
    9002 and 9012).
    """
    from pymavlink import mavutil
    from test_launch_runs import shut_down, vehicle, wait_for_log
    import sitl_support

    real = ros_support.recorders(prefix)
    reason = sitl_support.missing('ardusub') or (
        None if real.get('create') and real.get('gz') else
        'needs the real ros_gz_sim create and gz (ROS 2 Jazzy with ros_gz, Gazebo Harmonic)')
    if reason:
        pytest.skip(reason)
    world = f'world:={ros_support.headless_world(tmp_path)}'
    config = f'config:={CONFIG_DIR / "bluerov2.yaml"}'
    records = tmp_path / 'records'
    first = vehicle(tmp_path / 'a', prefix, config, 'name:=a', 'autopilot:=ardupilot',
                    'gui:=false', world, records=records)
    second = links = None
    try:
        wait_for_log(first, 'Entity creation successful', timeout=120)
        second = vehicle(tmp_path / 'b', prefix, config, 'name:=b', 'y:=3.0',
                         'autopilot:=ardupilot', 'autopilot_instance:=1', 'gui:=false', world,
                         records=records)
        wait_for_log(second, 'Entity creation successful', timeout=120)
        links = {}
        for name, port in (('a', 5760), ('b', 5770)):
            deadline = time.monotonic() + 60
            while name not in links:
                try:
                    links[name] = mavutil.mavlink_connection(f'tcp:127.0.0.1:{port}',
                                                             source_system=255)
                except OSError:
                    assert time.monotonic() < deadline, f'no SITL on {port}'
                    time.sleep(1)
            links[name].wait_heartbeat(timeout=60)
            _arm(links[name])
        places = _positions(first.env, ('a', 'b'))
        time.sleep(2)
        start = {name: places[name][-1] for name in links}
        until = time.monotonic() + 10
        while time.monotonic() < until:
            links['a'].mav.manual_control_send(links['a'].target_system, 1000, 0, 500, 0, 0)
            links['b'].mav.manual_control_send(links['b'].target_system, 0, 0, 500, 0, 0)
            for link in links.values():
                while link.recv_match(blocking=False):
                    pass
            time.sleep(0.05)
        end = {name: places[name][-1] for name in links}
    finally:
        for link in (links or {}).values():
            link.close()
        if second:
            shut_down(second, shares_records=True)
        shut_down(first)
    moved = {name: math.dist(start[name], end[name]) for name in start}
    print('two ROVs, two SITLs:', moved)
    assert moved['a'] > 3.0 and moved['b'] < 0.5, moved
