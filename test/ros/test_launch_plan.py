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
The launch logic without ROS.

The arguments (launch_arguments), the artefact folder (launch_artefacts), Gazebo detection
(gazebo_detection), the RViz view (rviz_view) and the nodes, commands and parameters
vehicle.launch.py and display.launch.py start (launch_plan).
"""

from __future__ import annotations

import math
from pathlib import Path
from xml.etree import ElementTree

from bluerobotics_parts import build as build_module, paths
from bluerobotics_parts.assembly import pipeline
from bluerobotics_parts.errors import BlueRoboticsPartsError, LaunchArgumentError
from bluerobotics_parts.gazebo import spawned_model
from bluerobotics_parts.ros.launch import (arguments as launch_arguments,
                                           artefacts as launch_artefacts, gazebo_detection,
                                           plan as launch_plan)
from conftest import CONFIG_DIR, parse, REPO, write_config
from plans import converted, make_plan, nodes_by_executable, option
import pytest
import yaml


def never_asked():
    raise AssertionError('the Gazebo detector must not be asked')


@pytest.fixture(scope='module')
def default(tmp_path_factory):
    """Return the plan of the shipped BlueBoat, spawned at a pose, with RViz."""
    ros_home = tmp_path_factory.mktemp('ros_home')
    plan = make_plan(ros_home, x=1.5, y=-2, z=0.1, yaw=1.25, rviz='true')
    return ros_home, plan


# -- arguments ----------------------------------------------------------------------------------

def test_the_launch_arguments_and_their_defaults():
    table = {a.name: a for a in launch_arguments.ARGUMENTS}
    assert list(table) == ['config', 'name', 'world', 'x', 'y', 'z', 'yaw', 'gui', 'rviz',
                           'use_sim_time', 'gazebo', 'gz_release', 'current', 'camera',
                           'autopilot', 'esc', 'autopilot_instance', 'ardupilot_bin',
                           'ardupilot_defaults', 'allocator', 'teleop']
    assert table['current'].default == ''  # still water (gazebo/test_composition.py: the rest)
    assert table['camera'].default == ''  # the part's size and rate
    assert all(len(a.description) > 10 for a in table.values())
    assert Path(table['config'].default) == paths.default_config()
    assert Path(table['world'].default) == paths.default_world()
    assert {k: table[k].default for k in ('name', 'x', 'y', 'z', 'yaw', 'gui', 'rviz',
                                          'use_sim_time', 'gazebo', 'gz_release')} == {
        'name': '', 'x': '0.0', 'y': '0.0', 'z': 'auto', 'yaw': '0.0', 'gui': 'true',
        'rviz': 'false', 'use_sim_time': 'true', 'gazebo': 'auto', 'gz_release': 'harmonic'}
    display = {a.name: a.default for a in launch_arguments.DISPLAY_ARGUMENTS}
    assert list(display) == ['config', 'name', 'use_sim_time']
    assert display['use_sim_time'] == 'false'


def test_the_docs_table_gives_each_arguments_default():
    """docs/LAUNCH.md's table and ``ros2 launch -s`` (the declared defaults) say the same."""
    text = (REPO / 'docs' / 'LAUNCH.md').read_text(encoding='utf-8')
    block = text[text.index('| argument | default | what |'):].split('\n\n')[0]
    rows = [line.split('|')[1:3] for line in block.splitlines() if line.startswith('| `')]
    table = {name: cell.strip() for names, cell in rows for name in names.strip().strip('`')
             .split('` `')}
    declared = {a.name: a.default for a in launch_arguments.ARGUMENTS}
    assert sorted(table) == sorted(declared)
    for name, default in declared.items():
        if default and not default.startswith('/'):  # a path is described in words
            assert table[name] == f'`{default}`', name


