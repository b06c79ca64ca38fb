#!/usr/bin/env bash
# Set up .venv with bluerobotics_parts and its command-line tools (no ROS needed).
#   tools/setup.sh            the package
#   tools/setup.sh test       the package plus everything the test suite runs
# Needs Python 3.10+ with venv (on Debian: python3-venv, installed here if missing).
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else echo "setup: need root (or sudo) to run: $*" >&2; return 1
  fi
}

can_root() { [ "$(id -u)" = 0 ] || command -v sudo >/dev/null; }

# A tool the test set-up cannot install (no root, no sudo): say so, and record why, so the
# tests that need it skip with the reason (test/conftest.py, SKIPPED_TOOLS) instead of failing.
SKIPPED=.venv/bluerobotics_parts-skipped-tools
skip_tool() {
  echo "setup: skipping $1: $2" >&2
  echo "$1: $2" >> "$SKIPPED"
}

apt_install() {
  echo "setup: installing Debian packages: $*"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

PYTHON=${PYTHON:-python3}
# In a shell that sourced ROS 2, the venv also sees the system's Python packages: Ubuntu's
# Gazebo Harmonic puts its Python modules (gz.sim8, sdformat14, ...) there, not on PYTHONPATH.
VENV=(-m venv)
if [ -n "${ROS_DISTRO:-}" ]; then
  VENV+=(--system-site-packages)
fi
if [ ! -x .venv/bin/python ] || { [ -n "${ROS_DISTRO:-}" ] &&
    ! grep -q '^include-system-site-packages = true' .venv/pyvenv.cfg; }; then
  if ! "$PYTHON" "${VENV[@]}" .venv >/dev/null 2>&1; then
    rm -rf .venv
    apt_install python3-venv
    "$PYTHON" "${VENV[@]}" .venv
  fi
fi

extras=""
rm -f "$SKIPPED"
if [ "${1:-}" = "test" ]; then
  extras="[test]"
  # SDFormat's URDF->SDF converter (ign sdf) for the Gazebo conversion tests
  if ! ign sdf --help >/dev/null 2>&1; then
    if can_root; then
      apt_install libsdformat-dev ignition-tools ruby
    else
      skip_tool ign "Debian's SDFormat tools (libsdformat-dev ignition-tools) need root or sudo to install; run tools/setup.sh test as root, or apt install them, to run the SDFormat tests"
    fi
  fi
fi

echo "setup: installing bluerobotics_parts${extras} into .venv"
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${extras}"
if [ "${1:-}" = "test" ]; then
  tools/setup_ros.sh  # ROS 2 Jazzy rclpy, messages, ament linters (PyPI), ruby
fi
echo "setup: done (.venv/bin/bluerobotics-parts, .venv/bin/check_assembly)"
