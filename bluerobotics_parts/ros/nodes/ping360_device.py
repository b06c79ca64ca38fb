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
The simulated Ping360 as its owners' tools reach it: ping-protocol over UDP.

A real Ping360 on Ethernet answers ping-protocol datagrams (formats/ping_protocol.py); Ping
Viewer, the brping library and the ROS drivers built on it connect by host and port (brping's
``connect_udp``: port 12345). ``Ping360Device`` answers as the protocol documents
(src/definitions/common.json, ping360.json) and as Ping Viewer drives it (ping-viewer
src/sensor/ping360.cpp): ``general_request``, ``transducer``, ``auto_transmit`` and
``motor_off`` (``Ping360Device.handle`` says how each is answered); settings out of range get a
``nack`` naming the field. The echo of each ping is sensing/sonar_echo.py's, at the range
Gazebo's scan gives at that angle. Plain Python, no ROS: ``scan_to_ping360`` serves it.

UDP has no handshake, so a datagram's source may be forged and the server must not become a
reflector (a 24-byte transducer request answers 1,224 bytes). ``Ping360Server`` keeps a
session per client (address and port): a profile (a transmitted ping, auto_transmit's
stream) goes only to a client whose session was open before the command, i.e. that sent a
datagram in the last ``SESSION_IDLE`` seconds (the tools speak first: brping's ``initialize``
asks for protocol_version, Ping Viewer for device_information, ping-viewer-next chooses
auto_transmit by the firmware version in device_information); other replies are no larger
than a few times their request. A session ends ``SESSION_IDLE`` seconds after the client's
last datagram, or when the kernel reports an ICMP error for it (port closed, host
unreachable: Linux's ``IP_RECVERR``, ip(7)), and auto_transmit's stream ends with it.
Everything sent to one client is held to ``RATE_LIMIT`` bytes a second (a token bucket of
``BURST`` bytes): a reply beyond it waits, and so does the stream.
"""

from __future__ import annotations

from dataclasses import dataclass
import heapq
import os
import select
import socket
import struct
import sys
import threading
import time

from ...formats import ping_protocol as pp
from ...sensing.scanning_sonar import GRADIANS
from ...sensing.sonar_echo import (BOOT, echo_profile, GAINS, MAX_FREQUENCY, MAX_SAMPLE_PERIOD,
                                   MAX_SAMPLES, MIN_FREQUENCY, MIN_SAMPLE_PERIOD, MIN_SAMPLES,
                                   Ping)

DEVICE_TYPE = 2  # common.json device_information: "2: Ping360"
PROTOCOL_VERSION = (1, 1, 0)  # the message set served includes auto_transmit ("NEW (v1.1.0)")
#: The firmware reported: the first that tools take to support auto_transmit
#: (bluerobotics/ping-viewer-next, src/device/manager/mod.rs, supports_auto_transmit: 3.3 or
#: later). Nothing else of a real firmware is emulated.
FIRMWARE_VERSION = (3, 3, 0)
DEFAULT_PORT = 12345  # brping device.py connect_udp(host, port=12345)
LOOPBACK = '127.0.0.1'  # the default host: this machine only
EVERY_INTERFACE = '0.0.0.0'  # every interface: only when asked for by name
#: Each setting a command may carry -> its valid values (ping360.json's descriptions).
RANGES = {'gain_setting': (min(GAINS), max(GAINS)), 'angle': (0, GRADIANS - 1),
          'transmit_duration': (1, 1000),  # "1~1000 us"; Ping Viewer keeps to 5-500
          'sample_period': (MIN_SAMPLE_PERIOD, MAX_SAMPLE_PERIOD),
          'transmit_frequency': (MIN_FREQUENCY, MAX_FREQUENCY),
          'number_of_samples': (MIN_SAMPLES, MAX_SAMPLES),
          'start_angle': (0, GRADIANS - 1), 'stop_angle': (0, GRADIANS - 1),
          'num_steps': (1, 10), 'delay': (0, 100)}
#: What a host sends; anything else is dropped unanswered.
HOST_COMMANDS = (pp.GENERAL_REQUEST, pp.TRANSDUCER, pp.AUTO_TRANSMIT, pp.MOTOR_OFF, pp.RESET)
BROADCAST = 255  # common.json set_device_id: "255 is reserved for broadcast messages"
MAX_PINGS_WAITING = 16  # transducer pings queued; a command beyond it is nacked, not applied
MAX_FRAMES_PER_DATAGRAM = 8  # a host sends one command at a time; the rest is dropped
#: The shortest auto_transmit step, s: the motor's own step time is not published in what we
#: read, so this is a bound on the simulation's work (an estimate), not the sonar's figure.
MIN_AUTO_PERIOD = 0.01
#: A client's session lasts this long after its last datagram (s); a stream stops with it, so a
#: tool that streams with auto_transmit repeats a request (any) within it to keep it going.
SESSION_IDLE = 30.0
MAX_SESSIONS = 64  # clients remembered; beyond, the one heard longest ago is forgotten
#: Bytes a second to one client, and at once: about 50 profiles of 1,200 samples a second (the
#: stream's own floor, MIN_AUTO_PERIOD, allows 100); a bound on what a forged source can
#: draw, chosen here (no figure of the real sonar's rate was found).
RATE_LIMIT = 64 * 1024
BURST = 16 * 1024
#: Linux's IP_RECVERR (include/uapi/linux/in.h: 11), which Python 3.11's socket does not name:
#: ICMP errors for an unconnected UDP socket's destinations are queued for MSG_ERRQUEUE.
IP_RECVERR = getattr(socket, 'IP_RECVERR', 11) if sys.platform.startswith('linux') else None
#: struct sock_extended_err's first field, the error (include/uapi/linux/errqueue.h).
EXTENDED_ERROR = struct.Struct('=I')


@dataclass(frozen=True)
class Reply:
    """A frame to send ``delay`` seconds after the command that asked for it."""

    delay: float
    frame: pp.Frame


class Ping360Device:
    """The Ping360's answers; ``range_at(angle)`` is the metres to the echo at a head angle."""

    def __init__(self, range_at, speed_of_sound: float = 1500.0, device_id: int = 1):
        self.range_at = range_at
        self.speed_of_sound = speed_of_sound
        self.device_id = device_id
        self.reset()

    def reset(self) -> None:
        """Return to the firmware's boot settings, not scanning."""
        self.state = dict(BOOT)
        self.auto = None  # the auto_transmit command's fields while it scans
        self.direction = 1

    def _frame(self, message_id: int, dst: int, **values) -> pp.Frame:
        return pp.message(message_id, self.device_id, dst, **values)

    def nack(self, frame: pp.Frame, text: str) -> list:
        """Return the nack of a host's command, saying why."""
        return [Reply(0.0, self._frame(pp.NACK, frame.src_device_id, nacked_id=frame.message_id,
                                       nack_message=text.encode('ascii', 'replace')))]

    def _ping(self) -> Ping:
        return Ping(self.state['gain_setting'], self.state['transmit_duration'],
                    self.state['sample_period'], self.state['number_of_samples'],
                    self.speed_of_sound)

    def _data(self, transmit: bool) -> bytes:
        if not transmit:
            return b''
        return echo_profile(float(self.range_at(self.state['angle'])), self._ping())

    def handle(self, frame: pp.Frame, trusted: bool = True) -> list:
        """
        Return the replies to one frame from the host (none for what needs no answer).

        ``general_request`` for ``protocol_version``, ``device_information`` or
        ``device_data``; ``transducer`` moves the head and, with ``transmit`` 1, pings and
        replies ``device_data`` once the ping's listening time has passed; ``auto_transmit``
        steps back and forth between the start and stop angles (``auto_device_data`` each ping)
        until ``motor_off``, ``reset`` or another ``transducer``; ``motor_off`` gets an ``ack``.
        What a device sends (ack, nack, data) and unknown ids get no answer, so two devices
        never answer each other for ever. Without ``trusted`` (a client with no session yet:
        ``Ping360Server``) a command that would ping is nacked, not applied.
        """
        if frame.message_id not in HOST_COMMANDS or \
                frame.dst_device_id not in (0, self.device_id, BROADCAST):
            return []
        try:
            values = frame.fields()
        except pp.ProtocolError as error:
            return self.nack(frame, str(error))
        for name, (low, high) in RANGES.items():
            if name in values and not low <= values[name] <= high:
                return self.nack(frame, f'{name} {values[name]} is outside {low} to {high}')
        pings = frame.message_id == pp.AUTO_TRANSMIT or (
            frame.message_id == pp.TRANSDUCER and values['transmit'])
        if pings and not trusted:
            return self.nack(frame, 'no session: send a request first, then ping')
        if frame.message_id == pp.GENERAL_REQUEST:
            return self._request(frame, values['requested_id'])
        if frame.message_id == pp.TRANSDUCER:
            self.auto = None
            self._apply(values)
            transmit = bool(values['transmit'])
            data = self._data(transmit)
            delay = self._ping().listening_time if transmit else 0.0
            return [Reply(delay, self._frame(pp.DEVICE_DATA, frame.src_device_id, data=data,
                                             **self._settings()))]
        if frame.message_id == pp.AUTO_TRANSMIT:
            self._apply(values)
            self.auto = dict(values, dst=frame.src_device_id)
            self.state['angle'] = values['start_angle']
            self.direction = 1
            return []
        if frame.message_id in (pp.MOTOR_OFF, pp.RESET):
            acked = frame.message_id
            self.reset()
            return [Reply(0.0, self._frame(pp.ACK, frame.src_device_id, acked_id=acked))]
        return []

    def _apply(self, values: dict) -> None:
        """Take a command's settings (not its mode: 1 for Ping360 whatever a host sends)."""
        names = values.keys() & RANGES.keys() & self.state.keys()
        self.state.update({name: values[name] for name in names})

    def _settings(self) -> dict:
        return dict(self.state)

    def _request(self, frame: pp.Frame, requested: int) -> list:
        dst = frame.src_device_id
        if requested == pp.PROTOCOL_VERSION:
            major, minor, patch = PROTOCOL_VERSION
            reply = self._frame(pp.PROTOCOL_VERSION, dst, version_major=major,
                                version_minor=minor, version_patch=patch, reserved=0)
        elif requested == pp.DEVICE_INFORMATION:
            major, minor, patch = FIRMWARE_VERSION
            reply = self._frame(pp.DEVICE_INFORMATION, dst, device_type=DEVICE_TYPE,
                                device_revision=0, firmware_version_major=major,
                                firmware_version_minor=minor, firmware_version_patch=patch,
                                reserved=0)
        elif requested == pp.DEVICE_DATA:
            reply = self._frame(pp.DEVICE_DATA, dst, data=b'', **self._settings())
        else:
            return self.nack(frame, f'cannot send message {requested}: this Ping360 sends '
                                    f'{pp.PROTOCOL_VERSION}, {pp.DEVICE_INFORMATION} and '
                                    f'{pp.DEVICE_DATA} on request')
        return [Reply(0.0, reply)]

    def stop_auto(self) -> None:
        """Stop auto_transmit's stream (its client is gone); the settings stay."""
        self.auto = None

    def auto_step(self):
        """Return the next auto_transmit ping (its delay includes the command's), or None."""
        if self.auto is None:
            return None
        auto = self.auto
        data = self._data(True)
        reply = self._frame(pp.AUTO_DEVICE_DATA, auto['dst'], data=data,
                            start_angle=auto['start_angle'], stop_angle=auto['stop_angle'],
                            num_steps=auto['num_steps'], delay=auto['delay'],
                            **self._settings())
        self.state['angle'] = self._next_angle(auto)
        period = self._ping().listening_time + auto['delay'] / 1000.0
        return Reply(max(period, MIN_AUTO_PERIOD), reply)

    def _next_angle(self, auto: dict) -> int:
        """Step towards the stop angle, then back to the start (a whole turn when they meet)."""
        start, stop, step = auto['start_angle'], auto['stop_angle'], auto['num_steps']
        span = (stop - start) % GRADIANS or GRADIANS
        offset = (self.state['angle'] - start) % GRADIANS
        if span == GRADIANS:
            return (self.state['angle'] + step) % GRADIANS
        offset += self.direction * step
        if offset >= span or offset <= 0:
            self.direction = -self.direction
            offset = min(max(offset, 0), span)
        return (start + offset) % GRADIANS


class Session:
    """A client the server has heard: when last, and what it may still be sent now (bytes)."""

    def __init__(self, now: float):
        self.heard = self.filled = now
        self.budget = float(BURST)

    def refill(self, now: float, rate: float) -> None:
        self.budget = min(float(BURST), self.budget + (now - self.filled) * rate)
        self.filled = now


class Ping360Server:
    """
    Serves a Ping360Device on a UDP port, in a thread of its own (``start``, ``stop``).

    One ping at a time, as the one transducer makes them: a ping's reply waits for those before
    it, at most ``MAX_PINGS_WAITING`` of them (a command beyond is nacked, not applied); answers
    that take no ping go at once. auto_transmit's pings go to the host that asked for them,
    while its session lasts. Sessions, the rate per client and ICMP: the module's doc.
    ``log(text)`` hears what went wrong in the thread (it keeps serving) and when a stream
    stops for want of its client.
    """

    def __init__(self, device: Ping360Device, host: str = LOOPBACK, port: int = DEFAULT_PORT,
                 log=None, session_idle: float = SESSION_IDLE, rate: float = RATE_LIMIT):
        self.device = device
        self.log = log or (lambda text: None)
        self.session_idle, self.rate = session_idle, rate
        self.lock = threading.Lock()  # the device's state: the thread and its owner
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            self.socket.bind((host, port))
            if IP_RECVERR is not None:
                self.socket.setsockopt(socket.IPPROTO_IP, IP_RECVERR, 1)
            self.socket.setblocking(False)
        except (OSError, OverflowError):
            self.socket.close()
            raise
        self.address = self.socket.getsockname()
        self.pending = []  # heap of (due, sequence, client, bytes, whether a ping)
        self.sequence = 0
        self.busy_until = 0.0
        self.pings_waiting = 0
        self.sessions = {}  # client (host, port) -> Session
        self.sent = 0  # datagrams sent, for whoever watches
        self.auto_client = None  # the host that asked for auto_transmit
        self.next_auto = None
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._serve, name='ping360', daemon=True)

    def start(self) -> 'Ping360Server':
        """Start answering; return self."""
        self.thread.start()
        return self

    def stop(self) -> None:
        """Stop answering and free the port."""
        self.stopping.set()
        if self.thread.is_alive():
            self.thread.join(timeout=2.0)
        self.socket.close()

    def _push(self, due: float, client, frame: pp.Frame, ping: bool) -> None:
        self.sequence += 1
        self.pings_waiting += ping
        heapq.heappush(self.pending, (due, self.sequence, client, frame.to_bytes(), ping))

    def _queue(self, reply: Reply, client, now: float) -> None:
        if reply.delay <= 0.0:
            self._push(now, client, reply.frame, False)
            return
        due = max(now, self.busy_until) + reply.delay
        self.busy_until = due
        self._push(due, client, reply.frame, True)

    def _command(self, frame: pp.Frame, client, now: float, trusted: bool) -> None:
        busy = (frame.message_id == pp.TRANSDUCER and self.pings_waiting >= MAX_PINGS_WAITING)
        replies = (self.device.nack(frame, f'busy: {self.pings_waiting} pings waiting')
                   if busy else self.device.handle(frame, trusted))
        for reply in replies:
            self._queue(reply, client, now)
        if self.device.auto is None:
            self.auto_client = self.next_auto = None
        elif frame.message_id == pp.AUTO_TRANSMIT:
            self.auto_client, self.next_auto = client, now

    def _session(self, client, now: float) -> bool:
        """Note a datagram from ``client``; return whether its session was open before it."""
        session = self.sessions.get(client)
        trusted = session is not None and now - session.heard <= self.session_idle
        if session is None:
            if len(self.sessions) >= MAX_SESSIONS:
                self._forget(min(self.sessions, key=lambda c: self.sessions[c].heard),
                             'more clients than the server remembers')
            session = self.sessions[client] = Session(now)
        session.heard = now
        return trusted

    def _forget(self, client, why: str) -> None:
        """End a client's session: its stream stops, nothing more waits to go to it."""
        self.sessions.pop(client, None)
        kept = [item for item in self.pending if item[2] != client]
        self.pings_waiting -= sum(item[4] for item in self.pending if item[2] == client)
        self.pending = kept
        heapq.heapify(self.pending)
        if client == self.auto_client:
            with self.lock:
                self.device.stop_auto()
            self.auto_client = self.next_auto = None
            self.log(f'ping360: auto_transmit to {client[0]}:{client[1]} stopped: {why}')

    def _receive(self, now: float) -> None:
        self._read_errors()
        try:
            data, client = self.socket.recvfrom(4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:  # an ICMP error surfacing on the plain read; its queue was read above
            self._read_errors()
            return
        frames = pp.Parser().feed(data)[:MAX_FRAMES_PER_DATAGRAM]
        trusted = self._session(client, now)
        with self.lock:
            for frame in frames:
                if len(self.pending) < 2 * MAX_PINGS_WAITING:
                    self._command(frame, client, now, trusted)

    def _read_errors(self) -> None:
        """End the session of every client an ICMP error came back for (IP_RECVERR's queue)."""
        if IP_RECVERR is None:
            return
        while True:
            try:
                _, ancillary, _, client = self.socket.recvmsg(
                    64, 256, socket.MSG_ERRQUEUE | socket.MSG_DONTWAIT)
            except OSError:  # the queue is empty (EAGAIN), or there is none
                return
            errors = [EXTENDED_ERROR.unpack_from(data)[0] for level, kind, data in ancillary
                      if level == socket.IPPROTO_IP and kind == IP_RECVERR
                      and len(data) >= EXTENDED_ERROR.size]
            why = os.strerror(errors[0]) if errors else 'an ICMP error'
            if client in self.sessions:
                self._forget(client, f'{why} (ICMP)')

    def _send_due(self, now: float) -> None:
        while self.pending and self.pending[0][0] <= now:
            item = heapq.heappop(self.pending)
            _, sequence, client, data, ping = item
            session = self.sessions.get(client)
            if session is None:  # forgotten since: its replies go nowhere
                self.pings_waiting -= ping
                continue
            session.refill(now, self.rate)
            if session.budget < len(data):  # beyond the client's rate: it waits its turn
                due = now + (len(data) - session.budget) / self.rate
                heapq.heappush(self.pending, (due, sequence, client, data, ping))
                continue
            session.budget -= len(data)
            self.pings_waiting -= ping
            try:
                self.socket.sendto(data, client)
                self.sent += 1
            except OSError:
                pass  # the host went away, or the buffer is full: lost, as on a real link

    def _auto(self, now: float) -> None:
        session = self.sessions.get(self.auto_client)
        if session is None or now - session.heard > self.session_idle:
            self._forget(self.auto_client, f'no request from it for {self.session_idle:g} s')
            return
        with self.lock:
            reply = self.device.auto_step()
        if reply is None or self.auto_client is None:
            self.next_auto = None
            return
        self._push(now + reply.delay, self.auto_client, reply.frame, False)
        self.next_auto = now + reply.delay

    def _expire(self, now: float) -> None:
        for client in [c for c, s in self.sessions.items()
                       if now - s.heard > self.session_idle and c != self.auto_client]:
            del self.sessions[client]

    def _serve(self) -> None:
        while not self.stopping.is_set():
            now = time.monotonic()
            try:
                self._send_due(now)
                if self.next_auto is not None and self.next_auto <= now and not self.pending:
                    self._auto(now)
                self._expire(now)
            except Exception as error:  # noqa: B902 (a range source's fault ends no server)
                self.log(f'ping360: {type(error).__name__}: {error}')
                self.next_auto = None
            if self.pending:
                wake = self.pending[0][0]
            else:
                wake = self.next_auto if self.next_auto is not None else now + 0.05
            try:
                readable, _, _ = select.select([self.socket], [], [],
                                               min(0.05, max(0.0, wake - now)))
            except (OSError, ValueError):
                return
            if not readable:
                continue
            try:
                self._receive(time.monotonic())
            except OSError:
                continue
            except Exception as error:  # noqa: B902
                self.log(f'ping360: {type(error).__name__}: {error}')
