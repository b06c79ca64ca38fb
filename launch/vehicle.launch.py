"""Spawn a bluerobotics_parts vehicle into Gazebo (gz sim) with its ROS side.

    ros2 launch bluerobotics_parts vehicle.launch.py config:=my_boat.yaml name:=boat2 x:=5.0

``ros2 launch -s bluerobotics_parts vehicle.launch.py`` lists the arguments. This file only
declares them and maps the plan that ``bluerobotics_parts.launch_plan.plan`` computes (built
and checked once, artefacts under $ROS_HOME/bluerobotics_parts/<name>/) to launch actions.
"""

import os

from ament_index_python.packages import get_package_share_directory
from bluerobotics_parts import launch_plan
from bluerobotics_parts.launch_actions import argument_values, node, planned
from launch import LaunchDescription
from launch.actions import (AppendEnvironmentVariable, DeclareLaunchArgument, GroupAction,
                            IncludeLaunchDescription, LogInfo, OpaqueFunction)
from launch.launch_description_sources import PythonLaunchDescriptionSource


def actions(context):
    values = argument_values(context, launch_plan.ARGUMENTS)
    plan = planned(launch_plan.plan, values, os.environ)
    result = [AppendEnvironmentVariable('GZ_SIM_RESOURCE_PATH', plan.resource_path, prepend=True)]
    if plan.start_gazebo:
        gz_sim = os.path.join(get_package_share_directory('ros_gz_sim'), 'launch',
                              'gz_sim.launch.py')
        # Scoped and not forwarding: gz_sim.launch.py sees only the arguments given here.
        result.append(GroupAction([IncludeLaunchDescription(
            PythonLaunchDescriptionSource(gz_sim),
            launch_arguments=plan.gazebo_launch_arguments.items())],
            scoped=True, forwarding=False))
    result += [node(spec) for spec in plan.nodes]
    result.append(LogInfo(msg=plan.summary))
    return result


def generate_launch_description():
    return LaunchDescription(
        [DeclareLaunchArgument(a.name, default_value=a.default, description=a.description)
         for a in launch_plan.ARGUMENTS] + [OpaqueFunction(function=actions)])
