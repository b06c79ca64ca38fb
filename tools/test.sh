#!/usr/bin/env bash
# Set up everything and run the whole test suite: pytest, then colcon build + colcon test
# (colcon from PyPI, no ROS). Exits non-zero if anything fails, including "no tests ran".
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
../.venv/bin/colcon test --paths "$REPO" --build-base build --install-base install \
  --return-code-on-test-failure --event-handlers console_cohesion- summary+ \
  --pytest-args -q -p no:cacheprovider
../.venv/bin/colcon test-result --test-result-base build --verbose
echo "== all tests passed"
