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
Forward kinematics of a URDF at rest: where every link frame sits in the root link's frame.

The hydrostatic check needs collision geometry in one frame, and the tests compare Gazebo's
lumped sensor poses with the URDF frames, so this is the one implementation of URDF's pose
rules, in plain Python (no numpy at run time): ``rpy`` is roll about x, then pitch about y, then
yaw about z, all about the *fixed* axes: R = Rz(yaw) Ry(pitch) Rx(roll) (URDF spec,
``<origin rpy>``); at rest (every joint at zero) a joint's origin alone places its child link.
"""

from __future__ import annotations

from dataclasses import dataclass
import math

IDENTITY = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def rpy_matrix(rpy) -> tuple:
    """Return the rotation matrix (rows) of URDF roll-pitch-yaw angles in radians."""
    roll, pitch, yaw = (float(v) for v in rpy)
    cr, sr = math.cos(roll), math.sin(roll)
    cp, sp = math.cos(pitch), math.sin(pitch)
    cy, sy = math.cos(yaw), math.sin(yaw)
    return ((cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr),
            (sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr),
            (-sp, cp * sr, cp * cr))


def matrix_rpy(matrix) -> tuple:
    """
    Return the roll-pitch-yaw of a rotation matrix (the inverse of ``rpy_matrix``).

    Pitch is in [-pi/2, pi/2]; roll is taken as 0 at the gimbal lock.
    """
    r = matrix
    pitch = math.asin(max(-1.0, min(1.0, -r[2][0])))
    if abs(r[2][0]) < 1.0 - 1e-12:
        return (math.atan2(r[2][1], r[2][2]), pitch, math.atan2(r[1][0], r[0][0]))
    return (0.0, pitch, math.atan2(-r[0][1], r[1][1]))


def multiply(a, b) -> tuple:
    """Return the matrix product a b of two 3x3 matrices."""
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3))
                 for i in range(3))


def transpose(a) -> tuple:
    return tuple(tuple(a[j][i] for j in range(3)) for i in range(3))


def rotate(matrix, vector) -> tuple:
    """Return matrix @ vector."""
    return tuple(sum(matrix[i][k] * vector[k] for k in range(3)) for i in range(3))


@dataclass(frozen=True)
class Pose:
    """A rigid transform: maps a point given in the child frame into the parent frame."""

    rotation: tuple = IDENTITY
    translation: tuple = (0.0, 0.0, 0.0)

    @classmethod
    def from_xyz_rpy(cls, xyz=(0.0, 0.0, 0.0), rpy=(0.0, 0.0, 0.0)) -> 'Pose':
        return cls(rpy_matrix(rpy), tuple(float(v) for v in xyz))

    def compose(self, other: 'Pose') -> 'Pose':
        """``self`` then ``other``: the pose of other's frame when other is given in ours."""
        return Pose(multiply(self.rotation, other.rotation), self.apply(other.translation))

    def apply(self, point) -> tuple:
        """Express a point given in our child frame in the parent frame."""
        moved = rotate(self.rotation, point)
        return tuple(moved[i] + self.translation[i] for i in range(3))

    def inverse(self) -> 'Pose':
        back = transpose(self.rotation)
        return Pose(back, tuple(-v for v in rotate(back, self.translation)))

    @property
    def rpy(self) -> tuple:
        return matrix_rpy(self.rotation)


def link_poses(vehicle, positions: dict | None = None) -> dict:
    """
    Return every link's pose in the root link frame, each joint at its position (default 0).

    ``vehicle`` is a ``bluerobotics_parts.model.vehicle.Vehicle``: its joints come parents first,
    so one pass composes them. ``positions``: joint name -> rad (revolute, continuous) or m
    (prismatic), moving the child about or along the joint's axis after the origin (URDF).
    """
    positions = positions or {}
    poses = {vehicle.root_link: Pose()}
    for joint in vehicle.joints_in_order():
        placed = Pose.from_xyz_rpy(joint.xyz, joint.rpy)
        if positions.get(joint.name):
            placed = placed.compose(joint_motion(joint, positions[joint.name]))
        poses[joint.child] = poses[joint.parent].compose(placed)
    return poses


def joint_motion(joint, position: float) -> Pose:
    """Return the motion of a joint's child at a position: about or along its unit axis."""
    axis = joint.axis or (1.0, 0.0, 0.0)
    norm = math.sqrt(sum(v * v for v in axis)) or 1.0
    x, y, z = (v / norm for v in axis)
    if joint.type == 'prismatic':
        return Pose(IDENTITY, (x * position, y * position, z * position))
    if joint.type not in ('revolute', 'continuous'):
        return Pose()
    c, s = math.cos(position), math.sin(position)
    t = 1.0 - c
    return Pose(((t * x * x + c, t * x * y - s * z, t * x * z + s * y),
                 (t * x * y + s * z, t * y * y + c, t * y * z - s * x),
                 (t * x * z - s * y, t * y * z + s * x, t * z * z + c)))


def joint_frame(vehicle, poses: dict, joint_name: str) -> tuple:
    """
    Return (origin, axis) of a joint in the root frame.

    The origin is where its child frame sits at rest, the axis the direction of its axis (unit;
    URDF's default x when it names none).
    """
    joint = vehicle.joint(joint_name)
    frame = poses[joint.child]
    axis = joint.axis or (1.0, 0.0, 0.0)
    norm = math.sqrt(sum(v * v for v in axis)) or 1.0
    return frame.translation, rotate(frame.rotation, tuple(v / norm for v in axis))
