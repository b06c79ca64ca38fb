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
The real Gazebo Harmonic for the tests: SDFormat 14 and a headless gz-sim 8 server.

Found as a Harmonic install provides them, nothing project-specific to set: ``gz`` on PATH
with its ``sim`` 8.x, and ``gz.sim8``, ``gz.transport13``, ``gz.msgs10``, ``gz.math7`` and
``sdformat14`` importable by the Python that runs the tests (Ubuntu's Harmonic packages put
them on the default Python path; a source build's setup script on PYTHONPATH). Where a piece
is missing, the tests that need it skip with a reason naming it and how to get it.

``simulate`` runs one scenario in a fresh process (this file run as a script): the composed
URDF is converted by SDFormat 14 exactly as gz-sim loads a URDF, put into the shipped world
config/worlds/water.sdf (read, not copied: the systems the scenarios do not read, which need
rendering or sensors, are taken out: Sensors, Imu, Magnetometer, NavSat; and the real-time
factor is set to 0 so it runs as fast as it can, plus the step size when a scenario asks), and
stepped by ``gz.sim8.TestFixture``. Thrust commands go through gz-transport to the Thruster
systems, as the bridge sends them; pose disturbances go through the model's world-pose
command. The base link's pose and velocities (and chosen joints' velocities) come back sampled
in time.
"""

from __future__ import annotations

import functools
import json
import math
import os
from pathlib import Path
import shutil
import subprocess
import sys
import tempfile
from xml.etree import ElementTree

REPO = Path(__file__).resolve().parents[2]
WORLD = REPO / 'config' / 'worlds' / 'water.sdf'
SENSORS_SYSTEM = 'gz::sim::systems::Sensors'
# The world systems the scenarios use; the shipped world's others (Sensors, which renders, and
# the IMU, Magnetometer and NavSat systems of the sensor parts) are taken out of the test world:
# nothing here reads them, and a headless server without rendering could not load them.
HEADLESS_SYSTEMS = frozenset(f'gz::sim::systems::{name}' for name in (
    'Physics', 'UserCommands', 'SceneBroadcaster', 'Buoyancy', 'Hydrodynamics', 'Thruster',
    'OdometryPublisher', 'JointStatePublisher', 'PosePublisher', 'ApplyLinkWrench'))
MODULES = ('gz.sim8', 'gz.transport13', 'gz.msgs10', 'gz.math7', 'sdformat14')
GET_GZ = ('install Gazebo Harmonic (https://gazebosim.org/docs/harmonic/install; with ROS 2 '
          'Jazzy: ros-jazzy-ros-gz) with its Python bindings (python3-gz-sim8, '
          'python3-sdformat14), in a shell where gz is on PATH')


@functools.lru_cache(maxsize=None)
def harmonic_gz() -> str | None:
    """Return the ``gz`` on PATH when its ``sim`` is Harmonic's (8.x), else None."""
    found = shutil.which('gz')
    if not found:
        return None
    try:
        versions = subprocess.run([found, 'sim', '--versions'], capture_output=True, text=True,
                                  stdin=subprocess.DEVNULL, timeout=60).stdout.split()
    except (OSError, subprocess.TimeoutExpired):
        return None
    return found if any(v.startswith('8.') for v in versions) else None