def test_the_enumerated_and_boolean_arguments_have_choices():
    from bluerobotics_parts.ardupilot.plugin import ESC_MODES

    choices = {a.name: a.choices for a in launch_arguments.ARGUMENTS if a.choices}
    assert choices == {'gui': ('true', 'false'), 'rviz': ('true', 'false'),
                       'use_sim_time': ('true', 'false'), 'gazebo': ('auto', 'true', 'false'),
                       'gz_release': ('harmonic', 'ionic', 'jetty'),
                       'autopilot': ('none', 'ardupilot'), 'allocator': ('true', 'false'),
                       'teleop': ('none', 'joy'), 'esc': ('curve', 'linear')}
    assert launch_arguments.ESC_CHOICES == ESC_MODES  # the launch offers what the build takes
    assert all(a.default in a.choices for a in launch_arguments.ARGUMENTS if a.choices)


def test_values_are_typed():
    values = launch_arguments.parse_arguments({'x': ' -3.5', 'gui': 'false', 'rviz': 'true',
                                               'gazebo': 'auto', 'gz_release': 'ionic',
                                               'name': 'b2'})
    assert (values['x'], values['gui'], values['rviz']) == (-3.5, False, True)
    assert (values['gazebo'], values['gz_release'], values['name']) == ('auto', 'ionic', 'b2')
    assert values['config'] == paths.default_config().resolve()
    assert values['world'].name == 'water'
    assert launch_arguments.parse_arguments({})['name'] is None  # the config's name


@pytest.mark.parametrize('key, value, words', [
    ('x', 'abc', ["x:='abc'", 'not a finite number']),
    ('yaw', 'nan', ["yaw:='nan'", 'finite number']),
    ('gui', 'yes', ["gui:='yes'", 'true, false']),
    ('rviz', 'True', ["rviz:='True'", 'true, false']),  # launch's choices are exact too
    ('use_sim_time', '1', ["use_sim_time:='1'", 'true, false']),
    ('gazebo', 'maybe', ["gazebo:='maybe'", 'auto, true, false']),
    ('gz_release', 'garden', ["gz_release:='garden'", 'harmonic, ionic, jetty']),
    ('name', 'my-boat', ["name:='my-boat'", 'letters, digits and underscores']),
    ('config', '/no/such/boat.yaml', ["config:='/no/such/boat.yaml'", 'no such file']),
    ('world', '/no/such/world.sdf', ["world:='/no/such/world.sdf'", 'no such file', 'empty.sdf']),
    ('colour', 'red', ["unknown launch argument 'colour'", 'config, name, world']),
    ('camera', '640*360', ["camera:='640*360'", 'WIDTHxHEIGHT@RATE', '640x360@15']),
    ('camera', '8x8', ["camera:='8x8'", '16 to 7680 pixels']),
    ('camera', '640x360@0', ["camera:='640x360@0'", '0.1 to 240 Hz']),
])
def test_a_bad_value_names_the_argument_and_what_is_valid(tmp_path, key, value, words):
    with pytest.raises(LaunchArgumentError) as caught:
        make_plan(tmp_path, never_asked, **{key: value})
    assert isinstance(caught.value, BlueRoboticsPartsError)
    for word in words:
        assert word in str(caught.value)
    assert not (tmp_path / 'bluerobotics_parts').exists()


# -- artefacts ----------------------------------------------------------------------------------

def test_misspelled_arguments_are_named_with_the_likely_one():
    (warning,) = launch_arguments.misspelled(['nmae', 'robot_count', 'config'])
    assert "'nmae' is not declared and is ignored; did you mean 'name'?" in warning
    assert launch_arguments.misspelled(['use_sim_tme'], launch_arguments.DISPLAY_ARGUMENTS)


def test_artefact_folder_under_ros_home(tmp_path):
    assert launch_artefacts.artefact_dir('boat', {'ROS_HOME': str(tmp_path)}) == \
        tmp_path / 'bluerobotics_parts' / 'boat'
    assert launch_artefacts.artefact_dir('boat', {'HOME': '/home/u'}) == \
        Path('/home/u/.ros/bluerobotics_parts/boat')
    assert launch_artefacts.artefact_dir('boat', {'HOME': '/home/u', 'ROS_HOME': '~/ros'}) == \
        Path('/home/u/ros/bluerobotics_parts/boat')


