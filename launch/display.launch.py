"""Show a bluerobotics_parts vehicle in RViz, joints moved by sliders; no Gazebo.

    ros2 launch bluerobotics_parts display.launch.py config:=my_boat.yaml

This file only declares the arguments and maps ``launch_plan.display_plan`` to nodes.
"""

import os

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, LogInfo, OpaqueFunction
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue

from bluerobotics_parts import launch_plan
from bluerobotics_parts.errors import BlueRoboticsPartsError


def node(spec):
    # Strings are passed as strings: launch_ros would otherwise read them as YAML.
    parameters = {key: ParameterValue(value, value_type=str) if isinstance(value, str) else value
                  for key, value in spec.parameters.items()}
    return Node(package=spec.package, executable=spec.executable, name=spec.name,
                namespace=spec.namespace or None, parameters=[parameters] if parameters else None,
                arguments=list(spec.arguments), remappings=list(spec.remappings),
                output=spec.output)


def actions(context):
    values = {a.name: context.launch_configurations.get(a.name, a.default)
              for a in launch_plan.DISPLAY_ARGUMENTS}
    try:
        plan = launch_plan.display_plan(values, os.environ)
    except BlueRoboticsPartsError as error:
        raise RuntimeError(f"bluerobotics_parts: {error}") from None
    return [node(spec) for spec in plan.nodes] + [LogInfo(msg=plan.summary)]


def generate_launch_description():
    return LaunchDescription(
        [DeclareLaunchArgument(a.name, default_value=a.default, description=a.description)
         for a in launch_plan.DISPLAY_ARGUMENTS] + [OpaqueFunction(function=actions)])
