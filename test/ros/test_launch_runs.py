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
vehicle.launch.py and display.launch.py run by ``ros2 launch``, as a user runs them.

The installed launch stack (launch, launch_ros, ros2launch), ros_gz_sim's installed
gz_sim.launch.py and the real scan_to_range node run; every other program is fronted by a
recorder (test/support/ros_doubles/, ros_support.make_prefix) that records what it was started
with, then runs the real program where it is installed or stands in for it. Every launch ends
with a terminal's Ctrl-C (SIGINT to the whole process group; ``shut_down``).
"""

from __future__ import annotations

from pathlib import Path

from conftest import CONFIG_DIR, write_config
import pytest
import ros_support
from ros_support import LaunchRun
import yaml

RSP = ('robot_state_publisher', 'robot_state_publisher')
BRIDGE = ('ros_gz_bridge', 'parameter_bridge')
CREATE = ('ros_gz_sim', 'create')
RVIZ = ('rviz2', 'rviz2')
GUI = ('joint_state_publisher_gui', 'joint_state_publisher_gui')
GZ = ('gz', 'sim')
GAZEBO_WRAPPER = 'gazebo-'  # launch's name for gz_sim.launch.py's process (name='gazebo')


@pytest.fixture(scope='module')
def prefix(tmp_path_factory):
    ros_support.require_launch()
    return ros_support.make_prefix(tmp_path_factory.mktemp('ament_prefix'))


def vehicle(folder, prefix, *arguments, **kwargs) -> LaunchRun:
    return LaunchRun(folder, prefix, 'bluerobotics_parts', 'vehicle.launch.py', *arguments,
                     **kwargs)


def only(records: dict, executable: str) -> dict:
    (record,) = records[executable]
    return record


def converter_line(run: LaunchRun, scan: str, range_topic: str, frame: str,
                   namespace: str = '') -> None:
    """
    Assert the real scan_to_range started with the name, topics and frame the launch gave it.

    Its log line shows its node (logger) name in its namespace (default: the vehicle's; dots
    for slashes), both topics as resolved, the frame and the Ping2's cone (25 degrees,
    0.5-100 m).
    """
    vehicle_name, instance = scan.split('/')[1:3]
    logger = f'{namespace or vehicle_name}.{instance}_scan_to_range'
    line = (f'[{logger}]: {scan} (PointCloud2) -> {range_topic} '
            f'(Range, frame {frame}, field of view 0.436 rad, 0.5-100.0 m)')
    assert line in run.log, run.log


def wait_for_log(run: LaunchRun, text: str, timeout: float = 60.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while text not in run.log:
        if run.process.poll() is not None or time.monotonic() > deadline:
            run.stop()
            raise AssertionError(f'{text!r} not in the launch log:\n{run.log}')
        time.sleep(0.2)


def shut_down(run: LaunchRun, shares_records: bool = False, group: bool = True) -> None:
    """
    Ctrl-C, then assert the clean shutdown.

    With ``shares_records`` another launch still running wrote records too: only the
    processes this launch reports are checked for leftovers.

    ros_gz_sim starts gz through /bin/sh (``ExecuteProcess(shell=True)``, ros_gz branch jazzy,
    ros_gz_sim/launch/gz_sim.launch.py): Debian's and Ubuntu's dash then dies of the Ctrl-C's
    SIGINT itself, whatever gz does, so launch reports that wrapper "died" with -2. That report
    is accepted for the wrapper alone, and only once gz under it has stopped cleanly
    (docs/LIMITATIONS.md, "ROS side").
    """
    code = run.interrupt(group=group)
    try:
        report = run.process_report()
        gz = run.records_of(*GZ)
        for pid, (name, state) in list(report.items()):
            if name.startswith(GAZEBO_WRAPPER) and state == 'died' and gz:
                # dash's own -2, or (seen once in CI) asyncio's child watcher finding the
                # shell already reaped: "Unknown child process pid N, will report returncode
                # 255" (CPython 3.11 asyncio/unix_events.py, ThreadedChildWatcher._do_waitpid)
                assert f'process has died [pid {pid}, exit code -2,' in run.log or (
                    f'Unknown child process pid {pid}, will report returncode 255' in run.log
                    and f'process has died [pid {pid}, exit code 255,' in run.log), run.log
                assert all((run.records / f"gz.sim.{r['pid']}.stopped").is_file() for r in gz), \
                    'gz did not stop on the SIGINT'
                report.pop(pid)
        unclean = {pid: state for pid, state in report.items() if state[1] != 'clean'}
        assert report and not unclean, f'not finished cleanly: {unclean}\n{run.log}'
        assert 'Traceback' not in run.log, run.log
        assert code == 0, f'ros2 launch exit code {code}\n{run.log}'
        recorded = set() if shares_records else {r['pid'] for r in run.records_of()}
        left = [pid for pid in set(run.process_report()) | recorded if ros_support.alive(pid)]
        assert not left, f'still running after the launch ended: {left}'
    finally:
        run.stop()  # whatever the checks found, nothing of this launch outlives the test


def mesh_uris(urdf: str) -> set:
    import re

    return set(re.findall(r'filename="(package://[^"]+)"', urdf))


def test_vehicle_launch_with_its_defaults(prefix, tmp_path):
    run = vehicle(tmp_path, prefix)
    try:
        records = run.wait_for([RSP, BRIDGE, CREATE, GZ])
        wait_for_log(run, '(PointCloud2) -> ')
    finally:
        shut_down(run)
    folder = tmp_path / 'ros_home' / 'bluerobotics_parts' / 'blueboat'
    urdf_file = folder / 'robot_description.urdf'
    spawned = urdf_file.read_text(encoding='utf-8')
    assert sorted(records) == ['create', 'parameter_bridge', 'robot_state_publisher', 'sim']

    rsp = only(records, 'robot_state_publisher')
    assert (rsp['name'], rsp['namespace']) == ('robot_state_publisher', '/blueboat')
    assert rsp['parameters']['robot_description'] == spawned  # what Gazebo spawns
    assert rsp['parameters']['frame_prefix'] == 'blueboat/'
    assert rsp['parameters']['use_sim_time'] is True
    assert rsp['resolved_topics'] == {'joint_states': '/blueboat/joint_states',
                                      'robot_description': '/blueboat/robot_description'}
    assert rsp['user_arguments'] == []

    create = only(records, 'create')
    assert (create['name'], create['namespace']) == ('blueboat_create', '/')
    assert create['user_arguments'] == ['-name', 'blueboat', '-file', str(urdf_file),
                                        '-x', '0.0', '-y', '0.0', '-z', '0.0', '-Y', '0.0',
                                        '-world', 'water']
    assert create['files'][str(urdf_file)] == spawned
    assert create['parameters']['use_sim_time'] is True

    bridge = only(records, 'parameter_bridge')
    assert (bridge['name'], bridge['namespace']) == ('blueboat_bridge', '/')
    bridge_file = str(folder / 'bridge.yaml')
    assert bridge['parameters']['config_file'] == bridge_file
    assert bridge['parameters']['use_sim_time'] is True
    entries = yaml.safe_load(bridge['files'][bridge_file])
    topics = {e['ros_topic_name'] for e in entries}
    assert {'/blueboat/motor_port/thrust', '/blueboat/ping/scan', '/blueboat/joint_states',
            '/clock'} <= topics

    gz = only(records, 'sim')
    world = ros_support.package_share() / 'config' / 'worlds' / 'water.sdf'
    assert gz['arguments'] == ['sim', '-r', str(world), '--force-version', '8']
    assert gz['world'] == 'water'
    # GZ_SIM_RESOURCE_PATH was unset: what gz got came from package.xml's gazebo_model_path
    # through ros_gz_sim's real gz_sim.launch.py, and every mesh resolves under it
    # (gz turns package://bluerobotics_parts/... into model://bluerobotics_parts/...).
    entries = [Path(p) for p in (gz['GZ_SIM_RESOURCE_PATH'] or '').split(':') if p]
    uris = mesh_uris(spawned)
    assert uris
    for uri in uris:
        relative = uri[len('package://'):]
        assert [e for e in entries if (e / relative).is_file()], (uri, entries)

    converter_line(run, '/blueboat/ping/scan', '/blueboat/ping/range', 'blueboat/ping_beam')
    assert 'no Gazebo running, starting it with' in run.log


def test_a_sigint_to_launch_alone_stops_gazebo_too(prefix, tmp_path):
    """
    Stop with kill -INT of ros2 launch (no terminal): launch signals only ros_gz_sim's shell.

    dash ignores SIGINT while it waits for gz; vehicle.launch.py passes the stop on to gz.
    Whether dash then reports -2 depends on which SIGINT arrives first (it kills itself with
    a SIGINT it got while waiting), so either report is accepted for the shell.
    """
    run = vehicle(tmp_path, prefix, 'gui:=false')
    try:
        run.wait_for([RSP, BRIDGE, CREATE, GZ])
    finally:
        shut_down(run, group=False)
    (gz,) = run.records_of(*GZ)
    world = ros_support.package_share() / 'config' / 'worlds' / 'water.sdf'
    assert gz['arguments'][:4] == ['sim', '-r', str(world), '-s']
    # gz got the SIGINT and stopped (shut_down checked nothing is left and that the shell, if
    # reported dead, died of SIGINT, not of launch's escalation to SIGTERM after 5 s)
    assert (run.records / f"gz.sim.{gz['pid']}.stopped").read_text(encoding='utf-8') == 'INT'
    assert 'escalating to' not in run.log, run.log


def test_another_config_with_its_name_and_position(prefix, tmp_path):
    config = CONFIG_DIR / 'examples' / 'ping_at_bow.yaml'
    run = vehicle(tmp_path, prefix, f'config:={config}', 'name:=boat2', 'y:=4.0',
                  'gazebo:=false')
    try:
        records = run.wait_for([RSP, BRIDGE, CREATE])
        wait_for_log(run, '(PointCloud2) -> ')
    finally:
        shut_down(run)
    assert not run.records_of(*GZ) and 'gazebo' not in run.process_report_names()
    rsp = only(records, 'robot_state_publisher')
    assert (rsp['namespace'], rsp['parameters']['frame_prefix']) == ('/boat2', 'boat2/')
    assert '<robot name="boat2">' in rsp['parameters']['robot_description']
    create = only(records, 'create')
    arguments = create['user_arguments']
    assert arguments[arguments.index('-name') + 1] == 'boat2'
    assert arguments[arguments.index('-y') + 1] == '4.0'
    assert create['name'] == 'boat2_create'
    assert only(records, 'parameter_bridge')['name'] == 'boat2_bridge'
    converter_line(run, '/boat2/bow_ping/scan', '/boat2/bow_ping/range', 'boat2/bow_ping_beam')


def test_without_gazebo_and_with_rviz(prefix, tmp_path):
    run = vehicle(tmp_path, prefix, 'gazebo:=false', 'rviz:=true')
    try:
        records = run.wait_for([RSP, BRIDGE, CREATE, RVIZ])
    finally:
        shut_down(run)
    assert not run.records_of(*GZ)
    rviz = only(records, 'rviz2')
    view_file = str(tmp_path / 'ros_home' / 'bluerobotics_parts' / 'blueboat' / 'vehicle.rviz')
    assert (rviz['name'], rviz['namespace']) == ('rviz2', '/blueboat')
    assert rviz['user_arguments'] == ['-d', view_file]
    assert rviz['parameters']['use_sim_time'] is True
    view = yaml.safe_load(rviz['files'][view_file])['Visualization Manager']
    assert view['Global Options']['Fixed Frame'] == 'blueboat/odom'
    displays = {d['Class'].split('/')[-1]: d for d in view['Displays']}
    assert displays['RobotModel']['Description Topic']['Value'] == \
        only(records, 'robot_state_publisher')['resolved_topics']['robot_description']
    assert displays['Range']['Topic']['Value'] == '/blueboat/ping/range'


def test_a_bad_config_stops_the_launch_before_any_process(prefix, tmp_path):
    config = write_config(tmp_path, 'parts:\n  - {slot: motor_port, type: blueboat_flag}\n')
    run = vehicle(tmp_path / 'run', prefix, f'config:={config}')
    code = run.wait()
    assert code != 0
    assert f'{config}:2' in run.log and 'motor_port' in run.log and 'blueboat_flag' in run.log
    assert 'Traceback' not in run.log
    assert 'process started' not in run.log and not run.records_of()
    assert not (tmp_path / 'run' / 'ros_home' / 'bluerobotics_parts').exists()


def test_a_misspelled_or_invalid_argument(prefix, tmp_path):
    run = vehicle(tmp_path / 'typo', prefix, 'gazebo:=false', 'nmae:=boat2')
    try:
        records = run.wait_for([RSP, BRIDGE, CREATE])
    finally:
        shut_down(run)
    assert "'nmae' is not declared and is ignored; did you mean 'name'?" in run.log
    assert only(records, 'robot_state_publisher')['namespace'] == '/blueboat'
    invalid = vehicle(tmp_path / 'invalid', prefix, 'rviz:=yes')
    assert invalid.wait() != 0
    assert 'Argument "rviz" provided value "yes" is not valid' in invalid.log
    assert not invalid.records_of()


def test_display_launch(prefix, tmp_path):
    run = LaunchRun(tmp_path, prefix, 'bluerobotics_parts', 'display.launch.py', 'name:=shown')
    try:
        records = run.wait_for([RSP, GUI, RVIZ])
    finally:
        shut_down(run)
    rsp = only(records, 'robot_state_publisher')
    assert rsp['namespace'] == '/shown' and rsp['parameters']['frame_prefix'] == 'shown/'
    description = rsp['parameters']['robot_description']
    assert '<robot name="shown">' in description and '<gazebo' not in description
    gui = only(records, 'joint_state_publisher_gui')
    assert gui['namespace'] == '/shown'
    assert gui['resolved_topics']['joint_states'] == rsp['resolved_topics']['joint_states'] == \
        '/shown/joint_states'
    rviz = only(records, 'rviz2')
    assert rviz['user_arguments'] == [
        '-d', str(tmp_path / 'ros_home' / 'bluerobotics_parts' / 'shown' / 'display.rviz')]
    assert {r['parameters']['use_sim_time'] for r in records['robot_state_publisher'] +
            records['joint_state_publisher_gui'] + records['rviz2']} == {False}
    assert not run.records_of(*GZ) and not run.records_of(*CREATE)


def test_two_vehicles_in_one_world(prefix, tmp_path):
    records_dir = tmp_path / 'records'  # one gz double for both: the second sees the first's
    first = vehicle(tmp_path / 'a', prefix, 'name:=a', records=records_dir)
    second = None
    try:
        first.wait_for([RSP, BRIDGE, CREATE, GZ])
        second = vehicle(tmp_path / 'b', prefix, 'name:=b', 'y:=3.0', records=records_dir)
        second.wait_for([RSP, RSP, BRIDGE, BRIDGE, CREATE, CREATE, GZ])
        wait_for_log(second, '(PointCloud2) -> ')
    finally:
        if second:
            shut_down(second, shares_records=True)
        shut_down(first)
    assert len(first.records_of(*GZ)) == 1  # the second joined the running world
    assert 'Gazebo already running, spawning into world water' in second.log
    by_vehicle = {}
    for record in first.records_of():
        if record['package'] != 'gz':
            vehicle_name = record['name'].split('_')[0] if record['namespace'] == '/' \
                else record['namespace'].strip('/')
            by_vehicle.setdefault(vehicle_name, []).append(record)
    assert sorted(by_vehicle) == ['a', 'b']

    def names(records):
        nodes = {r['fully_qualified_name'] for r in records}
        topics = set()
        frames = set()
        for r in records:
            topics |= set(r['resolved_topics'].values())
            if 'frame_prefix' in r['parameters']:
                frames.add(r['parameters']['frame_prefix'])
            for text in r['files'].values():
                if r['executable'] == 'parameter_bridge':
                    topics |= {e['ros_topic_name'] for e in yaml.safe_load(text)}
        topics -= {'/clock', '/tf', '/robot_description'}  # shared by design (launch_plan)
        return nodes, topics, frames

    a, b = names(by_vehicle['a']), names(by_vehicle['b'])
    for mine, theirs in zip(a, b):
        assert mine and theirs and not mine & theirs, (mine, theirs)
    assert a[2] == {'a/'} and b[2] == {'b/'}
    create_b = [r for r in by_vehicle['b'] if r['executable'] == 'create'][0]
    assert create_b['user_arguments'][-2:] == ['-world', 'water']
    converter_line(first, '/a/ping/scan', '/a/ping/range', 'a/ping_beam')
    converter_line(second, '/b/ping/scan', '/b/ping/range', 'b/ping_beam')


#: Run beside two launches (their ROS domain): how many publish /clock, whether ROS time ever
#: steps back, and how far one vehicle went (asked ahead on its cmd_vel, or not). One process
#: per vehicle watched: in one node a second Odometry subscription received nothing here.
CLOCK_PROBE = """
import json, sys, time
import rclpy
from geometry_msgs.msg import Twist
from nav_msgs.msg import Odometry
from rosgraph_msgs.msg import Clock
seconds, name, drive = float(sys.argv[1]), sys.argv[2], sys.argv[3] == 'drive'
rclpy.init()
node = rclpy.create_node('clock_probe_' + name, enable_rosout=False)
stamps, places, publishers = [], [], set()
node.create_subscription(Clock, '/clock',
                         lambda m: stamps.append(m.clock.sec * 10**9 + m.clock.nanosec), 1000)
