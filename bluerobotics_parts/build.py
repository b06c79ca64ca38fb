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
``build``: config -> checked URDF -> Gazebo composition + bridge YAML, in memory.

The config is resolved once (pipeline.resolve_config); the composition, the bridge and the
vehicle model all read the record it wrote and the part catalogue it used, so nothing is read
or parsed twice. ``write_build`` puts the two artefacts in a folder atomically; ``summary`` is
what the command prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import Element

from .assembly.catalogue import Catalogue
from .assembly.pipeline import resolve_config, Resolved
from .assembly.resolution import drive_problems
from .assembly.urdf_writer import urdf_text
from .errors import AssemblyError, in_line_order
from .files.atomic import write_files_atomically, written_lines
from .formats import sensor_kinds as sensors
from .gazebo import bridge, composition as gazebo
from .model import topics
from .model.vehicle import Vehicle
from .paths import BRIDGE_FILE, URDF_FILE


@dataclass(frozen=True)
class Build:
    resolved: Resolved  # the config, the plain URDF (ROS description + record), the record
    catalogue: Catalogue  # part data for every type in the record (user parts included)
    vehicle: Vehicle  # the model of the plain URDF
    gz_release: str  # the Gazebo release the composition targets (harmonic, ionic, jetty)
    tree: Element  # the URDF with the Gazebo extension blocks, as a tree (never changed)
    urdf: str  # the same as text: robot_description.urdf
    bridge_yaml: str  # bridge.yaml for ros_gz_bridge's parameter_bridge

    @property
    def name(self) -> str:
        """Return the vehicle name: Gazebo model name, ROS namespace, TF prefix."""
        return self.resolved.name

    @property
    def gz_version(self) -> str:
        """Return the Gazebo release (its former name, for code written before the rename)."""
        return self.gz_release


def build(config, name: str | None = None, gz_release: str | None = None, current=None,
          gz_version: str | None = None) -> Build:
    """
    Resolve (once), check, compose for Gazebo and generate the bridge.

    ``gz_release``: harmonic (default), ionic or jetty; ``gz_version`` is its former name.
    ``current``: a water current, x y z in m/s in the world frame, for the Hydrodynamics
    system (gazebo.py).
    """
    release = gazebo.gz_release(gz_release or gz_version)  # fails before any work
    current = gazebo.current_vector(current)  # so does a malformed current
    resolved = resolve_config(config, name=name)
    stuck = drive_problems(resolved.resolution)  # before any Gazebo block: with their lines
    if stuck:
        raise AssemblyError(in_line_order(stuck, resolved.config.file))
    catalogue = resolved.catalogue()
    record = resolved.record
    vehicle = Vehicle.from_tree(resolved.tree, record, catalogue)
    composed = gazebo.compose_tree(resolved.tree, record, catalogue, resolved.name, release,
                                   current=current)
    bridge_text = bridge.bridge_yaml(record, catalogue, resolved.name)
    return Build(resolved, catalogue, vehicle, release.name, composed, urdf_text(composed),
                 bridge_text)


def artefacts(result: Build) -> dict[str, bytes]:
    """Return the files ``write_build`` writes, by name."""
    return {URDF_FILE: result.urdf.encode('utf-8'),
            BRIDGE_FILE: result.bridge_yaml.encode('utf-8')}


def write_build(result: Build, folder: Path) -> list[Path]:
    """Write the artefacts into ``folder`` (created if needed), all or nothing."""
    return write_files_atomically(Path(folder), artefacts(result))


def summary(result: Build, written, identity: str) -> str:
    """
    Return what ``bluerobotics-parts build`` prints.

    The vehicle, its parts, thrusters and sensors with their ROS topics, its mass, the
    identity of its description (export.description_identity: the one an export of it for the
    same Gazebo release has, so a log says exactly which vehicle ran), and the files written.
    """
    return summary_head(result, identity) + written_lines(written)


def summary_head(result: Build, identity: str) -> str:
    """Return the summary without the files written (what a cached build reuses)."""
    names = topics.vehicle_topics(result.resolved.record, result.catalogue, result.name)
    lines = [f'vehicle: {result.name} (Gazebo {result.gz_release})']
    lines.append('parts:')
    lines += [f'  {part.name}: {part.type}' for part in result.resolved.record.parts]
    lines.append('thrusters:' if names.thrusters else 'thrusters: none')
    lines += [f'  {t.instance}: joint {t.joint}, command {t.ros_topic} (std_msgs/Float64, N)'
              for t in names.thrusters]
    for category in ('sensor', 'light'):
        found = [s for s in names.sensors if sensors.KINDS[s.kind].category == category]
        if category == 'light' and not found:
            continue
        lines.append(f'{category}s:' if found else f'{category}s: none')
        lines += [f'  {s.key}: {s.kind}, frame {s.frame_id}'
                  + ''.join(f', {what} {topic}' for what, topic in s.ros.items())
                  for s in found]
    lines.append(f'total mass: {result.vehicle.total_mass:.2f} kg')
    lines.append(f'identity: {identity}')
    return '\n'.join(lines) + '\n'
