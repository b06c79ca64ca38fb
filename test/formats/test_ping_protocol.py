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
The ping-protocol frames (formats/ping_protocol.py), against the protocol's worked example.

And against an independent implementation: brping (bluerobotics-ping, the library Ping360
owners script with).
"""

from __future__ import annotations

import random

from bluerobotics_parts.formats import ping_protocol as pp
import pytest

# bluerobotics/ping-protocol docs/index.md, "Negotiation example": the bytes of a
# general_request for protocol_version, and of a protocol_version 1.2.3 reply.
REQUEST = bytes([0x42, 0x52, 0x02, 0x00, 0x06, 0x00, 0x00, 0x00, 0x05, 0x00, 0xa1, 0x00])
REPLY = bytes([0x42, 0x52, 0x04, 0x00, 0x05, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03, 0x00,
               0xa3, 0x00])


def test_the_documented_example_frames():
    assert pp.message(pp.GENERAL_REQUEST, requested_id=5).to_bytes() == REQUEST
    assert pp.message(pp.PROTOCOL_VERSION, version_major=1, version_minor=2, version_patch=3,
                      reserved=0).to_bytes() == REPLY
    (frame,) = pp.Parser().feed(REPLY)
    assert frame.fields() == {'version_major': 1, 'version_minor': 2, 'version_patch': 3,
                              'reserved': 0}


def brping_message(message_id, **values):
    """Return brping's bytes for a message (its own packer, from its own definitions)."""
    pingmessage = pytest.importorskip('brping.pingmessage')
    message = pingmessage.PingMessage(message_id)
    for name, value in values.items():
        setattr(message, name, value)
    message.pack_msg_data()
    return bytes(message.msg_data)


def test_our_frames_are_brpings():
    """Every layout we pack, byte for byte as brping packs it (independent code, same spec)."""
    transducer = {'mode': 1, 'gain_setting': 2, 'angle': 399, 'transmit_duration': 107,
                  'sample_period': 888, 'transmit_frequency': 750, 'number_of_samples': 1200,
                  'transmit': 1, 'reserved': 0}
    assert pp.message(pp.TRANSDUCER, **transducer).to_bytes() == brping_message(
        pp.TRANSDUCER, **transducer)
    data = bytes(random.Random(3).randrange(256) for _ in range(1200))
    device_data = {'mode': 1, 'gain_setting': 0, 'angle': 17, 'transmit_duration': 32,
                   'sample_period': 80, 'transmit_frequency': 740, 'number_of_samples': 1200}
    ours = pp.message(pp.DEVICE_DATA, data=data, **device_data).to_bytes()
    assert ours == brping_message(pp.DEVICE_DATA, data=data, data_length=len(data),
                                  **device_data)
    auto = {'mode': 1, 'gain_setting': 1, 'transmit_duration': 32, 'sample_period': 80,
            'transmit_frequency': 740, 'number_of_samples': 1024, 'start_angle': 10,
            'stop_angle': 390, 'num_steps': 2, 'delay': 5}
    assert pp.message(pp.AUTO_TRANSMIT, **auto).to_bytes() == brping_message(
        pp.AUTO_TRANSMIT, **auto)
    assert pp.message(pp.MOTOR_OFF).to_bytes() == brping_message(pp.MOTOR_OFF)
    (frame,) = pp.Parser().feed(ours)
    assert frame.fields() == {**device_data, 'data': data}


def test_the_parser_finds_frames_in_noise_and_pieces():
    good = pp.message(pp.GENERAL_REQUEST, requested_id=4).to_bytes()
    corrupt = bytearray(good)
    corrupt[8] ^= 0xff  # checksum no longer matches
    stream = b'\x00BRxx' + bytes(corrupt) + b'B' + good + good
    parser = pp.Parser()
    frames = []
    for i in range(0, len(stream), 3):  # three bytes at a time
        frames += parser.feed(stream[i:i + 3])
    assert [f.fields() for f in frames] == [{'requested_id': 4}] * 2
    assert parser.dropped >= 1


def test_a_declared_length_beyond_the_bound_is_dropped_not_awaited():
    header = pp.HEADER.pack(pp.START, pp.MAX_PAYLOAD + 1, pp.DEVICE_DATA, 0, 0)
    parser = pp.Parser()
    good = pp.message(pp.MOTOR_OFF).to_bytes()
    assert [f.message_id for f in parser.feed(header + good)] == [pp.MOTOR_OFF]
    assert parser.dropped == 1 and len(parser.buffer) <= 1


def test_random_bytes_never_raise_and_never_grow_the_buffer():
    rng = random.Random(23)
    parser = pp.Parser()
    for _ in range(2000):
        chunk = bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
        if rng.random() < 0.3:
            chunk = b'BR' + chunk
        for frame in parser.feed(chunk):
            try:
                frame.fields()
            except pp.ProtocolError:
                pass
        assert len(parser.buffer) <= pp.HEADER.size + pp.MAX_PAYLOAD + pp.CHECKSUM.size


@pytest.mark.parametrize('payload, message', [
    (b'\x01', 'has a 1-byte payload, its layout 2 bytes'),
    (b'\x01\x02\x03', 'has a 3-byte payload, its layout 2 bytes'),
])
def test_a_payload_that_does_not_fit_its_layout_says_so(payload, message):
    with pytest.raises(pp.ProtocolError, match=message):
        pp.Frame(pp.GENERAL_REQUEST, payload).fields()


def test_a_data_count_beyond_the_bytes_is_refused():
    frame = pp.message(pp.DEVICE_DATA, data=b'\x01\x02', mode=1, gain_setting=0, angle=0,
                       transmit_duration=32, sample_period=80, transmit_frequency=740,
                       number_of_samples=2)
    with pytest.raises(pp.ProtocolError, match='says 2 data bytes, carries 1'):
        pp.Frame(frame.message_id, frame.payload[:-1]).fields()