node.create_subscription(Odometry, f'/{name}/odometry', lambda m: places.append(
    (m.pose.pose.position.x, m.pose.pose.position.y)), 10)
ahead = node.create_publisher(Twist, f'/{name}/cmd_vel', 10)
deadline = time.monotonic() + seconds
while time.monotonic() < deadline:
    push = time.monotonic() + 0.05  # every callback due (the clock alone comes at ~200 Hz)
    while time.monotonic() < push:
        rclpy.spin_once(node, timeout_sec=0.005)
    publishers.add(node.count_publishers('/clock'))
    if drive:
        twist = Twist()
        twist.linear.x = 0.5
        ahead.publish(twist)
moved = (((places[-1][0] - places[0][0]) ** 2 + (places[-1][1] - places[0][1]) ** 2) ** 0.5
         if places else None)
back = sum(1 for a, b in zip(stamps, stamps[1:]) if b < a)
print(json.dumps({'publishers': sorted(publishers), 'messages': len(stamps), 'backward': back,
                  'moved': moved, 'odometry': len(places)}))
"""


def test_two_vehicles_share_one_clock_that_never_runs_backwards(prefix, tmp_path):
    """
    Real programs only: two launches into one world, measured from ROS as a user's node sees it.

    One /clock publisher, no step back in 20 s, no "Moved backwards in time" from either
    robot_state_publisher, each vehicle answering only its own cmd_vel; Ctrl-C on both ends
    everything.
    """
    import json
    import subprocess
    import sys

    real = ros_support.recorders(prefix)
    missing = [p for p in ('parameter_bridge', 'robot_state_publisher', 'create', 'gz')
               if not real.get(p)]
    if missing:
        pytest.skip(f'needs the real {", ".join(missing)} (ROS 2 Jazzy with ros_gz and '
                    'Gazebo Harmonic): the doubles publish no clock to measure')
    records_dir = tmp_path / 'records'
    world = f'world:={ros_support.headless_world(tmp_path)}'
    first = vehicle(tmp_path / 'a', prefix, 'name:=a', 'gui:=false', world, records=records_dir)
    second = None
    try:
        # ros_gz branch jazzy, ros_gz_sim/src/create.cpp: "Entity creation successfull." once
        # the model is in: the world is up, so the second launch joins it
        wait_for_log(first, 'Entity creation successful', timeout=120)
        second = vehicle(tmp_path / 'b', prefix, 'name:=b', 'y:=3.0', 'gui:=false',
                         records=records_dir)
        wait_for_log(second, 'Entity creation successful', timeout=120)
        assert 'Gazebo already running' in second.log, second.log
        probes = {name: subprocess.Popen(
            [sys.executable, '-c', CLOCK_PROBE, '20', name, how], env=first.env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
            for name, how in (('a', 'drive'), ('b', 'watch'))}
        seen = {}
        for name, probe in probes.items():
            out, err = probe.communicate(timeout=120)
            assert probe.returncode == 0, err
            seen[name] = json.loads(out.splitlines()[-1])
        print('two vehicles, real programs:', seen)
    finally:
        if second:
            shut_down(second, shares_records=True)
        shut_down(first)
    for name in 'ab':
        assert max(seen[name]['publishers']) == 1, seen  # 0 while a probe discovers the graph
        assert seen[name]['messages'] > 100 and seen[name]['backward'] == 0, seen
    assert 'Moved backwards in time' not in first.log + second.log
    assert seen['a']['moved'] is not None and seen['a']['moved'] > 1.0, seen  # asked ahead
    assert seen['b']['moved'] is not None and seen['b']['moved'] < 0.2, seen  # not asked


PARENT = """
from launch import LaunchDescription
from launch.actions import GroupAction, IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch_ros.actions import Node, PushROSNamespace, SetParameter

