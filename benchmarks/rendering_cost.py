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
What the rendering sensors cost a simulation: real-time factor with them on and off.

A config's vehicle (default: config/examples/bluerov2_sensors.yaml, every ROV sensor) in the
shipped water world, run by ``gz sim -s -r --headless-rendering`` as a launch runs it, with a
reader subscribed to every rendering sensor's topic (gz-sensors renders a sensor only while
something listens: gz-sensors8_8.2.2 src/CameraSensor.cc and GpuLidarSensor.cc, Update). Cases:

* ``off``: the world without its Sensors system (nothing renders);
* ``shipped``: as shipped;
* ``small camera``: the camera at 640 x 360 and 15 Hz, the knobs a user turns (a part file
  of their own with lower ``width``, ``height`` and ``update_rate``; docs/PARTS.md).

Each case runs ``--seconds`` of wall time, interleaved in ``--pairs`` rounds; the real-time
factor is simulated seconds over wall seconds (from the clock the server publishes), and the
medians of each case's ratio to ``off`` in the same round are printed. Needs Gazebo Harmonic
with the ogre2 engine (ROS_GZ_NOTES.md); never run by the tests.

    .venv/bin/python benchmarks/rendering_cost.py [--config FILE] [--pairs 2] [--seconds 20]
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
import statistics
import subprocess
import sys
import tempfile
import time
from xml.etree import ElementTree

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
WORLD = REPO / 'config' / 'worlds' / 'water.sdf'
RENDERING = {'camera': ('image', 'image_pb2', 'Image'),
             'echosounder': ('scan', 'pointcloud_packed_pb2', 'PointCloudPacked'),
             'scanning_sonar': ('scan', 'laserscan_pb2', 'LaserScan'),
             'dvl': (None, 'dvl_velocity_tracking_pb2', 'DVLVelocityTracking')}


def world_file(folder: Path, model: ElementTree.Element, case: str, camera: str) -> Path:
    """Write the shipped world with the vehicle in it, as the case has it."""
    tree = ElementTree.parse(WORLD)
    world = tree.getroot().find('world')
    if case == 'off':
        for plugin in world.findall('plugin'):
            if plugin.get('name') == 'gz::sim::systems::Sensors':
                world.remove(plugin)
    model = ElementTree.fromstring(ElementTree.tostring(model))
    if case == 'small camera':
        for sensor in model.iter('sensor'):
            if sensor.get('name') == camera:
                sensor.find('camera/image/width').text = '640'
                sensor.find('camera/image/height').text = '360'
                sensor.find('update_rate').text = '15'
    world.append(model)
    path = folder / f"{case.replace(' ', '_')}.sdf"
    tree.write(path, encoding='unicode')
    return path


def real_time_factor(world: Path, topics: list, seconds: float, env: dict) -> float:
    """Run the world for ``seconds`` of wall time; return simulated over wall seconds."""
    import importlib

    from gz.msgs10.clock_pb2 import Clock
    import gz.transport13 as transport

    node = transport.Node()
    clock = []
    node.subscribe(Clock, '/clock', lambda m: clock.append(
        (time.monotonic(), m.sim.sec + m.sim.nsec * 1e-9)))
    for topic, module, kind in topics:  # listeners, so the sensors render
        message = getattr(importlib.import_module(f'gz.msgs10.{module}'), kind)
        node.subscribe(message, topic, lambda m: None)
    server = subprocess.Popen(['gz', 'sim', '-s', '-r', '--headless-rendering', str(world)],
                              env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while len(clock) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(3.0)  # past the start (meshes, first renders)
        start = clock[-1]
        time.sleep(seconds)
        end = clock[-1]
    finally:
        server.terminate()
        server.wait(timeout=30)
        for topic in [t for t, _, _ in topics] + ['/clock']:
            node.unsubscribe(topic)
    return (end[1] - start[1]) / (end[0] - start[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--config', default=str(REPO / 'config' / 'examples' /
                                                'bluerov2_sensors.yaml'))
    parser.add_argument('--pairs', type=int, default=2)
    parser.add_argument('--seconds', type=float, default=20.0)
    options = parser.parse_args()

    from bluerobotics_parts.build import build_gazebo
    from bluerobotics_parts.gazebo.spawned_model import gazebo_sdf

    build = build_gazebo(options.config)
    model = ElementTree.fromstring(gazebo_sdf(build.urdf)).find('model')
    topics, camera = [], None
    for sensor in build.topics.sensors:
        if sensor.kind in RENDERING:
            stream, module, kind = RENDERING[sensor.kind]
            topics.append((sensor.gz.get(stream, sensor.gz_topic) if stream else
                           sensor.gz_topic, module, kind))
            if sensor.kind == 'camera':
                camera = sensor.sensor_name
    print(f'{build.name}: rendering sensors {[t for t, _, _ in topics]}', flush=True)
    cases = ('off', 'shipped', 'small camera') if camera else ('off', 'shipped')
    with tempfile.TemporaryDirectory(prefix='rendering_cost_') as temporary:
        folder = Path(temporary)
        (folder / 'resources').mkdir()
        (folder / 'resources' / 'bluerobotics_parts').symlink_to(REPO)
        env = dict(os.environ, GZ_IP='127.0.0.1', GZ_PARTITION=f'rendering_cost_{os.getpid()}',
                   GZ_SIM_RESOURCE_PATH=str(folder / 'resources'),
                   XDG_RUNTIME_DIR=os.environ.get('XDG_RUNTIME_DIR', temporary))
        os.environ['GZ_PARTITION'] = env['GZ_PARTITION']
        os.environ['GZ_IP'] = '127.0.0.1'
        worlds = {case: world_file(folder, model, case, camera) for case in cases}
        factors = {case: [] for case in cases}
        for round_number in range(options.pairs):
            for case in cases:
                factors[case].append(real_time_factor(worlds[case], topics, options.seconds,
                                                      env))
                print(f'round {round_number + 1}: {case}: real-time factor '
                      f'{factors[case][-1]:.3f}', flush=True)
    for case in cases:
        ratios = [f / off for f, off in zip(factors[case], factors['off'])]
        print(f'{case}: median real-time factor {statistics.median(factors[case]):.3f}, '
              f'{statistics.median(ratios):.3f} of off')
    return 0


if __name__ == '__main__':
    code = main()
    sys.stdout.flush()
    os._exit(code)  # gz-transport's threads would hold the interpreter
