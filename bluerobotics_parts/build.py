"""``build``: config -> checked URDF -> Gazebo composition + bridge YAML, in memory.

The resolution happens once (pipeline.resolve_config); the composition, the bridge and the
vehicle model all read the manifest it recorded. ``write_build`` puts the two artefacts in a
folder atomically; ``summary`` is what the command prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import bridge, gazebo, topics
from .atomic import write_files_atomically
from .catalogue import Catalogue
from .pipeline import resolve_config, Resolved
from .vehicle import Vehicle

URDF_FILE = 'robot_description.urdf'
BRIDGE_FILE = 'bridge.yaml'


@dataclass(frozen=True)
class Build:
    resolved: Resolved  # the config, the plain URDF (ROS description + manifest), the manifest
    catalogue: Catalogue  # part data for every type in the manifest (user parts included)
    vehicle: Vehicle  # the model of the plain URDF
    gz_version: str
    urdf: str  # the URDF with the Gazebo extension blocks: robot_description.urdf
    bridge_yaml: str  # bridge.yaml for ros_gz_bridge's parameter_bridge

    @property
    def name(self) -> str:
        """The vehicle name: Gazebo model name, ROS namespace, TF prefix."""
        return self.resolved.name


def build(config, name: str | None = None, gz_version: str = 'harmonic', current=None) -> Build:
    """Resolve (once), check, compose for Gazebo and generate the bridge. ``current``: a water
    current, x y z in m/s in the world frame, for the Hydrodynamics system (gazebo.py)."""
    flavour = gazebo.flavour(gz_version)  # an unknown release fails before any work
    current = gazebo.current_vector(current)  # so does a malformed current
    resolved = resolve_config(config, name=name)
    catalogue = resolved.catalogue()
    vehicle = Vehicle.from_urdf(resolved.urdf)
    composed = gazebo.compose(resolved.urdf, resolved.manifest, catalogue, resolved.name, flavour,
                              current=current)
    bridge_text = bridge.bridge_yaml(resolved.manifest, catalogue, resolved.name)
    return Build(resolved, catalogue, vehicle, flavour.name, composed, bridge_text)


def artefacts(result: Build) -> dict[str, bytes]:
    """The files ``write_build`` writes, by name."""
    return {URDF_FILE: result.urdf.encode('utf-8'), BRIDGE_FILE: result.bridge_yaml.encode('utf-8')}


def write_build(result: Build, folder: Path) -> list[Path]:
    """Write the artefacts into ``folder`` (created if needed), all or nothing."""
    return write_files_atomically(Path(folder), artefacts(result))


def summary(result: Build, written) -> str:
    """What ``bluerobotics-parts build`` prints: the vehicle, its parts, thrusters and sensors
    with their ROS topics, its mass, the identity of its description (the one an export of it
    for the same Gazebo release has, so a log says exactly which vehicle ran), and the files
    written."""
    from .export import description_identity  # export builds on this module
    names = topics.vehicle_topics(result.resolved.manifest, result.catalogue, result.name)
    lines = [f'vehicle: {result.name} (Gazebo {result.gz_version})']
    lines.append('parts:')
    lines += [f'  {part.name}: {part.type}' for part in result.resolved.manifest.parts]
    lines.append('thrusters:' if names.thrusters else 'thrusters: none')
    lines += [f'  {t.instance}: joint {t.joint}, command {t.ros_topic} (std_msgs/Float64, N)'
              for t in names.thrusters]
    lines.append('sensors:' if names.echosounders else 'sensors: none')
    lines += [f'  {e.instance}: frame {e.frame_id}, scan {e.ros_scan_topic}, '
              f'range {e.ros_range_topic}' for e in names.echosounders]
    lines.append(f'total mass: {result.vehicle.total_mass:.2f} kg')
    lines.append(f'identity: {description_identity(result)}')
    lines.append('wrote:')
    lines += [f'  {path}' for path in written]
    return '\n'.join(lines) + '\n'