def test_the_artefacts_are_written_to_the_vehicle_folder(default):
    ros_home, plan = default
    folder = ros_home / 'bluerobotics_parts' / 'blueboat'
    assert plan.artefact_dir == folder
    assert sorted(p.name for p in folder.iterdir()) == [
        'bridge.yaml', 'gazebo_model.sdf', 'robot_description.urdf', 'vehicle.rviz']
    urdf = (folder / 'robot_description.urdf').read_text()
    assert 'gz::sim::systems::Thruster' in urdf  # the Gazebo composition, not the plain URDF
    bridge = yaml.safe_load((folder / 'bridge.yaml').read_text())
    topics = [entry['ros_topic_name'] for entry in bridge]
    assert '/blueboat/ping/scan' in topics and '/blueboat/motor_port/thrust' in topics
    assert plan.identity.startswith('sha256:') and len(plan.identity) == 71
    assert plan.identity in plan.summary and str(folder) in plan.summary


def test_the_camera_argument_sets_every_cameras_size_and_rate(tmp_path):
    from xml.etree import ElementTree

    rov = CONFIG_DIR / 'bluerov2.yaml'
    make_plan(tmp_path, config=rov, camera='640x360@15')
    urdf = (tmp_path / 'bluerobotics_parts' / 'bluerov2' / 'robot_description.urdf').read_text()
    (camera,) = [s for s in ElementTree.fromstring(urdf).iter('sensor')
                 if s.get('type') == 'camera']
    assert (camera.findtext('camera/image/width'), camera.findtext('camera/image/height'),
            camera.findtext('update_rate')) == ('640', '360', '15.0')


# -- nodes --------------------------------------------------------------------------------------

def test_robot_state_publisher_in_the_vehicle_namespace(default):
    _, plan = default
    (rsp,) = nodes_by_executable(plan)['robot_state_publisher']
    assert (rsp.package, rsp.namespace) == ('robot_state_publisher', 'blueboat')
    assert rsp.parameters['frame_prefix'] == 'blueboat/'
    assert plan.use_sim_time is True  # one value for every node (a global parameter)
    assert not [n for n in plan.nodes if 'use_sim_time' in n.parameters]
    assert rsp.parameters['robot_description'] == plan.urdf_file.read_text()
    # the joint states the bridge brings from Gazebo
    assert rsp.remappings == (('joint_states', '/blueboat/joint_states'),)
    bridged = {e['ros_topic_name'] for e in yaml.safe_load(plan.bridge_file.read_text())}
    assert '/blueboat/joint_states' in bridged


def test_the_spawn_command(default):
    _, plan = default
    (create,) = nodes_by_executable(plan)['create']
    assert create.package == 'ros_gz_sim'
    arguments = create.arguments
    assert option(arguments, '-name') == 'blueboat'
    # the SDF with the added mass (gazebo/added_mass.py), converted from the composed URDF
    assert Path(option(arguments, '-file')) == plan.artefact_dir / 'gazebo_model.sdf'
    urdf = (plan.artefact_dir / 'robot_description.urdf').read_text(encoding='utf-8')
    assert (plan.artefact_dir / 'gazebo_model.sdf').read_text(encoding='utf-8') == converted(urdf)
    assert 'spawned as gazebo_model.sdf (added mass, joint controls)' in plan.summary
    pose = [float(option(arguments, f)) for f in ('-x', '-y', '-z', '-Y')]
    assert pose == [1.5, -2.0, 0.1, 1.25]
    assert option(arguments, '-world') == 'water'  # read from config/worlds/water.sdf


def test_without_a_conversion_the_urdf_is_spawned_and_the_summary_warns(tmp_path):
    def no_gz(urdf_text):
        raise spawned_model.ConversionError('no gz on PATH: stand-in')

    plan = make_plan(tmp_path, convert=no_gz)
    (create,) = nodes_by_executable(plan)['create']
    assert Path(option(create.arguments, '-file')) == plan.artefact_dir / 'robot_description.urdf'
    assert not (plan.artefact_dir / 'gazebo_model.sdf').exists()
    assert ('WARNING: spawned without added mass (and its joint controls keep their velocity '
            'limits), no gz on PATH: stand-in') in plan.summary


