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
Spawn a bluerobotics_parts vehicle into Gazebo (gz sim) with its ROS side.

    ros2 launch bluerobotics_parts vehicle.launch.py config:=my_boat.yaml name:=boat2 x:=5.0

``ros2 launch -s bluerobotics_parts vehicle.launch.py`` lists the arguments. This file only
declares them and maps the plan that ``bluerobotics_parts.ros.launch.plan.plan`` computes (built
and checked once, artefacts under $ROS_HOME/bluerobotics_parts/<name>/) to launch actions.

Gazebo finds the meshes (model://bluerobotics_parts/meshes/...) through package.xml's
``<gazebo_ros gazebo_model_path>`` export, which ros_gz_sim's gz_sim.launch.py adds to the
GZ_SIM_RESOURCE_PATH of the gz it starts (ros_gz branch jazzy, ros_gz_sim/launch/
gz_sim.launch.py, GazeboRosPaths.get_paths). An environment variable set here would not reach
it: the include runs in a non-forwarding group, whose ResetEnvironment (launch 3.4.3,
launch/actions/group_action.py) restores the environment the launch started with.
"""

import os

from ament_index_python.packages import get_package_share_directory
from bluerobotics_parts.ros.launch import arguments as launch_arguments, plan as launch_plan
from bluerobotics_parts.ros.launch.actions import (argument_values, declare, node, planned,
                                                   process, sim_time,
                                                   stop_children_on_shutdown, warn_misspelled)
from launch import LaunchDescription
from launch.actions import GroupAction, IncludeLaunchDescription, LogInfo, OpaqueFunction
from launch.launch_description_sources import PythonLaunchDescriptionSource


def actions(context):
    warn_misspelled(context, launch_arguments.ARGUMENTS)
    values = argument_values(context, launch_arguments.ARGUMENTS)
    plan = planned(launch_plan.plan, values, os.environ)
    result = [sim_time(plan.use_sim_time)]
    if plan.start_gazebo:
        gz_sim = os.path.join(get_package_share_directory('ros_gz_sim'), 'launch',
                              'gz_sim.launch.py')
        # Scoped and not forwarding: gz_sim.launch.py sees only the arguments given here (its
        # own gz_version would otherwise be overridden by a parent's).
        result += stop_children_on_shutdown('gazebo')  # its shell does not pass SIGINT on
        result.append(GroupAction([IncludeLaunchDescription(
            PythonLaunchDescriptionSource(gz_sim),
            launch_arguments=plan.gazebo_launch_arguments.items())],
            scoped=True, forwarding=False))
    result += [node(spec) for spec in plan.nodes]
    if plan.autopilot is not None:  # ArduPilot SITL, with autopilot:=ardupilot
        result.append(process(plan.autopilot))
    result.append(LogInfo(msg=plan.summary))
    return result


def generate_launch_description():
    return LaunchDescription(declare(launch_arguments.ARGUMENTS) +
                             [OpaqueFunction(function=actions)])
