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
A world's water follows the vehicle's: gazebo/worlds.py, and the launch plans that use it.

A config that says ``water: fresh`` is launched into a world whose Buoyancy has fresh water
(the shipped world written again beside the artefacts); ``world.launch.py water:=fresh`` does
the same for a world of its own; without a water nothing changes.
"""

from __future__ import annotations

from xml.etree import ElementTree

from bluerobotics_parts.errors import ConfigError
from bluerobotics_parts.gazebo.worlds import with_water, world_water
from bluerobotics_parts.paths import config_dir, default_world
from bluerobotics_parts.ros.launch import plan as launch_plan
from conftest import write_config
from plans import make_plan
import pytest

WORLDS = sorted((config_dir() / 'worlds').glob('*.sdf'))


@pytest.mark.parametrize('world', WORLDS, ids=[w.stem for w in WORLDS])
def test_a_shipped_world_is_sea_water_and_takes_another(world):
    text = world.read_text(encoding='utf-8')
    assert world_water(text) == 1025.0
    fresh = with_water(text, 997.0)
    assert world_water(fresh) == 997.0
    old, new = ElementTree.fromstring(text), ElementTree.fromstring(fresh)
    assert new.find('world').get('name') == old.find('world').get('name')
    assert len(list(new.iter())) == len(list(old.iter()))  # nothing else left out
    assert 'Buoyancy water at 997 kg/m^3' in fresh


def test_a_world_without_buoyancy_is_refused_by_name():
    with pytest.raises(ConfigError, match='the world has no gz::sim::systems::Buoyancy system'):
        with_water('<sdf version="1.9"><world name="w"/></sdf>', 997.0)


def test_a_fresh_water_vehicle_launches_into_a_fresh_water_world(tmp_path):
    config = write_config(tmp_path, 'name: rov\nbase: {type: bluerov2_frame}\nwater: fresh\n')
    plan = make_plan(tmp_path / 'ros', config=config, gui='false')
    written = plan.artefact_dir / 'world.sdf'
    assert plan.gz_args == f'-r {written} -s'
    assert world_water(written.read_text(encoding='utf-8')) == 997.0
    assert f'world water in fresh water (997 kg/m^3) ({written})' in plan.summary
    joining = make_plan(tmp_path / 'ros2', config=config, gui='false',
                        gazebo_running=lambda: ('water',))
    assert 'the running world keeps its own water; this vehicle is built for fresh water ' \
        '(997 kg/m^3)' in joining.summary


def test_without_a_water_the_launch_starts_the_shipped_world(tmp_path):
    plan = make_plan(tmp_path, gui='false')
    assert plan.gz_args == f'-r {default_world()} -s'
    assert not (plan.artefact_dir / 'world.sdf').exists()
    assert 'world water in' not in plan.summary and 'its own water' not in plan.summary


def test_the_world_launch_takes_a_water(tmp_path):
    environ = {'ROS_HOME': str(tmp_path), 'HOME': str(tmp_path)}
    plan = launch_plan.world_plan({'gui': 'false', 'water': 'fresh'}, environ)
    written = tmp_path / 'bluerobotics_parts' / '_worlds' / 'water_997.sdf'
    assert plan.gz_args == f'-r {written} -s'
    assert world_water(written.read_text(encoding='utf-8')) == 997.0
    assert launch_plan.world_plan({'gui': 'false'}, environ).gz_args == \
        f'-r {default_world()} -s'
    with pytest.raises(Exception, match=r"launch argument water:='brine': must be sea"):
        launch_plan.world_plan({'water': 'brine'}, environ)
