"""Everything ``vehicle.launch.py`` and ``display.launch.py`` do, computed from plain strings.

The launch files only declare ``ARGUMENTS`` / ``DISPLAY_ARGUMENTS`` and map a plan to launch
actions; the decisions live here, where they are tested without ROS:

* the argument values are parsed and checked (errors name the argument and what is valid);
* the config is built exactly once (``build.build``: resolve, check, Gazebo composition,
  bridge), so a bad config stops the launch with the check's message before any node starts;
* the artefacts go to ``$ROS_HOME/bluerobotics_parts/<name>/`` all or nothing:
  ``robot_description.urdf`` (what Gazebo spawns), ``bridge.yaml`` (what parameter_bridge
  reads) and ``vehicle.rviz`` (the shipped RViz view with this vehicle's names);
* every node gets its package, executable, name, namespace, parameters and arguments, with
  topic and frame names from ``topics.py`` only.

Several vehicles in one world: each has its own namespace, TF prefix, artefact folder and node
names, so launching the file again with another ``name`` adds a vehicle. Each launch starts its
own parameter_bridge, and each bridge bridges ``/clock``: with two vehicles ROS sees two
publishers of the same Gazebo clock, which carry identical stamps, so time stays monotonic and
nothing breaks; it only doubles the clock traffic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import math
import os
from pathlib import Path
import re
import shlex
import shutil
import subprocess
from xml.etree import ElementTree

import yaml

from . import build as build_module
from . import export, gazebo, paths, pipeline, topics
from .atomic import write_files_atomically
from .echosounder import RangeSpec
from .errors import BlueRoboticsPartsError, OutputError

ARTEFACT_FOLDER = 'bluerobotics_parts'  # under ROS_HOME
RVIZ_FILE = 'vehicle.rviz'
DISPLAY_RVIZ_FILE = 'display.rviz'
GAZEBO_MODES = ('auto', 'true', 'false')
BOOLEANS = {'true': True, 'false': False}


class LaunchArgumentError(BlueRoboticsPartsError):
    """A launch argument value that cannot be used."""


class ArtefactError(BlueRoboticsPartsError):
    """The artefact folder cannot be written."""


@dataclass(frozen=True)
class Argument:
    """One launch argument: what ``ros2 launch -s`` shows, and how its value is read."""

    name: str
    default: str
    description: str
    kind: str  # file | world | name | number | height | boolean | gazebo | gz_release | current


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
        Argument('gui', 'true', 'Start the Gazebo GUI with the server (true/false)', 'boolean'),
        Argument('rviz', 'false', "Start RViz with this vehicle's view (true/false)", 'boolean'),
        Argument('use_sim_time', 'true', "Nodes use Gazebo's /clock (true/false)", 'boolean'),
        Argument('gazebo', 'auto', 'Start Gazebo: auto (unless one is already running), true, '
                 'false', 'gazebo'),
        # Not called gz_version: ros_gz_sim's gz_sim.launch.py declares that one (a number) and
        # would inherit ours through the include.
        Argument('gz_release', gazebo.DEFAULT_FLAVOUR, 'Gazebo release the model is composed '
                 f"for: {', '.join(gazebo.FLAVOURS)}", 'gz_release'),
        Argument('current', '', 'Water current for the Hydrodynamics system: "x y z" in m/s, '
                 'world frame (e.g. "0.5 0 0"); empty: still water', 'current'),
    )


ARGUMENTS = _vehicle_arguments()
DISPLAY_ARGUMENTS = (
    ARGUMENTS[0], ARGUMENTS[1],
    Argument('use_sim_time', 'false', 'Nodes use /clock (true/false)', 'boolean'),
)


def parse_arguments(values, table=ARGUMENTS) -> dict:
    """Typed values by argument name (defaults for the missing ones). Raises
    LaunchArgumentError naming the argument and the valid values."""
    known = {a.name: a for a in table}
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise LaunchArgumentError(f'unknown launch argument {unknown[0]!r}; valid: '
                                  f"{', '.join(known)}")
    return {a.name: _parse(a, str(values.get(a.name, a.default)).strip()) for a in table}


def _parse(argument: Argument, text: str):
    shown = f'launch argument {argument.name}:={text!r}'
    if argument.kind == 'file':
        path = Path(text).expanduser()
        if not text or not path.is_file():
            raise LaunchArgumentError(f'{shown}: no such file; give a config YAML file '
                                      f'(default {argument.default})')
        return path.resolve()
    if argument.kind == 'world':
        return _world(text, shown, argument.default)
    if argument.kind == 'name':
        if text:
            try:
                pipeline.check_vehicle_name(text)
            except BlueRoboticsPartsError as error:
                raise LaunchArgumentError(f'{shown}: {error}') from None
        return text or None
    if argument.kind == 'height' and text.lower() == 'auto':
        return None  # the vehicle's own: spawn_z
    if argument.kind in ('number', 'height'):
        try:
            number = float(text)
        except ValueError:
            number = math.nan
        if not math.isfinite(number):
            raise LaunchArgumentError(f'{shown} is not a finite number; e.g. {argument.name}:=1.5')
        return number
    if argument.kind == 'boolean':
        if text.lower() not in BOOLEANS:
            raise LaunchArgumentError(f'{shown}: valid values are true and false')
        return BOOLEANS[text.lower()]
    if argument.kind == 'gazebo':
        if text.lower() not in GAZEBO_MODES:
            raise LaunchArgumentError(f"{shown}: valid values are {', '.join(GAZEBO_MODES)}")
        return text.lower()
    if argument.kind == 'current':
        try:
            return gazebo.current_vector(text)
        except BlueRoboticsPartsError as error:
            raise LaunchArgumentError(f'{shown}: {error}') from None
    if argument.kind == 'gz_release':
        try:
            return gazebo.flavour(text).name
        except BlueRoboticsPartsError as error:
            raise LaunchArgumentError(f'{shown}: {error}') from None
    raise AssertionError(f'argument kind {argument.kind}')


@dataclass(frozen=True)
class World:
    """What gz is given (a path, or a world file name gz finds itself) and the world's name
    when it can be read (``ros_gz_sim create -world``)."""

    file: str
    name: str | None


def _world(text: str, shown: str, default: str) -> World:
    path = Path(text).expanduser()
    if text and path.is_file():
        try:
            root = ElementTree.parse(path).getroot()
        except ElementTree.ParseError as error:
            raise LaunchArgumentError(f'{shown}: not well-formed SDF: {error}') from None
        world = root.find('world') if root.tag == 'sdf' else None
        if world is None or not world.get('name'):
            raise LaunchArgumentError(f'{shown}: not an SDF world file (no <sdf><world name=...>)')
        return World(str(path.resolve()), world.get('name'))
    if re.fullmatch(r'[A-Za-z0-9_.-]+\.sdf', text):
        return World(text, None)  # one of gz's own worlds; gz says so if it has none such
    raise LaunchArgumentError(f'{shown}: no such file; give an SDF world file or the file name of '
                              f'a world gz ships (e.g. empty.sdf); default {default}')


def artefact_dir(name: str, environ=None) -> Path:
    """``$ROS_HOME/bluerobotics_parts/<name>`` (ROS_HOME defaults to ``~/.ros``)."""
    environ = os.environ if environ is None else environ
    home = Path(environ.get('HOME') or Path.home())
    ros_home = environ.get('ROS_HOME') or str(home / '.ros')
    if ros_home == '~' or ros_home.startswith('~/'):
        ros_home = str(home) + ros_home[1:]
    return Path(ros_home) / ARTEFACT_FOLDER / name


def _write(folder: Path, files: dict) -> None:
    try:
        write_files_atomically(folder, files)
    except OutputError as error:
        raise ArtefactError(f'launch artefacts: {error}; set ROS_HOME to a folder you can '
                            'write') from None


def running_gazebo_worlds(timeout: float = 5.0, environ=None) -> tuple:
    """Names of the worlds a running gz sim serves (``gz service -l`` lists
    ``/world/<name>/create``); empty when none answers within ``timeout`` seconds or when the
    ``gz`` command is absent."""
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
class LaunchPlan:
    name: str
    artefact_dir: Path
    urdf_file: Path
    bridge_file: Path
    rviz_file: Path
    start_gazebo: bool
    world: World  # the world argument; the spawn's -world may name a running one instead
    gz_args: str  # for ros_gz_sim's gz_sim.launch.py
    resource_path: str  # prepend to GZ_SIM_RESOURCE_PATH: the parent of the package share dir
    nodes: tuple  # of NodeSpec, in start order
    identity: str  # the description identity (export.description_identity)
    summary: str  # one line for a LogInfo

    @property
    def gazebo_launch_arguments(self) -> dict:
        return {'gz_args': self.gz_args, 'on_exit_shutdown': 'true'}


def plan(values, environ=None, gazebo_running=running_gazebo_worlds) -> LaunchPlan:
    """The vehicle launch for these argument values. Builds once, then writes the artefacts;
    any BlueRoboticsPartsError is raised before anything is written. ``gazebo_running`` is
    asked only for ``gazebo:=auto``; it returns the running worlds' names (or a bool)."""
    args = parse_arguments(values, ARGUMENTS)
    result = build_module.build(args['config'], name=args['name'], gz_version=args['gz_release'],
                                current=args['current'])
    name = result.name
    names = topics.vehicle_topics(result.resolved.manifest, result.catalogue, name)
    echosounders = [(e, RangeSpec.from_part(result.catalogue[e.type].echosounder))
                    for e in names.echosounders]
    identity = export.description_identity(result)
    folder = artefact_dir(name, environ)
    world = args['world']
    start, world_name, gazebo_note = _gazebo_decision(args['gazebo'], world, gazebo_running)
    files = build_module.artefacts(result)
    files[RVIZ_FILE] = vehicle_rviz(names, echosounders, names.odom_frame).encode('utf-8')
    _write(folder, files)

    sim_time = args['use_sim_time']
    urdf_file, bridge_file = folder / build_module.URDF_FILE, folder / build_module.BRIDGE_FILE
    z = spawn_z(result) if args['z'] is None else args['z']
    pose = [('-x', args['x']), ('-y', args['y']), ('-z', z), ('-Y', args['yaw'])]
    spawn = ['-name', name, '-file', str(urdf_file)] + [str(v) for p in pose for v in p]
    if world_name:
        spawn += ['-world', world_name]
    nodes = [
        _state_publisher(names, result.urdf, sim_time),
        NodeSpec('ros_gz_sim', 'create', f'{name}_create', arguments=tuple(spawn)),
        NodeSpec('ros_gz_bridge', 'parameter_bridge', f'{name}_bridge',
                 parameters={'config_file': str(bridge_file), 'use_sim_time': sim_time}),
    ]
    for echo, spec in echosounders:
        nodes.append(NodeSpec('bluerobotics_parts', 'scan_to_range',
                              f'{echo.instance}_scan_to_range', name, parameters={
                                  'scan_topic': echo.ros_scan_topic,
                                  'range_topic': echo.ros_range_topic,
                                  'frame_id': echo.frame_id,
                                  'field_of_view': spec.field_of_view,
                                  'min_range': spec.min_range, 'max_range': spec.max_range,
                                  'use_sim_time': sim_time}))
    if args['rviz']:
        nodes.append(_rviz(names, folder / RVIZ_FILE, sim_time))
    gz_args = f'-r {shlex.quote(world.file)}' + ('' if args['gui'] else ' -s')
    summary = (f'bluerobotics_parts: vehicle {name} (parts {len(result.resolved.manifest.parts)}, '
               f'thrusters {len(names.thrusters)}, echosounders {len(names.echosounders)}), '
               f'description {identity}, artefacts in {folder}; {gazebo_note}')
    return LaunchPlan(name, folder, urdf_file, bridge_file, folder / RVIZ_FILE, start, world,
                      gz_args, str(paths.share_dir().parent), tuple(nodes), identity, summary)


