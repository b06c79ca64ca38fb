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
Blue Robotics' ping-protocol on the wire: the frames a Ping360 and its host exchange.

What Ping Viewer, the ``bluerobotics-ping`` Python library (brping) and the ROS drivers built
on it speak to a real Ping360; the simulated one (ros/nodes/ping360_device.py) speaks it too, so
those tools read the simulation unchanged. From bluerobotics/ping-protocol (v1.0.0 and later, read
at master ac1eb5a): docs/index.md, "Message Format": ``'B' 'R'``, u16 payload_length, u16
message_id, u8 src_device_id, u8 dst_device_id, the payload, u16 checksum = the sum of every
byte before it; all little-endian. The payloads (``LAYOUTS``) are src/definitions/common.json
and ping360.json, field by field; a ``vector`` with ``sizetype: u16`` is a u16 count then the
bytes.

Input from the network is data: ``Parser`` keeps at most one frame's bytes, drops a frame whose
checksum fails or whose declared length is beyond ``MAX_PAYLOAD``, and resynchronises on the
next ``'B' 'R'``.
"""

from __future__ import annotations

from dataclasses import dataclass
import struct

START = b'BR'
HEADER = struct.Struct('<2sHHBB')  # start, payload_length, message_id, src, dst
CHECKSUM = struct.Struct('<H')
#: The longest payload accepted: device_data at 1200 samples is 14 + 2 + 1200 bytes.
MAX_PAYLOAD = 2048

# Message ids: common.json and ping360.json.
ACK, NACK, ASCII_TEXT, DEVICE_INFORMATION, PROTOCOL_VERSION, GENERAL_REQUEST = 1, 2, 3, 4, 5, 6
DEVICE_DATA, AUTO_DEVICE_DATA = 2300, 2301
RESET, TRANSDUCER, AUTO_TRANSMIT, MOTOR_OFF = 2600, 2601, 2602, 2903

#: message id -> (struct of the fixed fields, their names); a trailing vector follows the
#: fixed fields as a u16 count and that many bytes (``VECTORS``).
LAYOUTS = {
    ACK: ('<H', ('acked_id',)),
    NACK: ('<H', ('nacked_id',)),
    GENERAL_REQUEST: ('<H', ('requested_id',)),
    DEVICE_INFORMATION: ('<BBBBBB', ('device_type', 'device_revision', 'firmware_version_major',
                                     'firmware_version_minor', 'firmware_version_patch',
                                     'reserved')),
    PROTOCOL_VERSION: ('<BBBB', ('version_major', 'version_minor', 'version_patch',
                                 'reserved')),
    DEVICE_DATA: ('<BBHHHHH', ('mode', 'gain_setting', 'angle', 'transmit_duration',
                               'sample_period', 'transmit_frequency', 'number_of_samples')),
    AUTO_DEVICE_DATA: ('<BBHHHHHHBBH', ('mode', 'gain_setting', 'angle', 'transmit_duration',
                                        'sample_period', 'transmit_frequency', 'start_angle',
                                        'stop_angle', 'num_steps', 'delay',
                                        'number_of_samples')),
    RESET: ('<BB', ('bootloader', 'reserved')),
    TRANSDUCER: ('<BBHHHHHBB', ('mode', 'gain_setting', 'angle', 'transmit_duration',
                                'sample_period', 'transmit_frequency', 'number_of_samples',
                                'transmit', 'reserved')),
    AUTO_TRANSMIT: ('<BBHHHHHHBB', ('mode', 'gain_setting', 'transmit_duration',
                                    'sample_period', 'transmit_frequency', 'number_of_samples',
                                    'start_angle', 'stop_angle', 'num_steps', 'delay')),
    MOTOR_OFF: ('<', ()),
}
#: message id -> the name of its trailing vector (nack's is ASCII text, the data's u8 samples).
VECTORS = {NACK: 'nack_message', DEVICE_DATA: 'data', AUTO_DEVICE_DATA: 'data'}


class ProtocolError(ValueError):
    """A payload that does not fit its message's layout."""


