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

from bluerobotics_parts.ros.launch import plan as launch_plan


def converted(urdf_text: str) -> str:
    """
    Stand in for ``gz sdf -p`` and its repairs (gazebo/spawned_model.py ``gazebo_sdf``).

    So a plan is the same with or without Gazebo installed; the real conversion is tested in
    test/gazebo/test_added_mass.py (SDFormat 12 here, 14 where Harmonic is installed).
    """
    return f'<sdf version="1.11"><!-- {len(urdf_text)} characters of URDF --></sdf>\n'


def make_plan(ros_home: Path, gazebo_running=lambda: (), convert=converted,
              clock_published=lambda: False, **values):
    """
    Plan vehicle.launch.py with these arguments, its artefacts under ``ros_home``.

    ``clock_published`` stands in for the ROS graph a launch joining a world asks (whether
    anyone bridges /clock): what a real graph answers is for the launch tests.
    """
    return launch_plan.plan({k: str(v) for k, v in values.items()},
                            {'ROS_HOME': str(ros_home), 'HOME': str(ros_home)}, gazebo_running,
                            convert, clock_published)


def nodes_by_executable(plan) -> dict:
    found = {}
    for spec in plan.nodes:
        found.setdefault(spec.executable, []).append(spec)
    return found


def option(arguments, flag: str) -> str:
    """Return the value after ``flag`` in a node's arguments."""
    arguments = list(arguments)
    return arguments[arguments.index(flag) + 1]
