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
The ArduPilot frames a base part may declare (``autopilot: frame:``), as ArduPilot defines them.

Per frame: the firmware and its SITL defaults file, the frame parameters, and each motor
output: its servo, its function and its factors (roll, pitch, yaw, throttle, forward, lateral;
ArduPilot's senses: roll right, pitch up, yaw right, up, forward, right). Sources, at the tags
the package's checks ran: ArduPilot/ardupilot ArduSub-4.5.3 (80e8c23a)
libraries/AP_Motors/AP_Motors6DOF.cpp, ``setup_motors`` (the factor rows) and
ArduSub/Parameters.cpp (FRAME_CONFIG: 1 Vectored, 2 Vectored_6DOF); Rover-4.6.2 (1ebd4d99)
Rover/Parameters.cpp (FRAME_CLASS: 2 Boat), Tools/autotest/default_params/rover-skid.parm
(skid steering: SERVO1 ThrottleLeft, SERVO3 ThrottleRight) and
libraries/AR_Motors/AP_MotorsUGV.cpp, ``output_skid_steering`` (left = throttle + steering,
right = throttle - steering: the rover's factors); libraries/SRV_Channel/SRV_Channel.h at both
tags (Motor1..8 = 33..40, ThrottleLeft = 73, ThrottleRight = 74).
"""

from __future__ import annotations

from dataclasses import dataclass

#: ArduPilot's axes, in the order of AP_Motors6DOF's factor columns.
AXES = ('roll', 'pitch', 'yaw', 'throttle', 'forward', 'lateral')
#: ArduSub scales the pilot's sticks by its gain, half at boot: full forward stick asks half the
#: forward thrust (ArduSub-4.5.3 ArduSub/Parameters.cpp, GSCALAR(gain_default,
#: "JS_GAIN_DEFAULT", 0.5); ArduSub/joystick.cpp, "rpyScale = 0.4*gain").
ARDUSUB_PILOT_GAIN = 0.5


@dataclass(frozen=True)
class Motor:
    """One motor output of a frame."""

    servo: int  # SERVOn, from 1
    function: int  # SERVOn_FUNCTION
    function_name: str
    factors: tuple  # per AXES: the sign of what a positive output does on that axis


@dataclass(frozen=True)
class AutopilotFrame:
    name: str  # what a base part's ``autopilot: frame:`` says
    firmware: str  # the SITL binary: ardusub or ardurover
    title: str  # how messages and info name it
    defaults: str  # ArduPilot's SITL defaults for the vehicle (Tools/autotest/default_params)
    parameters: tuple  # (name, value): the frame's own parameters
    motors: tuple  # of Motor


def _sub_motors(rows: dict) -> tuple:
    return tuple(Motor(n, 32 + n, f'Motor{n}', factors) for n, factors in rows.items())


FRAMES = {frame.name: frame for frame in (
    AutopilotFrame(
        'ardusub_vectored', 'ardusub', 'ArduSub Vectored (FRAME_CONFIG 1)', 'sub.parm',
        (('FRAME_CONFIG', 1),),
        _sub_motors({1: (0, 0, 1, 0, -1, 1), 2: (0, 0, -1, 0, -1, -1),
                     3: (0, 0, -1, 0, 1, 1), 4: (0, 0, 1, 0, 1, -1),
                     5: (1, 0, 0, -1, 0, 0), 6: (-1, 0, 0, -1, 0, 0)})),
    AutopilotFrame(
        'ardusub_vectored_6dof', 'ardusub', 'ArduSub Vectored_6DOF (FRAME_CONFIG 2)',
        'sub.parm', (('FRAME_CONFIG', 2),),
        _sub_motors({1: (0, 0, 1, 0, -1, 1), 2: (0, 0, -1, 0, -1, -1),
                     3: (0, 0, -1, 0, 1, 1), 4: (0, 0, 1, 0, 1, -1),
                     5: (1, -1, 0, -1, 0, 0), 6: (-1, -1, 0, -1, 0, 0),
                     7: (1, 1, 0, -1, 0, 0), 8: (-1, 1, 0, -1, 0, 0)})),
    AutopilotFrame(
        'ardurover_boat_skid_steering', 'ardurover',
        'ArduRover boat with skid steering (FRAME_CLASS 2)', 'rover.parm',
        (('FRAME_CLASS', 2),),
        (Motor(1, 73, 'ThrottleLeft', (0, 0, 1, 0, 1, 0)),
         Motor(3, 74, 'ThrottleRight', (0, 0, -1, 0, 1, 0)))),
)}