def test_a_vehicle_without_added_mass_is_spawned_from_its_urdf(tmp_path):
    def never(urdf_text):
        raise AssertionError('nothing to convert')

    (tmp_path / 'raft.yaml').write_text(
        'type: raft\ninertial: {mass: 5.0, mass_unverified: test}\n'
        'collision: [{box: [1, 1, 0.2], box_unverified: test}]\n', encoding='utf-8')
    config = write_config(tmp_path, 'part_files: [raft.yaml]\nbase: {type: raft}\n')
    plan = make_plan(tmp_path, convert=never, config=config)
    (create,) = nodes_by_executable(plan)['create']
    assert Path(option(create.arguments, '-file')).name == 'robot_description.urdf'
    assert 'added mass' not in plan.summary


def test_the_bridge_reads_the_generated_yaml(default):
    _, plan = default
    clock, bridge = nodes_by_executable(plan)['parameter_bridge']
    assert (bridge.package, bridge.name) == ('ros_gz_bridge', 'blueboat_bridge')
    assert bridge.namespace == ''  # its YAML names absolute topics
    assert Path(bridge.parameters['config_file']) == plan.artefact_dir / 'bridge.yaml'
    entries = yaml.safe_load(Path(bridge.parameters['config_file']).read_text())
    assert '/clock' not in {e['ros_topic_name'] for e in entries}  # the world's, not a vehicle's
    assert (clock.name, clock.namespace, clock.arguments) == (
        'clock_bridge', '', ('/clock@rosgraph_msgs/msg/Clock[gz.msgs.Clock',))


@pytest.mark.parametrize('published', [True, False])
def test_a_launch_joining_a_world_leaves_its_clock_to_whoever_bridges_it(tmp_path, published):
    """One /clock publisher per world: two bridges of one clock make ROS time run backwards."""
    asked = []

    def clock_published():
        asked.append(True)
        return published

    plan = make_plan(tmp_path, gazebo_running=lambda: ('water',), clock_published=clock_published)
    bridges = [n.name for n in nodes_by_executable(plan)['parameter_bridge']]
    assert asked and not plan.start_gazebo
    if published:
        assert bridges == ['blueboat_bridge']
        assert '/clock is bridged already' in plan.summary
    else:  # a gz started by hand: somebody must bridge it, and the user is told the cost
        assert bridges == ['clock_bridge', 'blueboat_bridge']
        assert 'WARNING: nobody bridges /clock' in plan.summary
        assert 'world.launch.py' in plan.summary


def test_a_launch_starting_gazebo_bridges_its_clock_without_asking(tmp_path):
    def clock_published():
        raise AssertionError('not asked: the world this launch starts has no clock yet')

    plan = make_plan(tmp_path, clock_published=clock_published)
    assert plan.start_gazebo and 'bridging /clock for the world it starts' in plan.summary
    assert [n.name for n in nodes_by_executable(plan)['parameter_bridge']] == [
        'clock_bridge', 'blueboat_bridge']


def test_the_world_launch_owns_gazebo_and_the_clock():
    from bluerobotics_parts.paths import default_world

    plan = launch_plan.world_plan({'gui': 'false'})
    assert plan.gz_args == f'-r {default_world()} -s'
    assert [(n.executable, n.name) for n in plan.nodes] == [('parameter_bridge', 'clock_bridge')]
    assert plan.gazebo_launch_arguments['on_exit_shutdown'] == 'true'
    with pytest.raises(LaunchArgumentError, match="unknown launch argument 'config'"):
        launch_plan.world_plan({'config': 'x.yaml'})


