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
The launch logic on the BlueROV2 configs.

Spawned below the surface (or where z says), thrust topics /<name>/thruster_<n>/thrust in the
bridge, an RViz view that follows the vehicle, the echosounder's converter once a sonar is
fitted; and both launch files on them unchanged (those need launch_ros and import-skip without
it, as test_launch_files.py does).
"""

from __future__ import annotations

from pathlib import Path

from bluerobotics_parts.errors import LaunchArgumentError
from bluerobotics_parts.ros.launch import plan as launch_plan
from conftest import CONFIG_DIR, write_config
from plans import make_plan, nodes_by_executable, option
import pytest
from test_launch_files import load, nodes, prefix, ros_launch, visit  # noqa: F401 (fixtures)
from test_launch_runs import BRIDGE, CREATE, only, RSP, RVIZ, shut_down, vehicle
import yaml

ROVS = {'bluerov2.yaml': ('bluerov2', 6), 'bluerov2_heavy.yaml': ('bluerov2_heavy', 8)}


@pytest.fixture(scope='module', params=sorted(ROVS))
def rov_plan(request, tmp_path_factory):
    ros_home = tmp_path_factory.mktemp('ros_home')
    return request.param, make_plan(ros_home, config=CONFIG_DIR / request.param, rviz='true')


def spawn_z(plan) -> float:
    (create,) = nodes_by_executable(plan)['create']
    return float(option(create.arguments, '-z'))


def test_an_rov_spawns_1_m_below_the_surface_by_default(rov_plan):
    _, plan = rov_plan
    assert spawn_z(plan) == -1.0


def test_z_places_it_at_another_depth_and_a_boat_still_floats_at_zero(tmp_path):
    deeper = make_plan(tmp_path / 'a', config=CONFIG_DIR / 'bluerov2.yaml', z='-3.5')
    assert spawn_z(deeper) == -3.5
    assert spawn_z(make_plan(tmp_path / 'b')) == 0.0  # the BlueBoat, z:=auto
    assert spawn_z(make_plan(tmp_path / 'c', z='AUTO')) == 0.0


def test_a_bad_z_names_the_argument(tmp_path):
    with pytest.raises(LaunchArgumentError) as caught:
        make_plan(tmp_path, config=CONFIG_DIR / 'bluerov2.yaml', z='deep')
    assert "launch argument z:='deep' is not a finite number" in str(caught.value)
    assert not (tmp_path / 'bluerobotics_parts').exists()


def test_the_bridge_carries_one_thrust_topic_per_thruster(rov_plan):
    config, plan = rov_plan
    name, count = ROVS[config]
    entries = yaml.safe_load(plan.bridge_file.read_text())
    thrust = sorted(e['ros_topic_name'] for e in entries
                    if e['ros_topic_name'].endswith('/thrust'))
    assert thrust == sorted(f'/{name}/thruster_{n}/thrust' for n in range(1, count + 1))
    for entry in entries:
        if entry['ros_topic_name'].endswith('/thrust'):
            assert entry['gz_topic_name'] == entry['ros_topic_name']
            assert (entry['ros_type_name'], entry['gz_type_name'], entry['direction']) == (
                'std_msgs/msg/Float64', 'gz.msgs.Double', 'ROS_TO_GZ')


def test_the_rviz_view_follows_the_rov(rov_plan):
    config, plan = rov_plan
    name, _ = ROVS[config]
    manager = yaml.safe_load(plan.rviz_file.read_text())['Visualization Manager']
    assert manager['Global Options']['Fixed Frame'] == f'{name}/odom'
    assert manager['Views']['Current']['Target Frame'] == f'{name}/base_link'
    (model,) = [d for d in manager['Displays'] if d['Class'].endswith('/RobotModel')]
    assert model['Description Topic']['Value'] == f'/{name}/robot_description'
    assert model['TF Prefix'] == name
    assert not [d for d in manager['Displays'] if d['Class'].endswith('/Range')]  # no sonar
    assert 'scan_to_range' not in nodes_by_executable(plan)


def test_a_fitted_sonar_gets_its_converter_and_range_display(tmp_path):
    config = write_config(tmp_path, 'name: rov1\nbase: {type: bluerov2_frame}\nparts:\n'
                          '  - {slot: sonar, type: ping_singlebeam}\n', 'rov1.yaml')
    plan = make_plan(tmp_path / 'home', config=config, rviz='true')
    (converter,) = nodes_by_executable(plan)['scan_to_range']
    assert converter.parameters['range_topic'] == '/rov1/sonar/range'
    assert converter.parameters['frame_id'] == 'rov1/sonar_beam'
    manager = yaml.safe_load(plan.rviz_file.read_text())['Visualization Manager']
    assert [d['Topic']['Value'] for d in manager['Displays']
            if d['Class'].endswith('/Range')] == ['/rov1/sonar/range']


def test_the_display_plan_shows_an_rov(tmp_path):
    plan = launch_plan.display_plan({'config': str(CONFIG_DIR / 'bluerov2_heavy.yaml')},
                                    {'ROS_HOME': str(tmp_path), 'HOME': str(tmp_path)})
    assert plan.name == 'bluerov2_heavy'
    assert Path(plan.rviz_file).is_file()
    (rsp,) = [n for n in plan.nodes if n.executable == 'robot_state_publisher']
    assert rsp.namespace == 'bluerov2_heavy'
    assert 'type="bluerov2_heavy_frame"' in rsp.parameters['robot_description']


@pytest.mark.parametrize('config', sorted(ROVS))
def test_vehicle_launch_on_an_rov_config(ros_launch, tmp_path, monkeypatch, config):  # noqa: F811
    monkeypatch.setenv('ROS_HOME', str(tmp_path))
    actions = visit(load('vehicle.launch.py'), {'config': str(CONFIG_DIR / config),
                                                'gazebo': 'false'})
    assert ('ros_gz_sim', 'create') in nodes(actions)
    assert (tmp_path / 'bluerobotics_parts' / ROVS[config][0] / 'bridge.yaml').is_file()


@pytest.mark.parametrize('config', sorted(ROVS))
def test_display_launch_on_an_rov_config(ros_launch, tmp_path, monkeypatch, config):  # noqa: F811
    monkeypatch.setenv('ROS_HOME', str(tmp_path))
    actions = visit(load('display.launch.py'), {'config': str(CONFIG_DIR / config)})
    assert ('robot_state_publisher', 'robot_state_publisher') in nodes(actions)


@pytest.mark.parametrize('config', sorted(ROVS))
def test_ros2_launch_spawns_the_rov_1_m_down(prefix, tmp_path, config):  # noqa: F811
    """
    Run ``ros2 launch bluerobotics_parts vehicle.launch.py config:=...`` for real.

    The launch stack is real; the programs it starts are fronted by the recorders that record
    their command lines and parameter files (test/support/ros_support.py; where a double stands in,
    what the real program would do stays unverified, docs/LIMITATIONS.md).
    """
    name, count = ROVS[config]
    run = vehicle(tmp_path, prefix, f'config:={CONFIG_DIR / config}', 'gazebo:=false',
                  'rviz:=true')
    try:
        records = run.wait_for([RSP, BRIDGE, CREATE, RVIZ])
    finally:
        shut_down(run)
    folder = tmp_path / 'ros_home' / 'bluerobotics_parts' / name
    arguments = only(records, 'create')['user_arguments']
    assert arguments[arguments.index('-name') + 1] == name
    assert arguments[arguments.index('-z') + 1] == '-1.0'
    rsp = only(records, 'robot_state_publisher')
    assert (rsp['namespace'], rsp['parameters']['frame_prefix']) == (f'/{name}', f'{name}/')
    bridge = only(records, 'parameter_bridge')
    entries = yaml.safe_load(bridge['files'][str(folder / 'bridge.yaml')])
    assert sorted(e['ros_topic_name'] for e in entries if e['ros_topic_name'].endswith(
        '/thrust')) == sorted(f'/{name}/thruster_{n}/thrust' for n in range(1, count + 1))
    view_file = str(folder / 'vehicle.rviz')
    view = yaml.safe_load(only(records, 'rviz2')['files'][view_file])['Visualization Manager']
    assert view['Views']['Current']['Target Frame'] == f'{name}/base_link'
