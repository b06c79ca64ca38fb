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
Whether a Gazebo (gz sim) is already running, and what ``gazebo:=auto|true|false`` decides.

A second vehicle launched into a running world joins it instead of starting another server;
the running worlds are the ones whose ``/world/<name>/create`` service ``gz service -l``
lists (the service ros_gz_sim's ``create`` calls). A launch that joins a world asks ROS
whether someone bridges its /clock already (``clock_published``): the world has one clock.
"""

from __future__ import annotations

from dataclasses import dataclass
import os
import re
import shutil
import subprocess


@dataclass(frozen=True)
class GazeboDecision:
    """Start Gazebo or not, the world to spawn into (None: the first one found), and why."""

    start: bool
    world_name: str | None
    note: str


def running_gazebo_worlds(timeout: float = 5.0, environ=None) -> tuple:
    """
    Return the names of the worlds a running gz sim serves.

    Empty when none answers within ``timeout`` seconds or when the ``gz`` command is absent.
    """
    environ = dict(os.environ if environ is None else environ)
    command = shutil.which('gz', path=environ.get('PATH'))
    if command is None:
        return ()
    try:
        result = subprocess.run([command, 'service', '-l'], capture_output=True, text=True,
                                timeout=timeout, env=environ, stdin=subprocess.DEVNULL)
    except (subprocess.TimeoutExpired, OSError):
        return ()
    if result.returncode != 0:
        return ()
    return tuple(sorted(set(re.findall(r'^/world/([^/\s]+)/create\s*$', result.stdout, re.M))))


#: How long a launch joining a world looks for a /clock publisher; past this the world is taken
#: to have none. A new participant found a running one after 2.6-2.7 s here (Fast DDS from the
#: Jazzy wheels, ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST, two cores), so twice that.
CLOCK_DISCOVERY = 6.0  # s


def clock_published(timeout: float = CLOCK_DISCOVERY) -> bool:
    """
    Return whether any ROS node publishes /clock, looking for at most ``timeout`` seconds.

    A node of its own in a context of its own (the launch's rclpy context stays untouched),
    gone again before this returns. Without rclpy (no ROS 2 sourced) it says False.
    """
    import time

    try:
        import rclpy
    except ImportError:
        return False
    from ...model.topics import CLOCK_TOPIC

    context = rclpy.Context()
    rclpy.init(args=[], context=context)  # not the launch's command line (name:=... remaps)
    try:
        node = rclpy.create_node('bluerobotics_parts_clock_probe', context=context,
                                 use_global_arguments=False, enable_rosout=False,
                                 start_parameter_services=False)
        try:
            deadline = time.monotonic() + timeout
            while True:
                if node.count_publishers(CLOCK_TOPIC) > 0:
                    return True
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.1)
        finally:
            node.destroy_node()
    finally:
        rclpy.shutdown(context=context)


def clock_decision(starts_gazebo: bool, clock_published) -> tuple:
    """
    Return (whether this launch bridges /clock, a note for its summary).

    The world has one clock: the launch that starts Gazebo bridges it; one that joins a
    running world leaves it to whoever does, and bridges it only when nobody does (a gz
    started by hand), saying that its stop then stops ROS's clock. ``clock_published`` is
    asked only when joining.
    """
    if starts_gazebo:
        return True, 'bridging /clock for the world it starts'
    if clock_published():
        return False, '/clock is bridged already (one clock for the world)'
    return True, ('WARNING: nobody bridges /clock for this Gazebo, so this launch does; '
                  "stopping it stops ROS's clock for every vehicle in the world (start the "
                  'world with world.launch.py first to keep it)')


def decide(mode: str, world, gazebo_running) -> GazeboDecision:
    """
    Decide for ``gazebo:=<mode>`` with the world argument (a launch_arguments.World).

    ``gazebo_running`` is asked only for ``auto``; it returns the running worlds' names
    (or a bool).
    """
    if mode == 'true':
        return GazeboDecision(True, world.name, f'starting Gazebo with {world.file}')
    if mode == 'false':
        return GazeboDecision(False, world.name, 'not starting Gazebo (gazebo:=false), spawning '
                              f"into world {world.name or '(the first one found)'}")
    found = gazebo_running()
    if not found:
        return GazeboDecision(True, world.name,
                              f'no Gazebo running, starting it with {world.file}')
    worlds = () if isinstance(found, bool) else tuple(found)
    if world.name in worlds or not worlds:
        target = world.name
    else:  # another world runs: spawn into it when it is the only one, else let create pick
        target = worlds[0] if len(worlds) == 1 else None
    return GazeboDecision(False, target, 'Gazebo already running, spawning into world '
                          f"{target or '(the first one found)'}")


#: What gz-sim's Python loader imports to run the ESC system (gazebo/esc_system.py): Gazebo's
#: transport and messages (their Python packages: python3-gz-transport13, python3-gz-msgs10,
#: which bring protobuf) and this package.
ESC_MODULES = ('gz.transport13', 'gz.msgs10.double_pb2', 'bluerobotics_parts.gazebo.esc_system')


def esc_python_problem(environ=None, timeout: float = 30.0) -> str | None:
    """
    Return why Gazebo's Python cannot run the ESC system here, or None when it can.

    Asked of ``python3`` on PATH: the interpreter gz-sim embeds is the system's Python it was
    built with (python3 on Ubuntu), and a server the launch starts inherits its environment.
    """
    python = shutil.which('python3', path=(environ or os.environ).get('PATH'))
    if python is None:
        return 'no python3 on PATH'
    probe = ('import importlib, sys\n'
             'for name in sys.argv[1:]:\n'
             '    try:\n        importlib.import_module(name)\n'
             '    except Exception as error:\n        print(name, error); break\n')
    try:
        result = subprocess.run([python, '-c', probe, *ESC_MODULES], capture_output=True,
                                text=True, stdin=subprocess.DEVNULL, timeout=timeout,
                                env=environ)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f'{python} could not be asked ({error})'
    found = (result.stdout.strip() or (result.stderr.strip()[-200:] if result.returncode
                                       else '')).replace('\n', ' ')
    return f'{python} cannot import {found}' if found else None
