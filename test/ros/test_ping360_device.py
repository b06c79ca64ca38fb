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
The simulated Ping360 over UDP (ros/ping360_device.py), driven as its owners drive one.

The client is brping (bluerobotics-ping): the library Ping360 owners' scripts and ROS drivers
use, an implementation independent of ours.
"""

from __future__ import annotations

import math
import socket
import time

from bluerobotics_parts.formats import ping_protocol as pp
from bluerobotics_parts.physics import sonar_echo as se
from bluerobotics_parts.ros.ping360_device import MAX_PENDING, Ping360Device, Ping360Server
import pytest

ECHO = {100: 10.0, 102: 4.0}  # gradians -> metres: two targets, open water elsewhere


@pytest.fixture
def sonar():
    """Return (device, brping Ping360) talking over UDP on a free local port."""
    brping = pytest.importorskip('brping')
    device = Ping360Device(lambda angle: ECHO.get(angle, math.inf))
    server = Ping360Server(device, '127.0.0.1', 0).start()
    client = brping.Ping360()
    client.connect_udp('127.0.0.1', server.address[1])
    yield device, client
    client.iodev.close()
    server.stop()


def test_brping_initialises_and_reads_the_boot_settings(sonar):
    device, client = sonar
    assert client.initialize()  # protocol_version, then device_data (readDeviceInformation)
    info = client.get_device_information()
    assert info['device_type'] == 2  # Ping360
    assert client.get_protocol_version()['version_major'] == 1
    assert (client._gain_setting, client._transmit_frequency, client._number_of_samples,
            client._sample_period) == (0, 740, 1024, 80)


def test_a_transmitted_ping_returns_the_echo_at_its_range_after_its_listening_time(sonar):
    device, client = sonar
    assert client.initialize()
    settings = se.settings_for_range(20.0)
    assert client.set_number_of_samples(settings['number_of_samples'])
    assert client.set_sample_period(settings['sample_period'])
    assert client.set_transmit_duration(settings['transmit_duration'])
    assert client.set_gain_setting(1)
    ping = se.Ping(1, settings['transmit_duration'], settings['sample_period'],
                   settings['number_of_samples'])
    started = time.monotonic()
    reply = client.transmitAngle(100)
    took = time.monotonic() - started
    assert reply is not None and reply.message_id == pp.DEVICE_DATA
    assert took >= ping.listening_time * 0.9
    assert reply.angle == 100 and len(reply.data) == 1200
    assert bytes(reply.data) == se.echo_profile(10.0, ping)
    assert reply.data[int(10.0 / ping.spacing)] == se.echo_level(10.0, 1) > 0
    near = client.transmitAngle(102)
    assert near.data.index(max(near.data)) == int(4.0 / ping.spacing)
    empty = client.transmitAngle(250)
    assert empty.angle == 250 and not any(empty.data)


def test_settings_outside_the_protocol_are_nacked_with_the_field(sonar):
    device, client = sonar
    client.control_transducer(1, 3, 0, 32, 80, 740, 1024, 1, 0)
    reply = client.wait_message([pp.DEVICE_DATA, pp.NACK], 2.0)
    assert reply.message_id == pp.NACK and reply.nacked_id == pp.TRANSDUCER
    assert bytes(reply.nack_message) == b'gain_setting 3 is outside 0 to 2'
    client.control_transducer(1, 0, 400, 32, 80, 740, 1024, 1, 0)
    assert b'angle 400' in bytes(client.wait_message([pp.NACK], 2.0).nack_message)
    assert device.state == se.BOOT  # nothing applied


def test_auto_transmit_steps_back_and_forth_until_motor_off(sonar):
    device, client = sonar
    assert client.initialize()
    client.control_auto_transmit(1, 0, 32, 80, 740, 200, 98, 104, 2, 0)
    angles = []
    deadline = time.monotonic() + 5.0
    while len(angles) < 8 and time.monotonic() < deadline:
        message = client.wait_message([pp.AUTO_DEVICE_DATA], 1.0)
        if message is not None:
            angles.append(message.angle)
            assert len(message.data) == 200
    assert angles == [98, 100, 102, 104, 102, 100, 98, 100]
    client.control_motor_off()
    assert client.wait_message([pp.ACK], 2.0).acked_id == pp.MOTOR_OFF
    time.sleep(0.05)
    while client.read() is not None:  # what was already on its way
        pass
    assert client.wait_message([pp.AUTO_DEVICE_DATA], 0.3) is None


def test_garbage_and_floods_leave_it_answering():
    device = Ping360Device(lambda angle: math.inf)
    server = Ping360Server(device, '127.0.0.1', 0).start()
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as host:
            host.settimeout(2.0)
            host.sendto(b'BR\xff\xff' + bytes(4000), server.address)
            host.sendto(pp.message(pp.ACK, acked_id=1).to_bytes(), server.address)
            nack = pp.Parser().feed(host.recv(4096))[0]
            assert nack.fields()['nack_message'] == b'message 1 is not one a host sends'
            slow = pp.message(pp.TRANSDUCER, mode=1, gain_setting=0, angle=0,
                              transmit_duration=32, sample_period=40000, transmit_frequency=740,
                              number_of_samples=1200, transmit=1, reserved=0).to_bytes()
            host.sendto(slow * 200, server.address)  # 200 pings of 1.2 s: most are dropped
            time.sleep(0.3)
            assert 0 < len(server.pending) <= MAX_PENDING
    finally:
        started = time.monotonic()
        server.stop()
        assert time.monotonic() - started < 3.0
