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
``scan_to_ping360``: a simulated Ping360 that turns, one beam a step.

Gazebo's scanning sonar gives the whole circle at once (a LaserScan, bridged); this node steps
a head through it as the Ping360 does (sensing/scanning_sonar.py): every ``2 x range / c`` it
publishes the beam at the head's angle as a one-ray sensor_msgs/msg/LaserScan (``angle_min`` =
``angle_max`` = the bearing, rad), stamped in the head frame, its intensity the echo's 0-255
level at the ``gain`` setting (sensing/sonar_echo.py); RViz's LaserScan display with a decay of
a turn draws the sweep as Ping Viewer does. Parameters as the Ping360 takes them: ``step`` and
``sector`` in gradians, ``range`` in m, ``gain`` 0 low, 1 normal, 2 high; they start as the
sonar's own tools start it (DEFAULT_RANGE) and change while it runs (``ros2 param set``).
It also answers ping-protocol on UDP ``ping_host``:``ping_port`` (ros/nodes/ping360_device.py;
make_node says how), so Ping Viewer and brping read it as a real sonar on Ethernet.
"""

from __future__ import annotations

import math
import sys

from .node_runner import parameters, real, run, topic
from .ping360_device import DEFAULT_PORT, EVERY_INTERFACE, LOOPBACK, Ping360Device, Ping360Server
from ...errors import BlueRoboticsPartsError
from ...sensing.scanning_sonar import (beam_range, bearing, GRADIANS, RANGE_LIMITS,
                                       SPEED_OF_SOUND, SPEED_OF_SOUND_RANGE, Sweep)
from ...sensing.sonar_echo import BOOT, echo_level, GAINS

NODE_NAME = 'scan_to_ping360'
#: The sonar's settings as its owners' tools start it: a 2 m range (bluerobotics/ping-viewer
#: 1ed45085, src/sensor/ping360.cpp ``_viewerDefaultRange = 2``; CentraleNantesRobotics/
#: ping360_sonar fa53b8f, src/ping360.py ``'range_max': [2,1,50]``), a step of 1 gradian over
#: the whole 400 (ping360.h ``_angular_speed = 1``, ``_sectorSize = 400``; the ROS driver's
#: ``angle_step`` 1 deg, ``angle_sector`` 360), gain 0 (the firmware's boot setting).
DEFAULT_RANGE = 2.0
#: What can change while it runs (``ros2 param set``), as the sonar's settings change.
LIVE = ('range', 'step', 'sector', 'gain')
PARAMETERS = {  # name -> default; the launch sets the topics, the frame and the range limits
    'scan_topic': 'scan',
    'beam_topic': 'beam',
    'frame_id': '',
    'range': DEFAULT_RANGE,
    'range_min': 0.75,  # m: the Ping360's 0.75 to 50 m (PART_FACTS.md; the part's data)
    'range_max': 50.0,
    'step': 1,
    'sector': GRADIANS,
    'speed_of_sound': SPEED_OF_SOUND,
    'gain': BOOT['gain_setting'],
    'ping_host': LOOPBACK,
    'ping_port': DEFAULT_PORT,
}
_PING360 = " (a Ping360's, its datasheet)"
#: What each parameter may be, bounded to what the Ping360 does; range, step, sector and gain
#: are checked together (``settings``).
RULES = {'scan_topic': topic, 'beam_topic': topic,
         'range_min': real(*RANGE_LIMITS, 'm', note=_PING360),
         'range_max': real(*RANGE_LIMITS, 'm', note=_PING360),
         'speed_of_sound': real(*SPEED_OF_SOUND_RANGE, 'm/s',
                                note=' (what Ping Viewer and the ROS driver take)'),
         'ping_host': lambda host: str(host).strip() or LOOPBACK}  # '': the default


class SweepError(BlueRoboticsPartsError):
    """The sweep's parameters describe no sweep the Ping360 makes."""