VEHICLE = {vehicle!r}


def generate_launch_description():
    return LaunchDescription([
        GroupAction([
            PushROSNamespace('fleet'),
            SetParameter(name='use_sim_time', value=False),  # overridden by the include's
            IncludeLaunchDescription(PythonLaunchDescriptionSource(VEHICLE),
                                     launch_arguments={{'gazebo': 'false'}}.items()),
            Node(package='joint_state_publisher_gui', executable='joint_state_publisher_gui',
                 name='users_node'),
        ], scoped=True),
    ])
"""


def test_a_parent_launch_with_a_namespace_and_its_own_node(prefix, tmp_path):
    parent = tmp_path / 'parent.launch.py'
    parent.write_text(PARENT.format(
        vehicle=str(ros_support.package_share() / 'launch' / 'vehicle.launch.py')),
                      encoding='utf-8')
    run = LaunchRun(tmp_path, prefix, parent)
    try:
        records = run.wait_for([RSP, BRIDGE, CREATE, GUI])
        wait_for_log(run, '(PointCloud2) -> ')
    finally:
        shut_down(run)
    rsp = only(records, 'robot_state_publisher')
    assert rsp['namespace'] == '/fleet/blueboat'
    # what the bridge and the spawn connect does not move with the namespace
    assert rsp['resolved_topics']['joint_states'] == '/blueboat/joint_states'
    bridge = only(records, 'parameter_bridge')
    assert bridge['fully_qualified_name'] == '/fleet/blueboat_bridge'
    topics = {e['ros_topic_name'] for e in yaml.safe_load(
        bridge['files'][bridge['parameters']['config_file']])}
    assert '/blueboat/joint_states' in topics and '/blueboat/ping/scan' in topics
    create = only(records, 'create')
    arguments = create['user_arguments']
    assert arguments[arguments.index('-file') + 1] == rsp_file(tmp_path)
    assert create['files'][rsp_file(tmp_path)] == rsp['parameters']['robot_description']
    converter_line(run, '/blueboat/ping/scan', '/blueboat/ping/range', 'blueboat/ping_beam',
                   namespace='fleet.blueboat')
    # use_sim_time (the argument's default, true, over the parent's earlier false) reaches
    # every node, also the one the parent starts after the include
    users = only(records, 'joint_state_publisher_gui')
    assert users['fully_qualified_name'] == '/fleet/users_node'
    assert {r['parameters']['use_sim_time'] for rs in records.values() for r in rs
            if r['package'] != 'gz'} == {True}


def rsp_file(tmp_path: Path) -> str:
    return str(tmp_path / 'ros_home' / 'bluerobotics_parts' / 'blueboat' /
               'robot_description.urdf')


RANGE_PROBE = """
import json, sys, time
import rclpy
from nav_msgs.msg import Odometry
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import Range
seconds, name = float(sys.argv[1]), sys.argv[2]
rclpy.init()
node = rclpy.create_node('range_probe', enable_rosout=False)
ranges, poses = [], []
node.create_subscription(Range, f'/{name}/ping/range', lambda m: ranges.append(
    {'range': m.range, 'frame': m.header.frame_id, 'fov': m.field_of_view}), 10)
