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

from .ardupilot import parameters as ardupilot_parameters, plugin as ardupilot_plugin
from .ardupilot.wiring import wire, Wiring
from .assembly.catalogue import Catalogue
from .assembly.pipeline import resolve_config, Resolved
from .assembly.resolution import drive_problems
from .assembly.urdf_writer import urdf_text
from .errors import AssemblyError, ConfigError, in_line_order
from .gazebo import bridge, composition
from .gazebo.sensor_blocks import camera_setting
from .model.topics import vehicle_topics, VehicleTopics
from .model.vehicle import Vehicle
from .paths import ARDUPILOT_FILE, BRIDGE_FILE, URDF_FILE
from .physics import power, propulsion

AUTOPILOTS = ('none', 'ardupilot')
MAX_AUTOPILOT_INSTANCE = 99  # SITL -I N: ports 5760 + 10 N and 9002 + 10 N stay valid


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
    autopilot: Wiring | None = None  # ArduPilot's outputs, with --autopilot ardupilot
    autopilot_instance: int = 0  # SITL's -I
    ardupilot_parm: str | None = None  # ardupilot.parm

    @property
    def name(self) -> str:
        """Return the vehicle name: Gazebo model name, ROS namespace, TF prefix."""
        return self.resolved.name


def build_gazebo(config, name: str | None = None, gz_release: str | None = None,
                 current=None, autopilot: str | None = None, autopilot_instance=0,
                 camera=None, esc: str = 'curve') -> Build:
    """
    Resolve (once), check, compose for Gazebo and generate the bridge.

    ``gz_release``: harmonic (default), ionic or jetty. ``current``: a water current, x y z in
    m/s in the world frame, for the Hydrodynamics system. ``autopilot``: ``ardupilot`` adds
    ArduPilot's plugin wired to the base frame's motor outputs and ``ardupilot.parm``
    (ardupilot/), for SITL instance ``autopilot_instance``; none (default) adds nothing.
    ``camera``: every camera's image size and rate, ``640x360`` or ``640x360@15``, instead of
    its part's (gazebo/sensor_blocks.py, ``camera_setting``); None: the part's. ``esc``: under
    the autopilot, ``curve`` turns each PWM into its propeller's published thrust curve
    (gazebo/esc_system.py), ``linear`` keeps ArduPilot's plugin's linear map.
    """
    if esc not in ardupilot_plugin.ESC_MODES:
        raise ConfigError(f"esc {esc!r}: valid: {', '.join(ardupilot_plugin.ESC_MODES)}")
    release = composition.gz_release(gz_release)  # fails before any work
    current = composition.current_vector(current)  # so does a malformed current
    camera = camera_setting(camera)  # and a malformed camera setting
    autopilot, instance = autopilot_choice(autopilot, autopilot_instance)
    resolved = resolve_config(config, name=name)
    stuck = drive_problems(resolved.resolution)  # before any Gazebo block: with their lines
    if stuck:
        raise AssemblyError(in_line_order(stuck, resolved.config.file))
    catalogue = resolved.catalogue()
    record = resolved.record
    names = vehicle_topics(record, catalogue, resolved.name)
    vehicle = Vehicle.from_tree(resolved.tree, record, catalogue, names)
    wiring, extra, parm = None, (), None
    if autopilot == 'ardupilot':
        wiring = wire(resolved.resolution, vehicle, catalogue)
        limits = propulsion.thrust_limits(record, catalogue)
        # at the voltage of the parts' limits: full PWM gives the Thruster's installed limit,
        # which the drag is fitted to; the curve gives the shape in between
        throttles = power.Throttles(record, catalogue, limits, power.NO_BATTERY_VOLTAGE)
        curves = {name: throttles.pwm_table(name) for name in throttles.curves} \
            if esc == 'curve' else {}
        escs = ardupilot_plugin.esc_block(wiring, names, curves)
        extra = (ardupilot_plugin.plugin_block(wiring, names, limits, instance, curves),
                 *((escs,) if escs is not None else ()),
                 ardupilot_plugin.imu_block(record.base.name))
        parm = ardupilot_parameters.parm_text(wiring, resolved.name, vehicle)
    composed = composition.compose_tree(resolved.tree, record, names, catalogue, release,
                                        current=current, extra=extra,
                                        water=resolved.config.water, camera=camera)
    return Build(resolved, catalogue, names, vehicle, release.name, composed,
                 urdf_text(composed), bridge.bridge_yaml(names, commands=wiring is None),
                 wiring, instance, parm)


def autopilot_choice(autopilot, instance) -> tuple:
    """Return (autopilot, SITL instance) checked; ConfigError names what is valid."""
    autopilot = 'none' if autopilot is None else str(autopilot).strip().lower()
    if autopilot not in AUTOPILOTS:
        raise ConfigError(f"unknown autopilot {autopilot!r}; valid: {', '.join(AUTOPILOTS)}")
    try:
        number = int(str(instance).strip())
    except ValueError:
        number = -1
    if not 0 <= number <= MAX_AUTOPILOT_INSTANCE:
        raise ConfigError(f'autopilot instance {instance!r}: give a whole number from 0 to '
                          f'{MAX_AUTOPILOT_INSTANCE} (SITL -I N)')
    return autopilot, number


def artefacts(result: Build) -> dict[str, bytes]:
    """Return the files ``build`` writes, by name."""
    files = {URDF_FILE: result.urdf.encode('utf-8'),
             BRIDGE_FILE: result.bridge_yaml.encode('utf-8')}
    if result.ardupilot_parm is not None:
        files[ARDUPILOT_FILE] = result.ardupilot_parm.encode('utf-8')
    return files


def summary_head(result: Build, identity: str) -> str:
    """
    Return what ``bluerobotics-parts build`` prints before the files it wrote.

    The vehicle, its parts, thrusters, sensors and joint controls with their ROS topics, its
    mass, and the identity of its description (the one an export of it has), so a log says
    exactly which vehicle ran.
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
    if names.joint_controls:
        lines.append('joint controls:')
        lines += [f"  {c.instance}/{c.name}: joint {', '.join(c.joints)}, command {c.topic} "
                  '(std_msgs/Float64, a position within the joint limits)'
                  for c in names.joint_controls]
    lines.append(f'total mass: {result.vehicle.total_mass:.2f} kg')
    warning = trim_warning(result)
    if warning:
        lines.append(warning)
    if result.autopilot is not None:
        lines += autopilot_lines(result.autopilot, result.autopilot_instance)
    lines.append(f'identity: {identity}')
    return '\n'.join(lines) + '\n'


def trim_warning(result: Build) -> str:
    """Return the one line a build warns with when its vehicle sinks or floats too high."""
    from .model import kinematics
    from .physics import hydrostatics, trim

    shapes = hydrostatics.collision_shapes(result.resolved.urdf,
                                           kinematics.link_poses(result.vehicle))
    return trim.trim(result.vehicle, shapes, result.catalogue, result.resolved.record.base.type,
                     result.resolved.config.water).warning()


def autopilot_lines(wiring: Wiring, instance: int) -> list[str]:
    """Return how a summary describes the autopilot's wiring and ports."""
    frame = wiring.frame
    lines = [f'autopilot: {frame.title}, SITL {frame.firmware} -I {instance}: JSON on UDP '
             f'{ardupilot_plugin.fdm_port(instance)}, MAVLink on '
             f'tcp:127.0.0.1:{ardupilot_plugin.mavlink_port(instance)}']
    lines += [f'  {o.thruster}: SERVO{o.motor.servo} ({o.motor.function_name})'
              for o in wiring.outputs]
    return lines
