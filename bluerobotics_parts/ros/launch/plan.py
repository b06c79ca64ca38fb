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
What ``vehicle.launch.py`` and ``display.launch.py`` start, planned from plain strings.

The launch files declare the arguments (launch_arguments.py) and map a plan to launch actions
(launch_actions.py); the decisions live here, where they are tested without ROS: one build
(description/identified.py, through the build cache), so a bad config stops the launch before
any node starts; the artefacts written all or nothing (launch_artefacts.py); every node with
its name, namespace and parameters, topic and frame names from model/topics.py only.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
import math
from pathlib import Path
import re
import shlex
import sys

import yaml

from . import gazebo_detection
from .arguments import ARGUMENTS, DISPLAY_ARGUMENTS, parse_arguments, World, WORLD_ARGUMENTS
from .artefacts import artefact_dir, write_artefacts
from ..nodes.converters import accepted_parameters
from ...ardupilot import sitl
from ...description import cache
from ...errors import LaunchArgumentError
from ...formats.config import name_problem, read as read_config
from ...formats.sensor_kinds import KINDS
from ...gazebo import spawned_model
from ...paths import ARDUPILOT_FILE, BRIDGE_FILE, config_dir, GAZEBO_MODEL_FILE, URDF_FILE

RVIZ_FILE = 'vehicle.rviz'
CLOCK_BRIDGE = 'clock_bridge'  # the node bridging the world's /clock, outside any namespace
DISPLAY_RVIZ_FILE = 'display.rviz'
GAMEPAD_FILE = 'teleop/gamepad.yaml'  # under config/: teleop_twist_joy's parameters
#: The files a built vehicle gives the launch (a cache entry may hold no other).
LAUNCH_ARTEFACTS = frozenset((URDF_FILE, BRIDGE_FILE, RVIZ_FILE, ARDUPILOT_FILE))
IDENTITY = re.compile(r'sha256:[0-9a-f]{64}')
_CONTROL = re.compile(r'[\x00-\x1f\x7f-\x9f]')


def _printable(text) -> bool:
    return isinstance(text, str) and not _CONTROL.search(text)


def _plain_parameters(parameters) -> bool:
    """Whether node parameters are names to numbers, booleans or printable text (and lists)."""
    def plain(value):
        return (isinstance(value, (bool, int)) or _printable(value)
                or (isinstance(value, float) and math.isfinite(value)))

    return isinstance(parameters, dict) and all(
        isinstance(key, str) and not name_problem(key)
        and (plain(value) or (isinstance(value, list) and all(map(plain, value))))
        for key, value in parameters.items())


@dataclass(frozen=True)
class NodeSpec:
    """One ROS node to start, as launch_ros.actions.Node takes it."""

    package: str
    executable: str
    name: str
    namespace: str = ''
    parameters: dict = field(default_factory=dict)
    arguments: tuple = ()
    remappings: tuple = ()  # of (from, to)
    output: str = 'screen'


@dataclass(frozen=True)
class ProcessSpec:
    """A program to start, as launch.actions.ExecuteProcess takes it."""

    name: str
    cmd: tuple
    cwd: str


@dataclass(frozen=True)
class LaunchPlan:
    """Everything vehicle.launch.py starts, and the files it wrote for them."""

    name: str
    artefact_dir: Path
    urdf_file: Path
    bridge_file: Path
    rviz_file: Path
    start_gazebo: bool
    world: World  # the world argument; the spawn's -world may name a running one instead
    gz_args: str  # for ros_gz_sim's gz_sim.launch.py
    use_sim_time: bool  # for every node of the launch (a global parameter)
    nodes: tuple  # of NodeSpec, in start order
    identity: str  # the description identity (export.description_identity)
    summary: str  # one line for a LogInfo
    autopilot: ProcessSpec | None = None  # ArduPilot SITL, with autopilot:=ardupilot

    @property
    def gazebo_launch_arguments(self) -> dict:
        """Return the arguments ros_gz_sim's gz_sim.launch.py is included with."""
        return {'gz_args': self.gz_args, 'on_exit_shutdown': 'true'}


