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
NaN, infinity and extremes in every message the nodes take: never a traceback, never a NaN out.

Each node is made with a real rclpy and handed messages through its own callbacks: every
floating-point field of the message (nested messages, arrays and a point cloud's points
included) set to each hostile value in turn, then seeded messages with several at once. What
comes out is checked: thrust_allocator publishes only finite thrusts and throttles (a message
it cannot use is dropped with a warning), scan_to_range only Ranges REP 117 allows (a range or
+/-inf, never NaN), pose_to_pressure only finite pressures within the sensor's, scan_to_ping360
only beams with a bearing, no NaN range and a 0-255 intensity, and the ping-protocol echo of
any scan is a profile of the ping's length.
"""

from __future__ import annotations

import copy
import math
import random
import struct

from bluerobotics_parts.build import build_gazebo
from conftest import CONFIG_DIR
import pytest

DOUBLES = (math.nan, math.inf, -math.inf, 1e308, -1e308, 5e-324, -0.0)
FLOATS = (math.nan, math.inf, -math.inf, 3.4e38, -3.4e38, 1e-45, -0.0)  # float32 fields
MIXED = 60  # seeded messages with several hostile fields each, per message type
SEED = 20260


class Recorder:
    """Stands in for a publisher: keeps what the node publishes."""

    def __init__(self):
        self.sent = []

    def publish(self, message) -> None:
        self.sent.append(message)


class Logger:
    """Stands in for the node's logger: keeps the warnings."""

    def __init__(self):
        self.warnings = []

    def warning(self, text, **_) -> None:
        self.warnings.append(text)

    def info(self, text, **_) -> None:
        pass


def float_fields(message, prefix=()):
    """Yield (path, hostile values) of every floating-point field of a message, nested too."""
    for name, kind in message.get_fields_and_field_types().items():
        value = getattr(message, name)
        base = kind.split('[')[0].removeprefix('sequence<').rstrip('>')
        if base in ('double', 'float'):
            yield prefix + (name,), DOUBLES if base == 'double' else FLOATS
        elif hasattr(value, 'get_fields_and_field_types'):
            yield from float_fields(value, prefix + (name,))


def with_value(message, path, value):
    """Return a copy of ``message`` with the field at ``path`` (every element of an array) set."""
    message = copy.deepcopy(message)
    holder = message
    for name in path[:-1]:
        holder = getattr(holder, name)
    current = getattr(holder, path[-1])
    if isinstance(current, float):
        setattr(holder, path[-1], value)
    else:  # an array or a sequence: each element
        setattr(holder, path[-1], [value] * max(1, len(current)))
    return message


def hostile_messages(base, seed: int):
    """Yield ``base`` with each float field hostile in turn, then with several at once."""
    fields = list(float_fields(base))
    for path, values in fields:
        for value in values:
            yield with_value(base, path, value)
    rng = random.Random(seed)
    for _ in range(MIXED):
        message = base
        for path, values in rng.sample(fields, min(len(fields), rng.randint(2, 5))):
            message = with_value(message, path, rng.choice(values))
        yield message


def finite_message(message) -> bool:
    """Return whether every float field of a message is finite."""
    for path, _ in float_fields(message):
        value = message
        for name in path:
            value = getattr(value, name)
        values = [value] if isinstance(value, float) else list(value)
        if not all(math.isfinite(v) for v in values):
            return False
    return True


# -- thrust_allocator ---------------------------------------------------------------------------

@pytest.fixture(scope='module')
def rov_urdf(tmp_path_factory):
    path = tmp_path_factory.mktemp('rov') / 'robot_description.urdf'
    path.write_text(build_gazebo(CONFIG_DIR / 'bluerov2.yaml').urdf, encoding='utf-8')
    return path


@pytest.mark.parametrize('output', ['thrust', 'throttle'])
def test_the_allocator_never_sends_a_thruster_a_non_finite_command(ros, rov_urdf, output):
    from bluerobotics_parts.ros.nodes import thrust_allocator
    from geometry_msgs.msg import Twist, Vector3, Wrench
    from rclpy.parameter import Parameter
    from std_msgs.msg import Float64

    node = thrust_allocator.make_node([Parameter('description', value=str(rov_urdf)),
                                       Parameter('output', value=output)])
    logger = Logger()
    node.get_logger = lambda: logger
    for name in list(node.thrust_out):
        node.thrust_out[name] = Recorder()
    for name in list(node.throttle_out):
        node.throttle_out[name] = Recorder()
    published = [*node.thrust_out.values(), *node.throttle_out.values()]
    cases = [(node.on_wrench, Wrench(force=Vector3(x=20.0, y=-5.0), torque=Vector3(z=2.0))),
             (node.on_twist, Twist(linear=Vector3(x=0.5), angular=Vector3(z=-0.3)))]
    cases += [(lambda m, n=name: node.on_throttle(n, m), Float64(data=0.4))
              for name in node.throttles.curves]
    try:
        for index, (callback, base) in enumerate(cases):
            for message in hostile_messages(base, SEED + index):
                before = sum(len(r.sent) for r in published)
                warned = len(logger.warnings)
                callback(message)
                sent = [m.data for r in published for m in r.sent]
                assert all(math.isfinite(v) for v in sent), (message, sent[before:])
                if not finite_message(message):
                    assert len(sent) == before, message  # dropped, not zeroed
                    assert len(logger.warnings) > warned, message
                else:
                    assert len(sent) > before, message
    finally:
        node.destroy_node()


# -- scan_to_range ------------------------------------------------------------------------------