def spawn_z(result) -> float:
    """
    Return where ``z:=auto`` spawns a built vehicle: its base part's spawn depth, below z = 0.

    0 for a boat, whose hull floats at z = 0; 1 m down for the BlueROV2.
    """
    return -result.catalogue[result.resolved.manifest.base.type].spawn_depth


def _gazebo_decision(mode: str, world: World, gazebo_running) -> tuple:
    """(start Gazebo?, the world name to spawn into or None, a note for the summary)."""
    if mode == 'true':
        return True, world.name, f'starting Gazebo with {world.file}'
    if mode == 'false':
        return False, world.name, f'not starting Gazebo (gazebo:=false), spawning into world ' \
                                  f"{world.name or '(the first one found)'}"
    found = gazebo_running()
    if not found:
        return True, world.name, f'no Gazebo running, starting it with {world.file}'
    worlds = () if isinstance(found, bool) else tuple(found)
    if world.name in worlds or not worlds:
        target = world.name
    else:  # another world runs: spawn into it when it is the only one, else let create pick
        target = worlds[0] if len(worlds) == 1 else None
    return False, target, f'Gazebo already running, spawning into world ' \
                          f"{target or '(the first one found)'}"


def _state_publisher(names, urdf: str, sim_time: bool) -> NodeSpec:
    return NodeSpec('robot_state_publisher', 'robot_state_publisher', 'robot_state_publisher',
                    names.name, parameters={'robot_description': urdf,
                                            'frame_prefix': topics.frame_id(names.name, ''),
                                            'use_sim_time': sim_time},
                    remappings=(('joint_states', names.ros_joint_state_topic),))


