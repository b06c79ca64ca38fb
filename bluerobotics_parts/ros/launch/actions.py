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
Launch actions from launch plans: the small mapping the two launch files share.

Needs ROS 2 (launch, launch_ros); only the launch files and their ROS-only tests import it.
The decisions are in launch_plan.py, the argument table in launch_arguments.py.
"""

import os
import signal

from launch.actions import (DeclareLaunchArgument, ExecuteProcess, GroupAction,
                            IncludeLaunchDescription, RegisterEventHandler,
                            SetLaunchConfiguration)
from launch.event_handlers import OnProcessStart, OnShutdown
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.logging import get_logger
from launch_ros.actions import Node, SetParameter
from launch_ros.parameter_descriptions import ParameterValue

from . import tether
from .arguments import misspelled
from ...errors import BlueRoboticsPartsError

LAUNCH_PREFIX = 'launch-prefix'  # the launch configuration every process takes a prefix from


def declare(table) -> list:
    """Return a DeclareLaunchArgument per row of the table, with its choices if it has any."""
    return [DeclareLaunchArgument(a.name, default_value=a.default, description=a.description,
                                  choices=list(a.choices) or None) for a in table]


def node(spec):
    """Return a launch_ros Node from a launch_plan.NodeSpec."""
    # Strings are passed as strings: launch_ros would otherwise read them as YAML.
    parameters = {key: ParameterValue(value, value_type=str) if isinstance(value, str) else value
                  for key, value in spec.parameters.items()}
    # exec_name: launch names a process after its command's first word, which the tether's
    # prefix would make ``python`` for all of them; the program's own name, as without it
    return Node(package=spec.package, executable=spec.executable, name=spec.name,
                namespace=spec.namespace or None, parameters=[parameters] if parameters else None,
                arguments=list(spec.arguments), remappings=list(spec.remappings),
                output=spec.output, exec_name=spec.executable)


def process(spec):
    """
    Return an ExecuteProcess from a launch_plan.ProcessSpec (its folder made first).

    Stopped by launch's SIGINT, which the SITL runner passes on as the SIGTERM SITL exits on.
    """
    os.makedirs(spec.cwd, exist_ok=True)
    return ExecuteProcess(cmd=list(spec.cmd), cwd=spec.cwd, name=spec.name, output='screen')


def tethered(context) -> list:
    """
    Return the action that tethers every process this launch starts to it (tether.py).

    A ``launch-prefix`` given on the command line (``ros2 launch --launch-prefix``, e.g. gdb)
    still applies, after the tether.
    """
    return [SetLaunchConfiguration(LAUNCH_PREFIX, _tether_prefix(context))]


def _tether_prefix(context) -> str:
    given = context.launch_configurations.get(LAUNCH_PREFIX, '')
    return f'{tether.prefix()} {given}'.strip()


def gazebo(context, launch_arguments: dict) -> list:
    """
    Return the actions that run gz sim through ros_gz_sim's gz_sim.launch.py.

    Scoped and not forwarding: gz_sim.launch.py sees only the arguments given here (its own
    gz_version would otherwise be overridden by a parent's) and the tether, which the scope
    would otherwise reset.
    """
    from ament_index_python.packages import get_package_share_directory

    gz_sim = os.path.join(get_package_share_directory('ros_gz_sim'), 'launch',
                          'gz_sim.launch.py')
    return stop_children_on_shutdown('gazebo') + [GroupAction(
        [IncludeLaunchDescription(PythonLaunchDescriptionSource(gz_sim),
                                  launch_arguments=launch_arguments.items())],
        scoped=True, forwarding=False,
        launch_configurations={LAUNCH_PREFIX: _tether_prefix(context)})]


def sim_time(use_sim_time: bool):
    """
    Return the global parameter that gives every node the launch's use_sim_time.

    launch_ros adds global parameters to every Node started after this action in the same
    scope: the nodes of this launch, and those a parent launch starts after including it.
    """
    return SetParameter(name='use_sim_time', value=use_sim_time)


def stop_children_on_shutdown(process: str) -> list:
    """
    Return event handlers that pass launch's stop on to the children of a shell process.

    ros_gz_sim's gz_sim.launch.py starts gz with ``ExecuteProcess(shell=True, name='gazebo')``
    (ros_gz branch jazzy). launch signals only the shell, and dash, /bin/sh on Debian and
    Ubuntu, ignores SIGINT while it waits for gz; launch then kills the shell and gz is left
    running. On shutdown, the shell's children get the SIGINT themselves.
    """
    shells = []

    def remember(event, context):
        if event.process_name.rsplit('-', 1)[0] == process:
            shells.append(event.pid)

    def forward(event, context):
        import psutil  # ros2cli depends on it, so wherever ros2 launch runs

        for pid in shells:
            try:
                children = psutil.Process(pid).children()
            except psutil.Error:
                continue  # the shell is gone already
            for child in children:
                try:
                    child.send_signal(signal.SIGINT)
                except psutil.Error:
                    pass

    return [RegisterEventHandler(OnProcessStart(on_start=remember)),
            RegisterEventHandler(OnShutdown(on_shutdown=forward))]


def argument_values(context, table) -> dict:
    """Return the launch argument values by name, defaults for those not given."""
    return {a.name: context.launch_configurations.get(a.name, a.default) for a in table}


def warn_misspelled(context, table, logger_name: str = 'bluerobotics_parts') -> list:
    """Log a warning for each command-line argument that is a near miss of one of ours."""
    given = [item.split(':=', 1)[0] for item in (context.argv or []) if ':=' in item]
    warnings = misspelled(given, table)
    for warning in warnings:
        get_logger(logger_name).warning(warning)
    return warnings


def planned(make_plan, *args):
    """
    Return ``make_plan(*args)``, a package error turned into one message for launch.

    launch reports the RuntimeError's text (no traceback) before any node starts.
    """
    try:
        return make_plan(*args)
    except BlueRoboticsPartsError as error:
        raise RuntimeError(f'bluerobotics_parts: {error}') from None
