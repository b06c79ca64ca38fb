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

# Set up everything and run the whole test suite: pytest over test/, then colcon build and
# colcon test of the ROS-facing tests against the installed package (colcon from PyPI).
# Exits non-zero if anything fails, including "no tests ran" (pytest's exit 5).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD

tools/setup.sh test

echo "== pytest"
.venv/bin/python -m pytest test -q -p no:cacheprovider "$@"

echo "== colcon build / colcon test"
WS=$REPO/.colcon
rm -rf "$WS"
mkdir -p "$WS"
cd "$WS"
export COLCON_LOG_PATH=$WS/log
../.venv/bin/colcon build --paths "$REPO" --build-base build --install-base install \
  --event-handlers console_cohesion- summary+
# Every test ran above with pytest; colcon test (the ROS way, as a user runs it) runs the
# packaging-facing ones again: launch_testing, the launch descriptions, pip and colcon
# installs, the ament linters.
../.venv/bin/colcon test --paths "$REPO" --build-base build --install-base install \
  --return-code-on-test-failure --event-handlers console_cohesion- summary+ \
  --pytest-args -q -p no:cacheprovider \
  -k 'test_range_node_launch or test_launch_files or test_packaging or test_flake8 or test_pep257 or test_copyright'
../.venv/bin/colcon test-result --test-result-base build --verbose
if [ -s "$REPO/.venv/bluerobotics_parts-skipped-tools" ]; then
  echo "== set up without (the tests that need these skipped, with the reason):"
  sed 's/^/  /' "$REPO/.venv/bluerobotics_parts-skipped-tools"
fi
echo "== all tests passed"
