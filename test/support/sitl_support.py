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
ArduPilot SITL flying a built vehicle in a headless Gazebo Harmonic, for the tests.

Found as an install provides them: Gazebo Harmonic (gz_support), the SITL program on PATH with
ArduPilot's defaults above it (bluerobotics_parts.ardupilot.sitl), ArduPilot's plugin on
GZ_SIM_SYSTEM_PLUGIN_PATH, pymavlink. ``fly`` runs one flight in a fresh process (this file as a
script): the composed URDF converted by SDFormat 14 into the shipped world (its Sensors system,
which renders, taken out), ``gz sim -s -r`` and SITL started as the launch starts it, a
ground station (pymavlink) that waits for the normal arming checks to pass in MANUAL and then
gives the stick inputs, and the model's true pose read from its odometry.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from xml.etree import ElementTree

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
WORLD = REPO / 'config' / 'worlds' / 'water.sdf'
GET_ARDUPILOT = ('build ArduPilot SITL (./waf configure --board sitl && ./waf sub rover) and '
                 "ArduPilot/ardupilot_gazebo's plugin for Gazebo Harmonic, with build/sitl/bin "
                 'on PATH and the plugin on GZ_SIM_SYSTEM_PLUGIN_PATH')


def missing(firmware: str) -> str | None:
    """Why this firmware cannot fly here (None when it can)."""
    import gz_support

    from bluerobotics_parts.ardupilot import sitl
    from bluerobotics_parts.errors import AutopilotError

    reason = gz_support.missing()
    if reason:
        return reason
    try:
        binary = sitl.find_binary(firmware)
        sitl.find_defaults(binary, {'ardusub': 'sub.parm', 'ardurover': 'rover.parm'}[firmware])
    except AutopilotError as error:
        return f'needs ArduPilot SITL: {error}'
    folders = [f for f in os.environ.get('GZ_SIM_SYSTEM_PLUGIN_PATH', '').split(os.pathsep) if f]
    if not any((Path(f) / 'libArduPilotPlugin.so').is_file() for f in folders):
        return f"needs ArduPilot's Gazebo plugin (libArduPilotPlugin.so): {GET_ARDUPILOT}"
    try:
        import pymavlink  # noqa: F401
    except ImportError:
        return 'needs pymavlink (PyPI; tools/setup.sh test installs it)'
    return None


def fly(config, steps: list, timeout: float = 600, mission: list | None = None,
        esc: str = 'curve') -> dict:
    """
    Fly ``config`` through ``steps`` and return what happened.

    A step is ``{'seconds': s, 'stick': {...}}``: for ArduSub MANUAL_CONTROL's x, y, z, r
    (-1000 to 1000, z 0 to 1000), for ArduRover RC channels (``{'1': pwm, '3': pwm}``); with
    ``'mode': NAME`` the step first switches to that flight mode (ArduPilot's name: ALT_HOLD,
    STABILIZE, ACRO, AUTO...) and waits until the autopilot reports it. ``mission``: waypoints
    as (east, north) metres from the start, uploaded once armed, for AUTO. The result:
    ``armed_after`` (s), and per step the true pose at its start and end (x, y, z m, roll,
    pitch, yaw deg, yaw unwrapped: it counts whole turns), ``turned``, the largest heading
    change on the way (deg), ``worst_roll``/``worst_pitch`` (deg, the largest magnitude),
    ``depth_spread`` (m, the largest change of z from the step's start) and ``track``
    ([t, x, y, z, pitch, the autopilot's z estimate] every 0.25 s). Each flight takes a SITL
    instance whose ports are free. ``SITL_SUPPORT_PARAMETERS`` (JSON name -> value) sets
    parameters before arming, to try one without rebuilding. ``esc``: the build's ESC model
    (``curve`` or ``linear``, build_gazebo's ``esc``).
    """
    with tempfile.TemporaryDirectory(prefix='sitl_flight_') as temporary:
        folder = Path(temporary)
        spec = {'config': str(config), 'steps': steps, 'folder': str(folder),
                'result': str(folder / 'result.json'), 'mission': mission or [],
                'esc': esc}
        (folder / 'spec.json').write_text(json.dumps(spec), encoding='utf-8')
        run = subprocess.run([sys.executable, __file__, str(folder / 'spec.json')],
                             capture_output=True, text=True, stdin=subprocess.DEVNULL,
                             timeout=timeout)
        result = folder / 'result.json'
        logs = ''.join(f'--- {name}\n' + (folder / name).read_text(errors='replace')[-3000:]
                       for name in ('sitl.log', 'gz.log') if (folder / name).is_file())
        if run.returncode != 0 or not result.is_file():
            raise AssertionError(f'the flight failed (exit {run.returncode}):\n'
                                 + (run.stdout + run.stderr)[-4000:] + logs)
        return json.loads(result.read_text(encoding='utf-8'))


