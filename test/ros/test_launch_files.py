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
The launch files' descriptions as launch loads them, and the environment hook colcon installs.

These walk the descriptions in this process (the real launch stack, where ROS 2 Jazzy is
installed); test_launch_runs.py runs them under ros2 launch. Without the launch stack they skip
with the reason (ros_support.require_launch).
"""

from __future__ import annotations

import os
from pathlib import Path
import subprocess

from bluerobotics_parts.ros.launch import arguments as launch_arguments
from conftest import REPO, tool, write_config
import pytest
import ros_support

LAUNCH_DIR = REPO / 'launch'


@pytest.mark.parametrize('name', ['vehicle.launch.py', 'display.launch.py'])
def test_the_launch_files_compile(name):
    path = LAUNCH_DIR / name
    code = compile(path.read_text(encoding='utf-8'), str(path), 'exec')
    assert 'generate_launch_description' in code.co_names


@pytest.fixture(scope='module')
def prefix(tmp_path_factory):
    """Return an ament prefix with ros_gz_sim's real launch file (and unused doubles)."""
    ros_support.require_launch()
    return ros_support.make_prefix(tmp_path_factory.mktemp('ament_prefix'))


@pytest.fixture
def ros_launch(prefix, monkeypatch):
    monkeypatch.setenv('AMENT_PREFIX_PATH', str(prefix))


def load(name: str):
    from launch.launch_description_sources import get_launch_description_from_python_launch_file

    return get_launch_description_from_python_launch_file(str(LAUNCH_DIR / name))


def declared(description) -> dict:
    from launch import LaunchContext
    from launch.utilities import perform_substitutions

    context = LaunchContext()
    return {a.name: (perform_substitutions(context, a.default_value), a.description,
                     tuple(a.choices or ())) for a in description.get_launch_arguments()}


def visit(description, values: dict) -> list:
    """Return the actions the OpaqueFunction returns for these argument values."""
    from launch import LaunchContext
    from launch.actions import OpaqueFunction

    context = LaunchContext()
    for name, (default, *_) in declared(description).items():
        context.launch_configurations[name] = values.get(name, default)
    (opaque,) = [e for e in description.entities if isinstance(e, OpaqueFunction)]
    return list(opaque.execute(context) or [])


def nodes(actions) -> list[tuple[str, str]]:
    from launch import LaunchContext
    from launch.utilities import normalize_to_list_of_substitutions, perform_substitutions
    from launch_ros.actions import Node

    def text(value) -> str:  # the Node keeps what it was given: a string or substitutions
        return value if isinstance(value, str) else perform_substitutions(
            LaunchContext(), normalize_to_list_of_substitutions(value))

    return sorted((text(a.node_package), text(a.node_executable))
                  for a in actions if isinstance(a, Node))


def table(arguments) -> dict:
    """Return what launch shows of each argument (it appends the choices to the description)."""
    return {a.name: (a.default, a.description + (f'. Valid choices are: {list(a.choices)}'
                                                 if a.choices else ''), a.choices)
            for a in arguments}


def test_vehicle_launch_declares_the_arguments_with_their_choices(ros_launch):
    arguments = declared(load('vehicle.launch.py'))
    assert arguments == table(launch_arguments.ARGUMENTS)
    assert arguments['gazebo'][2] == ('auto', 'true', 'false')
    assert arguments['rviz'][2] == ('true', 'false')


def test_vehicle_launch_maps_the_plan_to_actions(ros_launch, tmp_path, monkeypatch):
    from launch import LaunchContext
    from launch.actions import GroupAction, IncludeLaunchDescription, LogInfo
    from launch.actions import SetLaunchConfiguration
    from launch_ros.actions import SetParameter

    monkeypatch.setenv('ROS_HOME', str(tmp_path))
    actions = visit(load('vehicle.launch.py'),
                    {'gazebo': 'false', 'rviz': 'true', 'name': 'walked'})
    assert isinstance(actions[0], SetLaunchConfiguration)  # every process tethered to launch
    context = LaunchContext()
    actions[0].execute(context)
    prefix = context.launch_configurations['launch-prefix']
    assert prefix.endswith(f'-m bluerobotics_parts.ros.launch.tether {os.getpid()} --')
    assert isinstance(actions[1], SetParameter)  # use_sim_time for every node after it
    actions[1].execute(context)
    assert context.launch_configurations['global_params'] == [('use_sim_time', True)]
    assert not [a for a in actions if isinstance(a, (IncludeLaunchDescription, GroupAction))]
    assert nodes(actions) == sorted([  # gazebo:=false and nobody bridges /clock: this one does
        ('robot_state_publisher', 'robot_state_publisher'), ('ros_gz_sim', 'create'),
        ('ros_gz_bridge', 'parameter_bridge'), ('ros_gz_bridge', 'parameter_bridge'),
        ('bluerobotics_parts', 'scan_to_range'), ('bluerobotics_parts', 'thrust_allocator'),
        ('rviz2', 'rviz2')])
    assert isinstance(actions[-1], LogInfo)
    assert (tmp_path / 'bluerobotics_parts' / 'walked' / 'robot_description.urdf').is_file()


