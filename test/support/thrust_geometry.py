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


"""What 1 N on a thruster does, computed with numpy: the tests' own, apart from the package."""

from __future__ import annotations

from bluerobotics_parts.model import kinematics
from bluerobotics_parts.model.vehicle import Vehicle
import numpy as np

AXES = ('roll', 'pitch', 'yaw', 'throttle', 'forward', 'lateral')


def centre_of_mass(vehicle: Vehicle, poses: dict) -> np.ndarray:
    moments = sum(link.mass * np.array(poses[name].apply(link.com))
                  for name, link in vehicle.links.items())
    return moments / vehicle.total_mass


def ardusub_effect(vehicle: Vehicle, thruster: str) -> dict:
    """
    Return what 1 N of positive command on a thruster does, in ArduSub's axes and senses.

    ArduSub's senses (NED body frame) are roll right, pitch up, yaw right (clockwise seen from
    above), throttle up, forward, lateral right; a motor's positive command is the one its
    factors multiply. gz's Thruster pushes with the commanded thrust along its joint's axis, at
    the joint's child link (gz-sim tag gz-sim8_8.14.0, src/systems/thruster/Thruster.cc,
    ``Thruster::PreUpdate``: ``unitVector = jointWorldPose.Rot().RotateVector(jointAxis)``, then
    ``link.AddWorldWrench(_ecm, unitVector * desiredThrust, unitVector * torque)``); the
    coefficient's sign only sets the spin sense (``ThrustToAngularVec``). So a positive command
    on thruster n gives a force along its joint axis at its joint origin, and a moment about the
    vehicle's centre of mass. In REP 103 axes (x forward, y left, z up) ArduSub's senses are
    forward = Fx, lateral = -Fy, throttle = Fz, roll = Mx, pitch = -My, yaw = -Mz.
    """
    poses = kinematics.link_poses(vehicle)
    origin, axis = kinematics.joint_frame(vehicle, poses, vehicle.actuators[thruster].joint)
    force = np.array(axis)
    moment = np.cross(np.array(origin) - centre_of_mass(vehicle, poses), force)
    return dict(zip(AXES, (moment[0], -moment[1], -moment[2], force[2], force[0], -force[1])))
