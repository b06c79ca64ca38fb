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
The Water Linked DVL A50: gz-sensors 8's DVL, bridged as marine_acoustic_msgs.

The block against what DopplerVelocityLog.cc reads (elements.DVL_SENSOR), its beams from the
part data, the bridge pair (gazebo/bridge.py cites ros_gz's), the ``gz:`` prefix declared for
XML readers, and SDFormat 14 loading it as a custom sensor where Gazebo is installed. Running
it needs a render engine, which the headless Gazebo of these tests lacks (docs/LIMITATIONS.md,
"Sensors").
"""

from __future__ import annotations

import math
from xml.etree import ElementTree

from bluerobotics_parts.build import build_gazebo
from bluerobotics_parts.gazebo import elements, gz_xml
from bluerobotics_parts.gazebo.spawned_model import gazebo_sdf
from bluerobotics_parts.model.vehicle import Vehicle
from conftest import CONFIG_DIR
import gz_support
import pytest
import yaml


@pytest.fixture(scope='module')
def payload():
    return build_gazebo(CONFIG_DIR / 'examples' / 'bluerov2_payload.yaml')


def dvl_sensor(urdf: str):
    root = ElementTree.fromstring(urdf)  # needs the gz: prefix declared
    (sensor,) = [s for s in root.iter('sensor') if s.get('name') == 'dvl_velocity']
    return sensor


def test_the_dvl_block_is_what_gz_sensors_reads(payload):
    sensor = dvl_sensor(payload.urdf)
    assert sensor.get('type') == 'custom'
    assert sensor.get(f'{{{gz_xml.GZ_NAMESPACE}}}type') == 'dvl'
    assert elements.unread(sensor) == []
    assert sensor.findtext('topic') == '/bluerov2/dvl/velocity'
    dvl = sensor.find(f'{{{gz_xml.GZ_NAMESPACE}}}dvl')
    beams = dvl.findall('arrangement/beam')
    assert dvl.find('arrangement').get('degrees') == 'false'  # radians
    assert len(beams) == 4
    assert [float(b.findtext('tilt')) for b in beams] == pytest.approx([math.radians(22.5)] * 4)
    rotations = sorted(math.degrees(float(b.findtext('rotation'))) for b in beams)
    assert rotations == pytest.approx([45, 135, 225, 315])
    assert float(beams[0].findtext('aperture')) == pytest.approx(math.radians(4.4))
    assert (float(dvl.findtext('minimum_range')), float(dvl.findtext('maximum_range'))) == (
        0.05, 50.0)  # Water Linked: 5 cm to 50 m


def test_the_dvl_is_on_the_skid_pointing_aft_and_bridged(payload):
    vehicle = Vehicle.from_urdf(payload.urdf)
    assert vehicle.joints['dvl_joint'].parent == 'payload_dvl'
    assert vehicle.joints['payload_dvl_joint'].rpy == pytest.approx((0.0, 0.0, math.pi))
    (entry,) = [e for e in yaml.safe_load(payload.bridge_yaml)
                if e['ros_topic_name'] == '/bluerov2/dvl/velocity']
    assert (entry['ros_type_name'], entry['gz_type_name'], entry['direction']) == (
        'marine_acoustic_msgs/msg/Dvl', 'gz.msgs.DVLVelocityTracking', 'GZ_TO_ROS')


def test_sdformat14_loads_it_as_a_custom_sensor(payload):
    gz_support.require()
    sdf_text = gazebo_sdf(payload.urdf)
    sdformat14 = gz_support.sdformat14()
    root = sdformat14.Root()
    root.load_sdf_string(sdf_text)
    model = root.model()
    found = {}
    for index in range(model.link_count()):
        link = model.link_by_index(index)
        for number in range(link.sensor_count()):
            sensor = link.sensor_by_index(number)
            found[sensor.name()] = sensor.type()
    assert found['dvl_velocity'] == sdformat14.Sensortype.CUSTOM
    converted = gz_xml.fromstring(sdf_text)
    (sensor,) = [s for s in converted.iter('sensor') if s.get('name') == 'dvl_velocity']
    assert len(sensor.findall(f'{{{gz_xml.GZ_NAMESPACE}}}dvl/arrangement/beam')) == 4