def test_one_range_converter_per_ping(default):
    _, plan = default
    (converter,) = nodes_by_executable(plan)['scan_to_range']
    assert (converter.package, converter.namespace) == ('bluerobotics_parts', 'blueboat')
    parameters = converter.parameters
    assert parameters['scan_topic'] == '/blueboat/ping/scan'
    assert parameters['range_topic'] == '/blueboat/ping/range'
    assert parameters['frame_id'] == 'blueboat/ping_beam'
    links = {link.get('name') for link in parse(plan.urdf_file.read_text()).findall('link')}
    assert 'ping_beam' in links  # the TF frame is a link of the spawned model
    assert parameters['field_of_view'] == pytest.approx(math.radians(25))  # Ping2 beam width
    assert (parameters['min_range'], parameters['max_range']) == (0.5, 100.0)


def test_rviz_opens_a_view_with_this_vehicles_names(default):
    _, plan = default
    (rviz,) = nodes_by_executable(plan)['rviz2']
    assert rviz.arguments == ('-d', str(plan.artefact_dir / 'vehicle.rviz'))
    view = yaml.safe_load(plan.rviz_file.read_text())['Visualization Manager']
    assert view['Global Options']['Fixed Frame'] == 'blueboat/odom'  # Gazebo's odometry moves it
    by_class = {}
    for display in view['Displays']:
        by_class.setdefault(display['Class'].split('/')[-1], []).append(display)
    (model,) = by_class['RobotModel']
    assert model['Description Topic']['Value'] == '/blueboat/robot_description'
    assert model['TF Prefix'] == 'blueboat'
    assert [d['Topic']['Value'] for d in by_class['Range']] == ['/blueboat/ping/range']
    assert 'TF' in by_class and 'Grid' in by_class


def test_the_shipped_rviz_config_shows_the_default_vehicle():
    shipped = yaml.safe_load((CONFIG_DIR / 'rviz' / 'vehicle.rviz').read_text())
    view = shipped['Visualization Manager']
    assert view['Global Options']['Fixed Frame'] == 'blueboat/base_link'
    topics = [d.get('Topic', {}).get('Value') for d in view['Displays']]
    assert '/blueboat/ping/range' in topics


def test_no_converter_and_no_range_display_without_a_ping(tmp_path):
    plan = make_plan(tmp_path, config=CONFIG_DIR / 'examples' / 'no_ping.yaml', rviz='true')
    assert 'scan_to_range' not in nodes_by_executable(plan)
    displays = yaml.safe_load(plan.rviz_file.read_text())['Visualization Manager']['Displays']
    assert not [d for d in displays if d['Class'].endswith('/Range')]
    assert 'rviz2' not in nodes_by_executable(make_plan(tmp_path, config=CONFIG_DIR /
                                                        'examples' / 'no_ping.yaml'))


def test_a_moved_ping_gets_its_own_names(tmp_path):
    plan = make_plan(tmp_path, config=CONFIG_DIR / 'examples' / 'ping_at_bow.yaml')
    (converter,) = nodes_by_executable(plan)['scan_to_range']
    assert converter.parameters['range_topic'] == '/blueboat/bow_ping/range'
    assert converter.parameters['frame_id'] == 'blueboat/bow_ping_beam'


# -- failures -----------------------------------------------------------------------------------

BAD_CONFIG = 'parts:\n  - {slot: motor_port, type: blueboat_flag}\n'


def test_a_bad_config_stops_before_anything_is_written(tmp_path):
    config = write_config(tmp_path, BAD_CONFIG)
    ros_home = tmp_path / 'ros'
    with pytest.raises(BlueRoboticsPartsError) as caught:
        make_plan(ros_home, never_asked, config=config)
    assert 'motor_port' in str(caught.value) and 'blueboat_flag' in str(caught.value)
    assert not ros_home.exists()


def test_a_bad_config_leaves_the_previous_artefacts_alone(tmp_path):
    ros_home = tmp_path / 'ros'
    good = make_plan(ros_home, name='boat')
    before = {p.name: p.read_bytes() for p in good.artefact_dir.iterdir()}
    with pytest.raises(BlueRoboticsPartsError):
        make_plan(ros_home, never_asked, config=write_config(tmp_path, BAD_CONFIG), name='boat')
    assert {p.name: p.read_bytes() for p in good.artefact_dir.iterdir()} == before