# -- the flight (this file as a script) ----------------------------------------------------------

def _world(build, folder: Path) -> Path:
    from bluerobotics_parts.gazebo.spawned_model import gazebo_sdf

    (folder / 'robot_description.urdf').write_text(build.urdf, encoding='utf-8')
    model = ElementTree.fromstring(gazebo_sdf(build.urdf)).find('model')  # as the launch spawns
    placed = model.find('pose')
    if placed is None:
        placed = ElementTree.SubElement(model, 'pose')
    placed.attrib.clear()
    depth = build.catalogue[build.resolved.record.base.type].spawn_depth
    placed.text = f'0 0 {-depth} 0 0 0'
    tree = ElementTree.parse(WORLD)
    world = tree.getroot().find('world')
    for plugin in world.findall('plugin'):
        if plugin.get('name') == 'gz::sim::systems::Sensors':  # renders: none here
            world.remove(plugin)
    world.append(model)
    path = folder / 'world.sdf'
    path.write_bytes(ElementTree.tostring(tree.getroot()))
    return path


def _flight(spec: dict) -> None:
    from bluerobotics_parts.ardupilot import sitl
    from bluerobotics_parts.build import build_gazebo
    from bluerobotics_parts.paths import ARDUPILOT_FILE

    folder = Path(spec['folder'])
    instance = free_instance()
    build = build_gazebo(spec['config'], autopilot='ardupilot', autopilot_instance=instance,
                         esc=spec['esc'])
    (folder / ARDUPILOT_FILE).write_text(build.ardupilot_parm, encoding='utf-8')
    world = _world(build, folder)
    resources = folder / 'resources'
    resources.mkdir()
    (resources / 'bluerobotics_parts').symlink_to(REPO, target_is_directory=True)
    os.environ.update(GZ_IP='127.0.0.1', GZ_PARTITION=f'sitl_flight_{os.getpid()}')
    import gz_support  # gz's Python systems (the ESC system) see the tests' packages too

    os.environ['PYTHONPATH'] = gz_support.python_path_for_gz(os.environ.get('PYTHONPATH', ''))
    os.environ['GZ_SIM_RESOURCE_PATH'] = os.pathsep.join(
        [str(resources)] + [p for p in os.environ.get('GZ_SIM_RESOURCE_PATH', '').split(
            os.pathsep) if p])
    frame = build.autopilot.frame
    binary = sitl.find_binary(frame.firmware)
    command = sitl.command(binary, sitl.find_defaults(binary, frame.defaults),
                           folder / ARDUPILOT_FILE, instance, (*HOME, 0.0, 0.0))
    processes = []
    try:
        with open(folder / 'gz.log', 'w') as log:
            processes.append(subprocess.Popen([shutil.which('gz'), 'sim', '-s', '-r', str(world)],
                                              cwd=folder, stdout=log, stderr=subprocess.STDOUT,
                                              stdin=subprocess.DEVNULL, start_new_session=True))
        with open(folder / 'sitl.log', 'w') as log:
            processes.append(subprocess.Popen(command, cwd=folder, stdout=log,
                                              stderr=subprocess.STDOUT,
                                              stdin=subprocess.DEVNULL, start_new_session=True))
        result = _pilot(build, frame.firmware, spec['steps'], sitl.endpoint(instance),
                        spec.get('mission') or [])
    finally:
        for process in processes:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    Path(spec['result']).write_text(json.dumps(result), encoding='utf-8')


_HELD: list = []  # the instance locks this process holds


