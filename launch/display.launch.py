"""Show a bluerobotics_parts vehicle in RViz, joints moved by sliders; no Gazebo.

    ros2 launch bluerobotics_parts display.launch.py config:=my_boat.yaml

This file only declares the arguments and maps ``launch_plan.display_plan`` to nodes.
"""

import os

from bluerobotics_parts import launch_plan
from bluerobotics_parts.launch_actions import argument_values, node, planned
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, LogInfo, OpaqueFunction


def actions(context):
    values = argument_values(context, launch_plan.DISPLAY_ARGUMENTS)
    plan = planned(launch_plan.display_plan, values, os.environ)
    return [node(spec) for spec in plan.nodes] + [LogInfo(msg=plan.summary)]


def generate_launch_description():
    return LaunchDescription(
        [DeclareLaunchArgument(a.name, default_value=a.default, description=a.description)
         for a in launch_plan.DISPLAY_ARGUMENTS] + [OpaqueFunction(function=actions)])