@dataclass(frozen=True)
class Frame:
    """One message: its id, the devices' ids and the payload bytes."""

    message_id: int
    payload: bytes = b''
    src_device_id: int = 0
    dst_device_id: int = 0

    def to_bytes(self) -> bytes:
        """Return the frame as sent: header, payload, checksum."""
        if len(self.payload) > 0xFFFF:
            raise ProtocolError(f'payload of {len(self.payload)} bytes is beyond a u16 length')
        head = HEADER.pack(START, len(self.payload), self.message_id, self.src_device_id,
                           self.dst_device_id)
        body = head + self.payload
        return body + CHECKSUM.pack(sum(body) & 0xFFFF)

    def fields(self) -> dict:
        """Return the payload's fields by name (``LAYOUTS``); ProtocolError if it does not fit."""
        layout = LAYOUTS.get(self.message_id)
        if layout is None:
            raise ProtocolError(f'message {self.message_id} is not one this device knows')
        fixed = struct.Struct(layout[0])
        vector = VECTORS.get(self.message_id)
        expected = fixed.size + (0 if vector is None or self.message_id == NACK else 2)
        if len(self.payload) < expected or (vector is None and len(self.payload) != expected):
            raise ProtocolError(f'message {self.message_id} has a {len(self.payload)}-byte '
                                f'payload, its layout {expected} bytes')
        values = dict(zip(layout[1], fixed.unpack_from(self.payload)))
        if vector == 'nack_message':
            values[vector] = self.payload[fixed.size:]
        elif vector is not None:
            (count,) = struct.unpack_from('<H', self.payload, fixed.size)
            values[vector] = self.payload[expected:expected + count]
            if len(values[vector]) != count:
                raise ProtocolError(f'message {self.message_id} says {count} data bytes, '
                                    f'carries {len(values[vector])}')
        return values


def message(message_id: int, src_device_id: int = 0, dst_device_id: int = 0, **values) -> Frame:
    """Return a frame of ``message_id`` with its payload packed from ``values`` (``LAYOUTS``)."""
    fmt, names = LAYOUTS[message_id]
    missing = [name for name in names if name not in values]
    if missing:
        raise ProtocolError(f'message {message_id} needs {", ".join(missing)}')
    payload = struct.pack(fmt, *(values[name] for name in names))
    vector = VECTORS.get(message_id)
    if vector == 'nack_message':
        payload += bytes(values.get(vector, b''))
    elif vector is not None:
        data = bytes(values.get(vector, b''))
        payload += struct.pack('<H', len(data)) + data
    return Frame(message_id, payload, src_device_id, dst_device_id)


class Parser:
    """Frames out of a byte stream (or datagrams), whatever arrives between them."""

    def __init__(self):
        self.buffer = bytearray()
        self.dropped = 0  # frames refused: bad checksum or length beyond MAX_PAYLOAD

    def feed(self, data: bytes) -> list:
        """Return the frames completed by ``data``; keeps at most one partial frame."""
        self.buffer += data
        frames = []
        while True:
            start = self.buffer.find(START)
            if start < 0:
                del self.buffer[:max(0, len(self.buffer) - 1)]  # a lone 'B' may begin a frame
                return frames
            del self.buffer[:start]
            if len(self.buffer) < HEADER.size:
                return frames
            _, length, message_id, src, dst = HEADER.unpack_from(self.buffer)
            if length > MAX_PAYLOAD:
                self.dropped += 1
                del self.buffer[:1]
                continue
            end = HEADER.size + length + CHECKSUM.size
            if len(self.buffer) < end:
                return frames
            (checksum,) = CHECKSUM.unpack_from(self.buffer, end - CHECKSUM.size)
            if checksum != sum(self.buffer[:end - CHECKSUM.size]) & 0xFFFF:
                self.dropped += 1
                del self.buffer[:1]
                continue
            frames.append(Frame(message_id, bytes(self.buffer[HEADER.size:end - CHECKSUM.size]),
                                src, dst))
            del self.buffer[:end]
