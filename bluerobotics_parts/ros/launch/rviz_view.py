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
The RViz view of one vehicle: the shipped config/rviz/vehicle.rviz with this vehicle's names.

Regenerated at every launch into the vehicle's artefact folder: fixed frame, the description
topic of its robot_state_publisher, its TF prefix, and the displays of its sensors.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from ... import paths
from ...formats.sensor_kinds import KINDS
from ...model import topics


def rviz_template() -> Path:
    """Return the shipped view every vehicle's view starts from."""
    return paths.config_dir() / 'rviz' / 'vehicle.rviz'


def vehicle_rviz(names, sensors=(), fixed_frame: str | None = None) -> str:
    """
    Return the shipped RViz view with this vehicle's names.

    Fixed frame (default the base link; the odometry frame with Gazebo, so the vehicle is seen
    to move), description topic, TF prefix, and the displays of ``sensors`` (SensorTopics):
    per sensor, one per display its registry entry names (sensors.KINDS ``rviz``). A display
    class the shipped view has (the Range) is copied from it; any other gets
    ``sensor_display``. rviz_default_plugins (ros2/rviz jazzy) has no display for Imu,
    MagneticField or NavSatFix, so those sensors get none.
    """
    document = yaml.safe_load(rviz_template().read_text(encoding='utf-8'))
    manager = document['Visualization Manager']
    manager['Global Options']['Fixed Frame'] = fixed_frame or names.base_frame
    # The camera orbits the vehicle wherever it goes (a boat away from the origin, an ROV down).
    manager['Views']['Current']['Target Frame'] = names.base_frame
    displays, templates = [], {}
    for display in manager['Displays']:
        kind = display.get('Class', '')
        if kind.endswith('/RobotModel'):
            # robot_state_publisher in namespace <name> publishes <name>/robot_description
            display['Description Topic']['Value'] = f'/{names.name}/robot_description'
            display['TF Prefix'] = topics.frame_id(names.name, '').rstrip('/')
        if kind in SENSOR_TEMPLATES:
            templates[kind] = display
            continue
        displays.append(display)
    for sensor in sensors:
        for kind, what in KINDS[sensor.kind].rviz:
            display = yaml.safe_load(yaml.safe_dump(templates[kind])) if kind in templates \
                else sensor_display(kind)
            display['Name'] = f'{sensor.instance} {what}'
            display['Topic']['Value'] = sensor.ros[what]
            displays.append(display)
    manager['Displays'] = displays
    header = (f'# RViz view of vehicle {names.name}, written by bluerobotics_parts from '
              f'config/rviz/vehicle.rviz; regenerated at every launch.\n')
    return header + yaml.safe_dump(document, sort_keys=False, default_flow_style=False)


# Displays of the shipped view that are templates for sensors, not displays of their own.
SENSOR_TEMPLATES = ('rviz_default_plugins/Range',)


def sensor_display(kind: str) -> dict:
    """Return an enabled display of class ``kind`` on a sensor topic (best effort, depth 5)."""
    return {'Class': kind, 'Enabled': True, 'Name': '',
            'Topic': {'Depth': 5, 'Durability Policy': 'Volatile',
                      'History Policy': 'Keep Last', 'Reliability Policy': 'Best Effort',
                      'Value': ''},
            'Value': True}