@functools.lru_cache(maxsize=None)
def missing() -> str | None:
    """Why Gazebo Harmonic cannot run here (None when it can)."""
    if shutil.which('gz') is None:
        return f'needs Gazebo Harmonic: no gz on PATH; {GET_GZ}'
    if harmonic_gz() is None:
        return (f"needs Gazebo Harmonic: the gz on PATH ({shutil.which('gz')}) has no sim 8.x; "
                f'{GET_GZ}')
    probe = subprocess.run(
        [sys.executable, '-c', 'import importlib, sys\n'
         'for name in sys.argv[1:]:\n'
         '    try:\n        importlib.import_module(name)\n'
         '    except Exception as error:\n        print(name, error); break'] + list(MODULES),
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    if probe.returncode or probe.stdout.strip():
        problem = (probe.stdout.strip() or probe.stderr.strip()[-300:]).replace('\n', ' ')
        return (f'needs Gazebo Harmonic\'s Python modules ({", ".join(MODULES)}) importable by '
                f'{sys.executable}: {problem}; {GET_GZ}')
    return None


def require() -> None:
    """Skip a test that needs Gazebo Harmonic where it is not installed (with the reason)."""
    import pytest

    reason = missing()
    if reason is not None:
        pytest.skip(reason)


def sdformat14():
    """Return the sdformat14 module (after ``require``)."""
    require()
    import gz.math7  # noqa: F401  (sdformat14's poses are gz.math7 types)
    import sdformat14

    return sdformat14


def gz_sdf_print(path: Path) -> str:
    """
    ``gz sdf -p FILE``: the file as SDFormat 14 converts and prints it, element by element.

    Custom elements such as <gz_frame_id> are included, which the object model's ``to_string``
    leaves out.
    """
    require()
    result = subprocess.run([harmonic_gz(), 'sdf', '-p', str(path)], capture_output=True,
                            text=True, stdin=subprocess.DEVNULL, timeout=120)
    if result.returncode != 0:
        raise AssertionError(f'gz sdf -p {path} failed: {result.stderr[-2000:]}')
    return result.stdout


def resource_folder(under: Path) -> Path:
    """
    Return a folder for GZ_SIM_RESOURCE_PATH that resolves the package's meshes.

    In it, model://bluerobotics_parts/... (package:// in the URDF) is this checkout.
    """
    folder = under / 'resources'
    folder.mkdir(parents=True, exist_ok=True)
    link = folder / 'bluerobotics_parts'
    if not link.exists():
        link.symlink_to(REPO, target_is_directory=True)
    return folder


def environment(folder: Path) -> dict:
    """
    Return the process environment of a simulation.

    Loopback-only transport on a partition of its own, the package's meshes.
    """
    env = dict(os.environ)
    env.update({
        'GZ_IP': '127.0.0.1',
        'GZ_PARTITION': f'bluerobotics_parts_test_{os.getpid()}_{folder.name}',
        'GZ_SIM_RESOURCE_PATH': str(resource_folder(folder)),
    })
    return env


class Trace:
    """
    What a simulation recorded.

    per sample, time (s), base link pose (x y z m, roll pitch yaw deg), world linear velocity
    (m/s), world angular velocity (rad/s), joint velocities.
    """

    def __init__(self, data: dict):
        self.data = data
        self.time = data['time']
        self.pose = data['pose']
        self.velocity = data['velocity']
        self.angular = data['angular']
        self.joints = data['joints']
        self.positions = data['positions']  # joint -> positions (rad or m), per sample
        self.wall = data['wall']

    def at(self, t: float) -> int:
        """Return the index of the first sample at or after time t."""
        return next(i for i, s in enumerate(self.time) if s >= t - 1e-9)

    def window(self, start: float, end: float) -> range:
        return range(self.at(start), self.at(end) if end < self.time[-1] else len(self.time))

    def angle(self, i: int, axis: str) -> float:
        return self.pose[i][3 + 'rpy'.index(axis)]

    def surge(self, i: int) -> float:
        """Velocity along the base link's heading (m/s)."""
        yaw = math.radians(self.pose[i][5])
        vx, vy = self.velocity[i][:2]
        return vx * math.cos(yaw) + vy * math.sin(yaw)


def simulate(urdf: Path, seconds: float, events=(), step: float = 0.004,
             spawn=(0, 0, 0, 0, 0, 0), sample: float = 0.05, joints=(),
             timeout: float = 600) -> Trace:
    """
    Run the shipped world with the vehicle of a composed URDF for ``seconds`` of sim time.

    ``events``: dicts with ``t`` (s) and either ``thrust`` ({gz topic: N}, held until changed)
    or ``tilt`` ([roll, pitch] in degrees added to the pose at that moment). ``spawn``: x y z
    roll pitch yaw (m, deg) of the model. Returns the Trace; a failed run raises with its log.
    """
    require()
    with tempfile.TemporaryDirectory(prefix='gz_run_') as temporary:
        folder = Path(temporary)
        spec = {'urdf': str(urdf), 'seconds': seconds, 'events': list(events), 'step': step,
                'spawn': list(spawn), 'sample': sample, 'joints': list(joints),
                'world': str(WORLD), 'folder': str(folder), 'result': str(folder / 'trace.json')}
        (folder / 'spec.json').write_text(json.dumps(spec), encoding='utf-8')
        run = subprocess.run([sys.executable, __file__, str(folder / 'spec.json')],
                             env=environment(folder), capture_output=True, text=True,
                             stdin=subprocess.DEVNULL, timeout=timeout)
        result = folder / 'trace.json'
        if run.returncode != 0 or not result.is_file():
            raise AssertionError(f'the simulation failed (exit {run.returncode}):\n'
                                 + (run.stdout + run.stderr)[-4000:])
        return Trace(json.loads(result.read_text(encoding='utf-8')))


# -- the runner (this file as a script, in the simulation's own process) -------------------------

def derived_world(world_file: str, model: ElementTree.Element, step: float) -> ElementTree.Element:
    """
    Return the shipped world with ``model`` in it, without the systems the headless build lacks.

    Stepped at ``step``, as fast as it goes (a real-time factor of 0).
    """
    tree = ElementTree.parse(world_file)
    world = tree.getroot().find('world')
    for plugin in world.findall('plugin'):
        if plugin.get('name') not in HEADLESS_SYSTEMS:
            world.remove(plugin)
    physics = world.find('physics')
    physics.find('max_step_size').text = repr(step)
    physics.find('real_time_factor').text = '0'  # as fast as it can (SimulationRunner.cc)
    world.append(model)
    return tree.getroot()


def _run(spec: dict) -> None:
    import time

    import gz.math7 as gzmath
    from gz.msgs10.double_pb2 import Double
    from gz.sim8 import Joint, Link, Model, TestFixture, World, world_entity
    import gz.transport13 as transport

    from bluerobotics_parts.gazebo.spawned_model import gazebo_sdf

    # what the launch spawns: SDFormat 14's conversion (gz sdf -p) with the added mass folded
    sdf = gazebo_sdf(Path(spec['urdf']).read_text(encoding='utf-8'))
    model = ElementTree.fromstring(sdf).find('model')
    x, y, z, roll, pitch, yaw = spec['spawn']
    # a model <pose> the conversion may write is replaced: a second one would be ignored
    placed = model.find('pose')
    if placed is None:
        placed = ElementTree.SubElement(model, 'pose')
    placed.attrib.clear()
    placed.text = f'{x} {y} {z} {math.radians(roll)} {math.radians(pitch)} {math.radians(yaw)}'
    world = derived_world(spec['world'], model, spec['step'])
    world_file = Path(spec['folder']) / 'world.sdf'
    world_file.write_bytes(ElementTree.tostring(world))
    name = model.get('name')

    fixture = TestFixture(str(world_file))
    state = {'link': None, 'model': None, 'joints': {}, 'tilt': None}
    trace = {'time': [], 'pose': [], 'velocity': [], 'angular': [],
             'joints': {j: [] for j in spec['joints']},
             'positions': {j: [] for j in spec['joints']}}
    step = spec['step']
    every = max(1, round(spec['sample'] / step))

    def pre_update(info, ecm):
        if state['link'] is None:
            state['model'] = Model(World(world_entity(ecm)).model_by_name(ecm, name))
            state['link'] = Link(state['model'].link_by_name(ecm, 'base_link'))
            state['link'].enable_velocity_checks(ecm, True)
            for joint in spec['joints']:
                state['joints'][joint] = Joint(state['model'].joint_by_name(ecm, joint))
                state['joints'][joint].enable_velocity_check(ecm, True)
                state['joints'][joint].enable_position_check(ecm, True)
        if state['tilt'] is not None:
            pose = state['link'].world_pose(ecm)
            rot = pose.rot()
            turned = gzmath.Pose3d(pose.pos().x(), pose.pos().y(), pose.pos().z(),
                                   rot.roll() + math.radians(state['tilt'][0]),
                                   rot.pitch() + math.radians(state['tilt'][1]), rot.yaw())
            state['model'].set_world_pose_cmd(ecm, turned)
            state['tilt'] = None

    def post_update(info, ecm):
        if info.iterations % every:
            return
        link = state['link']
        pose, linear, angular = (link.world_pose(ecm), link.world_linear_velocity(ecm),
                                 link.world_angular_velocity(ecm))
        rot = pose.rot()
        trace['time'].append(info.iterations * step)
        trace['pose'].append([pose.pos().x(), pose.pos().y(), pose.pos().z(),
                              math.degrees(rot.roll()), math.degrees(rot.pitch()),
                              math.degrees(rot.yaw())])
        trace['velocity'].append([linear.x(), linear.y(), linear.z()] if linear else None)
        trace['angular'].append([angular.x(), angular.y(), angular.z()] if angular else None)
        for joint, handle in state['joints'].items():
            speed, position = handle.velocity(ecm), handle.position(ecm)
            trace['joints'][joint].append(speed[0] if speed else None)
            trace['positions'][joint].append(position[0] if position else None)

    fixture.on_pre_update(pre_update)
    fixture.on_post_update(post_update)
    fixture.finalize()
    server = fixture.server()
    node = transport.Node()
    publishers, thrust = {}, {}
    events = sorted(spec['events'], key=lambda e: e['t'])
    chunk = max(1, round(0.1 / step))
    total = round(spec['seconds'] / step)
    started, done = time.monotonic(), 0
    while done < total:
        now = done * step
        changed = False
        while events and events[0]['t'] <= now + 1e-9:
            event = events.pop(0)
            if 'thrust' in event:
                thrust.update(event['thrust'])
                changed = True
            if 'tilt' in event:
                state['tilt'] = event['tilt']
        for topic, value in thrust.items():  # repeated: a first message may precede discovery
            if topic not in publishers:
                publishers[topic] = node.advertise(topic, Double)
                time.sleep(0.3)  # discovery
            message = Double()
            message.data = float(value)
            publishers[topic].publish(message)
        if changed:
            time.sleep(0.05)  # let a changed command reach the Thruster before stepping
        steps = min(chunk, total - done)
        server.run(True, steps, False)
        done += steps
    trace['wall'] = time.monotonic() - started
    Path(spec['result']).write_text(json.dumps(trace), encoding='utf-8')


if __name__ == '__main__':
    _run(json.loads(Path(sys.argv[1]).read_text(encoding='utf-8')))