def free_instance() -> int:
    """
    Return a SITL instance whose ports are all free here (1 to 40), so flights never meet.

    Instance N takes TCP 5760 + 10 N to 5763 + 10 N (its serial ports) and UDP 9002 + 10 N and
    9003 + 10 N (the plugin's JSON link); another SITL on the machine holding 5760 once made
    a flight talk to the wrong autopilot. A lock file per instance, held until this process
    ends, keeps two flights that probe at once from taking the same one.
    """
    import fcntl
    import random
    import socket

    from bluerobotics_parts.ardupilot.plugin import fdm_port, mavlink_port

    def free(kind, port):
        with socket.socket(socket.AF_INET, kind) as probe:
            try:
                probe.bind(('127.0.0.1', port))
            except OSError:
                return False
        return True

    for instance in random.sample(range(1, 41), 40):
        lock = open(Path(tempfile.gettempdir()) / f'bluerobotics_parts_sitl_{instance}.lock', 'a')
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.close()
            continue
        if all(free(socket.SOCK_STREAM, mavlink_port(instance) + k) for k in range(4)) and \
                all(free(socket.SOCK_DGRAM, fdm_port(instance) + k) for k in range(2)):
            _HELD.append(lock)  # released when the flight's process ends
            return instance
        lock.close()
    raise AssertionError('no SITL instance from 1 to 40 has its ports free here')


HOME = (33.8468, -118.3985)  # lat, lon: where SITL starts (the world's origin)
EARTH_RADIUS = 6378137.0  # m, WGS-84 equatorial: metres to degrees for waypoints near home


def _pilot(build, firmware: str, steps: list, endpoint: str, mission: list) -> dict:
    import gz.transport13 as transport
    from gz.msgs10.odometry_pb2 import Odometry
    from pymavlink import mavutil

    pose = {}

    def on_odometry(message):
        p, q = message.pose.position, message.pose.orientation
        roll = math.degrees(math.atan2(2 * (q.w * q.x + q.y * q.z), 1 - 2 * (q.x ** 2 + q.y ** 2)))
        pitch = math.degrees(math.asin(max(-1.0, min(1.0, 2 * (q.w * q.y - q.z * q.x)))))
        yaw = math.degrees(math.atan2(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.y ** 2 + q.z ** 2)))
        if 'yaw' in pose:  # unwrapped: a turn past 180 deg keeps counting
            yaw += 360.0 * round((pose['yaw'] - yaw) / 360.0)
        pose.update(x=p.x, y=p.y, z=p.z, roll=roll, pitch=pitch, yaw=yaw)

    node = transport.Node()
    node.subscribe(Odometry, f'/model/{build.name}/odometry', on_odometry)
    link = None
    deadline = time.monotonic() + 60
    while link is None:
        try:
            link = mavutil.mavlink_connection(endpoint, source_system=255)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(1)
    link.wait_heartbeat(timeout=60)
    texts = []
    for name, value in (os.environ.get('SITL_SUPPORT_PARAMETERS') or {}) and \
            json.loads(os.environ['SITL_SUPPORT_PARAMETERS']).items():
        link.param_set_send(name, float(value))
    armed_after, started = None, time.monotonic()
    while armed_after is None and time.monotonic() - started < 180:
        link.set_mode(link.mode_mapping()['MANUAL'])
        link.mav.command_long_send(link.target_system, link.target_component,
                                   mavutil.mavlink.MAV_CMD_COMPONENT_ARM_DISARM, 0,
                                   1, 0, 0, 0, 0, 0, 0)  # param2 0: the normal checks
        until = time.monotonic() + 3
        while time.monotonic() < until and armed_after is None:
            message = link.recv_match(blocking=True, timeout=0.5)
            if message is None:
                continue
            if message.get_type() == 'STATUSTEXT':
                texts.append(message.text)
            if message.get_type() == 'HEARTBEAT' and \
                    message.get_srcSystem() == link.target_system and \
                    message.base_mode & mavutil.mavlink.MAV_MODE_FLAG_SAFETY_ARMED:
                armed_after = time.monotonic() - started
    if armed_after is None:
        raise AssertionError('never armed; the autopilot said: ' + ' | '.join(texts[-20:]))
    if mission:  # once armed: straight after boot its mission store holds no item yet
        _upload(link, mission, texts)

    def send(stick):
        if firmware == 'ardusub':
            link.mav.manual_control_send(link.target_system, stick.get('x', 0),
                                         stick.get('y', 0), stick.get('z', 500),
                                         stick.get('r', 0), 0)
        else:
            channels = [int(stick.get(str(n), 65535)) for n in range(1, 9)]
            link.mav.rc_channels_override_send(link.target_system, link.target_component,
                                               *channels)

    flown, estimate = [], {}  # the autopilot's own height estimate, m above home
    for step in steps:
        if 'mode' in step:
            _switch(link, step['mode'], texts, lambda: send(step['stick']))
        before = dict(pose)
        turned = worst_roll = worst_pitch = spread = 0.0
        track, begun, sampled = [], time.monotonic(), -1.0
        until = begun + step['seconds']
        while time.monotonic() < until:
            send(step['stick'])
            while True:
                message = link.recv_match(blocking=False)
                if message is None:
                    break
                if message.get_type() == 'STATUSTEXT':
                    texts.append(message.text)
                elif message.get_type() == 'GLOBAL_POSITION_INT':
                    estimate['z'] = message.relative_alt / 1000.0  # mm above home
                elif message.get_type() in ('SCALED_PRESSURE', 'SCALED_PRESSURE2'):
                    estimate[message.get_type()] = message.press_abs
            time.sleep(0.05)
            now = time.monotonic() - begun
            turned = max(turned, abs(pose['yaw'] - before['yaw']))
            worst_roll = max(worst_roll, abs(pose['roll']))
            worst_pitch = max(worst_pitch, abs(pose['pitch']))
            spread = max(spread, abs(pose['z'] - before['z']))
            if now - sampled >= 0.25:
                track.append([round(now, 2), pose['x'], pose['y'], pose['z'], pose['pitch'],
                              estimate.get('z')])
                sampled = now
        flown.append({'start': before, 'end': dict(pose), 'turned': turned,
                      'worst_roll': worst_roll, 'worst_pitch': worst_pitch,
                      'depth_spread': spread, 'track': track, 'mode': step.get('mode')})
    return {'armed_after': armed_after, 'steps': flown, 'texts': texts[-30:]}


