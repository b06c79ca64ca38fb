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
What the ROS tests need: the ROS pieces, test doubles for the missing programs, a launch runner.

Real here: rclpy with Fast DDS and the messages (PyPI), the launch stack (launch, launch_ros,
launch_testing, ros2launch: ../shared/ros-jazzy/wheels) and ros_gz_sim's gz_sim.launch.py
(../shared/ros-jazzy/ros_gz_sim). Doubles (test/ros_doubles/, each says what it stands in
for): robot_state_publisher, ros_gz_bridge parameter_bridge, ros_gz_sim create, rviz2,
joint_state_publisher_gui, gz, and the composition_interfaces module launch_ros imports.

A missing piece skips the test with the reason, except under CI=true with the shared folder
present: there every ROS test must run, so a missing piece fails.
"""

from __future__ import annotations

import collections
import json
import os
from pathlib import Path
import random
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get('BLUEROBOTICS_PARTS_SHARED') or REPO.parent / 'shared')
GZ_SIM_LAUNCH = SHARED / 'ros-jazzy' / 'ros_gz_sim' / 'gz_sim.launch.py'
DOUBLES = Path(__file__).resolve().parent / 'ros_doubles'
RECORDS_ENV = 'BLUEROBOTICS_PARTS_TEST_RECORDS'
# (package, executable) of every program a double stands in for
DOUBLE_PROGRAMS = (
    ('robot_state_publisher', 'robot_state_publisher'),
    ('ros_gz_bridge', 'parameter_bridge'),
    ('ros_gz_sim', 'create'),
    ('rviz2', 'rviz2'),
    ('joint_state_publisher_gui', 'joint_state_publisher_gui'),
)
PACKAGE = 'bluerobotics_parts'
PACKAGE_DATA = ('package.xml', 'urdf', 'meshes', 'config')


def strict() -> bool:
    """Return whether a missing ROS piece fails (CI with the shared folder) instead of skipping."""
    return os.environ.get('CI') == 'true' and SHARED.is_dir()


def unavailable(reason: str):
    """Skip with the reason, or fail where every ROS test must run."""
    if strict():
        pytest.fail(f'{reason} (CI=true and {SHARED} exists: no ROS test may skip; run '
                    'tools/setup.sh test)', pytrace=False)
    pytest.skip(reason)


def unavailable_module(reason: str):
    """Skip the whole module (at import) with the reason, or fail where every ROS test runs."""
    if strict():
        raise ImportError(f'{reason} (CI=true and {SHARED} exists: no ROS test may skip)')
    pytest.skip(reason, allow_module_level=True)


def require_rclpy():
    """Return rclpy, or skip / fail when it or sensor_msgs is missing."""
    try:
        import rclpy
        import sensor_msgs.msg  # noqa: F401
    except ImportError as error:
        unavailable(f'needs ROS 2 rclpy and sensor_msgs (tools/setup_ros.sh installs them from '
                    f'PyPI): {error}')
    return rclpy


def require_launch():
    """Make launch, launch_ros and ros2 launch importable here, or skip / fail."""
    require_rclpy()
    if str(DOUBLES) not in sys.path:  # composition_interfaces, after any real one
        sys.path.append(str(DOUBLES))
    try:
        import launch  # noqa: F401
        import launch_ros.actions  # noqa: F401
        import ros2launch  # noqa: F401
    except ImportError as error:
        unavailable(f'needs the ROS 2 launch stack ({SHARED}/ros-jazzy/wheels, installed by '
                    f'tools/setup_ros.sh): {error}')
    if not GZ_SIM_LAUNCH.is_file():
        unavailable(f"needs ros_gz_sim's gz_sim.launch.py at {GZ_SIM_LAUNCH}")
    for program in ('ruby', 'ros2'):
        if not executable(program):
            unavailable(f'needs {program} (tools/setup.sh test installs it)')


def executable(name: str) -> str | None:
    """Return a program beside this Python (the venv) or on PATH."""
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name)


def _script(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding='utf-8')
    path.chmod(0o755)


def _register(prefix: Path, package: str) -> None:
    marker = prefix / 'share' / 'ament_index' / 'resource_index' / 'packages' / package
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text('', encoding='utf-8')


def installed_prefix() -> Path | None:
    """
    Return the ament prefix of an installed bluerobotics_parts (under colcon test), else None.

    There the launch tests run the installed package: its share folder (launch files, data,
    package.xml) and its scan_to_range entry point.
    """
    for entry in os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep):
        entry = Path(entry) if entry else None
        if entry and (entry / 'share' / 'ament_index' / 'resource_index' / 'packages' /
                      PACKAGE).is_file() and (entry / 'lib' / PACKAGE / 'scan_to_range').exists():
            return entry
    return None


def package_share() -> Path:
    """Return the share folder the launched package reads its data from."""
    installed = installed_prefix()
    return installed / 'share' / PACKAGE if installed else REPO


def make_prefix(prefix: Path, doubles: bool = True) -> Path:
    """
    Lay out an ament prefix with this package, ros_gz_sim's launch file and the doubles.

    bluerobotics_parts: its share folder holds links to this checkout's data, so
    ``<share>/..`` (package.xml's gazebo_model_path) has a ``bluerobotics_parts/meshes``;
    scan_to_range is the real node from this checkout. ros_gz_sim: the real gz_sim.launch.py.
    Every other program is a recording_node.py double; ``bin/gz`` is the gz double. Without
    ``doubles``: this package alone. Where the package is installed (installed_prefix), the
    prefix leaves it out and the installed one runs.
    """
    python = sys.executable
    for package, program in DOUBLE_PROGRAMS if doubles else ():
        _register(prefix, package)
        _script(prefix / 'lib' / package / program,
                f'#!/bin/sh\nexec {python} {DOUBLES / "recording_node.py"} {package} {program} '
                '"$@"\n')
    if doubles:
        _ros_gz_sim(prefix)
        (prefix / 'bin').mkdir(parents=True, exist_ok=True)
        (prefix / 'bin' / 'gz').symlink_to(DOUBLES / 'gz')
    if installed_prefix() is None:
        _this_checkout(prefix)
    return prefix


def _this_checkout(prefix: Path) -> None:
    """Register this checkout in the prefix, its data linked, its converter nodes run from it."""
    _register(prefix, PACKAGE)
    share = prefix / 'share' / PACKAGE
    share.mkdir(parents=True, exist_ok=True)
    for name in PACKAGE_DATA:
        (share / name).symlink_to(REPO / name)
    (share / 'launch').mkdir()  # ros2 launch walks the share folder without following links
    for launch_file in (REPO / 'launch').glob('*.launch.py'):
        (share / 'launch' / launch_file.name).symlink_to(launch_file)
    for program, module in (('scan_to_range', 'range_node'),
                            ('pose_to_pressure', 'pressure_node')):
        _script(prefix / 'lib' / PACKAGE / program,
                f'#!/bin/sh\nexec {sys.executable} -m {PACKAGE}.{module} "$@"\n')


def _ros_gz_sim(prefix: Path) -> None:
    _register(prefix, 'ros_gz_sim')
    launch_dir = prefix / 'share' / 'ros_gz_sim' / 'launch'
    launch_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(GZ_SIM_LAUNCH, launch_dir / 'gz_sim.launch.py')


def ros_environment(prefix: Path, records: Path, ros_home: Path) -> dict:
    """
    Return the environment a launch runs in: the prefix first, the doubles, loopback DDS.

    GZ_SIM_RESOURCE_PATH is removed, so what reaches gz comes from the launch alone. A random
    ROS_DOMAIN_ID keeps concurrent test runs on this machine apart.
    """
    env = {k: v for k, v in os.environ.items() if k != 'GZ_SIM_RESOURCE_PATH'}
    env['AMENT_PREFIX_PATH'] = os.pathsep.join(
        [str(prefix)] + [p for p in env.get('AMENT_PREFIX_PATH', '').split(os.pathsep) if p])
    env['PATH'] = os.pathsep.join([str(prefix / 'bin'), str(Path(sys.executable).parent),
                                   env.get('PATH', '/usr/bin:/bin')])
    own = [] if installed_prefix() else [str(REPO)]  # else colcon's PYTHONPATH has it
    env['PYTHONPATH'] = os.pathsep.join(
        own + [p for p in env.get('PYTHONPATH', '').split(os.pathsep) if p] + [str(DOUBLES)])
    env.update({RECORDS_ENV: str(records), 'ROS_HOME': str(ros_home),
                'ROS_DOMAIN_ID': str(random.randint(100, 200)),
                'ROS_AUTOMATIC_DISCOVERY_RANGE': 'LOCALHOST', 'PYTHONUNBUFFERED': '1',
                'RCUTILS_COLORIZED_OUTPUT': '0'})
    env.pop('ROS_LOCALHOST_ONLY', None)  # deprecated in Jazzy in favour of the range above
    return env


class LaunchRun:
    """
    One ``ros2 launch`` as a user runs it, in its own session (a terminal's process group).

    ``interrupt`` sends SIGINT to the whole group, as a terminal's Ctrl-C does: every process
    gets it from the terminal, and launch then sends its own.
    """

    def __init__(self, folder: Path, prefix: Path, *arguments, records: Path | None = None):
        folder.mkdir(parents=True, exist_ok=True)
        self.records = records or folder / 'records'
        self.records.mkdir(parents=True, exist_ok=True)
        self.env = ros_environment(prefix, self.records, folder / 'ros_home')
        self.log_path = folder / 'launch.log'
        self.arguments = [str(a) for a in arguments]
        with open(self.log_path, 'w', encoding='utf-8') as log:
            self.process = subprocess.Popen(
                [executable('ros2'), 'launch', *self.arguments], stdout=log,
                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=self.env,
                cwd=folder, start_new_session=True)

    @property
    def log(self) -> str:
        return self.log_path.read_text(encoding='utf-8', errors='replace')

    def records_of(self, package=None, executable=None) -> list:
        """Return the records written so far, of one program if named."""
        found = []
        for path in sorted(self.records.glob('*.json')):
            data = json.loads(path.read_text(encoding='utf-8'))
            if package in (None, data['package']) and \
                    executable in (None, data['executable']):
                found.append(data)
        return found

    def wait_for(self, expected, timeout: float = 90.0) -> dict:
        """
        Wait until every (package, executable) in ``expected`` wrote its record.

        Return them by executable (a list each). Fails with the launch's log if the launch
        ends first or the time runs out.
        """
        wanted = collections.Counter(expected)
        deadline = time.monotonic() + timeout
        while True:
            have = collections.Counter((r['package'], r['executable'])
                                       for r in self.records_of())
            if all(have[key] >= count for key, count in wanted.items()):
                found = {}
                for record in self.records_of():
                    found.setdefault(record['executable'], []).append(record)
                return found
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                missing = sorted((wanted - have).elements())
                raise AssertionError(f'no record from {missing} (launch exit code '
                                     f'{self.process.returncode}); log:\n{self.log}')
            time.sleep(0.2)

    def interrupt(self, timeout: float = 60.0, group: bool = True) -> int:
        """
        Ctrl-C: SIGINT to the whole process group; return launch's exit code.

        With ``group=False`` only ``ros2 launch`` gets it, as from ``kill -INT`` or a supervisor.
        """
        if group:
            os.killpg(self.process.pid, signal.SIGINT)
        else:
            self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.stop()
            raise AssertionError(f'ros2 launch still running {timeout} s after SIGINT; log:\n'
                                 f'{self.log}') from None

    def wait(self, timeout: float = 90.0) -> int:
        """Wait for a launch that ends by itself; return its exit code."""
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.stop()
            raise AssertionError(f'ros2 launch did not end; log:\n{self.log}') from None

    def stop(self) -> None:
        """End what is left of this launch's process group (clean-up after a failure)."""
        try:  # also once launch has ended: what it left behind is still in its group
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=30)

    def process_report(self) -> dict:
        """Return launch's word on each process it started: pid -> (name, 'clean' | 'died')."""
        started = dict(re.findall(r'\[INFO\] \[([^\]]+)\]: process started with pid \[(\d+)\]',
                                  self.log))
        report = {int(pid): (name, None) for name, pid in started.items()}
        for pid in re.findall(r'process has finished cleanly \[pid (\d+)\]', self.log):
            report[int(pid)] = (report.get(int(pid), ('?', None))[0], 'clean')
        for pid in re.findall(r'process has died \[pid (\d+)', self.log):
            report[int(pid)] = (report.get(int(pid), ('?', None))[0], 'died')
        return report

    def process_report_names(self) -> set:
        """Return the names launch gave the processes it started, without the -N suffix."""
        return {name.rsplit('-', 1)[0] for name, _ in self.process_report().values()}

    def assert_clean_shutdown(self, code: int) -> None:
        """Assert launch exited 0, every process finished cleanly and none is left running."""
        report = self.process_report()
        unclean = {pid: state for pid, state in report.items() if state[1] != 'clean'}
        assert report and not unclean, f'processes not finished cleanly: {unclean}\n{self.log}'
        assert 'Traceback' not in self.log, self.log
        assert code == 0, f'ros2 launch exit code {code}\n{self.log}'
        pids = set(report) | {r['pid'] for r in self.records_of()}
        left = [pid for pid in pids if alive(pid)]
        assert not left, f'still running after the launch ended: {left}'


def alive(pid: int) -> bool:
    """Return whether a process (not a zombie) with this pid exists."""
    try:
        with open(f'/proc/{pid}/stat', encoding='utf-8') as stat:
            return stat.read().rsplit(')', 1)[1].split()[0] != 'Z'
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