def _rviz(names, config_file: Path, sim_time: bool) -> NodeSpec:
    return NodeSpec('rviz2', 'rviz2', 'rviz2', names.name, parameters={'use_sim_time': sim_time},
                    arguments=('-d', str(config_file)))


def rviz_template() -> Path:
    return paths.config_dir() / 'rviz' / 'vehicle.rviz'


def vehicle_rviz(names, echosounders=(), fixed_frame: str | None = None) -> str:
    """The shipped RViz view with this vehicle's names: fixed frame (default the base link;
    the odometry frame with Gazebo, so the vehicle is seen to move), description topic, TF
    prefix, and one Range display per (EchosounderTopics, RangeSpec)."""
    document = yaml.safe_load(rviz_template().read_text(encoding='utf-8'))
    manager = document['Visualization Manager']
    manager['Global Options']['Fixed Frame'] = fixed_frame or names.base_frame
    # The camera orbits the vehicle wherever it goes (a boat away from the origin, an ROV down).
    manager['Views']['Current']['Target Frame'] = names.base_frame
    displays = []
    for display in manager['Displays']:
        kind = display.get('Class', '')
        if kind.endswith('/RobotModel'):
            # robot_state_publisher in namespace <name> publishes <name>/robot_description
            display['Description Topic']['Value'] = f'/{names.name}/robot_description'
            display['TF Prefix'] = topics.frame_id(names.name, '').rstrip('/')
        if kind.endswith('/Range'):
            for echo, _ in echosounders:
                copy = yaml.safe_load(yaml.safe_dump(display))
                copy['Name'] = f'{echo.instance} range'
                copy['Topic']['Value'] = echo.ros_range_topic
                displays.append(copy)
            continue
        displays.append(display)
    manager['Displays'] = displays
    header = (f'# RViz view of vehicle {names.name}, written by bluerobotics_parts from '
              f'config/rviz/vehicle.rviz; regenerated at every launch.\n')
    return header + yaml.safe_dump(document, sort_keys=False, default_flow_style=False)