def _switch(link, mode: str, texts: list, keep_sticks, timeout: float = 20.0) -> None:
    """Switch to ``mode`` and wait until the heartbeat reports it (sticks kept alive)."""
    wanted = link.mode_mapping()[mode]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        link.set_mode(wanted)
        until = time.monotonic() + 1.0
        while time.monotonic() < until:
            keep_sticks()
            message = link.recv_match(blocking=True, timeout=0.1)
            if message is None:
                continue
            if message.get_type() == 'STATUSTEXT':
                texts.append(message.text)
            if message.get_type() == 'HEARTBEAT' and \
                    message.get_srcSystem() == link.target_system and \
                    message.custom_mode == wanted:
                return
    raise AssertionError(f'the autopilot did not enter {mode}; it said: '
                         + ' | '.join(texts[-20:]))


def _upload(link, waypoints: list, texts: list, timeout: float = 30.0) -> None:
    """Upload a mission: home, then each (east, north) point as a waypoint (MISSION_ITEM_INT)."""
    from pymavlink import mavutil

    mavlink = mavutil.mavlink
    items = [(0.0, 0.0)] + [tuple(point) for point in waypoints]  # item 0 is home
    link.mav.mission_count_send(link.target_system, link.target_component, len(items),
                                mavlink.MAV_MISSION_TYPE_MISSION)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = link.recv_match(type=['MISSION_REQUEST_INT', 'MISSION_REQUEST', 'MISSION_ACK',
                                        'STATUSTEXT'], blocking=True, timeout=1.0)
        if message is None:
            continue
        kind = message.get_type()
        if kind == 'STATUSTEXT':
            texts.append(message.text)
        elif kind == 'MISSION_ACK':
            if getattr(message, 'mission_type', 0) != mavlink.MAV_MISSION_TYPE_MISSION:
                continue  # another transfer's (fence, rally)
            if message.type != mavlink.MAV_MISSION_ACCEPTED:
                raise AssertionError(f'the mission was refused: {message}; the autopilot said: '
                                     + ' | '.join(texts[-20:]))
            return
        else:
            east, north = items[message.seq]
            lat = HOME[0] + math.degrees(north / EARTH_RADIUS)
            lon = HOME[1] + math.degrees(east / (EARTH_RADIUS * math.cos(math.radians(HOME[0]))))
            link.mav.mission_item_int_send(
                link.target_system, link.target_component, message.seq,
                mavlink.MAV_FRAME_GLOBAL_RELATIVE_ALT_INT, mavlink.MAV_CMD_NAV_WAYPOINT,
                0, 1, 0, 0, 0, 0, int(lat * 1e7), int(lon * 1e7), 0.0,
                mavlink.MAV_MISSION_TYPE_MISSION)
    raise AssertionError('the mission upload timed out; the autopilot said: '
                         + ' | '.join(texts[-20:]))


if __name__ == '__main__':
    _flight(json.loads(Path(sys.argv[1]).read_text(encoding='utf-8')))
