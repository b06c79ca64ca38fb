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
velocity, SITL answers with its servo PWM. Each propeller's output is a COMMAND control
(``UpdateMotorCommands``, ``ApplyMotorForces``): the plugin maps a PWM linearly, read from 0 at
1100 us to 1 at 1900 us, plus ``offset``, times ``multiplier``. A propeller with a published
thrust curve gets its PWM itself (offset 1.375, multiplier 800: 1100 to 1900 us) on
``/<vehicle>/<instance>/pwm``, which the ESC system (``esc_block``, gazebo/esc_system.py)
turns into the curve's installed thrust at the battery's voltage, dead band and asymmetry
included, for its Thruster. One without a curve keeps the linear map: plus -0.5, times twice
the installed maximum, in newtons on the Thruster's topic, which clamps it to its limits.
SITL's end (Rover-4.6.2 / ArduSub-4.5.3 libraries/SITL/SIM_JSON.h and SIM_JSON.cpp): 16 PWM
values a packet (magic 18458; 32 with ``have_32_channels``, magic 29569) sent to the port the
plugin listens on, and it requires ``timestamp``, ``imu.gyro``, ``imu.accel_body``,
``position`` and ``velocity`` plus ``attitude`` or ``quaternion`` back (its ``keytable``).
"""

from __future__ import annotations

import math
from xml.etree import ElementTree

from ..gazebo import gz_xml
from ..gazebo.elements import ARDUPILOT_PLUGIN, ESC_SYSTEM

#: The ESC system's module, as gz-sim's Python loader imports it.
ESC_MODULE = 'bluerobotics_parts.gazebo.esc_system'
#: How a propeller's PWM becomes thrust: its published curve through the ESC system, or the
#: plugin's linear map (for a Gazebo whose Python cannot run the ESC system).
ESC_MODES = ('curve', 'linear')

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


#: A PWM control's map: multiplier x ((pwm - 1100) / 800 + offset) is the PWM in us.
PWM_MULTIPLIER = float(PWM_MAX - PWM_MIN)
PWM_OFFSET = PWM_MIN / (PWM_MAX - PWM_MIN)


def pwm_topic(thruster) -> str:
    """Return the gz topic a propeller's PWM is published on: /<vehicle>/<instance>/pwm."""
    return f'/{thruster.namespace}/{thruster.instance}/pwm'


def plugin_block(wiring, names, limits: dict, instance: int,
                 curves: dict | None = None) -> ElementTree.Element:
    """
    Return the robot-level ``<gazebo>`` with the plugin, one control per motor output.

    ``curves``: instance -> (PWM, thrust) rows of the propellers an ESC system drives
    (``esc_block``); their controls publish the PWM, the others newtons.
    """
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
    thrusters = {t.instance: t for t in names.thrusters}
    curves = curves or {}
    for output in wiring.outputs:
        thruster = thrusters[output.thruster]
        if output.thruster in curves:
            topic, offset, multiplier = pwm_topic(thruster), PWM_OFFSET, PWM_MULTIPLIER
        else:
            topic, offset = thruster.gz_topic, -0.5
            multiplier = round(2.0 * limits[output.thruster].maximum, 6)
        control = ElementTree.SubElement(plugin, 'control', channel=str(output.channel))
        gz_xml.children(control, [
            ('jointName', output.joint),
            ('type', 'COMMAND'),
            ('cmd_topic', topic),
            ('servo_min', float(PWM_MIN)),
            ('servo_max', float(PWM_MAX)),
            ('offset', offset),
            ('multiplier', multiplier),
        ])
    return gz_xml.gazebo(plugin)


def esc_block(wiring, names, curves: dict) -> ElementTree.Element | None:
    """
    Return the robot-level ``<gazebo>`` with the ESC system, an ``<esc>`` per curved output.

    None when no output has a curve.
    """
    thrusters = {t.instance: t for t in names.thrusters}
    escs = [output.thruster for output in wiring.outputs if output.thruster in curves]
    if not escs:
        return None
    plugin = gz_xml.plugin(ESC_SYSTEM, [('module_name', ESC_MODULE)])
    for instance in escs:
        pwm, thrust = curves[instance]
        esc = ElementTree.SubElement(plugin, 'esc')
        gz_xml.children(esc, [
            ('pwm_topic', pwm_topic(thrusters[instance])),
            ('thrust_topic', thrusters[instance].gz_topic),
            ('pwm_us', ' '.join(f'{p:g}' for p in pwm)),
            ('thrust_n', ' '.join(f'{t:.4f}' for t in thrust)),
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