def test_an_unwritable_artefact_folder_is_reported(tmp_path):
    ros_home = tmp_path / 'ros_home_is_a_file'
    ros_home.write_text('')
    with pytest.raises(launch_artefacts.ArtefactError) as caught:
        make_plan(ros_home)
    assert str(ros_home / 'bluerobotics_parts' / 'blueboat') in str(caught.value)
    assert 'ROS_HOME' in str(caught.value)


# -- several vehicles, one build each -----------------------------------------------------------

def test_two_vehicles_share_a_world_without_clashes(tmp_path):
    plans = [make_plan(tmp_path, name='a'),
             make_plan(tmp_path, lambda: ('water',), name='b', y=3,
                       clock_published=lambda: True)]  # the first one's clock bridge
    assert [p.start_gazebo for p in plans] == [True, False]  # the second joins the first
    clocks = [n for p in plans for n in p.nodes if n.name == 'clock_bridge']
    assert len(clocks) == 1 and clocks[0] in plans[0].nodes  # one clock for the world

    def names(plan):
        nodes = {f'{n.namespace}/{n.name}' for n in plan.nodes}
        parameters = [n.parameters for n in plan.nodes]
        topics = {v for p in parameters for k, v in p.items() if k.endswith('_topic')}
        topics |= {e['ros_topic_name'] for e in yaml.safe_load(plan.bridge_file.read_text())}
        assert '/clock' not in topics  # the world's one clock is bridged apart
        topics.discard('/tf')  # shared by design: each vehicle adds its own prefixed frames
        frames = {p.get('frame_prefix') or p.get('frame_id') for p in parameters} - {None}
        namespaces = {n.namespace for n in plan.nodes} - {''}
        return nodes, topics, frames, namespaces

    a, b = names(plans[0]), names(plans[1])
    for mine, theirs in zip(a, b):
        assert mine and theirs and not mine & theirs
    assert a[3] == {'a'} and b[3] == {'b'}
    assert all(t.startswith('/a/') for t in a[1]) and all(f.startswith('a/') for f in a[2])
    assert plans[0].artefact_dir != plans[1].artefact_dir
    assert option(nodes_by_executable(plans[1])['create'][0].arguments, '-name') == 'b'