@dataclass(frozen=True)
class Converter:
    """A sensor's converter node: its kind (whose registry entry names the program)."""

    kind: str  # the part-data section (formats/sensor_kinds.py: ``converter``)
    instance: str
    parameters: dict

    @property
    def executable(self) -> str:
        return KINDS[self.kind].converter


@dataclass(frozen=True)
class LaunchVehicle:
    """What the launch keeps of the built vehicle (a cache entry holds it)."""

    name: str
    artefacts: dict  # file name -> text: the URDF, bridge.yaml, the RViz view
    identity: str  # the description identity
    converters: tuple  # of Converter
    spawn_z: float  # where z:=auto spawns it
    counts: str  # parts, thrusters, sensors, lights: for the summary line
    firmware: str = ''  # with an autopilot: the SITL program (ardusub, ardurover)
    defaults: str = ''  # and ArduPilot's defaults file for it (sub.parm, rover.parm)
    thrusters: int = 0  # how many: the allocator is started for one or more

    def to_data(self) -> dict:
        return asdict(self)

    @classmethod
    def from_data(cls, data) -> 'LaunchVehicle | None':
        """
        Return the vehicle a cache entry holds, None unless every field is what a build makes.

        An entry is data from a file: its name must be a vehicle name (the artefact folder and
        the node names come from it), its artefacts the launch's own files, each converter a
        registry kind (the registry names the program) on an instance name with plain
        parameters, and its text printable.
        """
        try:
            vehicle = cls(**{**data, 'converters': tuple(
                Converter(**converter) for converter in data['converters'])})
        except (TypeError, KeyError):
            return None
        ok = (not name_problem(vehicle.name) and isinstance(vehicle.identity, str)
              and IDENTITY.fullmatch(vehicle.identity) is not None
              and _printable(vehicle.counts) and isinstance(vehicle.spawn_z, float)
              and math.isfinite(vehicle.spawn_z)
              and vehicle.firmware in ('', 'ardusub', 'ardurover')
              and vehicle.defaults in ('', 'sub.parm', 'rover.parm')
              and type(vehicle.thrusters) is int and vehicle.thrusters >= 0
              and isinstance(vehicle.artefacts, dict)
              and set(vehicle.artefacts) <= LAUNCH_ARTEFACTS
              and {URDF_FILE, BRIDGE_FILE} <= set(vehicle.artefacts)
              and all(isinstance(v, str) for v in vehicle.artefacts.values())
              and all(isinstance(c.kind, str) and c.kind in KINDS
                      and KINDS[c.kind].converter is not None and not name_problem(c.instance)
                      and _plain_parameters(c.parameters)
                      and set(c.parameters) <= accepted_parameters(c.kind)
                      for c in vehicle.converters))
        return vehicle if ok else None