node.create_subscription(Odometry, f'/{name}/odometry', lambda m: poses.append(
    [m.pose.pose.position.x, m.pose.pose.position.y, m.pose.pose.position.z,
     m.pose.pose.orientation.x, m.pose.pose.orientation.y, m.pose.pose.orientation.z,
     m.pose.pose.orientation.w]), qos_profile_sensor_data)
deadline = time.monotonic() + seconds
while time.monotonic() < deadline:
    rclpy.spin_once(node, timeout_sec=0.05)
print(json.dumps({'ranges': ranges[-5:], 'count': len(ranges), 'pose': poses[-1] if poses
                  else None}))
"""


def quaternion_matrix(x, y, z, w) -> tuple:
    """Return the rotation matrix (rows) of a unit quaternion."""
    return ((1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)),
            (2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)),
            (2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)))


def test_the_ping2_range_a_user_echoes_is_the_distance_to_the_seabed(prefix, tmp_path):
    """
    Real programs and a rendering Gazebo: the shipped BlueBoat in the shipped world, as launched.

    ``/blueboat/ping/range`` (the real bridge's cloud through scan_to_range) against the
    transducer's height over the 20 m seabed (config/worlds/water.sdf: top face at z = -20),
    from the boat's odometry and the URDF's kinematics, within 2%.
    """
    import json
    import subprocess
    import sys

    from bluerobotics_parts.build import build_gazebo
    from bluerobotics_parts.model.kinematics import link_poses, multiply, rotate
    import render_support

    real = ros_support.recorders(prefix)
    missing = [p for p in ('parameter_bridge', 'robot_state_publisher', 'create', 'gz')
               if not real.get(p)]
    if missing:
        pytest.skip(f'needs the real {", ".join(missing)} (ROS 2 Jazzy with ros_gz and '
                    'Gazebo Harmonic): the doubles publish no range to measure')
    render_support.require()
    run = vehicle(tmp_path / 'boat', prefix, 'gui:=false')
    try:
        wait_for_log(run, 'Entity creation successful', timeout=180)
        probe = subprocess.run([sys.executable, '-c', RANGE_PROBE, '20', 'blueboat'],
                               env=run.env, capture_output=True, text=True,
                               stdin=subprocess.DEVNULL, timeout=180)
        assert probe.returncode == 0, probe.stderr
        seen = json.loads(probe.stdout.splitlines()[-1])
    finally:
        shut_down(run)
    assert seen['count'] >= 5 and seen['pose'], seen
    build = build_gazebo(CONFIG_DIR / 'blueboat.yaml')
    (ping,) = [s for s in build.topics.sensors if s.kind == 'echosounder']
    offset = link_poses(build.vehicle)[ping.link]
    x, y, z, *quaternion = seen['pose']
    turned = quaternion_matrix(*quaternion)
    transducer = [(x, y, z)[i] + rotate(turned, offset.translation)[i] for i in range(3)]
    axis = rotate(multiply(turned, offset.rotation), (1.0, 0.0, 0.0))
    assert axis[2] < -0.99, f'the beam points down: {axis}'
    want = transducer[2] + 20.0  # the seabed's top face at z = -20
    print('Ping2 in the shipped world:', seen, 'expected', want)
    for reading in seen['ranges']:
        assert reading['frame'] == ping.frame_id
        assert abs(reading['range'] - want) <= 0.02 * want, (reading, want)


ODOMETRY_PROBE = """
import json, sys, time
import rclpy
from nav_msgs.msg import Odometry
from rclpy.qos import qos_profile_sensor_data
rclpy.init()
node = rclpy.create_node('odometry_probe', enable_rosout=False)
poses = []
node.create_subscription(Odometry, sys.argv[1], lambda m: poses.append(
    [m.pose.pose.position.x, m.pose.pose.position.y, m.pose.pose.position.z,
     m.pose.pose.orientation.x, m.pose.pose.orientation.y, m.pose.pose.orientation.z,
     m.pose.pose.orientation.w]), qos_profile_sensor_data)
deadline = time.monotonic() + 30
while not poses and time.monotonic() < deadline:
    rclpy.spin_once(node, timeout_sec=0.05)
print(json.dumps(poses[-1] if poses else None))
"""


BEAM_PROBE = """
import json, sys, time
import rclpy
from rcl_interfaces.msg import Parameter, ParameterType, ParameterValue
from rcl_interfaces.srv import SetParameters
from nav_msgs.msg import Odometry
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import LaserScan
node_name, topic = sys.argv[1], sys.argv[2]
metres, seconds = float(sys.argv[3]), float(sys.argv[4])
rclpy.init()
node = rclpy.create_node('beam_probe', enable_rosout=False)
client = node.create_client(SetParameters, node_name + '/set_parameters')
assert client.wait_for_service(timeout_sec=30), 'no ' + node_name
value = ParameterValue(type=ParameterType.PARAMETER_DOUBLE, double_value=metres)
future = client.call_async(SetParameters.Request(parameters=[Parameter(name='range',
                                                                       value=value)]))
rclpy.spin_until_future_complete(node, future, timeout_sec=30)
assert future.result().results[0].successful, future.result()
beams = []
node.create_subscription(LaserScan, topic, lambda m: beams.append(
    [m.header.stamp.sec + m.header.stamp.nanosec * 1e-9, m.angle_min, m.ranges[0],
     m.scan_time]), qos_profile_sensor_data)
poses = []
node.create_subscription(Odometry, sys.argv[5], lambda m: poses.append(
    [m.header.stamp.sec + m.header.stamp.nanosec * 1e-9, m.pose.pose.position.x,
     m.pose.pose.position.y, m.pose.pose.position.z, m.pose.pose.orientation.x,
     m.pose.pose.orientation.y, m.pose.pose.orientation.z, m.pose.pose.orientation.w]),
    qos_profile_sensor_data)
deadline = time.monotonic() + seconds
while time.monotonic() < deadline:
    rclpy.spin_once(node, timeout_sec=0.05)
print(json.dumps({'beams': beams, 'poses': poses}))
"""


def test_brping_finds_the_underwater_worlds_pile_at_its_bearing_and_range(prefix, tmp_path):
    """
    Real programs and a rendering Gazebo: a Ping360 on a BlueROV2 in the shipped underwater world.

    Its owners' library (brping) pings the launch's ping-protocol sonar head angle by head angle
    around the pier pile (config/worlds/underwater.sdf): the angles that hear it must centre on
    its bearing (within one 0.9 deg step) and the nearest echo come from its face's range
    (within 2%), both computed from the ROV's odometry and the URDF's kinematics.
    """
    import json
    import math
    import re
    import subprocess
    import sys
    from xml.etree import ElementTree

    from bluerobotics_parts.build import build_gazebo
    from bluerobotics_parts.model.kinematics import link_poses, matrix_rpy, rotate
    from bluerobotics_parts.sensing.sonar_echo import Ping, settings_for_range
    import render_support

    real = ros_support.recorders(prefix)
    missing = [p for p in ('parameter_bridge', 'robot_state_publisher', 'create', 'gz')
               if not real.get(p)]
    if missing:
        pytest.skip(f'needs the real {", ".join(missing)} (ROS 2 Jazzy with ros_gz and '
                    'Gazebo Harmonic): the doubles render no sonar')
    render_support.require()
    brping = pytest.importorskip('brping')
    world = CONFIG_DIR / 'worlds' / 'underwater.sdf'
    (pile,) = [m for m in ElementTree.parse(world).getroot().iter('model')
               if m.get('name') == 'pile']
    pile_x, pile_y = (float(v) for v in pile.findtext('pose').split()[:2])
    radius = float(pile.findtext('link/collision/geometry/cylinder/radius'))
    config = write_config(tmp_path, 'name: bluerov2\nbase: {type: bluerov2_frame}\nparts:\n'
                          '  - {slot: scanning_sonar, type: ping360}\n'
                          '  - {slot: hd_camera, of: camera, type: none}\n', 'rov.yaml')
    build = build_gazebo(config)
    head = link_poses(build.vehicle)[
        next(s for s in build.topics.sensors if s.kind == 'scanning_sonar').link]
    run = vehicle(tmp_path / 'rov', prefix, f'config:={config}', f'world:={world}', 'gui:=false')
    echoes, poses = {}, []
    try:
        wait_for_log(run, 'Entity creation successful', timeout=180)
        wait_for_log(run, 'ping-protocol (Ping360) on udp ')
        port = int(re.search(r'ping-protocol \(Ping360\) on udp 127\.0\.0\.1:(\d+)',
                             run.log).group(1))

        def pose():
            probe = subprocess.run([sys.executable, '-c', ODOMETRY_PROBE, '/bluerov2/odometry'],
                                   env=run.env, capture_output=True, text=True,
                                   stdin=subprocess.DEVNULL, timeout=120)
            assert probe.returncode == 0, probe.stderr
            return json.loads(probe.stdout.splitlines()[-1])

        poses.append(pose())
        sonar = brping.Ping360()
        sonar.connect_udp('127.0.0.1', port)
        try:
            assert sonar.initialize()
            settings = settings_for_range(8.0)
            sonar.set_sample_period(settings['sample_period'])
            sonar.set_transmit_duration(settings['transmit_duration'])
            sonar.set_number_of_samples(settings['number_of_samples'])
            ping = Ping(0, settings['transmit_duration'], settings['sample_period'],
                        settings['number_of_samples'])
            for angle in range(60, 150):  # gradians: the pile is to port, about 100
                reply = sonar.transmitAngle(angle)
                assert reply is not None and reply.angle == angle
                first = next((i for i, level in enumerate(reply.data) if level), None)
                echoes[angle] = math.inf if first is None else first * ping.spacing
        finally:
            sonar.iodev.close()
        poses.append(pose())
        # the ROS side: the beam topic stepping at the range's round trip, 8 m here
        probe = subprocess.run(
            [sys.executable, '-c', BEAM_PROBE, '/bluerov2/scanning_sonar_scan_to_ping360',
             '/bluerov2/scanning_sonar/beam', '8.0', '12', '/bluerov2/odometry'], env=run.env,
            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=180)
        assert probe.returncode == 0, probe.stderr
        stream = json.loads(probe.stdout.splitlines()[-1])
        poses.append(pose())
    finally:
        shut_down(run)
    assert all(poses), poses
    (x0, y0), (x1, y1) = poses[0][:2], poses[1][:2]
    # it drifts as it rises (a few cm here): the pings fell between the two poses, so the
    # geometry is taken at their mean
    assert math.hypot(x1 - x0, y1 - y0) < 0.2, f'the ROV moved while pinged: {poses}'

    def pile_from(pose) -> tuple:
        """Return the pile's bearing (deg from the head's +x) and its face's distance."""
        x, y, _, *quaternion = pose
        norm = math.sqrt(sum(q * q for q in quaternion))
        turned = quaternion_matrix(*[q / norm for q in quaternion])
        at = rotate(turned, head.translation)
        dx, dy = pile_x - (x + at[0]), pile_y - (y + at[1])
        bearing = math.degrees(math.atan2(dy, dx) - matrix_rpy(turned)[2] - head.rpy[2]) % 360
        return bearing, math.hypot(dx, dy) - radius

    bearing, want = pile_from([(a + b) / 2 for a, b in zip(*poses[:2])])
    # the pile's echoes: the head angles that hear it (its width, 2 asin(r / d), about 10 deg
    # here); its bearing is their middle (a round pile's nearest face spans several 8 mm
    # samples' worth of angles, so the single nearest echo is no finer than a few steps)
    hits = [angle for angle, heard in echoes.items() if abs(heard - want) < 0.5]
    assert hits and max(hits) - min(hits) + 1 == len(hits), echoes  # one run of angles
    middle = (min(hits) + max(hits)) / 2 * 0.9
    nearest = min(echoes.values())
    print('Ping360 over brping:', middle, nearest, 'expected', bearing, want, hits)
    assert abs(middle - bearing) <= 0.9, (middle, bearing)
    assert abs(nearest - want) <= 0.02 * want, (nearest, want)
    # the beam topic: one beam a step, 2 x 8 m / 1500 m/s apart in simulated time, and each
    # beam towards the pile reads it as the ROV (drifting as it rises) then sees it
    period = 2 * 8.0 / 1500.0
    stepped = [b for b in stream['beams'] if abs(b[3] - period) < 1e-9]  # the range set
    assert len(stepped) > 100, f"{len(stepped)} beams at 8 m of {len(stream['beams'])}"
    spacing = (stepped[-1][0] - stepped[0][0]) / (len(stepped) - 1)
    assert abs(spacing - period) <= 0.05 * period, (spacing, period)
    towards = []
    for stamp, angle, heard, _ in stepped:
        then = min(stream['poses'], key=lambda p: abs(p[0] - stamp))
        pile_bearing, face = pile_from(then[1:])
        if abs(((math.degrees(angle) - pile_bearing + 180) % 360) - 180) <= 0.45:
            towards.append((heard, face))
    print('Ping360 beams:', len(stepped), 'every', spacing, 's; towards the pile', towards)
    assert towards and all(abs(heard - face) <= 0.02 * face for heard, face in towards), towards


