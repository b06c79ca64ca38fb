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
``thrust_allocator``: drive any assembled vehicle with a wrench or a twist.

It reads the built URDF (``description``: a file), allocates each ``cmd_wrench``
(geometry_msgs/Wrench, N and N m in the base link about its origin) or ``cmd_vel``
(geometry_msgs/Twist read as effort: each component a fraction of the largest wrench on that
axis, so teleop_twist_keyboard and teleop_twist_joy drive it) to the propellers
(physics/allocation.py), and publishes each thrust on the vehicle's
``/<vehicle>/<instance>/thrust`` (std_msgs/Float64, N), or with ``output:=throttle`` each
throttle on ``/<vehicle>/<instance>/throttle`` (Float64, -1 to 1, through the part's thrust
curve at ``voltage``: what an ESC takes). Each ``/<vehicle>/<instance>/throttle`` it hears it
turns into that propeller's thrust with the same curve (physics/power.py), so a throttle drives
the simulation as it drives the real thruster. A message with a component that is not a
finite number (NaN, infinite) is dropped with a warning at most every 2 s: no thruster is ever
given a non-finite command, and none is given a 0 N nobody asked for (a zeroed throttle on one
thruster while the others keep theirs would turn the vehicle); the last command stands until a
usable one comes. Its parameters are checked at start (exit 1 with the message) and a
``ros2 param set`` of one is refused: each is read once. Ends cleanly on SIGINT and SIGTERM
(node_runner.py); rclpy is imported inside functions, so the module imports without ROS.
"""

from __future__ import annotations

import math
from pathlib import Path
import sys

from .node_runner import choice, parameters, real, run, topic
from ...errors import BlueRoboticsPartsError, CommandError

NODE_NAME = 'thrust_allocator'
PARAMETERS = {  # name -> default
    'description': '',  # the built URDF file (robot_description.urdf)
    'wrench_topic': 'cmd_wrench',
    'twist_topic': 'cmd_vel',
    'output': 'thrust',  # or throttle
    'voltage': 0.0,  # V the curves are read at; 0: the battery's nominal (16 V without one)
}
OUTPUTS = ('thrust', 'throttle')
RULES = {'wrench_topic': topic, 'twist_topic': topic, 'output': choice(OUTPUTS),
         'voltage': real(0.0, unit='V', above=True, also=(0,),
                         note=" (0: the battery's nominal, 16 V without one)")}
DROPPED_WARNING_PERIOD = 2.0  # s: at most one warning this often about dropped messages


class AllocatorError(BlueRoboticsPartsError):
    """The allocator cannot start: no description, or one without propellers."""


def vehicle_allocation(description: str, voltage: float = 0.0, output: str = 'thrust'):
    """
    Return (the Allocator of a built URDF file, instance -> its ThrusterTopics, Throttles).

    The same record, part files and names as the build (model/topics.py), so the thrusts go
    where the bridge takes them to Gazebo. ``voltage`` 0: the battery's. With ``output``
    throttle it plans within what full throttle gives at that voltage.
    """
    from ...assembly import catalogue as part_catalogue
    from ...assembly.record import parse_urdf, read, read_urdf_file
    from ...model.topics import vehicle_topics
    from ...model.vehicle import Vehicle
    from ...physics import propulsion
    from ...physics.allocation import Allocator
    from ...physics.power import Throttles

    if not description:
        raise AllocatorError('thrust_allocator needs the parameter description: the built URDF '
                             '(e.g. -p description:=out/blueboat/robot_description.urdf)')
    path = Path(description)
    robot = parse_urdf(read_urdf_file(path))
    record = read(robot, path.absolute().parent)
    catalogue = part_catalogue.catalogue([file for _, file in record.part_files])
    names = vehicle_topics(record, catalogue)
    limits = propulsion.thrust_limits(record, catalogue)
    throttles = Throttles(record, catalogue, limits, voltage or None)
    beyond = {c.name: c.voltages for c in throttles.curves.values()
              if not c.voltages[0] <= throttles.voltage <= c.voltages[-1]}
    if voltage and beyond:  # a curve is held at its nearest table beyond them (thrust_curves)
        raise AllocatorError(f'voltage {voltage:g} V is beyond the thrust curves: ' + ', '.join(
            f'{name} is tabled from {v[0]:g} to {v[-1]:g} V' for name, v in beyond.items()))
    if output == 'throttle':
        limits = throttles.reachable(limits)
    allocator = Allocator(Vehicle.from_tree(robot, record, catalogue, names), limits)
    if not allocator.names:
        raise AllocatorError(f'{path}: the vehicle {record.robot_name} has no propeller to '
                             'drive')
    return allocator, {t.instance: t for t in names.thrusters}, throttles


def make_node(parameter_overrides=()):
    """
    Return the rclpy node (rclpy must be initialised).

    ``parameter_overrides`` (rclpy Parameters) stand in for --ros-args::

        description    the built URDF file, e.g. out/blueboat/robot_description.urdf
        wrench_topic   geometry_msgs/Wrench to follow (default cmd_wrench, in its namespace)
        twist_topic    geometry_msgs/Twist read as effort (default cmd_vel)
        output         thrust (N on <instance>/thrust, default) or throttle (-1 to 1)
        voltage        V the thrust curves are read at (default 0: the battery's nominal)
    """
    from geometry_msgs.msg import Twist, Wrench
    from rclpy.node import Node
    from rclpy.qos import QoSProfile
    from std_msgs.msg import Float64

    class ThrustAllocator(Node):
        """Turns each wrench or twist into the propellers' thrusts."""

        def __init__(self):
            super().__init__(NODE_NAME, parameter_overrides=list(parameter_overrides))
            value = parameters(self, PARAMETERS, RULES)
            value.watch()  # each is read once: a set while it runs is refused, saying so
            self.output = value('output')
            self.allocator, topics, self.throttles = vehicle_allocation(
                str(value('description')), value('voltage'), self.output)
            if self.output == 'throttle':
                missing = [n for n in self.allocator.names if n not in self.throttles.curves]
                if missing:
                    raise AllocatorError('thrust_allocator: output throttle needs a thrust '
                                         f"curve; the parts of {', '.join(missing)} have none "
                                         '(propeller: thrust_curve)')
            profile = QoSProfile(depth=10)
            self.thrust_out = {name: self.create_publisher(Float64, topics[name].ros_topic,
                                                           profile)
                               for name in self.allocator.names}
            self.throttle_out = {name: self.create_publisher(
                Float64, topics[name].throttle_topic, profile)
                for name in self.allocator.names if self.output == 'throttle'}
            self.throttle_in = {name: topics[name].throttle_topic
                                for name in self.throttles.curves}
            for name, throttle_topic in self.throttle_in.items():
                self.create_subscription(Float64, throttle_topic,
                                         lambda message, name=name: self.on_throttle(
                                             name, message), profile)
            self.wrench_in = self.create_subscription(Wrench, value('wrench_topic'),
                                                      self.on_wrench, profile)
            self.twist_in = self.create_subscription(Twist, value('twist_topic'), self.on_twist,
                                                     profile)
            self.warned: set = set()
            outputs = self.throttle_out if self.output == 'throttle' else self.thrust_out
            self.get_logger().info(
                f"wrench and twist -> {', '.join(p.topic_name for p in outputs.values())}; the "
                f"propellers act on {', '.join(self.allocator.axis_names)}; throttle -> thrust "
                f"for {', '.join(self.throttles.curves) or 'none (no thrust curves)'} at "
                f'{self.throttles.voltage:g} V')

        def on_throttle(self, name: str, message: Float64) -> None:
            try:
                thrust = self.throttles.thrust(name, message.data)
            except CommandError as error:
                return self.drop(self.throttle_in[name], error)
            self.send({name: thrust}, self.thrust_out)

        def on_wrench(self, message: Wrench) -> None:
            try:
                allocation = self.allocator.allocate(_components(message.force, message.torque))
            except CommandError as error:
                return self.drop(self.wrench_in.topic_name, error)
            self.publish(allocation)

        def on_twist(self, message: Twist) -> None:
            try:
                wrench = self.allocator.effort(_components(message.linear, message.angular))
            except CommandError as error:
                return self.drop(self.twist_in.topic_name, error)
            self.publish(self.allocator.allocate(wrench))

        def drop(self, topic: str, error: CommandError) -> None:
            """Drop a message no command can be made of; say so at most every 2 s."""
            self.get_logger().warning(f'{topic}: {error}; message dropped, no thruster commanded',
                                      throttle_duration_sec=DROPPED_WARNING_PERIOD)

        def send(self, values: dict, publishers: dict) -> None:
            """Publish each propeller's value, all of them or, if one is not finite, none."""
            if not all(math.isfinite(v) for v in values.values()):
                return self.drop('allocation', CommandError(f'a non-finite command {values}'))
            for name, number in values.items():
                publishers[name].publish(Float64(data=float(number)))

        def publish(self, allocation) -> None:
            new = [axis for axis in allocation.dropped if axis not in self.warned]
            if new:  # once per axis for the node's life
                self.warned.update(new)
                self.get_logger().warning(
                    f"the propellers cannot act on {', '.join(new)} apart from the other "
                    'axes: that part of the command is dropped')
            if allocation.scale < 1.0:
                self.get_logger().warning(
                    f'the command is beyond the propellers: scaled down to '
                    f'{_percent_below(allocation.scale)}% (same direction)',
                    throttle_duration_sec=2.0)
            if self.output == 'throttle':
                self.send({name: self.throttles.throttle(name, thrust)
                           for name, thrust in allocation.thrusts.items()}, self.throttle_out)
            else:
                self.send(allocation.thrusts, self.thrust_out)

    return ThrustAllocator()


def _percent_below(scale: float) -> str:
    """Return a scale under 1 as a percentage that never reads 100 (0.99996 -> 99.9)."""
    return f'{math.floor(scale * 1000) / 10:.1f}'


def _components(linear, angular) -> tuple:
    return (linear.x, linear.y, linear.z, angular.x, angular.y, angular.z)


def main(argv=None) -> int:
    """Run the console script ``thrust_allocator`` (``ros2 run bluerobotics_parts ...``)."""
    return run(NODE_NAME, make_node, BlueRoboticsPartsError, argv,
               needs='rclpy, geometry_msgs and std_msgs')


if __name__ == '__main__':
    sys.exit(main())