def plan(values, environ=None, gazebo_running=gazebo_detection.running_gazebo_worlds,
         convert=spawned_model.gazebo_sdf,
         clock_published=gazebo_detection.clock_published,
         esc_problem=gazebo_detection.esc_python_problem) -> LaunchPlan:
    """
    Plan the vehicle launch for these argument values (name -> string).

    Builds once, then writes the artefacts; any BlueRoboticsPartsError is raised before
    anything is written. ``gazebo_running`` is asked only for ``gazebo:=auto``; ``convert``
    turns the URDF into the SDF spawned for added mass and joint controls
    (gazebo/spawned_model.py); ``clock_published`` only when joining a running world
    (gazebo_detection.clock_decision); ``esc_problem`` only under the autopilot with
    ``esc:=curve``: why Gazebo's Python cannot run the ESC system (then the linear map, said in
    the summary), or None.

    Several vehicles in one world: each has its own namespace, TF prefix, artefact folder and
    node names, so another ``name`` adds a vehicle. The world has one ``/clock`` bridge: two
    bridges of one clock interleave, and ROS time runs backwards between their messages. Every
    topic a node is given is absolute (``/<name>/...``) and the spawn reads a file, so a parent
    launch's ``PushROSNamespace`` moves the nodes but not what the bridge and the spawn
    connect.
    """
    args = parse_arguments(values, ARGUMENTS)
    esc_note = None
    if args['autopilot'] == 'ardupilot' and args['esc'] == 'curve':
        problem = esc_problem(environ)
        if problem:
            args['esc'] = 'linear'
            esc_note = ("WARNING: thrust through the linear PWM map, not the propellers' "
                        f"curves: the ESC system needs Gazebo's Python modules ({problem}; "
                        'install python3-gz-transport13 and python3-gz-msgs10, or give '
                        'esc:=linear to say so)')
    vehicle = _vehicle(args, environ)
    name = vehicle.name
    folder = artefact_dir(name, environ)
    world = args['world']
    autopilot = _autopilot(vehicle, args, folder)  # a missing SITL stops it here
    gazebo = gazebo_detection.decide(args['gazebo'], world, gazebo_running)
    files = dict(vehicle.artefacts)
    world, water_note = world_of_water(world, read_config(args['config']).water, gazebo.start,
                                       files, folder)
    model, model_note = gazebo_model(files[URDF_FILE], convert)
    if model is not None:
        files[GAZEBO_MODEL_FILE] = model
    write_artefacts(folder, {file: text.encode('utf-8') for file, text in files.items()})

    urdf_file, bridge_file = folder / URDF_FILE, folder / BRIDGE_FILE
    spawned = folder / GAZEBO_MODEL_FILE if model is not None else urdf_file
    bridge_clock, clock_note = gazebo_detection.clock_decision(gazebo.start, clock_published)
    nodes = [clock_bridge()] if bridge_clock else []
    nodes += [
        _state_publisher(name, vehicle.artefacts[URDF_FILE]),
        NodeSpec('ros_gz_sim', 'create', f'{name}_create',
                 arguments=_spawn_arguments(name, spawned, args, vehicle.spawn_z,
                                            gazebo.world_name)),
        NodeSpec('ros_gz_bridge', 'parameter_bridge', f'{name}_bridge',
                 parameters={'config_file': str(bridge_file)}),
    ]
    nodes += [NodeSpec('bluerobotics_parts', c.executable, f'{c.instance}_{c.executable}', name,
                       parameters=c.parameters) for c in vehicle.converters]
    if args['allocator'] and autopilot is None and vehicle.thrusters:
        nodes.append(NodeSpec('bluerobotics_parts', 'thrust_allocator', 'thrust_allocator', name,
                              parameters={'description': str(urdf_file)}))
    nodes += _teleop(args, name, driven=any(n.executable == 'thrust_allocator' for n in nodes))
    if args['rviz']:
        nodes.append(_rviz(name, folder / RVIZ_FILE))
    gz_args = gazebo_arguments(world, args['gui'])
    summary = (f'bluerobotics_parts: vehicle {name} ({vehicle.counts}), '
               f'description {vehicle.identity}, artefacts in {folder}; {gazebo.note}; '
               f'{clock_note}' + ''.join(f'; {note}' for note in (model_note, water_note)
                                         if note)) \
        + (f'; {esc_note}' if esc_note else '')
    if autopilot is not None:
        summary += (f'; ArduPilot SITL {vehicle.firmware} -I {args["autopilot_instance"]} flies '
                    f'it: MAVLink on {sitl.endpoint(args["autopilot_instance"])} '
                    f'(QGroundControl: a TCP link to that address and port; MAVProxy: '
                    f'mavproxy.py --master {sitl.endpoint(args["autopilot_instance"])})')
    return LaunchPlan(name, folder, urdf_file, bridge_file, folder / RVIZ_FILE, gazebo.start,
                      world, gz_args, args['use_sim_time'], tuple(nodes), vehicle.identity,
                      summary, autopilot)


