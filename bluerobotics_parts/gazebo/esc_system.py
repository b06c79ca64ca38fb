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
The ESCs between ArduPilot's plugin and the Thrusters: PWM in, the propeller's thrust out.

ArduPilot's Gazebo plugin can only map a PWM linearly onto a command (ArduPilot/ardupilot_gazebo
082a0fe2, src/ArduPilotPlugin.cc: ``multiplier * (raw_cmd + offset)``), while a T200 or M200
behind Blue Robotics' ESC has a dead band around 1500 us and a curved, asymmetric response
(urdf/thrust_curves/). So the plugin publishes the PWM itself (in us) and this system turns
each into the installed thrust of the propeller's published curve at the vehicle's battery
voltage, which the composition tabulates into its SDF (ardupilot/plugin.py, ``esc_block``),
and publishes it to that propeller's Thruster. Between the tabled points it interpolates
linearly (as physics/thrust_curves.py reads the maker's tables); outside them it holds the end.

A gz-sim Python system (gz-sim 8's PythonSystemLoader: ``<module_name>`` names this module,
which must define ``get_system``; src/systems/python_system_loader/PythonSystemLoader.cc at
gz-sim8_8.14.0). It runs inside the server and imports only the standard library and
Gazebo's own Python modules, so the package's other modules never load into Gazebo.
"""

from __future__ import annotations

from bisect import bisect_right
from xml.etree import ElementTree


def interpolate(pwm: float, table: tuple) -> float:
    """Return the thrust at ``pwm`` from (pwm ascending, thrust) rows, held at the ends."""
    points, values = table
    if pwm != pwm:  # NaN: no command
        return 0.0
    if pwm <= points[0]:
        return values[0]
    if pwm >= points[-1]:
        return values[-1]
    index = bisect_right(points, pwm)
    low, high = points[index - 1], points[index]
    weight = (pwm - low) / (high - low)
    return values[index - 1] + weight * (values[index] - values[index - 1])


def read_escs(plugin_xml: str) -> list:
    """
    Return (pwm topic, thrust topic, table) per ``<esc>`` of the system's SDF text.

    ValueError names what is wrong (the composition writes these; a hand-made SDF may not).
    """
    escs = []
    for esc in ElementTree.fromstring(plugin_xml).iter('esc'):
        source, target = esc.findtext('pwm_topic', ''), esc.findtext('thrust_topic', '')
        points = tuple(float(v) for v in esc.findtext('pwm_us', '').split())
        values = tuple(float(v) for v in esc.findtext('thrust_n', '').split())
        if not (source and target and len(points) >= 2 and len(points) == len(values)
                and all(a < b for a, b in zip(points, points[1:]))):
            raise ValueError(f'esc {source or "?"} -> {target or "?"}: needs <pwm_topic>, '
                             '<thrust_topic> and as many ascending <pwm_us> as <thrust_n>')
        escs.append((source, target, (points, values)))
    return escs


class EscSystem:
    """Relays each PWM the autopilot's plugin publishes as its propeller's thrust."""

    def __init__(self):
        self.node = None
        self.publishers = []

    def configure(self, entity, sdf, ecm, event_manager):
        from gz.msgs10.double_pb2 import Double
        import gz.transport13 as transport

        self.node = transport.Node()
        for source, target, table in read_escs(sdf.to_string('')):
            publisher = self.node.advertise(target, Double)
            self.publishers.append(publisher)

            def relay(message, publisher=publisher, table=table):
                thrust = Double()
                thrust.data = interpolate(message.data, table)
                publisher.publish(thrust)

            if not self.node.subscribe(Double, source, relay):
                raise RuntimeError(f'esc system: cannot subscribe to {source}')


def get_system():
    """Return the system (PythonSystemLoader's entry point)."""
    return EscSystem()
