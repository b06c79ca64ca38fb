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
A manoeuvre in a headless Gazebo Harmonic, the base link's motion sampled.

A composed vehicle in the shipped world, thrust commands at set times.

``simulate`` runs one scenario in a process of its own (this module run with ``python -m``),
so Ctrl-C or a crash never leaves a gz server behind: the server lives inside that process
(``gz.sim8.TestFixture``), which is stopped with its whole process group and, on Linux, dies
with its parent (PR_SET_PDEATHSIG). The URDF is converted as a launch spawns it (SDFormat 14,
the added mass folded in: gazebo/spawned_model.py) and put into config/worlds/water.sdf with
the systems no scenario reads taken out (Sensors renders; the IMU, Magnetometer and NavSat
systems serve sensors) and the real-time factor at 0, so it runs as fast as it can
(gz-sim8_8.14.0 src/SimulationRunner.cc: a factor of 0 steps without sleeping). Thrust goes
through gz-transport to the Thruster systems, as the bridge sends it; a tilt event turns the
model through its world-pose command. Used by ``validate`` and by the Gazebo tests.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
import signal
import subprocess
import sys
import tempfile
from xml.etree import ElementTree

from .. import paths
from ..errors import BlueRoboticsPartsError

#: The world systems a scenario uses; the shipped world's others need rendering or serve
#: sensors, which no scenario reads (and a server without a render engine stalls on Sensors).
HEADLESS_SYSTEMS = frozenset(f'gz::sim::systems::{name}' for name in (
    'Physics', 'UserCommands', 'SceneBroadcaster', 'Buoyancy', 'Hydrodynamics', 'Thruster',
    'OdometryPublisher', 'JointStatePublisher', 'PosePublisher', 'ApplyLinkWrench'))
#: The Python modules of Gazebo Harmonic a scenario needs.
MODULES = ('gz.sim8', 'gz.transport13', 'gz.msgs10', 'gz.math7')
GET_GZ = ('install Gazebo Harmonic with its Python bindings (python3-gz-sim8; with ROS 2 '
          'Jazzy: ros-jazzy-ros-gz), in a shell where they are importable')
PROGRESS = 'progress '  # the runner's line prefix: simulated seconds so far
CHUNK = 0.1  # s of simulated time between thrust republishing and progress


class ScenarioError(BlueRoboticsPartsError):
    """A scenario could not run, or Gazebo failed in it."""