def make_node(parameter_overrides=()):
    """
    Return the rclpy node (rclpy must be initialised).

    ``parameter_overrides`` (rclpy Parameters) stand in for --ros-args::

        scan_topic      the whole-circle LaserScan from Gazebo, e.g. /bluerov2/scanning_sonar/scan
        beam_topic      the one-beam LaserScan to publish, e.g. /bluerov2/scanning_sonar/beam
        frame_id        the head frame, e.g. bluerov2/scanning_sonar_head
        range           m the sonar listens to (sets the step period), above range_min and at
                        most range_max, which are within the Ping360's 0.75 to 50 m
        step, sector    gradians (400 a turn): 1 and 400 step the whole circle
        speed_of_sound  m/s, 1450 to 1550 (what Ping Viewer and the ROS driver take)
        gain            0 low, 1 normal, 2 high: the beam's intensity
        ping_host, ping_port  where ping-protocol is answered: 127.0.0.1 (also for ''), an
                        address of this machine, or 0.0.0.0 for every interface (a warning
                        says so); port 0 any, negative none

    Anything else is refused at start (exit 1, naming the parameter and what is valid) and by
    ``ros2 param set``, so no step period is ever zero. The tool connected over ping-protocol
    turns its own head (the beam topic keeps its sweep); its echoes come from the same Gazebo
    circle. ``ping_port`` 12345 by default (brping's); a port in use is a warning, not a
    failure (a second sonar on the machine needs its own). Ends cleanly on SIGINT and SIGTERM
    (node_runner.py).
    """
    from rclpy.node import Node
    from rclpy.qos import qos_profile_sensor_data, QoSProfile
    from sensor_msgs.msg import LaserScan

    class ScanToPing360(Node):
        """Steps a head round the last whole-circle scan."""

        def __init__(self):
            super().__init__(NODE_NAME, parameter_overrides=list(parameter_overrides))
            value = parameters(self, PARAMETERS, RULES)
            self.range_min, self.range_max = value('range_min'), value('range_max')
            if not self.range_min < self.range_max:
                raise SweepError(f'{NODE_NAME}: range_min ({self.range_min:g} m) must be below '
                                 f'range_max ({self.range_max:g} m)')
            try:
                self.sweep, self.gain = settings({name: value(name) for name in LIVE},
                                                 value('speed_of_sound'),
                                                 (self.range_min, self.range_max))
            except SweepError as error:
                raise SweepError(f'{NODE_NAME}: {error}') from None
            self.frame_id = str(value('frame_id'))
            self.index, self.scan = 0, None
            port = int(value('ping_port'))
            if port > 65535:
                raise SweepError(f'{NODE_NAME}: ping_port must be a UDP port (0 any free one, '
                                 f'up to 65535; negative: none), got {port}')
            self.publisher = self.create_publisher(LaserScan, value('beam_topic'),
                                                   QoSProfile(depth=10))
            self.subscription = self.create_subscription(
                LaserScan, value('scan_topic'), self.on_scan, qos_profile_sensor_data)
            self.timer = self.create_timer(self.sweep.period, self.on_step)
            value.watch(LIVE, self.on_set)
            self.get_logger().info(
                f'{self.subscription.topic_name} (LaserScan, whole circle) -> '
                f'{self.publisher.topic_name} (one beam every {self.sweep.period:.4f} s, '
                f'{self.sweep.step} gradians a step over {self.sweep.sector})')
            self.server = self.serve(value('ping_host'), port)

        def on_set(self, values: dict):
            """Take a new range, step, sector or gain as the sonar does; say why not."""
            try:
                sweep, gain = settings({name: values[name] for name in LIVE},
                                       self.sweep.speed_of_sound,
                                       (self.range_min, self.range_max))
            except SweepError as error:
                return str(error)
            if sweep != self.sweep:  # a new step period or head path: the sweep starts again
                self.index = 0
                self.timer.cancel()
                self.destroy_timer(self.timer)
                self.timer = self.create_timer(sweep.period, self.on_step)
            self.sweep, self.gain = sweep, gain
            return None

        def serve(self, host: str, port: int):
            """Answer ping-protocol on host:port; None when off or the port is taken."""
            if port < 0:
                return None
            device = Ping360Device(self.range_at, self.sweep.speed_of_sound)
            try:
                server = Ping360Server(device, host, port, self.get_logger().warning).start()
            except OSError as error:
                self.get_logger().warning(
                    f'ping-protocol not served on {host}:{port} ({error.strerror or error}); '
                    'set the ping_host parameter to an address of this machine and ping_port '
                    'to a free port (0: any) to reach this sonar with Ping Viewer or brping')
                return None
            address, bound = server.address
            self.get_logger().info(f'ping-protocol (Ping360) on udp {address}:{bound}')
            if address == EVERY_INTERFACE:
                self.get_logger().warning(
                    f'ping-protocol answers on every interface (ping_host {EVERY_INTERFACE}): '
                    'any host that reaches this machine can drive the simulated sonar; a '
                    'profile goes only to a client that spoke first, and a stream stops '
                    'without its requests (ping360_device.py)')
            return server

        def range_at(self, angle: int) -> float:
            scan = self.scan
            if scan is None:
                return math.inf
            try:
                return beam_range(scan.ranges, scan.angle_min, scan.angle_increment,
                                  bearing(angle))
            except (ValueError, OverflowError):  # a scan whose angles are not numbers
                return math.inf

        def destroy_node(self):
            if self.server is not None:
                self.server.stop()
                self.server = None
            return super().destroy_node()

        def on_scan(self, scan: LaserScan) -> None:
            self.scan = scan

        def on_step(self) -> None:
            if self.scan is None:
                return
            angle = self.sweep.angle(self.index)
            self.index += 1
            direction = bearing(angle)
            found = self.range_at(angle)
            message = LaserScan()
            message.header.stamp = self.get_clock().now().to_msg()
            message.header.frame_id = self.frame_id or self.scan.header.frame_id
            message.angle_min = message.angle_max = direction
            message.angle_increment = self.sweep.step * 2.0 * math.pi / GRADIANS
            message.scan_time = self.sweep.period
            message.range_min = self.range_min
            message.range_max = self.sweep.range
            message.ranges = [found if found <= self.sweep.range else math.inf]
            heard = math.isfinite(found) and self.range_min <= found <= self.sweep.range
            message.intensities = [float(echo_level(found, self.gain)) if heard else 0.0]
            self.publisher.publish(message)

    return ScanToPing360()


def settings(values: dict, speed_of_sound: float, limits: tuple = RANGE_LIMITS) -> tuple:
    """
    Return (the Sweep, the gain) of range, step, sector and gain; SweepError if invalid.

    ``limits``: the metres the sonar can be set to listen to (its range_min, range_max).
    """
    low, high = limits
    if not (isinstance(values['range'], (int, float)) and low < values['range'] <= high):
        raise SweepError(f'range must be above {low:g} m and at most {high:g} m (the range_min '
                         f"and range_max of the sonar), got {values['range']!r}")
    try:
        sweep = Sweep(float(values['range']), int(values['step']), int(values['sector']),
                      speed_of_sound)
    except (TypeError, ValueError) as error:
        raise SweepError(str(error)) from None
    gain = values['gain']
    if isinstance(gain, bool) or not isinstance(gain, int) or gain not in GAINS:
        raise SweepError(f'gain must be 0 (low), 1 (normal) or 2 (high), got {gain!r}')
    return sweep, gain


def main(argv=None) -> int:
    """Run the console script ``scan_to_ping360``."""
    return run(NODE_NAME, make_node, BlueRoboticsPartsError, argv, needs='rclpy and sensor_msgs')


if __name__ == '__main__':
    sys.exit(main())
