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

The world has one /clock bridge: this launch starts it with Gazebo; a launch joining a running
world leaves it to whoever bridges it (world.launch.py, or the launch that started Gazebo).
Every process started here is tethered to this launch (ros/launch/tether.py): none outlives it.
"""

import os

from bluerobotics_parts.ros.launch import arguments as launch_arguments, plan as launch_plan
from bluerobotics_parts.ros.launch.actions import (argument_values, declare, gazebo, node,
                                                   planned, process, sim_time, tethered,
                                                   warn_misspelled)
from launch import LaunchDescription
from launch.actions import LogInfo, OpaqueFunction


def actions(context):
    warn_misspelled(context, launch_arguments.ARGUMENTS)
    values = argument_values(context, launch_arguments.ARGUMENTS)
    plan = planned(launch_plan.plan, values, os.environ)
    result = tethered(context) + [sim_time(plan.use_sim_time)]
    if plan.start_gazebo:
        result += gazebo(context, plan.gazebo_launch_arguments)
    result += [node(spec) for spec in plan.nodes]
    if plan.autopilot is not None:  # ArduPilot SITL, with autopilot:=ardupilot
        result.append(process(plan.autopilot))
    result.append(LogInfo(msg=plan.summary))
    return result


def generate_launch_description():
    return LaunchDescription(declare(launch_arguments.ARGUMENTS) +
                             [OpaqueFunction(function=actions)])
