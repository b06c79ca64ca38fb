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
The underwater world, config/worlds/underwater.sdf.

The water world's sea, 10 m deep, with things on the seabed for the echosounder and the
camera; valid SDFormat; the BlueROV2 launches into it and, run in the headless gz-sim, rises
and surfaces in it as in the open water world.
"""

from __future__ import annotations

import math
from xml.etree import ElementTree

from bluerobotics_parts.assembly.catalogue import shipped
from bluerobotics_parts.build import build_gazebo
from conftest import CONFIG_DIR, REPO, run, tool
import gz_support
from plans import make_plan, nodes_by_executable, option

WORLD = REPO / 'config' / 'worlds' / 'underwater.sdf'
WATER = REPO / 'config' / 'worlds' / 'water.sdf'
SEABED = -10.0


def world(path=WORLD) -> ElementTree.Element:
    return ElementTree.parse(path).getroot().find('world')


def test_it_is_valid_sdformat():
    result = run([tool('ign'), 'sdf', '-k', WORLD])
    assert result.returncode == 0, result.stdout + result.stderr
    assert 'Valid.' in result.stdout


def canonical(element) -> tuple:
    """Return an element's content without layout: tag, attributes, text, children."""
    return (element.tag, sorted(element.attrib.items()), (element.text or '').strip(),
            [canonical(child) for child in element])


def test_it_has_the_water_worlds_sea_and_step():
    """Same physics, systems and graded buoyancy as water.sdf: a vehicle behaves alike."""
    ours, theirs = world(), world(WATER)
    assert canonical(ours.find('physics')) == canonical(theirs.find('physics'))
    assert sorted(canonical(p) for p in ours.findall('plugin')) == \
        sorted(canonical(p) for p in theirs.findall('plugin'))


def _solids(element):
    for model in element.findall('model'):
        pose = model.findtext('pose', '0 0 0 0 0 0')
        x, y, z, roll, pitch, yaw = (float(v) for v in pose.split())
        geometry = model.find('link/collision/geometry')
        if geometry is None:
            continue
        shape = geometry[0]
        if shape.tag == 'box':
            size = [float(v) for v in shape.findtext('size').split()]
            # lowest corner of a box turned by pitch about y (the wreck) and yaw about z
            half = abs(math.sin(pitch)) * size[0] / 2 + abs(math.cos(pitch)) * size[2] / 2
        elif shape.tag == 'cylinder':
            half = float(shape.findtext('length')) / 2
        else:
            half = float(shape.findtext('radius'))
        yield model.get('name'), z - half, z + half


def test_the_seabed_lies_10_m_down_within_the_echosounders_range_and_things_rest_on_it():
    solids = {name: (low, high) for name, low, high in _solids(world())}
    assert math.isclose(solids.pop('seabed')[1], SEABED)
    ping = shipped()['ping_singlebeam'].sensor_sections['echosounder']
    assert ping['range_min'] < -SEABED < ping['range_max']
    for name, (low, high) in solids.items():
        assert low <= SEABED + 0.05, name  # on the seabed, not floating
        assert low >= SEABED - 0.2, name  # not sunk far into it
    assert solids['pile'][1] > 0.0  # the pile breaks the surface
    assert world().find("model[@name='water_surface']/link/collision") is None


def test_the_rov_launches_into_it(tmp_path):
    plan = make_plan(tmp_path, config=CONFIG_DIR / 'bluerov2.yaml', world=WORLD)
    (create,) = nodes_by_executable(plan)['create']
    assert option(create.arguments, '-world') == 'underwater'
    assert float(option(create.arguments, '-z')) == -1.0


def test_the_rov_rises_and_surfaces_in_it(tmp_path, monkeypatch):
    gz_support.require()
    monkeypatch.setattr(gz_support, 'WORLD', WORLD)
    path = tmp_path / 'robot_description.urdf'
    path.write_text(build_gazebo(CONFIG_DIR / 'bluerov2.yaml').urdf, encoding='utf-8')
    trace = gz_support.simulate(path, 25.0, spawn=(0, 0, -1.0, 0, 0, 0))
    end = len(trace.time) - 1
    print(f'\nbluerov2 in underwater.sdf: z {trace.pose[0][2]:+.3f} -> '
          f'{trace.pose[end][2]:+.3f} m in 25 s, roll {trace.angle(end, "r"):+.2f}, '
          f'pitch {trace.angle(end, "p"):+.2f} deg')
    assert trace.pose[end][2] > -0.1
    assert abs(trace.angle(end, 'r')) < 3 and abs(trace.angle(end, 'p')) < 3
