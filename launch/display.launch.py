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
Show a bluerobotics_parts vehicle in RViz, joints moved by sliders; no Gazebo.

    ros2 launch bluerobotics_parts display.launch.py config:=my_boat.yaml

This file only declares the arguments and maps ``launch_plan.display_plan`` to nodes.
"""

import os

from bluerobotics_parts.ros.launch import arguments as launch_arguments, plan as launch_plan
from bluerobotics_parts.ros.launch.actions import (argument_values, declare, node, planned,
                                                   sim_time, tethered, warn_misspelled)
from launch import LaunchDescription
from launch.actions import LogInfo, OpaqueFunction


def actions(context):
    warn_misspelled(context, launch_arguments.DISPLAY_ARGUMENTS)
    values = argument_values(context, launch_arguments.DISPLAY_ARGUMENTS)
    plan = planned(launch_plan.display_plan, values, os.environ)
    return (tethered(context) + [sim_time(plan.use_sim_time)] +
            [node(spec) for spec in plan.nodes] + [LogInfo(msg=plan.summary)])


def generate_launch_description():
    return LaunchDescription(declare(launch_arguments.DISPLAY_ARGUMENTS) +
                             [OpaqueFunction(function=actions)])