def gazebo_arguments(world: World, gui: bool) -> str:
    """Return ros_gz_sim gz_sim.launch.py's ``gz_args``: run the world now, the GUI or not."""
    return f'-r {shlex.quote(world.file)}' + ('' if gui else ' -s')


@dataclass(frozen=True)
class WorldPlan:
    """What world.launch.py starts: Gazebo with the world, and the world's one /clock bridge."""

    world: World
    gz_args: str
    nodes: tuple  # of NodeSpec
    summary: str

    @property
    def gazebo_launch_arguments(self) -> dict:
        return {'gz_args': self.gz_args, 'on_exit_shutdown': 'true'}


def world_plan(values, environ=None) -> WorldPlan:
    """
    Plan world.launch.py: a world of its own, which vehicle launches join and leave.

    The world, not a vehicle, owns Gazebo and its clock: stopping any vehicle's launch leaves
    the others their world and their clock.
    """
    args = parse_arguments(values, WORLD_ARGUMENTS)
    files = {}
    # beside the vehicles' artefact folders, under a name no vehicle can have
    folder = artefact_dir('world', environ).parent / '_worlds'
    world, note = world_of_water(args['world'], args['water'], True, files, folder)
    if files:
        write_artefacts(folder, {name: text.encode('utf-8') for name, text in files.items()})
    return WorldPlan(world, gazebo_arguments(world, args['gui']), (clock_bridge(),),
                     f'bluerobotics_parts: world {world.name or world.file} with its /clock '
                     'bridge' + (f' ({note})' if note else '')
                     + '; add vehicles with vehicle.launch.py (they join it)')


def world_of_water(world: World, water: float, starting: bool, files: dict,
                   folder: Path) -> tuple:
    """
    Return the world to start, of ``water`` (kg/m^3), and a note for the summary.

    A world file this launch starts whose Buoyancy has another water is written again with
    ``water`` (gazebo/worlds.py) into ``files`` (name -> text, written into ``folder``), the
    world's name and everything else kept; a running world, or one gz finds itself, keeps its
    own, and the note says which water the vehicle is built for.
    """
    from ...gazebo.worlds import with_water, WORLD_FILE, world_water
    from ...physics.water import SEA_WATER_DENSITY, water_label

    if not starting or world.name is None:
        joined = 'the running world' if not starting else f'world {world.file}'
        return world, ('' if water == SEA_WATER_DENSITY else
                       f'{joined} keeps its own water; this vehicle is built for '
                       f'{water_label(water)}')
    text = Path(world.file).read_text(encoding='utf-8')
    if world_water(text) in (None, water):
        return world, ''
    name = WORLD_FILE if folder.name != '_worlds' else f'{world.name}_{water:g}.sdf'
    files[name] = with_water(text, water)
    return (World(str(folder / name), world.name, world.home),
            f'world {world.name} in {water_label(water)} ({folder / name})')


def clock_bridge() -> NodeSpec:
    """Return the world's one /clock bridge (gazebo/bridge.py, clock_bridge_arguments)."""
    from ...gazebo.bridge import clock_bridge_arguments

    return NodeSpec('ros_gz_bridge', 'parameter_bridge', CLOCK_BRIDGE,
                    arguments=clock_bridge_arguments())


def _teleop(args: dict, name: str, driven: bool) -> list:
    """
    Return the gamepad's nodes for ``teleop:=joy``, in the vehicle's namespace.

    joy's game_controller_node publishes ``joy``, teleop_twist_joy reads it and publishes
    ``cmd_vel`` (both relative, so ``/<name>/...``), which thrust_allocator reads as effort.
    """
    if args['teleop'] != 'joy':
        return []
    if not driven:
        raise LaunchArgumentError(
            'teleop:=joy drives /<name>/cmd_vel through thrust_allocator, which this launch '
            'does not start (allocator:=false, autopilot:=ardupilot or no thrusters); with '
            'ArduPilot, drive with QGroundControl or MAVProxy instead')
    gamepad = yaml.safe_load((config_dir() / GAMEPAD_FILE).read_text(encoding='utf-8'))
    return [NodeSpec('joy', 'game_controller_node', 'joy', name),
            NodeSpec('teleop_twist_joy', 'teleop_node', 'teleop_twist_joy', name,
                     parameters=gamepad)]


