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
A Gazebo world of its own, with its one /clock bridge, for vehicles to join and leave.

    ros2 launch bluerobotics_parts world.launch.py [world:=my_world.sdf] [gui:=false]
    ros2 launch bluerobotics_parts vehicle.launch.py name:=boat1
    ros2 launch bluerobotics_parts vehicle.launch.py name:=boat2 y:=3.0

Each vehicle launch finds the running world, spawns into it and bridges its own streams; the
clock is the world's, so stopping any vehicle leaves the others their world and their clock.
This file only declares the arguments and maps ``launch_plan.world_plan`` to actions.
"""

from bluerobotics_parts.ros.launch import arguments as launch_arguments, plan as launch_plan
from bluerobotics_parts.ros.launch.actions import (argument_values, declare, gazebo, node,
                                                   planned, tethered, warn_misspelled)
from launch import LaunchDescription
from launch.actions import LogInfo, OpaqueFunction


def actions(context):
    warn_misspelled(context, launch_arguments.WORLD_ARGUMENTS)
    values = argument_values(context, launch_arguments.WORLD_ARGUMENTS)
    plan = planned(launch_plan.world_plan, values)
    return (tethered(context) + gazebo(context, plan.gazebo_launch_arguments) +
            [node(spec) for spec in plan.nodes] + [LogInfo(msg=plan.summary)])


def generate_launch_description():
    return LaunchDescription(declare(launch_arguments.WORLD_ARGUMENTS) +
                             [OpaqueFunction(function=actions)])
