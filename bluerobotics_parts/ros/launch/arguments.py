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
The arguments of the three launch files (vehicle, display, world) and how values are read.

One table per launch file: what ``ros2 launch -s`` shows (name, default, description, the
``choices`` of the enumerated and boolean ones) and how a value becomes a typed one. The launch
files declare exactly these arguments, so the choices launch enforces and the ones the parser
accepts are the same list.
"""

from __future__ import annotations

from dataclasses import dataclass
import difflib
import math
import os
from pathlib import Path
import re
from xml.etree import ElementTree

from ... import paths
from ...errors import BlueRoboticsPartsError, LaunchArgumentError
from ...files import inputs
from ...formats.config import check_vehicle_name
from ...gazebo import composition as gazebo

TELEOP_CHOICES = ('none', 'joy')
BOOLEAN_CHOICES = ('true', 'false')
GAZEBO_CHOICES = ('auto', 'true', 'false')
AUTOPILOT_CHOICES = ('none', 'ardupilot')
ESC_CHOICES = ('curve', 'linear')  # ardupilot/plugin.py, ESC_MODES
MAX_INSTANCE = 99
WORLD_LIMIT = inputs.YAML_LIMIT  # a world SDF read for its name: same bound as a config


@dataclass(frozen=True)
class Argument:
    """One launch argument: what ``ros2 launch -s`` shows, and how its value is read."""

    name: str
    default: str
    description: str
    kind: str  # file world name number height choice current camera instance program folder water
    choices: tuple = ()  # the valid values of a 'choice' argument, as launch checks them


@dataclass(frozen=True)
class World:
    """What gz is given, and the world's name when it can be read (``create -world``)."""

    file: str  # a path, or the file name of a world gz finds itself
    name: str | None
    home: tuple | None = None  # its spherical coordinates: latitude, longitude, elevation, heading


def _vehicle_arguments() -> tuple:
    return (
        Argument('config', str(paths.default_config()), 'Vehicle config YAML (default: the '
                 'shipped BlueBoat)', 'file'),
        Argument('name', '', 'Vehicle name: Gazebo model name, ROS namespace and TF prefix '
                 "(empty: the config's name:, blueboat by default)", 'name'),
        Argument('world', str(paths.default_world()), 'Gazebo world SDF file, or the file name of '
                 'a world gz finds itself (e.g. empty.sdf)', 'world'),
        Argument('x', '0.0', 'Spawn position x (metres)', 'number'),
        Argument('y', '0.0', 'Spawn position y (metres)', 'number'),
        Argument('z', 'auto', 'Spawn position z (metres; the water surface is z = 0); auto: '
                 "the vehicle's own, at the surface for a boat, below it for an ROV (its base "
                 "part's spawn depth)", 'height'),
        Argument('yaw', '0.0', 'Spawn heading (radians, counter-clockwise from +x)', 'number'),
        Argument('gui', 'true', 'Start the Gazebo GUI with the server', 'choice',
                 BOOLEAN_CHOICES),
        Argument('rviz', 'false', "Start RViz with this vehicle's view", 'choice',
                 BOOLEAN_CHOICES),
        Argument('use_sim_time', 'true', "Every node uses Gazebo's /clock (set for the nodes this "
                 'launch starts and those a parent launch starts after including it)', 'choice',
                 BOOLEAN_CHOICES),
        Argument('gazebo', 'auto', 'Start Gazebo (auto: unless one is already running)', 'choice',
                 GAZEBO_CHOICES),
        # Not called gz_version: ros_gz_sim's gz_sim.launch.py declares that one (a number) and
        # would inherit ours through the include.
        Argument('gz_release', gazebo.DEFAULT_GZ_RELEASE,
                 'Gazebo release the model is composed for', 'choice',
                 tuple(gazebo.GZ_RELEASES)),
        Argument('current', '', 'Water current for the Hydrodynamics system: "x y z" in m/s, '
                 'world frame (e.g. "0.5 0 0"); empty: still water', 'current'),
        Argument('camera', '', "Every camera's image size and rate in Gazebo, WIDTHxHEIGHT or "
                 "WIDTHxHEIGHT@RATE (e.g. 640x360@15), instead of its part's; empty: the part's. "
                 'The knob when rendering makes the simulation slow', 'camera'),
        Argument('autopilot', 'none', 'ardupilot: fly it with ArduPilot SITL (ArduSub or '
                 "ArduRover, as its base frame says) through ArduPilot's Gazebo plugin; none: ROS "
                 'commands the thrusters', 'choice', AUTOPILOT_CHOICES),
        Argument('esc', 'curve', "Under the autopilot, how each motor's PWM becomes thrust: "
                 "curve: its propeller's published curve (dead band, asymmetry; Gazebo's "
                 "Python runs the ESC system); linear: ArduPilot's plugin maps it linearly",
                 'choice', ESC_CHOICES),
        Argument('autopilot_instance', '0', 'SITL instance N (-I N): MAVLink on TCP 5760 + 10 N, '
                 'the plugin on UDP 9002 + 10 N; one per vehicle sharing a world', 'instance'),
        Argument('ardupilot_bin', '', 'The SITL program (ardusub, ardurover); empty: found on '
                 'PATH', 'program'),
        Argument('ardupilot_defaults', '', "ArduPilot's Tools/autotest/default_params folder; "
                 "empty: found above the SITL program (an ArduPilot checkout's build)", 'folder'),
        Argument('allocator', 'true', 'Start thrust_allocator: /<name>/cmd_wrench (Wrench) and '
                 '/<name>/cmd_vel (Twist, as effort) drive the thrusters (not with an autopilot)',
                 'choice', BOOLEAN_CHOICES),
        Argument('teleop', 'none', "joy: start joy's game_controller_node and teleop_twist_joy "
                 'with config/teleop/gamepad.yaml, driving /<name>/cmd_vel (needs the '
                 'allocator)', 'choice', TELEOP_CHOICES),
    )