CONE = {'scan_topic': '/fuzz/ping/scan', 'range_topic': '/fuzz/ping/range',
        'frame_id': 'fuzz/ping_beam', 'field_of_view': 0.43, 'min_range': 0.5,
        'max_range': 100.0}


def hostile_clouds(seed: int):
    """Yield 3 x 3 clouds whose points' coordinates take every hostile float32 value."""
    from echo_clouds import cone_cloud, in_cone
    from sensor_msgs.msg import PointCloud2, PointField

    base = cone_cloud((PointCloud2, PointField), in_cone(17.5, 18.0), CONE['field_of_view'])
    points = [list(struct.unpack_from('<fff', bytes(base.data), 12 * i)) for i in range(9)]

    def cloud(changed):
        message = copy.deepcopy(base)
        message.data = b''.join(struct.pack('<fff', *p) for p in changed)
        return message

    for index in range(9):
        for axis in range(3):
            for value in FLOATS:
                changed = copy.deepcopy(points)
                changed[index][axis] = value
                yield cloud(changed)
    for value in FLOATS:
        yield cloud([[value] * 3] * 9)
    rng = random.Random(seed)
    for _ in range(MIXED):
        changed = copy.deepcopy(points)
        for _ in range(rng.randint(2, 9)):
            changed[rng.randrange(9)][rng.randrange(3)] = rng.choice(FLOATS)
        yield cloud(changed)


def test_scan_to_range_publishes_what_rep_117_allows_whatever_the_cloud(ros):
    from bluerobotics_parts.ros.nodes import range_node
    from rclpy.parameter import Parameter

    node = range_node.make_node([Parameter(k, value=v) for k, v in CONE.items()])
    node.get_logger = Logger
    node.publisher = Recorder()
    try:
        count = 0
        for cloud in hostile_clouds(SEED):
            node.on_scan(cloud)
            count += 1
        assert node.publisher.sent and count > 9 * 3 * len(FLOATS)
        for reading in node.publisher.sent:
            assert not math.isnan(reading.range)
            assert math.isinf(reading.range) or \
                CONE['min_range'] <= reading.range <= CONE['max_range']
            assert all(math.isfinite(v) for v in (reading.field_of_view, reading.min_range,
                                                  reading.max_range))
    finally:
        node.destroy_node()


# -- pose_to_pressure ---------------------------------------------------------------------------

def test_pose_to_pressure_publishes_only_finite_pressures(ros):
    from bluerobotics_parts.ros.nodes import pressure_node
    from nav_msgs.msg import Odometry
    from rclpy.parameter import Parameter

    parameters = {'odometry_topic': '/fuzz/odometry', 'pressure_topic': '/fuzz/bar/pressure',
                  'frame_id': 'fuzz/bar', 'offset': [-0.18, 0.0, -0.015],
                  'max_pressure': 3e6}
    node = pressure_node.make_node([Parameter(k, value=v) for k, v in parameters.items()])
    logger = Logger()
    node.get_logger = lambda: logger
    node.publisher = Recorder()
    base = Odometry()
    base.pose.pose.position.z = -5.0
    base.pose.pose.orientation.w = 1.0
    try:
        used = ('position', 'orientation')
        for message in hostile_messages(base, SEED):
            before = len(node.publisher.sent)
            node.on_odometry(message)
            pose = message.pose.pose
            numbers = [getattr(getattr(pose, part), axis) for part in used
                       for axis in ('x', 'y', 'z', 'w') if hasattr(getattr(pose, part), axis)]
            if not all(math.isfinite(v) for v in numbers):
                assert len(node.publisher.sent) == before, pose  # dropped
        assert node.publisher.sent and logger.warnings
        for reading in node.publisher.sent:
            assert math.isfinite(reading.fluid_pressure)
            assert 0.0 <= reading.fluid_pressure <= parameters['max_pressure']
    finally:
        node.destroy_node()


# -- scan_to_ping360 ----------------------------------------------------------------------------

def test_scan_to_ping360_steps_and_echoes_whatever_the_scan(ros):
    from bluerobotics_parts.formats import ping_protocol as pp
    from bluerobotics_parts.ros.nodes import ping360_node
    from bluerobotics_parts.ros.nodes.ping360_device import Ping360Device
    from rclpy.parameter import Parameter
    from sensor_msgs.msg import LaserScan

    node = ping360_node.make_node([Parameter('ping_port', value=-1),
                                   Parameter('range', value=1.5)])
    node.publisher = Recorder()
    device = Ping360Device(node.range_at)
    ping = pp.message(pp.TRANSDUCER, mode=1, gain_setting=0, angle=0, transmit_duration=32,
                      sample_period=80, transmit_frequency=740, number_of_samples=200,
                      transmit=1, reserved=0)
    base = LaserScan(angle_min=-math.pi, angle_increment=2 * math.pi / 400,
                     angle_max=-math.pi + 399 * 2 * math.pi / 400, range_min=0.75,
                     range_max=50.0)
    base.ranges = [1.0] * 400
    try:
        for message in hostile_messages(base, SEED):
            node.on_scan(message)
            for _ in range(3):
                node.on_step()
            (reply,) = device.handle(ping)
            assert len(reply.frame.fields()['data']) == 200
        assert node.publisher.sent
        for beam in node.publisher.sent:
            assert math.isfinite(beam.angle_min) and beam.angle_min == beam.angle_max
            assert len(beam.ranges) == 1 and not math.isnan(beam.ranges[0])
            assert 0.0 <= beam.intensities[0] <= 255.0
    finally:
        node.destroy_node()
