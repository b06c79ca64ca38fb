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
The real Gazebo Harmonic for the tests: SDFormat 14 and a headless gz-sim 8 server.

Found as a Harmonic install provides them, nothing project-specific to set: ``gz`` on PATH
with its ``sim`` 8.x, and ``gz.sim8``, ``gz.transport13``, ``gz.msgs10``, ``gz.math7`` and
``sdformat14`` importable by the Python that runs the tests (Ubuntu's Harmonic packages put
them on the default Python path; a source build's setup script on PYTHONPATH). Where a piece
is missing, the tests that need it skip with a reason naming it and how to get it.

``simulate`` runs one scenario as ``validate`` does (bluerobotics_parts/gazebo/scenario.py):
the composed URDF converted by SDFormat 14 as a launch spawns it, in the shipped world
config/worlds/water.sdf without the systems that render or serve sensors, as fast as it
goes, in a process of its own; thrust through gz-transport to the Thruster systems. The base
link's pose and velocities (and chosen joints') come back sampled in time.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
import shutil
import subprocess
import sys

REPO = Path(__file__).resolve().parents[2]
WORLD = REPO / 'config' / 'worlds' / 'water.sdf'
SENSORS_SYSTEM = 'gz::sim::systems::Sensors'
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
# the runner is the package's (validate runs it too); these names stay for the tests
from bluerobotics_parts.gazebo.scenario import (  # noqa: E402,F401,I100,I202
    derived_world, HEADLESS_SYSTEMS, Trace)
MODULES = ('gz.sim8', 'gz.transport13', 'gz.msgs10', 'gz.math7', 'sdformat14')
GET_GZ = ('install Gazebo Harmonic (https://gazebosim.org/docs/harmonic/install; with ROS 2 '
          'Jazzy: ros-jazzy-ros-gz) with its Python bindings (python3-gz-sim8, '
          'python3-sdformat14), in a shell where gz is on PATH')


@functools.lru_cache(maxsize=None)
def harmonic_gz() -> str | None:
    """Return the ``gz`` on PATH when its ``sim`` is Harmonic's (8.x), else None."""
    found = shutil.which('gz')
    if not found:
        return None
    try:
        versions = subprocess.run([found, 'sim', '--versions'], capture_output=True, text=True,
                                  stdin=subprocess.DEVNULL, timeout=60).stdout.split()
    except (OSError, subprocess.TimeoutExpired):
        return None
    return found if any(v.startswith('8.') for v in versions) else None


@functools.lru_cache(maxsize=None)
def missing() -> str | None:
    """Why Gazebo Harmonic cannot run here (None when it can)."""
    if shutil.which('gz') is None:
        return f'needs Gazebo Harmonic: no gz on PATH; {GET_GZ}'
    if harmonic_gz() is None:
        return (f"needs Gazebo Harmonic: the gz on PATH ({shutil.which('gz')}) has no sim 8.x; "
                f'{GET_GZ}')
    probe = subprocess.run(
        [sys.executable, '-c', 'import importlib, sys\n'
         'for name in sys.argv[1:]:\n'
         '    try:\n        importlib.import_module(name)\n'
         '    except Exception as error:\n        print(name, error); break'] + list(MODULES),
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    if probe.returncode or probe.stdout.strip():
        problem = (probe.stdout.strip() or probe.stderr.strip()[-300:]).replace('\n', ' ')
        return (f'needs Gazebo Harmonic\'s Python modules ({", ".join(MODULES)}) importable by '
                f'{sys.executable}: {problem}; {GET_GZ}')
    return None


def require() -> None:
    """Skip a test that needs Gazebo Harmonic where it is not installed (with the reason)."""
    import pytest

    reason = missing()
    if reason is not None:
        pytest.skip(reason)


def sdformat14():
    """Return the sdformat14 module (after ``require``)."""
    require()
    import gz.math7  # noqa: F401  (sdformat14's poses are gz.math7 types)
    import sdformat14

    return sdformat14


def gz_sdf_print(path: Path) -> str:
    """
    ``gz sdf -p FILE``: the file as SDFormat 14 converts and prints it, element by element.

    Custom elements such as <gz_frame_id> are included, which the object model's ``to_string``
    leaves out.
    """
    require()
    result = subprocess.run([harmonic_gz(), 'sdf', '-p', str(path)], capture_output=True,
                            text=True, stdin=subprocess.DEVNULL, timeout=120)
    if result.returncode != 0:
        raise AssertionError(f'gz sdf -p {path} failed: {result.stderr[-2000:]}')
    return result.stdout


def resource_folder(under: Path) -> Path:
    """
    Return a folder for GZ_SIM_RESOURCE_PATH that resolves the package's meshes.

    In it, model://bluerobotics_parts/... (package:// in the URDF) is this checkout.
    """
    folder = under / 'resources'
    folder.mkdir(parents=True, exist_ok=True)
    link = folder / 'bluerobotics_parts'
    if not link.exists():
        link.symlink_to(REPO, target_is_directory=True)
    return folder


def python_path_for_gz(path: str = '') -> str:
    """
    Return a PYTHONPATH for a gz server whose Python systems import this checkout.

    gz-sim embeds the Python it was built with: on Ubuntu the system python3, whose packages
    (python3-protobuf for gz.msgs) are there already; a source build's interpreter may lack
    what the tests' environment has, so its site-packages go last (the same Python version).
    """
    import sysconfig

    own = [p for p in path.split(os.pathsep) if p]
    return os.pathsep.join([str(REPO)] + own + [sysconfig.get_paths()['purelib']])


def environment(folder: Path) -> dict:
    """
    Return the process environment of a simulation.

    Loopback-only transport on a partition of its own, the package's meshes.
    """
    env = dict(os.environ)
    env.update({
        'GZ_IP': '127.0.0.1',
        'GZ_PARTITION': f'bluerobotics_parts_test_{os.getpid()}_{folder.name}',
        'GZ_SIM_RESOURCE_PATH': str(resource_folder(folder)),
    })
    return env


def simulate(urdf: Path, seconds: float, events=(), step: float = 0.004,
             spawn=(0, 0, 0, 0, 0, 0), sample: float = 0.05, joints=(),
             timeout: float = 600) -> Trace:
    """
    Run the shipped world with the vehicle of a composed URDF (gazebo/scenario.py, as validate).

    Skips without Gazebo Harmonic; a failed run raises AssertionError with its log.
    """
    require()
    from bluerobotics_parts.gazebo.scenario import ScenarioError, simulate as scenario

    try:
        return scenario(urdf, seconds, events, step=step, spawn=spawn, sample=sample,
                        joints=joints, world=WORLD, timeout=timeout)
    except ScenarioError as error:
        raise AssertionError(str(error)) from None