@dataclass(frozen=True)
class DisplayPlan:
    name: str
    rviz_file: Path
    nodes: tuple  # of NodeSpec
    summary: str


def display_plan(values, environ=None) -> DisplayPlan:
    """``display.launch.py``: the plain URDF (no Gazebo blocks) in robot_state_publisher,
    joint_state_publisher_gui for the joints, RViz; nothing of Gazebo."""
    args = parse_arguments(values, DISPLAY_ARGUMENTS)
    resolved = pipeline.resolve_config(args['config'], name=args['name'])
    names = topics.vehicle_topics(resolved.manifest, resolved.catalogue(), resolved.name)
    folder = artefact_dir(names.name, environ)
    _write(folder, {DISPLAY_RVIZ_FILE: vehicle_rviz(names).encode('utf-8')})
    sim_time = args['use_sim_time']
    nodes = (
        _state_publisher(names, resolved.urdf, sim_time),
        NodeSpec('joint_state_publisher_gui', 'joint_state_publisher_gui',
                 'joint_state_publisher_gui', names.name, parameters={'use_sim_time': sim_time},
                 remappings=(('joint_states', names.ros_joint_state_topic),)),
        _rviz(names, folder / DISPLAY_RVIZ_FILE, sim_time),
    )
    summary = (f'bluerobotics_parts: displaying vehicle {names.name} '
               f"({len(resolved.manifest.parts)} parts) from {args['config']}")
    return DisplayPlan(names.name, folder / DISPLAY_RVIZ_FILE, nodes, summary)