def gazebo_model(urdf_text: str, convert=spawned_model.gazebo_sdf) -> tuple:
    """
    Return (the SDF to spawn, or None for the URDF itself; a note for the summary).

    Only a vehicle with added mass or a joint control needs the SDF (gazebo/spawned_model.py).
    Without ``gz`` to convert it, the URDF is spawned and the note says what Gazebo then lacks.
    """
    if not spawned_model.needs_sdf(urdf_text):
        return None, ''
    try:
        return convert(urdf_text), f'spawned as {GAZEBO_MODEL_FILE} (added mass, joint controls)'
    except spawned_model.ConversionError as error:
        return None, (f'WARNING: spawned without added mass (and its joint controls keep their '
                      f'velocity limits), {error}')


def _autopilot(vehicle: LaunchVehicle, args: dict, folder: Path) -> ProcessSpec | None:
    """Return SITL's process for ``autopilot:=ardupilot``; AutopilotError if it is missing."""
    if args['autopilot'] != 'ardupilot':
        return None
    binary = sitl.find_binary(vehicle.firmware, args['ardupilot_bin'])
    defaults = sitl.find_defaults(binary, vehicle.defaults, args['ardupilot_defaults'])
    command = sitl.command(binary, defaults, folder / ARDUPILOT_FILE,
                           args['autopilot_instance'], args['world'].home)
    runner = [sys.executable, '-m', 'bluerobotics_parts.ros.launch.sitl_runner']
    return ProcessSpec(f'{vehicle.name}_{vehicle.firmware}', tuple(runner + command),
                       str(folder / 'sitl'))


def _vehicle(args: dict, environ=None) -> LaunchVehicle:
    """
    Return what the launch needs of the built vehicle, reused when its inputs are unchanged.

    A build cache entry (description/cache.py, under ``$ROS_HOME``). The pose, the world and
    the other arguments are applied after, so they never miss the cache.
    """
    return cache.reuse(cache.folder(environ, launch=True),
                       (args['config'], args['name'], args['gz_release'], args['current'],
                        'launch', (args['autopilot'], args['autopilot_instance'],
                                   args['camera'], args['esc'])),
                       lambda: build_vehicle(args), LaunchVehicle,
                       fits=lambda vehicle: not args['name'] or vehicle.name == args['name'])


def build_vehicle(args: dict) -> tuple:
    """Build the vehicle (uncached): the launch's part of it, and the user files read."""
    from ..nodes.converters import converter_parameters
    from .rviz_view import vehicle_rviz
    from ... import build as build_module
    from ...description.identified import identified_build
    from ...gazebo.bridge import bridge_yaml
    from ...model import kinematics

    made = identified_build(args['config'], name=args['name'], gz_release=args['gz_release'],
                            current=args['current'], camera=args['camera'],
                            autopilot=args['autopilot'],
                            autopilot_instance=args['autopilot_instance'], esc=args['esc'])
    result, names = made.build, made.build.topics
    artefacts = {file: data.decode('utf-8')
                 for file, data in build_module.artefacts(result).items()}
    # the vehicle's streams; the world's one clock is bridged apart (plan, clock_bridge)
    artefacts[BRIDGE_FILE] = bridge_yaml(names, commands=result.autopilot is None, clock=False)
    artefacts[RVIZ_FILE] = vehicle_rviz(names, names.sensors, names.odom_frame)
    poses = kinematics.link_poses(result.vehicle)
    converters = tuple(
        Converter(sensor.kind, sensor.instance, converter_parameters(
            sensor, result.catalogue[sensor.type].sensor_sections[sensor.kind],
            poses[sensor.link]))
        for sensor in names.sensors if KINDS[sensor.kind].converter is not None)
    counts = (f'parts {len(result.resolved.record.parts)}, thrusters {len(names.thrusters)}, '
              + ', '.join(f'{category}s {len(names.of_category(category))}'
                          for category in ('sensor', 'light')))
    frame = result.autopilot.frame if result.autopilot is not None else None
    vehicle = LaunchVehicle(result.name, artefacts, made.identity, converters, spawn_z(result),
                            counts, frame.firmware if frame else '',
                            frame.defaults if frame else '', len(names.thrusters))
    return vehicle, made.files_read


