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
The simulated Ping360 over UDP (ros/nodes/ping360_device.py), driven as its owners drive one.

The client is brping (bluerobotics-ping): the library Ping360 owners' scripts and ROS drivers
use, an implementation independent of ours.
"""

from __future__ import annotations

import math
import socket
import sys
import time

from bluerobotics_parts.formats import ping_protocol as pp
from bluerobotics_parts.ros.nodes.ping360_device import (FIRMWARE_VERSION, MAX_PINGS_WAITING,
                                                         Ping360Device, Ping360Server)
from bluerobotics_parts.sensing import sonar_echo as se
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
    assert (info['firmware_version_major'], info['firmware_version_minor']) == \
        FIRMWARE_VERSION[:2]
    assert client.get_protocol_version()['version_major'] == 1
    assert (client._gain_setting, client._transmit_frequency, client._number_of_samples,
            client._sample_period) == (0, 740, 1024, 80)


def test_a_transmitted_ping_returns_the_echo_at_its_range_after_its_listening_time(sonar):
    device, client = sonar
    assert client.initialize()
    settings = se.settings_for_range(20.0)
    for reply in (client.set_number_of_samples(settings['number_of_samples']),
                  client.set_sample_period(settings['sample_period']),
                  client.set_transmit_duration(settings['transmit_duration']),
                  client.set_gain_setting(1)):
        assert reply.message_id == pp.DEVICE_DATA and not reply.data  # moved, no ping
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


def send_and_hear(host, address, frame: pp.Frame, seconds: float, first: bool = False) -> list:
    """Send one frame from ``host``; return what it hears within ``seconds`` (or first)."""
    host.sendto(frame.to_bytes(), address)
    heard, parser, deadline = [], pp.Parser(), time.monotonic() + seconds
    while time.monotonic() < deadline and not (first and heard):
        host.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            heard += parser.feed(host.recv(4096))
        except socket.timeout:
            break
    return heard


def ask(host, address, frame: pp.Frame) -> list:
    """Send one frame; return the first answer (the frames of one datagram, within 1 s)."""
    return send_and_hear(host, address, frame, 1.0, first=True)


@pytest.fixture
def server():
    """Return a running server on a free local port (nothing to echo), stopped afterwards."""
    running = Ping360Server(Ping360Device(lambda angle: math.inf), '127.0.0.1', 0).start()
    yield running
    started = time.monotonic()
    running.stop()
    assert time.monotonic() - started < 3.0


def test_what_a_device_sends_gets_no_answer_so_two_never_talk_for_ever(server):
    other = Ping360Server(Ping360Device(lambda angle: math.inf), '127.0.0.1', 0).start()
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as host:
            for frame in (pp.message(pp.ACK, acked_id=1), pp.message(pp.NACK, nacked_id=6),
                          pp.Frame(9999, b'\x00')):
                assert send_and_hear(host, server.address, frame, 0.3) == []
        # a request that seems to come from the other server: one reply, dropped there
        other.socket.sendto(pp.message(pp.GENERAL_REQUEST, requested_id=5).to_bytes(),
                            server.address)
        time.sleep(0.5)
        assert (server.sequence, other.sequence) == (1, 0)
    finally:
        other.stop()


def test_a_ping_flood_is_nacked_and_a_request_still_answered_at_once(server):
    slow = pp.message(pp.TRANSDUCER, mode=1, gain_setting=0, angle=0, transmit_duration=32,
                      sample_period=40000, transmit_frequency=740, number_of_samples=1200,
                      transmit=1, reserved=0)  # 1.2 s a ping
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as flood, \
            socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as host:
        flood.sendto(b'BR\xff\xff' + bytes(4000), server.address)
        for _ in range(4):
            flood.sendto(slow.to_bytes() * 200, server.address)  # 8 frames a datagram taken
        heard = send_and_hear(flood, server.address, slow, 0.5)
        # 8 x 4 commands and one more: the first 16 wait for their pings, the rest are nacked
        assert [f.fields()['nack_message'] for f in heard] == [
            f'busy: {MAX_PINGS_WAITING} pings waiting'.encode()] * (8 * 4 - MAX_PINGS_WAITING + 1)
        reply = ask(host, server.address,
                    pp.message(pp.GENERAL_REQUEST, requested_id=pp.PROTOCOL_VERSION))
        assert [f.message_id for f in reply] == [pp.PROTOCOL_VERSION]


def test_auto_transmit_goes_to_the_host_that_asked_whoever_else_writes(server):
    auto = pp.message(pp.AUTO_TRANSMIT, mode=1, gain_setting=0, transmit_duration=32,
                      sample_period=80, transmit_frequency=740, number_of_samples=200,
                      start_angle=0, stop_angle=399, num_steps=1, delay=20)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as host, \
            socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as stranger:
        ask(host, server.address, pp.message(pp.GENERAL_REQUEST, requested_id=5))  # speaks first
        started = time.monotonic()
        host.sendto(auto.to_bytes(), server.address)
        stranger.sendto(b'x', server.address)
        asked = ask(stranger, server.address,
                    pp.message(pp.GENERAL_REQUEST, requested_id=pp.DEVICE_INFORMATION))
        assert [f.message_id for f in asked] == [pp.DEVICE_INFORMATION]
        assert send_and_hear(stranger, server.address, pp.Frame(3, b'hi'), 0.3) == []
        stream = send_and_hear(host, server.address, pp.Frame(3, b''), 0.3)
        assert stream and {f.message_id for f in stream} == {pp.AUTO_DEVICE_DATA}
        assert len(stream) <= (time.monotonic() - started) / 0.02 + 2  # 20 ms delay a ping
        host.sendto(pp.message(pp.MOTOR_OFF).to_bytes(), server.address)
        time.sleep(0.1)
        host.settimeout(0.05)
        try:
            while host.recv(4096):  # what was on its way
                pass
        except socket.timeout:
            pass
        assert send_and_hear(host, server.address, pp.Frame(3, b''), 0.3) == []


def test_a_failing_range_source_is_logged_and_the_server_goes_on():
    said = []
    device = Ping360Device(lambda angle: 1 / 0)
    server = Ping360Server(device, '127.0.0.1', 0, said.append).start()
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as host:
            ask(host, server.address, pp.message(pp.GENERAL_REQUEST, requested_id=5))
            ping = pp.message(pp.TRANSDUCER, mode=1, gain_setting=0, angle=0,
                              transmit_duration=32, sample_period=80, transmit_frequency=740,
                              number_of_samples=200, transmit=1, reserved=0)
            assert send_and_hear(host, server.address, ping, 0.3) == []
            assert said and 'ZeroDivisionError' in said[0]
            reply = ask(host, server.address, pp.message(pp.GENERAL_REQUEST, requested_id=5))
            assert [f.message_id for f in reply] == [pp.PROTOCOL_VERSION]
    finally:
        server.stop()


# -- a forged source is no reflector -------------------------------------------------------------

AUTO = pp.message(pp.AUTO_TRANSMIT, mode=1, gain_setting=0, transmit_duration=32,
                  sample_period=80, transmit_frequency=740, number_of_samples=1200,
                  start_angle=0, stop_angle=399, num_steps=1, delay=0)  # 26 bytes
PING = pp.message(pp.TRANSDUCER, mode=1, gain_setting=0, angle=0, transmit_duration=32,
                  sample_period=80, transmit_frequency=740, number_of_samples=1200, transmit=1,
                  reserved=0)  # 24 bytes, a 1,224-byte answer


def hear_bytes(host, seconds: float) -> int:
    """Return the bytes ``host`` receives within ``seconds``."""
    total, deadline = 0, time.monotonic() + seconds
    while time.monotonic() < deadline:
        host.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            total += len(host.recv(4096))
        except socket.timeout:
            break
    return total


def test_a_lone_command_from_an_unknown_source_gets_no_profile(server):
    """One forged auto_transmit (or ping) datagram: a short nack, no stream, no profile."""
    assert (len(AUTO.to_bytes()), len(PING.to_bytes())) == (26, 24)
    for command in (AUTO, PING):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as victim:
            heard = send_and_hear(victim, server.address, command, 0.5)
            assert [f.message_id for f in heard] == [pp.NACK]
            assert heard[0].fields()['nack_message'] == \
                b'no session: send a request first, then ping'
            assert len(heard[0].to_bytes()) < 3 * len(command.to_bytes())
    assert server.device.auto is None and server.auto_client is None


def test_a_stream_stops_when_its_client_stops_asking():
    said = []
    running = Ping360Server(Ping360Device(lambda angle: math.inf), '127.0.0.1', 0, said.append,
                            session_idle=0.4).start()
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as host:
            ask(host, running.address, pp.message(pp.GENERAL_REQUEST, requested_id=5))
            host.sendto(AUTO.to_bytes(), running.address)
            port = host.getsockname()[1]
            assert hear_bytes(host, 0.2) > 0  # streaming
            time.sleep(0.5)
            hear_bytes(host, 0.1)  # what was on its way
            assert hear_bytes(host, 0.5) == 0
        assert running.auto_client is None and running.device.auto is None
        assert said == [f'ping360: auto_transmit to 127.0.0.1:{port} stopped: no request from '
                        'it for 0.4 s']
    finally:
        running.stop()


@pytest.mark.skipif(not sys.platform.startswith('linux'), reason="Linux's IP_RECVERR")
def test_a_stream_stops_when_icmp_says_the_port_is_closed():
    said = []
    running = Ping360Server(Ping360Device(lambda angle: math.inf), '127.0.0.1', 0,
                            said.append).start()
    try:
        host = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        ask(host, running.address, pp.message(pp.GENERAL_REQUEST, requested_id=5))
        host.sendto(AUTO.to_bytes(), running.address)
        assert hear_bytes(host, 0.2) > 0
        port = host.getsockname()[1]
        host.close()  # the port is closed: the kernel answers the stream with ICMP
        deadline = time.monotonic() + 2.0
        while running.auto_client is not None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert running.auto_client is None and ('127.0.0.1', port) not in running.sessions
        assert said == [f'ping360: auto_transmit to 127.0.0.1:{port} stopped: Connection refused '
                        '(ICMP)']
        sent = running.sent
        time.sleep(0.3)
        assert running.sent == sent
    finally:
        running.stop()


def test_what_one_client_is_sent_is_held_to_the_rate_limit(server):
    """The 1,200-sample stream ran at about 117 kB/s; held to the limit and its burst."""
    from bluerobotics_parts.ros.nodes.ping360_device import BURST, RATE_LIMIT

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as host:
        ask(host, server.address, pp.message(pp.GENERAL_REQUEST, requested_id=5))
        host.sendto(AUTO.to_bytes(), server.address)
        started = time.monotonic()
        total = hear_bytes(host, 1.5)
        took = time.monotonic() - started
        host.sendto(pp.message(pp.MOTOR_OFF).to_bytes(), server.address)
    assert RATE_LIMIT * 0.5 < total <= BURST + RATE_LIMIT * took + 1244