def test_vehicle_launch_starts_gazebo_through_ros_gz_sim(ros_launch, prefix, tmp_path,
                                                         monkeypatch):
    from launch import LaunchContext
    from launch.actions import GroupAction, IncludeLaunchDescription
    from launch.utilities import normalize_to_list_of_substitutions, perform_substitutions

    def text(value):
        return perform_substitutions(context, normalize_to_list_of_substitutions(value))

    monkeypatch.setenv('ROS_HOME', str(tmp_path))
    actions = visit(load('vehicle.launch.py'), {'gazebo': 'true', 'gui': 'false'})
    # the include sits in a scoped, non-forwarding group: gz_sim.launch.py sees only the
    # arguments given to it, not ours (its own gz_version would otherwise be overridden)
    (group,) = [a for a in actions if isinstance(a, GroupAction)]
    (include,) = [a for a in group.get_sub_entities() if isinstance(a, IncludeLaunchDescription)]
    context = LaunchContext()
    source = include.launch_description_source
    included = source.get_launch_description(context)  # the location is known once loaded
    assert source.location == str(prefix / 'share' / 'ros_gz_sim' / 'launch' /
                                  'gz_sim.launch.py')
    assert {a.name for a in included.get_launch_arguments()} >= {'gz_args', 'gz_version'}
    given = {text(k): text(v) for k, v in include.launch_arguments}
    world = REPO / 'config' / 'worlds' / 'water.sdf'
    assert given == {'gz_args': f'-r {world} -s', 'on_exit_shutdown': 'true'}


def test_world_launch_starts_gazebo_and_the_one_clock_bridge(ros_launch, prefix, tmp_path):
    from launch.actions import GroupAction, SetLaunchConfiguration

    description = load('world.launch.py')
    assert declared(description) == table(launch_arguments.WORLD_ARGUMENTS)
    actions = visit(description, {'gui': 'false'})
    assert isinstance(actions[0], SetLaunchConfiguration)
    assert len([a for a in actions if isinstance(a, GroupAction)]) == 1  # gz_sim.launch.py
    assert nodes(actions) == [('ros_gz_bridge', 'parameter_bridge')]


def test_a_bad_config_stops_the_vehicle_launch_with_its_message(ros_launch, tmp_path, monkeypatch):
    monkeypatch.setenv('ROS_HOME', str(tmp_path / 'ros'))
    config = write_config(tmp_path, 'parts:\n  - {slot: motor_port, type: blueboat_flag}\n')
    with pytest.raises(RuntimeError, match='motor_port') as caught:
        visit(load('vehicle.launch.py'), {'config': str(config), 'gazebo': 'false'})
    assert caught.value.__cause__ is None  # the message only, no chained traceback
    assert not (tmp_path / 'ros').exists()


def test_display_launch(ros_launch, tmp_path, monkeypatch):
    description = load('display.launch.py')
    assert declared(description) == table(launch_arguments.DISPLAY_ARGUMENTS)
    monkeypatch.setenv('ROS_HOME', str(tmp_path))
    assert nodes(visit(description, {})) == sorted([
        ('robot_state_publisher', 'robot_state_publisher'),
        ('joint_state_publisher_gui', 'joint_state_publisher_gui'), ('rviz2', 'rviz2')])


# -- the environment hook -----------------------------------------------------------------------

def test_a_colcon_install_puts_the_meshes_on_the_gz_resource_path(tmp_path):
    """
    Build with colcon, source install/setup.sh: the meshes are on GZ_SIM_RESOURCE_PATH.

    The hook serves a gz started by hand from a sourced shell (the launch's gz gets the path
    from package.xml's export through ros_gz_sim, test_launch_runs.py): the variable must hold
    the folder in which model://bluerobotics_parts/meshes/... resolves (the hook's ``share``).
    """
    colcon = tool('colcon')  # part of the test set-up (tools/setup.sh test)
    environment = {k: v for k, v in os.environ.items()
                   if not k.startswith(('COLCON', 'AMENT', 'GZ_SIM'))}
    environment['COLCON_LOG_PATH'] = str(tmp_path / 'log')
    build = subprocess.run(
        [colcon, 'build', '--paths', str(REPO), '--build-base', str(tmp_path / 'build'),
         '--install-base', str(tmp_path / 'install'), '--event-handlers', 'console_direct-'],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300,
        stdin=subprocess.DEVNULL)
    assert build.returncode == 0, build.stdout + build.stderr
    share = tmp_path / 'install' / 'bluerobotics_parts' / 'share'
    assert (share / 'bluerobotics_parts' / 'hook' / 'gz_resource_path.dsv').is_file()
    sourced = subprocess.run(
        ['bash', '-c', f". {tmp_path / 'install' / 'setup.sh'} && "
                       'printf %s "$GZ_SIM_RESOURCE_PATH"'],
        env=environment, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert sourced.returncode == 0, sourced.stderr
    entries = [Path(p) for p in sourced.stdout.split(os.pathsep) if p]
    assert share in entries, (
        f'GZ_SIM_RESOURCE_PATH after sourcing is {sourced.stdout!r}: colcon did not register '
        'hooks/gz_resource_path.dsv (ament_python runs no hooks of its own; a colcon.pkg '
        'beside package.xml with {"hooks": ["share/bluerobotics_parts/hook/'
        'gz_resource_path.dsv"]} registers it)')
    assert (share / 'bluerobotics_parts' / 'meshes').is_dir()  # model://bluerobotics_parts/meshes
