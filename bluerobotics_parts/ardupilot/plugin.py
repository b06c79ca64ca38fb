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
ArduPilot's Gazebo plugin on the vehicle: the ``<gazebo>`` blocks ``build --autopilot`` adds.

The plugin (ArduPilot/ardupilot_gazebo main 082a0fe2, src/ArduPilotPlugin.cc) exchanges JSON
with SITL over UDP in lock-step: it sends the IMU readings and the IMU link's pose and
velocity, SITL answers with its servo PWM. Each propeller's output is a COMMAND control: the
PWM, read from 0 at 1100 us to 1 at 1900 us, plus -0.5 and times twice the installed maximum
thrust, is published in newtons on the thruster's command topic, which its Thruster system
clamps to the installed limits (``UpdateMotorCommands``, ``ApplyMotorForces``). So full
forward gives the maximum; the T200's reverse, weaker than its forward, is reached at
|min| / max of full reverse PWM and stays there (the clamp), where the real ESC keeps rising.
SITL's end (Rover-4.6.2 / ArduSub-4.5.3 libraries/SITL/SIM_JSON.h and SIM_JSON.cpp): 16 PWM
values a packet (magic 18458; 32 with ``have_32_channels``, magic 29569) sent to the port the
plugin listens on, and it requires ``timestamp``, ``imu.gyro``, ``imu.accel_body``,
``position`` and ``velocity`` plus ``attitude`` or ``quaternion`` back (its ``keytable``).
"""

from __future__ import annotations

import math
from xml.etree import ElementTree

from ..gazebo import gz_xml
from ..gazebo.elements import ARDUPILOT_PLUGIN

#: SITL's ports for instance 0; ``-I N`` adds 10 N to each (ArduPilot/ardupilot Rover-4.6.2
#: and ArduSub-4.5.3, libraries/AP_HAL_SITL/SITL_cmdline.cpp: SIM_OUT_PORT 9002, where SITL
#: sends servo packets, and the MAVLink base port 5760, ``_instance * 10``).
FDM_PORT = 9002
MAVLINK_PORT = 5760
#: The PWM range of Blue Robotics' ESCs and ArduSub's motor outputs: 1100 to 1900 us, stopped
#: at 1500 (ArduSub-4.5.3 libraries/AP_Motors/AP_Motors6DOF.h: "Map thrust input -1~1 to pwm
#: output 1100~1900"; AP_Motors6DOF.cpp, calc_thrust_to_pwm).
PWM_MIN, PWM_STOP, PWM_MAX = 1100, 1500, 1900
#: The IMU sensor the plugin reads (its <imuName>).
IMU_NAME = 'ardupilot_imu'
IMU_RATE = 1000.0  # Hz: a reading every physics step
#: The plugin's frame elements, for a REP 103 model (x forward, y left, z up) in an ENU world
#: (the shipped worlds: spherical_coordinates ENU, heading 0). ArduPilotPlugin.cc,
#: CreateStateJSON: "Gazebo world frame is: x-east, y-north, z-up (ENU) ... the correct
#: transform which is <gazeboXYZToNED>0 0 0 GZ_PI 0 GZ_PI/2"; the body default 0 0 0 GZ_PI 0 0
#: turns x forward, y left, z up into x forward, y right, z down.
MODEL_TO_BODY = (0.0, 0.0, 0.0, math.pi, 0.0, 0.0)
WORLD_TO_NED = (0.0, 0.0, 0.0, math.pi, 0.0, math.pi / 2)


def fdm_port(instance: int) -> int:
    return FDM_PORT + 10 * instance


def mavlink_port(instance: int) -> int:
    return MAVLINK_PORT + 10 * instance


def plugin_block(wiring, names, limits: dict, instance: int) -> ElementTree.Element:
    """Return the robot-level ``<gazebo>`` with the plugin, one control per motor output."""
    plugin = gz_xml.plugin(ARDUPILOT_PLUGIN, [
        ('fdm_addr', '127.0.0.1'),
        ('fdm_port_in', fdm_port(instance)),
        ('connectionTimeoutMaxCount', 5),
        ('lock_step', True),
        ('have_32_channels', False),
        ('modelXYZToAirplaneXForwardZDown', MODEL_TO_BODY),
        ('gazeboXYZToNED', WORLD_TO_NED),
        ('imuName', IMU_NAME),
    ])
    topics = {t.instance: t.gz_topic for t in names.thrusters}
    for output in wiring.outputs:
        control = ElementTree.SubElement(plugin, 'control', channel=str(output.channel))
        gz_xml.children(control, [
            ('jointName', output.joint),
            ('type', 'COMMAND'),
            ('cmd_topic', topics[output.thruster]),
            ('servo_min', float(PWM_MIN)),
            ('servo_max', float(PWM_MAX)),
            ('offset', -0.5),
            ('multiplier', round(2.0 * limits[output.thruster].maximum, 6)),
        ])
    return gz_xml.gazebo(plugin)


def imu_block(root_link: str) -> ElementTree.Element:
    """
    Return the IMU the plugin reads, on the root link, turned to ArduPilot's body axes.

    Rolled half a turn, it measures in x forward, y right, z down, as SITL's JSON ``imu``
    wants. No ``<topic>``: the plugin subscribes to the sensor's default topic, its scoped
    name plus ``/imu`` (ArduPilotPlugin.cc, PreUpdate), which is gz-sim's default too.
    """
    sensor = ElementTree.Element('sensor', name=IMU_NAME, type='imu')
    gz_xml.children(sensor, [('pose', '0 0 0 ' + repr(math.pi) + ' 0 0'),
                             ('update_rate', IMU_RATE)])
    return gz_xml.gazebo(sensor, reference=root_link)