ARGUMENTS = _vehicle_arguments()
DISPLAY_ARGUMENTS = (
    ARGUMENTS[0], ARGUMENTS[1],
    Argument('use_sim_time', 'false', 'Every node uses /clock', 'choice', BOOLEAN_CHOICES),
)
#: world.launch.py: the world and the GUI, as a vehicle launch that starts Gazebo takes them,
#: and its water (a vehicle launch takes its config's: ros/launch/plan.py, world_of_water).
WORLD_ARGUMENTS = tuple(a for a in ARGUMENTS if a.name in ('world', 'gui')) + (
    Argument('water', 'sea', "The world's water: sea (1025 kg/m^3), fresh (997) or a density "
             "in kg/m^3; another than the world file's is written to a world of that water",
             'water'),)


def parse_arguments(values, table=ARGUMENTS) -> dict:
    """
    Return the typed values by argument name (defaults for the missing ones).

    Raises LaunchArgumentError naming the argument and the valid values.
    """
    known = {a.name: a for a in table}
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise LaunchArgumentError(f'unknown launch argument {unknown[0]!r}; valid: '
                                  f"{', '.join(known)}")
    return {a.name: _parse(a, str(values.get(a.name, a.default)).strip()) for a in table}


def misspelled(given, table=ARGUMENTS) -> list:
    """
    Return a warning for each given name that is not in ``table`` but close to one that is.

    launch ignores an argument no launch file declares (``nmae:=boat2`` launches ``blueboat``);
    a name that merely is not ours may belong to a parent launch file, so only near misses of
    our names are reported.
    """
    names = [a.name for a in table]
    warnings = []
    for name in sorted(set(given) - set(names)):
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.75)
        if close:
            warnings.append(f'launch argument {name!r} is not declared and is ignored; did you '
                            f'mean {close[0]!r}? (valid: {", ".join(names)})')
    return warnings


