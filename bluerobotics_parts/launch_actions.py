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

from launch.actions import DeclareLaunchArgument
from launch.logging import get_logger
from launch_ros.actions import Node, SetParameter
from launch_ros.parameter_descriptions import ParameterValue

from .errors import BlueRoboticsPartsError
from .launch_arguments import misspelled


def declare(table) -> list:
    """Return a DeclareLaunchArgument per row of the table, with its choices if it has any."""
    return [DeclareLaunchArgument(a.name, default_value=a.default, description=a.description,
                                  choices=list(a.choices) or None) for a in table]


def node(spec):
    """Return a launch_ros Node from a launch_plan.NodeSpec."""
    # Strings are passed as strings: launch_ros would otherwise read them as YAML.
    parameters = {key: ParameterValue(value, value_type=str) if isinstance(value, str) else value
                  for key, value in spec.parameters.items()}
    return Node(package=spec.package, executable=spec.executable, name=spec.name,
                namespace=spec.namespace or None, parameters=[parameters] if parameters else None,
                arguments=list(spec.arguments), remappings=list(spec.remappings),
                output=spec.output)


def sim_time(use_sim_time: bool):
    """
    Return the global parameter that gives every node the launch's use_sim_time.

    launch_ros adds global parameters to every Node started after this action in the same
    scope: the nodes of this launch, and those a parent launch starts after including it.
    """
    return SetParameter(name='use_sim_time', value=use_sim_time)


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
