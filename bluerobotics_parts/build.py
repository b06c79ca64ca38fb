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
``build_gazebo``: config -> checked URDF -> Gazebo composition + bridge YAML, in memory.

The config is resolved once (assembly/pipeline.py) and the topic names computed once
(model/topics.py); the composition, the bridge and the vehicle model read that record, the
part catalogue it used and those names, so nothing is read, parsed or named twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.etree.ElementTree import Element

from .assembly.catalogue import Catalogue
from .assembly.pipeline import resolve_config, Resolved
from .assembly.resolution import drive_problems
from .assembly.urdf_writer import urdf_text
from .errors import AssemblyError, in_line_order
from .gazebo import bridge, composition
from .model.topics import vehicle_topics, VehicleTopics
from .model.vehicle import Vehicle
from .paths import BRIDGE_FILE, URDF_FILE


@dataclass(frozen=True)
class Build:
    resolved: Resolved  # the config, the plain URDF (ROS description + record), the record
    catalogue: Catalogue  # part data for every type in the record (user parts included)
    topics: VehicleTopics  # every topic and frame name, computed once
    vehicle: Vehicle  # the model of the plain URDF
    gz_release: str  # the Gazebo release the composition targets (harmonic, ionic, jetty)
    tree: Element  # the URDF with the Gazebo extension blocks, as a tree (never changed)
    urdf: str  # the same as text: robot_description.urdf
    bridge_yaml: str  # bridge.yaml for ros_gz_bridge's parameter_bridge

    @property
    def name(self) -> str:
        """Return the vehicle name: Gazebo model name, ROS namespace, TF prefix."""
        return self.resolved.name


def build_gazebo(config, name: str | None = None, gz_release: str | None = None,
                 current=None) -> Build:
    """
    Resolve (once), check, compose for Gazebo and generate the bridge.

    ``gz_release``: harmonic (default), ionic or jetty. ``current``: a water current, x y z in
    m/s in the world frame, for the Hydrodynamics system.
    """
    release = composition.gz_release(gz_release)  # fails before any work
    current = composition.current_vector(current)  # so does a malformed current
    resolved = resolve_config(config, name=name)
    stuck = drive_problems(resolved.resolution)  # before any Gazebo block: with their lines
    if stuck:
        raise AssemblyError(in_line_order(stuck, resolved.config.file))
    catalogue = resolved.catalogue()
    record = resolved.record
    names = vehicle_topics(record, catalogue, resolved.name)
    vehicle = Vehicle.from_tree(resolved.tree, record, catalogue, names)
    composed = composition.compose_tree(resolved.tree, record, names, catalogue, release,
                                        current=current)
    return Build(resolved, catalogue, names, vehicle, release.name, composed,
                 urdf_text(composed), bridge.bridge_yaml(names))


def artefacts(result: Build) -> dict[str, bytes]:
    """Return the files ``build`` writes, by name."""
    return {URDF_FILE: result.urdf.encode('utf-8'),
            BRIDGE_FILE: result.bridge_yaml.encode('utf-8')}


def summary_head(result: Build, identity: str) -> str:
    """
    Return what ``bluerobotics-parts build`` prints before the files it wrote.

    The vehicle, its parts, thrusters and sensors with their ROS topics, its mass, and the
    identity of its description (the one an export of it has), so a log says exactly which
    vehicle ran.
    """
    names = result.topics
    lines = [f'vehicle: {result.name} (Gazebo {result.gz_release})']
    lines.append('parts:')
    lines += [f'  {part.name}: {part.type}' for part in result.resolved.record.parts]
    lines.append('thrusters:' if names.thrusters else 'thrusters: none')
    lines += [f'  {t.instance}: joint {t.joint}, command {t.ros_topic} (std_msgs/Float64, N)'
              for t in names.thrusters]
    for category in ('sensor', 'light'):
        found = names.of_category(category)
        if category == 'light' and not found:
            continue
        lines.append(f'{category}s:' if found else f'{category}s: none')
        lines += [f'  {s.key}: {s.kind}, frame {s.frame_id}'
                  + ''.join(f', {what} {topic}' for what, topic in s.ros.items())
                  for s in found]
    lines.append(f'total mass: {result.vehicle.total_mass:.2f} kg')
    lines.append(f'identity: {identity}')
    return '\n'.join(lines) + '\n'