def _parse(argument: Argument, text: str):
    shown = f'launch argument {argument.name}:={text!r}'
    if argument.kind == 'file':
        path = Path(text).expanduser()
        if not text or not path.is_file():
            raise LaunchArgumentError(f'{shown}: {_what_is(path) if text else "empty"}; give a '
                                      f'config YAML file (default {argument.default})')
        return path.resolve()
    if argument.kind == 'world':
        return _world(text, shown, argument.default)
    if argument.kind == 'name':
        if text:
            try:
                check_vehicle_name(text)
            except BlueRoboticsPartsError as error:
                raise LaunchArgumentError(f'{shown}: {error}') from None
        return text or None
    if argument.kind == 'height' and text.lower() == 'auto':
        return None  # the vehicle's own (launch_plan.spawn_z)
    if argument.kind in ('number', 'height'):
        try:
            number = float(text)
        except ValueError:
            number = math.nan
        if not math.isfinite(number):
            raise LaunchArgumentError(f'{shown} is not a finite number; e.g. {argument.name}:=1.5')
        return number
    if argument.kind == 'instance':
        if not re.fullmatch(r'[0-9]{1,2}', text):
            raise LaunchArgumentError(f'{shown}: give a whole number from 0 to {MAX_INSTANCE}')
        return int(text)
    if argument.kind in ('program', 'folder'):
        return str(Path(text).expanduser()) if text else None
    if argument.kind == 'current':
        try:
            return gazebo.current_vector(text)
        except BlueRoboticsPartsError as error:
            raise LaunchArgumentError(f'{shown}: {error}') from None
    if argument.kind == 'camera':
        from ...gazebo.sensor_blocks import camera_setting

        try:
            camera_setting(text)
        except BlueRoboticsPartsError as error:
            raise LaunchArgumentError(f'{shown}: {error}') from None
        return text.strip() or None
    if argument.kind == 'water':
        from ...formats import water

        named = water.from_text(text)
        if water.problem(named):
            raise LaunchArgumentError(f'{shown}: {water.problem(named)}')
        return water.density(named)
    if argument.kind == 'choice':
        if text not in argument.choices:
            raise LaunchArgumentError(f"{shown}: valid values are {', '.join(argument.choices)}")
        return {'true': True, 'false': False}.get(text, text) \
            if argument.choices == BOOLEAN_CHOICES else text
    raise AssertionError(f'argument kind {argument.kind}')


def _home(world) -> tuple | None:
    """Return a world's spherical coordinates (lat, lon deg; elevation m; heading deg), or None."""
    place = world.find('spherical_coordinates')
    keys = ('latitude_deg', 'longitude_deg', 'elevation', 'heading_deg')
    try:
        values = tuple(float(place.findtext(key, '0')) for key in keys) if place is not None \
            else None
    except ValueError:
        return None
    return values if values and all(math.isfinite(v) for v in values) else None


def _world(text: str, shown: str, default: str) -> World:
    if text.startswith('-'):
        raise LaunchArgumentError(f'{shown}: a world cannot start with - (gz would take it for '
                                  f'an option); give ./{text} for a file of that name; default '
                                  f'{default}')
    path = Path(text).expanduser()
    if text and path.is_file():
        try:
            root = ElementTree.fromstring(inputs.read_bytes(path, WORLD_LIMIT, 'world file'))
        except ElementTree.ParseError as error:
            raise LaunchArgumentError(f'{shown}: not well-formed SDF: {error}') from None
        except BlueRoboticsPartsError as error:
            raise LaunchArgumentError(f'{shown}: {error}') from None
        world = root.find('world') if root.tag == 'sdf' else None
        if world is None or not world.get('name'):
            raise LaunchArgumentError(f'{shown}: not an SDF world file (no <sdf><world name=...>)')
        return World(str(path.resolve()), world.get('name'), _home(world))
    if re.fullmatch(r'[A-Za-z0-9_.][A-Za-z0-9_.-]*\.sdf', text):  # never an option: no '-' first
        return World(text, None)  # one of gz's own worlds; gz says so if it has none such
    raise LaunchArgumentError(f'{shown}: {_what_is(path) if text else "empty"}; give an SDF '
                              'world file or the file name of a world gz ships (e.g. empty.sdf); '
                              f'default {default}')


def _what_is(path: Path) -> str:
    """Return what a path that is not a regular file is: missing, a folder, a FIFO..."""
    try:
        return f'{inputs.file_kind(os.stat(path).st_mode)}, not a file'
    except (OSError, ValueError):
        return 'no such file'