def missing(python: str = sys.executable) -> str | None:
    """Return why no scenario can run here (None when Gazebo Harmonic's modules import)."""
    probe = ('import importlib, sys\nfor name in sys.argv[1:]:\n    try:\n'
             '        importlib.import_module(name)\n    except Exception as error:\n'
             '        print(name, error); break')
    try:
        done = subprocess.run([python, '-c', probe, *MODULES], capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f'cannot run {python}: {error}'
    if done.returncode or done.stdout.strip():
        problem = (done.stdout.strip() or done.stderr.strip()[-300:]).replace('\n', ' ')
        return f'needs Gazebo Harmonic ({problem}); {GET_GZ}'
    return None


class Trace:
    """
    What a scenario recorded, per sample.

    time (s), base link pose (x y z m, roll pitch yaw deg), world linear velocity (m/s),
    world angular velocity (rad/s), chosen joints' velocities and positions; wall (s) it took.
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


def environment(folder: Path, base: dict | None = None) -> dict:
    """
    Return a scenario's process environment: loopback transport on a partition of its own.

    ``package://bluerobotics_parts/`` meshes resolve through a folder holding a link to the
    package's data (GZ_SIM_RESOURCE_PATH).
    """
    resources = folder / 'resources'
    resources.mkdir(parents=True, exist_ok=True)
    link = resources / paths.PACKAGE
    if not link.exists():
        link.symlink_to(paths.share_dir(), target_is_directory=True)
    env = dict(os.environ if base is None else base)
    env.update({'GZ_IP': '127.0.0.1',
                'GZ_PARTITION': f'{paths.PACKAGE}_scenario_{os.getpid()}_{folder.name}',
                'GZ_SIM_RESOURCE_PATH': str(resources)})
    return env


def simulate(urdf: Path, seconds: float, events=(), step: float = 0.004,
             spawn=(0, 0, 0, 0, 0, 0), sample: float = 0.05, joints=(), world: Path | None = None,
             progress=None, env: dict | None = None, timeout: float = 1800) -> Trace:
    """
    Run a composed URDF's vehicle in the world for ``seconds`` of simulated time.

    ``events``: dicts with ``t`` (s) and ``thrust`` ({gz topic: N}, held until changed) or
    ``tilt`` ([roll, pitch] deg added to the pose then). ``spawn``: x y z (m) roll pitch yaw
    (deg). ``progress(simulated_seconds)`` is called as it goes. ScenarioError with the log
    when Gazebo fails; KeyboardInterrupt stops the run first.
    """
    with tempfile.TemporaryDirectory(prefix='bluerobotics_parts_gz_') as temporary:
        folder = Path(temporary)
        spec = {'urdf': str(urdf), 'seconds': seconds, 'events': list(events), 'step': step,
                'spawn': list(spawn), 'sample': sample, 'joints': list(joints),
                'world': str(world or paths.default_world()), 'folder': str(folder),
                'result': str(folder / 'trace.json')}
        (folder / 'spec.json').write_text(json.dumps(spec), encoding='utf-8')
        log = folder / 'log.txt'
        with open(log, 'w', encoding='utf-8') as errors:
            process = subprocess.Popen(
                [sys.executable, '-m', __name__, str(folder / 'spec.json')],
                env=environment(folder, env), stdout=subprocess.PIPE, stderr=errors,
                stdin=subprocess.DEVNULL, text=True, start_new_session=True,
                preexec_fn=_die_with_parent)
            try:
                _follow(process, progress, timeout)
            except BaseException:
                _stop(process)
                raise
        result = folder / 'trace.json'
        if process.returncode != 0 or not result.is_file():
            raise ScenarioError(f'the Gazebo run failed (exit {process.returncode}):\n'
                                + log.read_text(encoding='utf-8', errors='replace')[-4000:])
        return Trace(json.loads(result.read_text(encoding='utf-8')))


def _follow(process, progress, timeout: float) -> None:
    import time

    deadline = time.monotonic() + timeout
    for line in process.stdout:
        if line.startswith(PROGRESS) and progress is not None:
            progress(float(line[len(PROGRESS):]))
        if time.monotonic() > deadline:
            raise ScenarioError(f'the Gazebo run took longer than {timeout:g} s')
    process.wait(timeout=max(1.0, deadline - time.monotonic()))


def _stop(process) -> None:
    """Stop the runner and everything it started: its process group, SIGKILL after 5 s."""
    for sent, wait in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(process.pid, sent)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def _die_with_parent() -> None:
    """In the child: on Linux, SIGKILL when the parent dies (prctl(2), PR_SET_PDEATHSIG)."""
    if sys.platform.startswith('linux'):
        import ctypes

        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):
            pass


# -- the runner (this module run with python -m, in the scenario's own process) ------------------

def derived_world(world_file: str, model: ElementTree.Element, step: float) -> ElementTree.Element:
    """Return the world with ``model`` in it, only HEADLESS_SYSTEMS, stepped at ``step``."""
    tree = ElementTree.parse(world_file)
    world = tree.getroot().find('world')
    for plugin in world.findall('plugin'):
        if plugin.get('name') not in HEADLESS_SYSTEMS:
            world.remove(plugin)
    physics = world.find('physics')
    physics.find('max_step_size').text = repr(step)
    physics.find('real_time_factor').text = '0'
    world.append(model)
    return tree.getroot()


def _run(spec: dict) -> None:
    import time

    import gz.math7 as gzmath
    from gz.msgs10.double_pb2 import Double
    from gz.sim8 import Joint, Link, Model, TestFixture, World, world_entity
    import gz.transport13 as transport

    from .spawned_model import gazebo_sdf

    sdf = gazebo_sdf(Path(spec['urdf']).read_text(encoding='utf-8'))
    model = ElementTree.fromstring(sdf).find('model')
    x, y, z, roll, pitch, yaw = spec['spawn']
    placed = model.find('pose')  # a second <pose> would be ignored: replace the one written
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
    chunk = max(1, round(CHUNK / step))
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
        print(f'{PROGRESS}{done * step:.3f}', flush=True)
    trace['wall'] = time.monotonic() - started
    Path(spec['result']).write_text(json.dumps(trace), encoding='utf-8')


if __name__ == '__main__':
    _run(json.loads(Path(sys.argv[1]).read_text(encoding='utf-8')))