TF_PROBE = """
import json, sys, time
import rclpy
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from std_msgs.msg import Float64
from tf2_msgs.msg import TFMessage
tilt_topic, angle, seconds = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
rclpy.init()
node = rclpy.create_node('tf_probe', enable_rosout=False)
frames = {}

def keep(message):
    for t in message.transforms:
        r, q = t.transform.translation, t.transform.rotation
        frames[t.child_frame_id] = [t.header.frame_id, r.x, r.y, r.z, q.x, q.y, q.z, q.w]

latched = QoSProfile(depth=100, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                     reliability=ReliabilityPolicy.RELIABLE)
node.create_subscription(TFMessage, '/tf_static', keep, latched)
node.create_subscription(TFMessage, '/tf', keep, 100)
publisher = node.create_publisher(Float64, tilt_topic, 10)
deadline, last = time.monotonic() + seconds, 0.0
while time.monotonic() < deadline:
    if time.monotonic() - last > 0.2:
        publisher.publish(Float64(data=angle))
        last = time.monotonic()
    rclpy.spin_once(node, timeout_sec=0.05)
print(json.dumps(frames))
"""


def chain(frames: dict, child: str, root: str) -> tuple:
    """Return (rotation rows, translation) of ``child`` in ``root`` from TF's parent links."""
    from bluerobotics_parts.model.kinematics import multiply, rotate

    rotation, translation = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)), (0.0, 0.0, 0.0)
    while child != root:
        assert child in frames, f'{child} has no transform to {root} in TF: {sorted(frames)}'
        parent, x, y, z, *quaternion = frames[child]
        step = quaternion_matrix(*quaternion)
        translation = tuple(a + b for a, b in zip(rotate(step, translation), (x, y, z)))
        rotation = multiply(step, rotation)
        child = parent
    return rotation, translation