def spawn_z(result) -> float:
    """
    Return where ``z:=auto`` spawns a built vehicle: its base part's spawn depth, below z = 0.

    0 for a boat, whose hull floats at z = 0; 1 m down for the BlueROV2.
    """
    return 0.0 - result.catalogue[result.resolved.record.base.type].spawn_depth  # not -0.0


def _spawn_arguments(name: str, urdf_file: Path, args: dict, auto_z: float,
                     world_name) -> tuple:
    """Return ros_gz_sim create's arguments: the model name, the file, the pose, the world."""
    z = auto_z if args['z'] is None else args['z']
    pose = [('-x', args['x']), ('-y', args['y']), ('-z', z), ('-Y', args['yaw'])]
    spawn = ['-name', name, '-file', str(urdf_file)] + [str(v) for p in pose for v in p]
    if world_name:
        spawn += ['-world', world_name]
    return tuple(spawn)


def _state_publisher(name: str, urdf: str) -> NodeSpec:
    from ...model.topics import frame_id, ros_joint_state_topic

    return NodeSpec('robot_state_publisher', 'robot_state_publisher', 'robot_state_publisher',
                    name, parameters={'robot_description': urdf,
                                      'frame_prefix': frame_id(name, '')},
                    remappings=(('joint_states', ros_joint_state_topic(name)),))


def _rviz(name: str, config_file: Path) -> NodeSpec:
    return NodeSpec('rviz2', 'rviz2', 'rviz2', name, arguments=('-d', str(config_file)))


@dataclass(frozen=True)
class DisplayPlan:
    """Everything display.launch.py starts."""

    name: str
    rviz_file: Path
    use_sim_time: bool
    nodes: tuple  # of NodeSpec
    summary: str


def display_plan(values, environ=None) -> DisplayPlan:
    """
    Plan display.launch.py: the plain URDF in robot_state_publisher, sliders, RViz.

    The plain URDF has no Gazebo blocks; nothing of Gazebo starts. Its root link's inertia
    rides on a child link, as in the launch's built description, so kdl_parser has nothing
    to warn about (gazebo/composition.py, root_inertia_split).
    """
    from .rviz_view import vehicle_rviz
    from ...assembly import pipeline
    from ...assembly.urdf_writer import urdf_text
    from ...gazebo.composition import with_root_inertia_split
    from ...model import topics

    args = parse_arguments(values, DISPLAY_ARGUMENTS)
    resolved = pipeline.resolve_config(args['config'], name=args['name'])
    names = topics.vehicle_topics(resolved.record, resolved.catalogue(), resolved.name)
    folder = artefact_dir(names.name, environ)
    write_artefacts(folder, {DISPLAY_RVIZ_FILE: vehicle_rviz(names).encode('utf-8')})
    nodes = (
        _state_publisher(names.name, urdf_text(with_root_inertia_split(
            resolved.tree, names.root_link))),
        NodeSpec('joint_state_publisher_gui', 'joint_state_publisher_gui',
                 'joint_state_publisher_gui', names.name,
                 remappings=(('joint_states', names.ros_joint_state_topic),)),
        _rviz(names.name, folder / DISPLAY_RVIZ_FILE),
    )
    summary = (f'bluerobotics_parts: displaying vehicle {names.name} '
               f"({len(resolved.record.parts)} parts) from {args['config']}")
    return DisplayPlan(names.name, folder / DISPLAY_RVIZ_FILE, args['use_sim_time'], nodes,
                       summary)
