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


"""Launch plans for the tests: planned without ROS, and looked into."""

from pathlib import Path

from bluerobotics_parts.ros import launch_plan


def make_plan(ros_home: Path, gazebo_running=lambda: (), **values):
    """Plan vehicle.launch.py with these arguments, its artefacts under ``ros_home``."""
    return launch_plan.plan({k: str(v) for k, v in values.items()},
                            {'ROS_HOME': str(ros_home), 'HOME': str(ros_home)}, gazebo_running)


def nodes_by_executable(plan) -> dict:
    found = {}
    for spec in plan.nodes:
        found.setdefault(spec.executable, []).append(spec)
    return found


def option(arguments, flag: str) -> str:
    """Return the value after ``flag`` in a node's arguments."""
    arguments = list(arguments)
    return arguments[arguments.index(flag) + 1]