@pytest.mark.parametrize('tilt', [0.0, 0.25])
def test_the_camera_optical_frame_in_tf_follows_the_tilt(prefix, tmp_path, tilt):
    """
    Real programs: the tilt command moves the camera's optical frame in TF as the image moves.

    The shipped BlueROV2; ``/bluerov2/camera/tilt`` held at the angle, the transforms read from
    ``/tf`` and ``/tf_static`` as robot_state_publisher publishes them (the joint's angle comes
    back from Gazebo through the bridged joint states). The optical frame's z axis (REP 103:
    the view) must point ahead and down by the angle (+: down, as the rendering test saw the
    seabed enter the image), and the frame sit where the URDF's kinematics put it at that angle.
    """
    import json
    import math
    import subprocess
    import sys

    from bluerobotics_parts.build import build_gazebo
    from bluerobotics_parts.model.kinematics import link_poses, rotate
    import render_support

    real = ros_support.recorders(prefix)
    missing = [p for p in ('parameter_bridge', 'robot_state_publisher', 'create', 'gz')
               if not real.get(p)]
    if missing:
        pytest.skip(f'needs the real {", ".join(missing)} (ROS 2 Jazzy with ros_gz and '
                    'Gazebo Harmonic): the doubles publish no TF')
    pytest.importorskip('tf2_msgs', reason='needs tf2_msgs (ROS 2 Jazzy) to read TF')
    render_support.require()  # the shipped worlds run the Sensors system
    run = vehicle(tmp_path / 'rov', prefix, f'config:={CONFIG_DIR / "bluerov2.yaml"}',
                  'gui:=false')
    try:
        wait_for_log(run, 'Entity creation successful', timeout=180)
        probe = subprocess.run([sys.executable, '-c', TF_PROBE, '/bluerov2/camera/tilt',
                                str(tilt), '15'], env=run.env, capture_output=True, text=True,
                               stdin=subprocess.DEVNULL, timeout=120)
        assert probe.returncode == 0, probe.stderr
        frames = json.loads(probe.stdout.splitlines()[-1])
    finally:
        shut_down(run)
    rotation, translation = chain(frames, 'bluerov2/hd_camera_optical', 'bluerov2/base_link')
    view = rotate(rotation, (0.0, 0.0, 1.0))
    print('optical frame in base_link at tilt', tilt, ':', view, translation)
    want = (math.cos(tilt), 0.0, -math.sin(tilt))
    assert math.degrees(math.acos(min(1.0, sum(a * b for a, b in zip(view, want))))) < 1.0, \
        (view, want)
    assert rotate(rotation, (1.0, 0.0, 0.0))[1] < -0.99  # image right: the ROV's starboard
    build = build_gazebo(CONFIG_DIR / 'bluerov2.yaml')
    placed = link_poses(build.vehicle, {'hd_camera_joint': tilt})['hd_camera_optical']
    assert all(abs(a - b) < 0.002 for a, b in zip(translation, placed.translation)), \
        (translation, placed.translation)
