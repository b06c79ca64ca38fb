#!/usr/bin/env bash
# Gazebo Harmonic for the test suite: the headless gz-sim 8.14 server and SDFormat 14 built for
# this machine kind (../shared/gz-harmonic/, see its README), unpacked into .gz/ with the Debian
# runtime packages they need and protobuf 4.21 in .venv (the gz.msgs10 Python modules).
#   tools/setup_gz.sh           (tools/setup.sh test calls it)
# Without ../shared/gz-harmonic (a plain clone) it says so and does nothing: the tests that need
# Gazebo then skip with that reason. BLUEROBOTICS_GZ_HARMONIC=DIR names another folder.
set -euo pipefail
cd "$(dirname "$0")/.."

find_shared() {
  if [ -n "${BLUEROBOTICS_GZ_HARMONIC:-}" ]; then echo "$BLUEROBOTICS_GZ_HARMONIC"; return; fi
  # ../shared beside the checkout; a git worktree one level further down finds it one higher.
  for candidate in ../shared/gz-harmonic ../../shared/gz-harmonic; do
    if [ -d "$candidate" ]; then echo "$candidate"; return; fi
  done
}

SHARED=$(find_shared)
ARCHIVE=${SHARED:+$SHARED/gz-sim8-headless-prefix.tar.xz}
if [ -z "$SHARED" ] || [ ! -f "$ARCHIVE" ]; then
  echo "setup_gz: no ../shared/gz-harmonic/gz-sim8-headless-prefix.tar.xz: the Gazebo tests will skip"
  exit 0
fi

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else echo "setup_gz: need root (or sudo) to run: $*" >&2; return 1
  fi
}

# The runtime packages the README lists for the prefix (gz-sim, DART, transport, the gz tool).
PACKAGES="libassimp5 libbullet3.24 libcurl4 libdart6.12 libdart-collision-bullet6.12
  libdart-collision-ode6.12 libfreeimage3 libgdal32 libglib2.0-0 libgts-0.7-5 libjsoncpp25
  libprotobuf32 libpython3.11 libsqlite3-0 libtinyxml2-9 libuuid1 libyaml-0-2 libzip4 libzmq5
  ruby python3-protobuf"
missing=""
for package in $PACKAGES; do
  dpkg -s "$package" >/dev/null 2>&1 || missing="$missing $package"
done
if [ -n "$missing" ]; then
  echo "setup_gz: installing Debian packages:$missing"
  as_root apt-get update -qq
  # shellcheck disable=SC2086
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    $missing >/dev/null
fi

# Unpack again whenever the archive changes (its checksum is kept beside the tree).
STAMP=.gz/archive.sha256
SUM=$(sha256sum "$ARCHIVE" | cut -d' ' -f1)
if [ ! -x .gz/prefix2/bin/gz ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$SUM" ]; then
  echo "setup_gz: unpacking $ARCHIVE into .gz/"
  rm -rf .gz.new && mkdir -p .gz.new
  tar -xJf "$ARCHIVE" -C .gz.new
  echo "$SUM" > .gz.new/archive.sha256
  rm -rf .gz && mv .gz.new .gz
fi

if [ -x .venv/bin/python ]; then
  # gz.msgs10's generated modules need protobuf 4.21 (the README's note)
  .venv/bin/python -m pip install --quiet --disable-pip-version-check 'protobuf==4.21.12'
fi
echo "setup_gz: Gazebo Harmonic in .gz/prefix2 (gz-sim 8.14 headless, SDFormat 14)"
