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
A rendering Gazebo Harmonic for the sensor tests: the real sensors, read off gz-transport.

The shipped vehicles as a launch spawns them (the composed URDF through SDFormat 14), in a
small world made for the test (a seabed at a known depth, a slope, a pile, light or dark) with
gz-sim's Sensors system on the ogre2 engine, run as a user runs it headless:
``gz sim -s -r --headless-rendering`` (EGL; no display or GPU needed, Mesa's llvmpipe will do).
Gravity is off and no buoyancy acts, so a vehicle stays where it is put and every expectation
is geometry.

``observe`` runs the server and a reader (this module run as a script, in a process group of
its own on a gz-transport partition of its own) through phases: each publishes its commands,
lets each topic deliver ``skip`` messages (the change takes effect), then keeps the next
``keep``. The messages come back serialized, to be parsed with gz.msgs10 by the test.

Found as a user's install provides it: Gazebo Harmonic (gz_support) whose gz-rendering 8 loads
the ogre2 engine plugin; a probe world with one camera must deliver an image. Where it cannot,
the tests skip with the reason.
"""

from __future__ import annotations

import base64
import functools
import json
import os
from pathlib import Path
import signal
import subprocess
import sys
import tempfile
import time
from xml.etree import ElementTree

import gz_support

RENDER_ENGINE = 'ogre2'
GET_RENDERING = ('install Gazebo Harmonic with its ogre2 render engine (Ubuntu: gz-harmonic or '
                 'ros-jazzy-ros-gz; from source: OGRE-next 2.3 and gz-rendering 8 built with it, '
                 'see ROS_GZ_NOTES.md); headless, it renders on Mesa (EGL)')
#: Where a probe or a run starts rendering: rendering on llvmpipe is slow to start.
START_TIMEOUT = 120.0
#: s for gz-transport to connect a new publisher to its subscribers (a message sent before
#: is lost): the reader advertises every topic it will publish, then waits this long.
DISCOVERY = 1.5


def world_sdf(models, *, name: str = 'sensing', lit: bool = True, dvl: bool = False,
              step: float = 0.004, rendering: bool = True) -> bytes:
    """
    Return a world: physics at ``step``, no gravity, the Sensors system on ogre2, ``models``.

    ``rendering`` False leaves the Sensors system out (a Gazebo without a render engine runs
    it then; ``observe`` needs nothing else).

    ``lit``: a sun and ambient light (else darkness: only a vehicle's own lights shine).
    ``dvl``: the DVL system too (gz-sim's ``DopplerVelocityLogSystem`` creates the sensor).
    UserCommands (light switching, ``/world/<name>/light_config``) is the shipped world's.
    """
    sdf = ElementTree.Element('sdf', version='1.11')
    world = ElementTree.SubElement(sdf, 'world', name=name)
    physics = ElementTree.SubElement(world, 'physics', name='step', type='dart')
    ElementTree.SubElement(physics, 'max_step_size').text = repr(step)
    ElementTree.SubElement(physics, 'real_time_factor').text = '1'
    ElementTree.SubElement(world, 'gravity').text = '0 0 0'
    systems = [('physics', 'Physics'), ('scene-broadcaster', 'SceneBroadcaster')]
    for library, system in systems + ([('sensors', 'Sensors')] if rendering else []):
        plugin = ElementTree.SubElement(world, 'plugin', filename=f'gz-sim-{library}-system',
                                        name=f'gz::sim::systems::{system}')
        if system == 'Sensors':
            ElementTree.SubElement(plugin, 'render_engine').text = RENDER_ENGINE
    world.append(shipped_plugin('gz::sim::systems::UserCommands'))
    if dvl:
        ElementTree.SubElement(world, 'plugin', filename='gz-sim-dvl-system',
                               name='gz::sim::systems::DopplerVelocityLogSystem')
    scene = ElementTree.SubElement(world, 'scene')
    ElementTree.SubElement(scene, 'ambient').text = '0.4 0.4 0.4 1' if lit else '0 0 0 1'
    ElementTree.SubElement(scene, 'background').text = '0 0 0 1'
    ElementTree.SubElement(scene, 'shadows').text = 'false'
    if lit:
        sun = ElementTree.SubElement(world, 'light', type='directional', name='sun')
        for tag, text in (('pose', '0 0 50 0 0 0'), ('diffuse', '0.8 0.8 0.8 1'),
                          ('specular', '0.1 0.1 0.1 1'), ('direction', '0.1 0.1 -1'),
                          ('cast_shadows', 'false')):
            ElementTree.SubElement(sun, tag).text = text
    for model in models:
        world.append(model)
    return ElementTree.tostring(sdf)


def shipped_plugin(name: str) -> ElementTree.Element:
    """Return a world system as config/worlds/water.sdf configures it."""
    world = ElementTree.parse(gz_support.WORLD).getroot().find('world')
    (plugin,) = [p for p in world.findall('plugin') if p.get('name') == name]
    return plugin


def box(name: str, size, pose, colour=(0.8, 0.7, 0.5)) -> ElementTree.Element:
    """Return a static box model (collision and a coloured visual), pose x y z roll pitch yaw."""
    return _solid(name, f"<box><size>{' '.join(map(str, size))}</size></box>", pose, colour)


def cylinder(name: str, radius: float, length: float, pose,
             colour=(0.5, 0.5, 0.5)) -> ElementTree.Element:
    """Return a static upright cylinder model."""
    shape = f'<cylinder><radius>{radius}</radius><length>{length}</length></cylinder>'
    return _solid(name, shape, pose, colour)


def _solid(name, shape, pose, colour) -> ElementTree.Element:
    rgb = ' '.join(str(c) for c in colour)
    return ElementTree.fromstring(
        f"<model name='{name}'><static>true</static><pose>{' '.join(map(str, pose))}</pose>"
        f"<link name='body'><collision name='collision'><geometry>{shape}</geometry></collision>"
        f"<visual name='visual'><geometry>{shape}</geometry><material><ambient>{rgb} 1</ambient>"
        f'<diffuse>{rgb} 1</diffuse></material></visual></link></model>')


def vehicle_model(urdf: str, pose, extra_plugins=()) -> ElementTree.Element:
    """Return the vehicle as a launch spawns it (spawned_model.gazebo_sdf), placed at ``pose``."""
    from bluerobotics_parts.gazebo.spawned_model import gazebo_sdf

    model = ElementTree.fromstring(gazebo_sdf(urdf)).find('model')
    placed = model.find('pose')
    if placed is None:
        placed = ElementTree.SubElement(model, 'pose')
    placed.attrib.clear()
    placed.text = ' '.join(str(v) for v in pose)
    for plugin in extra_plugins:
        model.append(plugin)
    return model


@functools.lru_cache(maxsize=None)
def missing() -> str | None:
    """Why a rendering Gazebo Harmonic cannot run here (None when it can)."""
    reason = gz_support.missing()
    if reason is not None:
        return reason
    camera = ElementTree.fromstring(
        "<model name='probe'><static>true</static><pose>0 0 1 0 0.3 0</pose><link name='l'>"
        "<sensor name='camera' type='camera'><update_rate>5</update_rate><topic>probe/image"
        '</topic><camera><horizontal_fov>1</horizontal_fov><image><width>32</width><height>24'
        '</height></image></camera></sensor></link></model>')
    world = world_sdf([camera, box('ground', (10, 10, 1), (0, 0, -0.5, 0, 0, 0))])
    try:
        observe(world, {'image': ('probe/image', 'image_pb2', 'Image')},
                [{'keep': 1}], timeout=START_TIMEOUT)
    except ObserveError as error:
        return (f'needs a rendering Gazebo Harmonic ({RENDER_ENGINE}): a camera in a probe '
                f'world gave no image ({str(error).splitlines()[0]}); {GET_RENDERING}')
    return None


def require() -> None:
    """Skip a test that needs a rendering Gazebo where there is none (with the reason)."""
    import pytest

    reason = missing()
    if reason is not None:
        pytest.skip(reason)


class ObserveError(AssertionError):
    """A rendering run that failed or did not deliver: its log's tail included."""


def observe(world: bytes, topics: dict, phases: list, timeout: float = 600) -> list:
    """
    Run ``world`` in ``gz sim`` with rendering; return, per phase, the messages kept per topic.

    ``topics``: name -> (gz topic, gz.msgs10 module, class). ``phases``: dicts with
    ``publish`` (a list of [topic, module, class, fields as JSON], sent when the phase starts
    and every 0.5 s while it runs: the first may precede discovery), ``skip`` (messages per
    topic to let go by, default 0) and ``keep`` (messages per topic to keep, default 1).
    A phase's messages come back as name -> list of serialized messages.
    """
    with tempfile.TemporaryDirectory(prefix='bluerobotics_parts_render_') as temporary:
        folder = Path(temporary)
        (folder / 'world.sdf').write_bytes(world)
        spec = {'world': str(folder / 'world.sdf'), 'topics': topics, 'phases': phases,
                'result': str(folder / 'result.json'), 'timeout': timeout}
        (folder / 'spec.json').write_text(json.dumps(spec), encoding='utf-8')
        env = gz_support.environment(folder)
        env.setdefault('XDG_RUNTIME_DIR', str(folder))  # Mesa complains without one
        # gz-sim's Python systems (the ESC system) import this checkout's package
        env['PYTHONPATH'] = gz_support.python_path_for_gz(env.get('PYTHONPATH', ''))
        log = folder / 'log.txt'
        with open(log, 'w', encoding='utf-8') as output:
            process = subprocess.Popen(
                [sys.executable, __file__, str(folder / 'spec.json')], env=env,
                stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True)
            try:
                process.wait(timeout=timeout + 60)
            except BaseException:
                _stop(process.pid)
                raise
            finally:
                _stop(process.pid)
        result = folder / 'result.json'
        if process.returncode != 0 or not result.is_file():
            raise ObserveError(f'the rendering run failed (exit {process.returncode}):\n'
                               + log.read_text(encoding='utf-8', errors='replace')[-3000:])
        kept = json.loads(result.read_text(encoding='utf-8'))
    return [{name: [base64.b64decode(m) for m in messages] for name, messages in phase.items()}
            for phase in kept]


def parse(module: str, name: str, data: bytes):
    """Return a serialized gz message parsed as gz.msgs10.<module>.<name>."""
    import importlib

    message = getattr(importlib.import_module(f'gz.msgs10.{module}'), name)()
    message.ParseFromString(data)
    return message


def _stop(group: int) -> None:
    for sent in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(group, sent)
        except ProcessLookupError:
            return
        for _ in range(50):
            time.sleep(0.1)
            try:
                os.killpg(group, 0)
            except ProcessLookupError:
                return


# -- the reader (this file run as a script: a process group of its own) ---------------------------

def _run(spec: dict) -> None:
    import importlib
    import threading

    from google.protobuf import json_format
    import gz.transport13 as transport

    server = subprocess.Popen(['gz', 'sim', '-s', '-r', '--headless-rendering', '-v', '2',
                               spec['world']], stdin=subprocess.DEVNULL)
    node = transport.Node()
    received = {name: [] for name in spec['topics']}
    lock = threading.Lock()

    def keeper(name):
        def keep(message):
            with lock:
                received[name].append(message.SerializeToString())
        return keep

    for name, (topic, module, kind) in spec['topics'].items():
        message_type = getattr(importlib.import_module(f'gz.msgs10.{module}'), kind)
        if not node.subscribe(message_type, topic, keeper(name)):
            raise SystemExit(f'cannot subscribe to {topic}')
    publishers = {}
    for phase in spec['phases']:  # every publisher known before the first phase starts
        for topic, module, kind, _ in phase.get('publish', ()):
            if topic not in publishers:
                message_type = getattr(importlib.import_module(f'gz.msgs10.{module}'), kind)
                publishers[topic] = (node.advertise(topic, message_type), message_type)
    if publishers:
        time.sleep(DISCOVERY)
    deadline = time.monotonic() + spec['timeout']
    kept = []
    for number, phase in enumerate(spec['phases']):
        messages = []
        for topic, _, _, fields in phase.get('publish', ()):
            publisher, message_type = publishers[topic]
            messages.append((publisher, json_format.ParseDict(fields, message_type())))
        with lock:
            start = {name: len(got) for name, got in received.items()}
        skip, keep = phase.get('skip', 0), phase.get('keep', 1)
        last_sent = 0.0
        while True:
            if messages and time.monotonic() - last_sent > 0.5:
                for publisher, message in messages:
                    publisher.publish(message)
                last_sent = time.monotonic()
            with lock:
                counts = {name: len(got) - start[name] for name, got in received.items()}
            if all(count >= skip + keep for count in counts.values()):
                break
            if server.poll() is not None:
                raise SystemExit(f'gz sim exited ({server.returncode}) in phase {number}')
            if time.monotonic() > deadline:
                raise SystemExit(f'phase {number}: after {spec["timeout"]:g} s, messages per '
                                 f'topic {counts} of {skip + keep}')
            time.sleep(0.05)
        with lock:
            kept.append({name: [base64.b64encode(m).decode('ascii')
                                for m in got[start[name] + skip:start[name] + skip + keep]]
                         for name, got in received.items()})
    Path(spec['result']).write_text(json.dumps(kept), encoding='utf-8')
    server.send_signal(signal.SIGINT)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()


if __name__ == '__main__':
    _run(json.loads(Path(sys.argv[1]).read_text(encoding='utf-8')))
    os._exit(0)  # gz-transport's threads would hold the interpreter