def test_the_config_is_built_once_per_launch(tmp_path, monkeypatch):
    calls = []
    real = build_module.build_gazebo

    def counting(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(build_module, 'build_gazebo', counting)
    make_plan(tmp_path, rviz='true')
    assert len(calls) == 1


# -- Gazebo: start it or join it ----------------------------------------------------------------

def test_auto_asks_the_detector_once(tmp_path):
    asked = []

    def running():
        asked.append(1)
        return ()

    plan = make_plan(tmp_path, running, gui='false')
    assert asked == [1] and plan.start_gazebo
    assert plan.gz_args == f'-r {paths.default_world()} -s'
    assert plan.gazebo_launch_arguments['gz_args'] == plan.gz_args


def test_a_running_world_is_joined_not_restarted(tmp_path):
    plan = make_plan(tmp_path, lambda: ('harbour',))  # another world runs: spawn into it
    assert not plan.start_gazebo
    assert option(nodes_by_executable(plan)['create'][0].arguments, '-world') == 'harbour'
    assert 'already running' in plan.summary


@pytest.mark.parametrize('mode, start', [('true', True), ('false', False)])
def test_an_explicit_gazebo_choice_asks_nobody(tmp_path, mode, start):
    plan = make_plan(tmp_path, never_asked, gazebo=mode)
    assert plan.start_gazebo is start
    assert plan.gz_args == f'-r {paths.default_world()}'


def test_a_world_file_of_ones_own(tmp_path):
    world = tmp_path / 'lake.sdf'
    world.write_text('<?xml version="1.0"?><sdf version="1.9"><world name="lake"/></sdf>')
    plan = make_plan(tmp_path, world=world)
    assert plan.gz_args == f'-r {world}'
    assert option(nodes_by_executable(plan)['create'][0].arguments, '-world') == 'lake'
    gz_world = make_plan(tmp_path, world='empty.sdf')  # a world gz ships: its name unknown here
    assert gz_world.gz_args == '-r empty.sdf'
    assert '-world' not in nodes_by_executable(gz_world)['create'][0].arguments
    model = tmp_path / 'model.sdf'
    model.write_text('<sdf version="1.9"><model name="m"/></sdf>')
    with pytest.raises(LaunchArgumentError, match='not an SDF world file'):
        make_plan(tmp_path, world=model)


def fake_gz(folder: Path, script: str) -> dict:
    """
    Return an environment with a ``gz`` double on PATH, for the detector.

    The double stands in for the gz command: a shell script with the given body (it answers
    ``gz service -l`` as told); what a real gz lists stays unverified
    (docs/LIMITATIONS.md, "What the test doubles leave unverified").
    """
    folder.mkdir(exist_ok=True)
    gz = folder / 'gz'
    gz.write_text('#!/bin/sh\n' + script)
    gz.chmod(0o755)
    return {'PATH': f'{folder}:/usr/bin:/bin'}


def test_the_detector_reads_the_worlds_gz_serves(tmp_path):
    services = '/gazebo/resource_paths/get\n/world/water/create\n/world/water/control\n' \
               '/world/water/remove\n'
    environ = fake_gz(tmp_path / 'bin', f"[ \"$1 $2\" = 'service -l' ] && printf '{services}'\n")
    assert gazebo_detection.running_gazebo_worlds(environ=environ) == ('water',)
    idle = fake_gz(tmp_path / 'idle', 'exit 0\n')  # gz present, no server: lists nothing
    assert gazebo_detection.running_gazebo_worlds(environ=idle) == ()


def test_the_detector_without_gz_or_with_a_hanging_one(tmp_path):
    assert gazebo_detection.running_gazebo_worlds(environ={'PATH': str(tmp_path)}) == ()
    hanging = fake_gz(tmp_path / 'hang', 'exec sleep 30\n')
    assert gazebo_detection.running_gazebo_worlds(timeout=0.5, environ=hanging) == ()


# -- display.launch.py --------------------------------------------------------------------------

def test_the_display_plan(tmp_path, monkeypatch):
    calls = []
    real = pipeline.resolve_config
    monkeypatch.setattr(pipeline, 'resolve_config',
                        lambda *a, **k: calls.append(a) or real(*a, **k))
    plan = launch_plan.display_plan({'name': 'shown'}, {'ROS_HOME': str(tmp_path)})
    assert len(calls) == 1
    nodes = nodes_by_executable(plan)
    (rsp,) = nodes['robot_state_publisher']
    assert rsp.namespace == 'shown' and rsp.parameters['frame_prefix'] == 'shown/'
    assert plan.use_sim_time is False
    description = rsp.parameters['robot_description']
    assert '<gazebo' not in description and '<robot name="shown"' in description
    # kdl_parser warns about an inertial on the root (ros/kdl_parser 2.11.0, kdl_parser.cpp):
    # the display carries it on a fixed child as the launch's built description does
    published = ElementTree.fromstring(description)
    (base,) = [link for link in published.findall('link') if link.get('name') == 'base_link']
    assert base.find('inertial') is None
    (carrier,) = [link for link in published.findall('link')
                  if link.get('name') == 'base_link_inertia']
    original = ElementTree.fromstring(real(None, name='shown').urdf)
    (mass,) = [link.find('inertial') for link in original.findall('link')
               if link.get('name') == 'base_link']
    assert [(e.tag, e.attrib) for e in carrier.find('inertial').iter()] == \
        [(e.tag, e.attrib) for e in mass.iter()]
    (gui,) = nodes['joint_state_publisher_gui']
    assert gui.namespace == 'shown'
    assert gui.remappings == rsp.remappings == (('joint_states', '/shown/joint_states'),)
    (rviz,) = nodes['rviz2']
    view_file = tmp_path / 'bluerobotics_parts' / 'shown' / 'display.rviz'
    assert rviz.arguments == ('-d', str(view_file))
    view = yaml.safe_load(plan.rviz_file.read_text())['Visualization Manager']
    assert view['Global Options']['Fixed Frame'] == 'shown/base_link'
    assert not [d for d in view['Displays'] if d['Class'].endswith('/Range')]  # no Gazebo


def test_the_display_plan_refuses_a_bad_config_and_writes_nothing(tmp_path):
    config = write_config(tmp_path, BAD_CONFIG)
    with pytest.raises(BlueRoboticsPartsError, match='motor_port'):
        launch_plan.display_plan({'config': str(config)}, {'ROS_HOME': str(tmp_path / 'ros')})
    assert not (tmp_path / 'ros').exists()


def test_the_thrust_allocator_drives_the_vehicle_unless_an_autopilot_does(tmp_path, default):
    _, plan = default
    (allocator,) = nodes_by_executable(plan)['thrust_allocator']
    assert (allocator.package, allocator.namespace, allocator.name) == (
        'bluerobotics_parts', 'blueboat', 'thrust_allocator')
    assert allocator.parameters == {'description': str(plan.urdf_file)}
    off = make_plan(tmp_path / 'off', allocator='false')
    assert 'thrust_allocator' not in nodes_by_executable(off)


def test_teleop_joy_starts_a_gamepad_driving_the_vehicles_cmd_vel(tmp_path, default):
    _, plan = default
    assert not {'game_controller_node', 'teleop_node'} & set(nodes_by_executable(plan))
    joy = make_plan(tmp_path / 'joy', teleop='joy')
    found = nodes_by_executable(joy)
    (pad,), (teleop,) = found['game_controller_node'], found['teleop_node']
    assert (pad.package, pad.namespace) == ('joy', 'blueboat')
    assert (teleop.package, teleop.namespace) == ('teleop_twist_joy', 'blueboat')
    # relative joy and cmd_vel in the namespace: the allocator's /blueboat/cmd_vel
    assert not pad.remappings and not teleop.remappings
    assert teleop.parameters['axis_linear.x'] == 3  # game_controller_node's RIGHTY
    assert teleop.parameters['axis_angular.yaw'] == 0  # LEFTX
    assert teleop.parameters['scale_linear_turbo.x'] == 1.0  # full effort
    with pytest.raises(LaunchArgumentError, match='teleop:=joy drives /<name>/cmd_vel'):
        make_plan(tmp_path / 'no_allocator', teleop='joy', allocator='false')


# -- the artefacts and the launch's build cache never share a folder ------------------------------

@pytest.mark.parametrize('how', ['argument', 'config'])
def test_a_vehicle_named_cache_keeps_apart_from_the_launch_cache(tmp_path, how):
    """name:=cache (or name: cache) once wrote its artefacts into the cache's own folder."""
    from bluerobotics_parts.description import cache

    environ = {'ROS_HOME': str(tmp_path / 'ros'), 'BLUEROBOTICS_PARTS_CACHE': 'on'}
    values = {'gazebo': 'false'}
    if how == 'argument':
        values['name'] = 'cache'
    else:
        values['config'] = str(write_config(tmp_path, 'name: cache\n'))
    first = launch_plan.plan(values, environ, never_asked, converted)
    entries = cache.folder(environ, launch=True)
    assert first.artefact_dir == tmp_path / 'ros' / 'bluerobotics_parts' / 'cache'
    assert entries.parent == first.artefact_dir.parent and entries != first.artefact_dir
    assert sorted(p.name for p in first.artefact_dir.iterdir()) == [
        'bridge.yaml', 'gazebo_model.sdf', 'robot_description.urdf', 'vehicle.rviz']
    assert [p.suffix for p in entries.iterdir()] == ['.json']  # one entry, nothing else
    again = launch_plan.plan(values, environ, never_asked, converted)  # reused: intact
    assert again == first and len(list(entries.iterdir())) == 1
