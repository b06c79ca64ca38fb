#!/usr/bin/env bash
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

# The ROS 2 Jazzy pieces PyPI has, into .venv (called by tools/setup.sh test): a real rclpy
# with Fast DDS, the message packages, the ament linters, and what the launch stack needs
# besides itself. The launch stack (launch, launch_ros, ros2launch), ros_gz, Gazebo and the
# other ROS programs are on no registry: where a sourced ROS 2 Jazzy + Gazebo Harmonic install
# provides them the tests use it (tools/setup.sh makes the venv see it), elsewhere the tests
# that need them skip with the reason.
set -euo pipefail
cd "$(dirname "$0")/.."

PIP=(.venv/bin/python -m pip install --quiet --disable-pip-version-check)

# pytest<8: launch_testing 3.4.3's pytest plugin does not load under newer pytest (and a
# pytest-rerunfailures, which colcon-core pulls in, that still accepts pytest 7).
"${PIP[@]}" 'pytest<8' 'pytest-rerunfailures<15' osrf-pycommon lark catkin-pkg \
  importlib-metadata argcomplete psutil packaging flake8 flake8-builtins flake8-comprehensions \
  flake8-docstrings flake8-import-order flake8-quotes pydocstyle
# A sourced ROS 2 install brings its own rclpy, messages and linters (PYTHONPATH); PyPI's
# ros-jazzy-* wheels are for a machine without one. Never PyPI's `launch` (another project).
if .venv/bin/python -c 'import rclpy, sensor_msgs.msg, ament_flake8, ament_pep257' 2>/dev/null; then
  echo "setup: rclpy, messages and ament linters from the sourced ROS 2 (${ROS_DISTRO:-on PYTHONPATH})"
else
  echo "setup: installing ROS 2 Jazzy rclpy, messages and ament linters from PyPI into .venv"
  "${PIP[@]}" 'ros-jazzy-rclpy[fastrtps]' ros-jazzy-std-msgs ros-jazzy-sensor-msgs \
    ros-jazzy-nav-msgs ros-jazzy-geometry-msgs ros-jazzy-rosgraph-msgs ros-jazzy-lifecycle-msgs \
    ros-jazzy-ament-index-python ros-jazzy-ament-flake8 ros-jazzy-ament-pep257
fi

# The gz recorder the launch tests put in front of gz is a Ruby script, like the real gz.
if ! command -v ruby >/dev/null; then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  if [ -n "$SUDO" ] && ! command -v sudo >/dev/null; then
    # no root, no sudo: the tests that need it skip with this reason (test/conftest.py)
    reason="Debian's ruby needs root or sudo to install; run tools/setup.sh test as root, or apt install ruby"
    echo "setup: skipping ruby: $reason" >&2
    echo "ruby: $reason" >> .venv/bluerobotics_parts-skipped-tools
  else
    echo "setup: installing ruby (Debian)"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      ruby >/dev/null
  fi
fi
