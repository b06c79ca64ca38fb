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
What one newton of command on each propeller does to the vehicle: force and moment.

gz's Thruster pushes with the commanded thrust along its joint's axis, at the joint's child
link (gazebosim/gz-sim gz-sim8_8.14.0, src/systems/thruster/Thruster.cc, ``Thruster::PreUpdate``:
``unitVector = jointWorldPose.Rot().RotateVector(jointAxis)``, then ``AddWorldWrench(unitVector
* desiredThrust, ...)``); the coefficient's sign only sets the spin sense. So a positive
command gives a force along the joint axis at its origin, and a moment about the centre of
mass. The record's geometry is Gazebo's, so this is what the simulated vehicle feels.
"""

from __future__ import annotations

from dataclasses import dataclass

from .stability import mass_properties
from ..formats.autopilot_frames import AXES
from ..model import kinematics


@dataclass(frozen=True)
class ThrusterEffect:
    """The wrench of +1 N of command on one propeller, root link axes (REP 103)."""

    name: str  # the propeller instance
    joint: str
    force: tuple  # N per N: its joint axis
    moment: tuple  # N m per N, about the vehicle's centre of mass (or the point asked for)

    @property
    def ardupilot(self) -> dict:
        """
        Return the same in ArduPilot's axes and senses (AXES).

        ArduPilot's body frame is x forward, y right, z down; its senses: roll right, pitch
        up, yaw right, throttle up, forward, lateral right. From REP 103 (x forward, y left,
        z up): roll = Mx, pitch = -My, yaw = -Mz, throttle = Fz, forward = Fx, lateral = -Fy.
        """
        f, m = self.force, self.moment
        return dict(zip(AXES, (m[0], -m[1], -m[2], f[2], f[0], -f[1])))


def effects(vehicle, about=None) -> dict[str, ThrusterEffect]:
    """
    Return every propeller's effect, by instance, in the vehicle's actuator order.

    Moments about ``about`` (x, y, z in the root link), by default the centre of mass.
    """
    poses = kinematics.link_poses(vehicle)
    centre = mass_properties(vehicle, poses).centre if about is None else about
    found = {}
    for name, actuator in vehicle.actuators.items():
        if actuator.joint is None:  # a base propeller: no joint to push along
            continue
        origin, axis = kinematics.joint_frame(vehicle, poses, actuator.joint)
        arm = [o - c for o, c in zip(origin, centre)]
        moment = (arm[1] * axis[2] - arm[2] * axis[1], arm[2] * axis[0] - arm[0] * axis[2],
                  arm[0] * axis[1] - arm[1] * axis[0])
        found[name] = ThrusterEffect(name, actuator.joint, tuple(axis), moment)
    return found
