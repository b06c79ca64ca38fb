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
Every element the Gazebo composition may write into a ``<plugin>`` or a ``<sensor>``.

Per system or sensor: element -> (meaning, unit, where the reading code is). Gazebo silently
ignores an element a system does not read (``<water_density>`` in Hydrodynamics, for the whole
8.x series), so composition.py checks every element it writes against these tables (``unread``),
as test/gazebo/test_composition.py does every composed config. Sources are the release tags the
package targets: gazebosim/gz-sim ``gz-sim8_8.14.0``, gazebosim/gz-sensors ``gz-sensors8_8.2.2``
(Harmonic) and ``gz-sensors9_9.2.0`` (Ionic), gazebosim/sdformat ``sdformat14_14.9.0`` (the
sensor elements of the SDF spec, which gz-sensors reads through sdformat's classes).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .gz_xml import GZ_NAMESPACE

GZ_SIM = 'gazebosim/gz-sim gz-sim8_8.14.0 '
THRUSTER_CC = GZ_SIM + 'src/systems/thruster/Thruster.cc, Thruster::Configure'
HYDRODYNAMICS_CC = GZ_SIM + 'src/systems/hydrodynamics/Hydrodynamics.cc, Hydrodynamics::Configure'
JOINT_STATE_CC = (GZ_SIM + 'src/systems/joint_state_publisher/JointStatePublisher.cc, '
                  'JointStatePublisher::Configure')
ODOMETRY_CC = (GZ_SIM + 'src/systems/odometry_publisher/OdometryPublisher.cc, '
               'OdometryPublisher::Configure')
SENSOR_SDF = 'gazebosim/sdformat sdformat14_14.9.0 sdf/1.11/sensor.sdf'
LIDAR_SDF = ('gazebosim/sdformat sdformat14_14.9.0 sdf/1.11/lidar.sdf (read by src/Lidar.cc; '
             'gz-sensors8 src/Lidar.cc, src/GpuLidarSensor.cc)')

THRUSTER_ELEMENTS = {
    'namespace': ('topic namespace: commands arrive on /<namespace>/<topic>', 'name',
                  THRUSTER_CC),
    'joint_name': ('the joint the propeller spins on; thrust acts along its axis', 'name',
                   THRUSTER_CC),
    'topic': ('thrust command topic, relative to the namespace', 'name', THRUSTER_CC),
    'thrust_coefficient': ('K_T in T = K_T rho D^4 w |w|: sets the spin speed and, by its '
                           'sign, the spin sense (ThrustToAngularVec)', '1', THRUSTER_CC),
    'fluid_density': ('rho in the same relation (spin speed only; the force is the command)',
                      'kg/m^3', THRUSTER_CC),
    'propeller_diameter': ('D in the same relation', 'm', THRUSTER_CC),
    'velocity_control': ('set the joint velocity directly (JointVelocityCmd) instead of a PID '
                         'torque on the propeller', 'bool', THRUSTER_CC),
    'max_thrust_cmd': ('commands above are clamped to it (OnCmdThrust)', 'N', THRUSTER_CC),
    'min_thrust_cmd': ('commands below are clamped to it (OnCmdThrust)', 'N', THRUSTER_CC),
}

_FORCES = {'x': ('surge force', 'N'), 'y': ('sway force', 'N'), 'z': ('heave force', 'N'),
           'k': ('roll moment', 'N m'), 'm': ('pitch moment', 'N m'),
           'n': ('yaw moment', 'N m')}
_SPEEDS = {'U': ('surge', 'm/s'), 'V': ('sway', 'm/s'), 'W': ('heave', 'm/s'),
           'P': ('roll rate', 'rad/s'), 'Q': ('pitch rate', 'rad/s'),
           'R': ('yaw rate', 'rad/s')}


def _hydrodynamics() -> dict:
    """
    Return what Hydrodynamics reads.

    For every force f and velocities v, w (SNAME names): linear damping <fv>, quadratic
    damping <fvabsw> (f per v |w|), and added mass <fDotv>.
    """
    table = {
        'link_name': ('the link the hydrodynamic wrench acts on', 'name', HYDRODYNAMICS_CC),
        'disable_added_mass': ('leave out the added-mass terms <fDotv>', 'bool',
                               HYDRODYNAMICS_CC),
        'default_current': ('water current velocity in the world frame, subtracted from the '
                            "link's velocity (or /ocean_current at run time)", 'm/s',
                            HYDRODYNAMICS_CC),
    }
    for f, (force, force_unit) in _FORCES.items():
        for v, (speed, speed_unit) in _SPEEDS.items():
            table[f + v] = (f'linear damping: {force} per {speed}',
                            f'{force_unit} per {speed_unit}', HYDRODYNAMICS_CC)
            table[f'{f}Dot{v}'] = (f'added mass: {force} per {speed} rate',
                                   f'{force_unit} per {speed_unit}/s', HYDRODYNAMICS_CC)
            for w, (other, other_unit) in _SPEEDS.items():
                table[f'{f}{v}abs{w}'] = (
                    f'quadratic damping: {force} per {speed} times |{other}|',
                    f'{force_unit} per ({speed_unit} {other_unit})', HYDRODYNAMICS_CC)
    return table


HYDRODYNAMICS_ELEMENTS = _hydrodynamics()

JOINT_STATE_PUBLISHER_ELEMENTS = {
    'topic': ('where the model joint states are published (gz.msgs.Model)', 'name',
              JOINT_STATE_CC),
}

JOINT_POSITION_CC = (GZ_SIM + 'src/systems/joint_position_controller/JointPositionController.cc, '
                     'JointPositionController::Configure and PreUpdate')
JOINT_POSITION_CONTROLLER_ELEMENTS = {
    'joint_name': ("the joint it moves (several would all follow the first one's position)",
                   'name', JOINT_POSITION_CC),
    'topic': ('target position topic (gz.msgs.Double)', 'name', JOINT_POSITION_CC),
    'use_velocity_commands': ('no PID: the joint velocity is set to reach the target in one '
                              'step, at most cmd_max (mode ABS)', 'bool', JOINT_POSITION_CC),
    'cmd_max': ('with use_velocity_commands, the fastest it moves', 'rad/s or m/s',
                JOINT_POSITION_CC),
    'initial_position': ('the target until a command arrives', 'rad or m', JOINT_POSITION_CC),
}

ODOMETRY_PUBLISHER_ELEMENTS = {
    'odom_topic': ('odometry topic (gz.msgs.Odometry)', 'name', ODOMETRY_CC),
    'tf_topic': ('odom -> base transform topic (gz.msgs.Pose_V)', 'name', ODOMETRY_CC),
    'odom_frame': ("the odometry's fixed frame id", 'name', ODOMETRY_CC),
    'robot_base_frame': ("the odometry's child frame id", 'name', ODOMETRY_CC),
    'dimensions': ('2 (planar) or 3', '1', ODOMETRY_CC),
}

_AXIS = {'samples': ('rays along the axis', 'count'),
         'resolution': ('range samples per ray (1 for one per ray)', '1'),
         'min_angle': ('first ray angle (horizontal: about z; vertical: toward +z)', 'rad'),
         'max_angle': ('last ray angle', 'rad')}

GPU_LIDAR_SENSOR = {
    'pose': ('the sensor frame in its link', 'm, rad', SENSOR_SDF),
    'update_rate': ('scans per second', 'Hz', SENSOR_SDF),
    'topic': ('LaserScan topic; the point cloud goes to <topic>/points', 'name',
              SENSOR_SDF + '; gz-sensors8 src/GpuLidarSensor.cc, GpuLidarSensor::Load'),
    'gz_frame_id': ('frame id of the messages (Harmonic)', 'name',
                    'gazebosim/gz-sensors gz-sensors8_8.2.2 src/Sensor.cc, SensorPrivate::'
                    'PopulateFromSDF'),
    'frame_id': ('frame id of the messages (Ionic and later: gz_frame_id deprecated)', 'name',
                 'gazebosim/gz-sensors gz-sensors9_9.2.0 src/Sensor.cc; gazebosim/sdformat '
                 'sdformat15_15.4.0 sdf/1.12/sensor.sdf'),
    'lidar': ('the ray pattern', '-', LIDAR_SDF),
    'lidar/scan': ('the ray pattern', '-', LIDAR_SDF),
    'lidar/scan/horizontal': ('rays about the sensor z axis', '-', LIDAR_SDF),
    'lidar/scan/vertical': ('rows of rays toward the sensor z axis', '-', LIDAR_SDF),
    'lidar/range': ('measurable interval', '-', LIDAR_SDF),
    'lidar/range/min': ('nearest measurable range (closer: -inf, REP 117)', 'm', LIDAR_SDF),
    'lidar/range/max': ('farthest measurable range (beyond: +inf)', 'm', LIDAR_SDF),
}
for _axis in ('horizontal', 'vertical'):
    for _name, (_meaning, _unit) in _AXIS.items():
        GPU_LIDAR_SENSOR[f'lidar/scan/{_axis}/{_name}'] = (_meaning, _unit, LIDAR_SDF)

SDF = 'gazebosim/sdformat sdformat14_14.9.0 '
NOISE_SDF = SDF + 'sdf/1.11/noise.sdf (src/Noise.cc, Noise::Load)'
_NOISE = {'noise': ('a noise model; type="gaussian": independent normal samples', '-', NOISE_SDF),
          'noise/mean': ('mean of the noise', 'the unit of the value', NOISE_SDF),
          'noise/stddev': ('standard deviation of the noise', 'the unit of the value', NOISE_SDF)}


def _with_noise(prefix: str, meaning: str, unit: str, source: str) -> dict:
    table = {prefix: (meaning, unit, source)}
    table.update({f'{prefix}/{k}': (m, unit if u != '-' else u, s)
                  for k, (m, u, s) in _NOISE.items()})
    return table


_COMMON = {key: GPU_LIDAR_SENSOR[key]
           for key in ('pose', 'update_rate', 'gz_frame_id', 'frame_id')}
_COMMON['topic'] = ('the topic the sensor publishes on', 'name', SENSOR_SDF + '; gz-sensors8 '
                    'src/Sensor.cc, SensorPrivate::PopulateFromSDF')

DVL_CC = ('gazebosim/gz-sensors gz-sensors8_8.2.2 src/DopplerVelocityLog.cc, '
          'DopplerVelocityLog::Load and Implementation::Initialize*')
DVL_SENSOR = dict(_COMMON)
DVL_SENSOR.update({
    'gz:dvl': ('the DVL configuration; without it the sensor does not load', '-', DVL_CC),
    'gz:dvl/type': ('piston or phased_array (the message says which)', 'name', DVL_CC),
    'gz:dvl/arrangement': ('the beams; degrees="false": angles in radians', '-', DVL_CC),
    'gz:dvl/arrangement/beam': ('one acoustic beam (at least three); id="n"', '-', DVL_CC),
    'gz:dvl/arrangement/beam/aperture': ('full angle of the beam cone', 'rad', DVL_CC),
    'gz:dvl/arrangement/beam/rotation': ('the beam about the sensor z', 'rad', DVL_CC),
    'gz:dvl/arrangement/beam/tilt': ('the beam from the sensor -z, within (-90, 90) deg', 'rad',
                                     DVL_CC),
    'gz:dvl/tracking': ('which tracking modes run', '-', DVL_CC),
    'gz:dvl/tracking/bottom_mode': ('velocity over the bottom', '-', DVL_CC),
    'gz:dvl/tracking/bottom_mode/when': ('never, always or best', 'name', DVL_CC),
    **{f'gz:dvl/tracking/bottom_mode/{key}': (meaning, unit, DVL_CC)
       for key, (meaning, unit, _) in _NOISE.items()},
    'gz:dvl/minimum_range': ('nearest bottom it tracks', 'm', DVL_CC),
    'gz:dvl/maximum_range': ('farthest bottom it tracks', 'm', DVL_CC),
})

IMU_SDF = SDF + 'sdf/1.11/imu.sdf (src/Imu.cc, Imu::Load; gz-sensors8 src/ImuSensor.cc, Load)'
IMU_SENSOR = dict(_COMMON)
IMU_SENSOR.update({
    'imu': ('the IMU_SENSOR', '-', IMU_SDF),
    'imu/orientation_reference_frame': ('what the orientation is relative to', '-', IMU_SDF),
    'imu/orientation_reference_frame/localization': (
        'ENU: East-North-Up (ImuSensor::SetWorldFrameOrientation)', 'name', IMU_SDF),
    'imu/angular_velocity': ('gyro noise per axis', '-', IMU_SDF),
    'imu/linear_acceleration': ('accelerometer noise per axis', '-', IMU_SDF),
})
for _group, _unit in (('angular_velocity', 'rad/s'), ('linear_acceleration', 'm/s^2')):
    for _axis in 'xyz':
        IMU_SENSOR.update(_with_noise(f'imu/{_group}/{_axis}', f'{_group} about/along {_axis}',
                                      _unit, IMU_SDF))

MAGNETOMETER_SDF = (SDF + 'sdf/1.11/magnetometer.sdf (src/Magnetometer.cc; gz-sensors8 '
                    'src/MagnetometerSensor.cc)')
MAGNETOMETER_SENSOR = dict(_COMMON)
MAGNETOMETER_SENSOR['magnetometer'] = ('the magnetometer', '-', MAGNETOMETER_SDF)
for _axis in 'xyz':
    MAGNETOMETER_SENSOR.update(_with_noise(f'magnetometer/{_axis}', f'field along {_axis}', 'T',
                                           MAGNETOMETER_SDF))

NAVSAT_SDF = SDF + 'sdf/1.11/navsat.sdf (src/NavSat.cc; gz-sensors8 src/NavSatSensor.cc)'
NAVSAT_SENSOR = dict(_COMMON)
NAVSAT_SENSOR.update({'navsat': ('the GNSS receiver', '-', NAVSAT_SDF),
                      'navsat/position_sensing': ('position noise', '-', NAVSAT_SDF)})
# gz-sensors8 applies the horizontal noise to latitude and longitude in degrees, not metres
# as navsat.sdf says (NavSatSensor::Update; sensor_blocks.horizontal_noise_degrees)
NAVSAT_SENSOR.update(_with_noise('navsat/position_sensing/horizontal', 'latitude and longitude',
                                 'deg', NAVSAT_SDF))
NAVSAT_SENSOR.update(_with_noise('navsat/position_sensing/vertical', 'altitude', 'm', NAVSAT_SDF))

CAMERA_SDF = (SDF + 'sdf/1.11/camera.sdf (src/Camera.cc, Camera::Load; gz-sensors8 '
              'src/CameraSensor.cc, CameraSensor::Load and PopulateInfo)')
CAMERA_SENSOR = dict(_COMMON)
CAMERA_SENSOR.update({
    'camera': ('the camera; it looks along its frame +x', '-', CAMERA_SDF),
    'camera/camera_info_topic': ('where CameraInfo goes (default: beside the image topic)',
                                 'name', CAMERA_SDF),
    'camera/horizontal_fov': ('horizontal field of view', 'rad', CAMERA_SDF),
    'camera/image': ('the image', '-', CAMERA_SDF),
    'camera/image/width': ('image width', 'pixels', CAMERA_SDF),
    'camera/image/height': ('image height', 'pixels', CAMERA_SDF),
    'camera/image/format': ('pixel format (R8G8B8: rgb8)', 'name', CAMERA_SDF),
    'camera/clip': ('the rendered depth interval', '-', CAMERA_SDF),
    'camera/clip/near': ('nearest rendered distance', 'm', CAMERA_SDF),
    'camera/clip/far': ('farthest rendered distance', 'm', CAMERA_SDF),
    'camera/optical_frame_id': ('frame id of Image and CameraInfo (the optical frame)', 'name',
                                CAMERA_SDF),
})

LIGHT_SDF = SDF + 'sdf/1.11/light.sdf (src/Light.cc, Light::Load)'
SPOT_LIGHT = {
    'pose': ('the light in its link', 'm, rad', LIGHT_SDF),
    'cast_shadows': ('whether it casts shadows', 'bool', LIGHT_SDF),
    'light_on': ('on at start', 'bool', LIGHT_SDF),
    'intensity': ('scale factor of the light power', '1', LIGHT_SDF),
    'direction': ('where a spot light shines, in the light frame', '1', LIGHT_SDF),
    'attenuation': ('fall-off with distance', '-', LIGHT_SDF),
    'attenuation/range': ('range of the light', 'm', LIGHT_SDF),
    'attenuation/constant': ('constant attenuation factor (1: none)', '1', LIGHT_SDF),
    'attenuation/linear': ('linear attenuation factor', '1', LIGHT_SDF),
    'attenuation/quadratic': ('quadratic attenuation factor', '1', LIGHT_SDF),
    'spot': ('spot cone', '-', LIGHT_SDF),
    'spot/inner_angle': ('full angle of the bright inner cone', 'rad', LIGHT_SDF),
    'spot/outer_angle': ('full angle of the outer cone', 'rad', LIGHT_SDF),
    'spot/falloff': ('fall-off between the cones (1: linear)', '1', LIGHT_SDF),
}

# A link's added mass (gazebo/added_mass.py): read by sdf::Link::Load into
# gz::math::Inertiald, applied by gz-physics dartsim (gz-physics7_7.8.0
# dartsim/src/SDFFeatures.cc ConstructSdfLink -> AddedMassFeatures.cc SetLinkAddedMass).
INERTIAL_SDF = SDF + 'sdf/1.11/inertial.sdf (src/Link.cc, Link::Load)'
_UNITS = ('kg', 'kg m', 'kg m^2')  # by how many of the two axes turn (p q r)
FLUID_ADDED_MASS_ELEMENTS = {
    'fluid_added_mass': ('added mass matrix about the link origin, link axes, symmetric', '-',
                         INERTIAL_SDF),
    **{f'fluid_added_mass/{a}{b}': (f'added mass {a}{b}', _UNITS['pqr'.count(a) + 'pqr'.count(b)],
                                    INERTIAL_SDF)
       for i, a in enumerate('xyzpqr') for b in 'xyzpqr'[i:]},
}

# World systems the shipped worlds configure (test/gazebo/test_sensor_blocks.py reads the
# worlds against these).
MAGNETOMETER_CC = GZ_SIM + 'src/systems/magnetometer/Magnetometer.cc, Magnetometer::Configure'
MAGNETOMETER_SYSTEM_ELEMENTS = {
    'use_units_gauss': ('report gauss (default true) instead of tesla', 'bool', MAGNETOMETER_CC),
    'use_earth_frame_ned': ('world field in NED (default true) instead of ENU', 'bool',
                            MAGNETOMETER_CC),
}


ARDUPILOT_GAZEBO = 'ArduPilot/ardupilot_gazebo main 082a0fe2 src/ArduPilotPlugin.cc, '
_CONFIGURE = ARDUPILOT_GAZEBO + 'ArduPilotPlugin::Configure'
_CONTROLS = ARDUPILOT_GAZEBO + 'ArduPilotPlugin::LoadControlChannels'
_SOCKETS = ARDUPILOT_GAZEBO + 'ArduPilotPlugin::InitSockets'
#: The subset of the plugin's elements the composition writes, each with where it is read;
#: the composition writes no other. The plugin reads more, left at their defaults here:
#: listen_addr, connectionTimeoutMaxCount, no_time_sync, imu_sensor, a control's useForce,
#: PID gains and limits (p_gain ... vel_i_min, cmd_max/min), rotor, turningDirection,
#: rotorVelocitySlowdownSim, frequencyCutoff, samplingRate, and the <sensor> range and
#: anemometer entries (index, topic).
ARDUPILOT_PLUGIN_ELEMENTS = {
    'fdm_addr': ('where SITL sends its servo packets from and gets the state', 'address',
                 _SOCKETS),
    'fdm_port_in': ('the UDP port the plugin listens on for servo packets (SITL -I N: 9002 + '
                    '10 N)', 'port', _SOCKETS),
    'connectionTimeoutMaxCount': ('missed packets before the connection counts as lost',
                                  'count', _CONFIGURE),
    'lock_step': ('wait for each servo packet before stepping (1: lock-step)', 'bool',
                  _CONFIGURE),
    'have_32_channels': ('servo packets of 32 channels instead of 16', 'bool', _CONFIGURE),
    'modelXYZToAirplaneXForwardZDown': ('the model frame to ArduPilot body axes (x forward, y '
                                        'right, z down)', 'm, rad', _CONFIGURE),
    'gazeboXYZToNED': ('the world frame to NED (the plugin takes its inverse)', 'm, rad',
                       _CONFIGURE + ', CreateStateJSON'),
    'imuName': ('the IMU sensor whose readings go to SITL; its link gives the pose', 'name',
                ARDUPILOT_GAZEBO + 'ArduPilotPlugin::LoadImuSensors, PreUpdate'),
    'control': ('one servo output (attribute channel: its index, SERVOn is n - 1)', '-',
                _CONTROLS),
    'control/jointName': ('the joint it acts on (looked up even for COMMAND)', 'name',
                          _CONTROLS),
    'control/type': ('COMMAND: publish the command as gz.msgs.Double on cmd_topic', 'name',
                     _CONTROLS + ', ApplyMotorForces'),
    'control/cmd_topic': ('where a COMMAND control publishes', 'name', _CONTROLS),
    'control/servo_min': ('the PWM read as 0', 'us', _CONTROLS + ', UpdateMotorCommands'),
    'control/servo_max': ('the PWM read as 1', 'us', _CONTROLS + ', UpdateMotorCommands'),
    'control/offset': ('added to the clamped 0..1 value', '1',
                       _CONTROLS + ', UpdateMotorCommands'),
    'control/multiplier': ('command = multiplier x (value + offset)', 'the command unit (N)',
                           _CONTROLS + ', UpdateMotorCommands'),
}
# gz-sim's loader of Python systems reads <module_name>; everything else is the module's own
# (the package's ESC system, gazebo/esc_system.py, read_escs).
PYTHON_LOADER_CC = (GZ_SIM + 'src/systems/python_system_loader/PythonSystemLoader.cc, '
                    'PythonSystemLoader::Configure')
ESC_SYSTEM_CODE = 'bluerobotics_parts gazebo/esc_system.py, read_escs'
ESC_SYSTEM_ELEMENTS = {
    'module_name': ('the Python module to import; its get_system() is the system', 'name',
                    PYTHON_LOADER_CC),
    'esc': ("one propeller's ESC", '-', ESC_SYSTEM_CODE),
    'esc/pwm_topic': ("where ArduPilot's plugin publishes the output's PWM (gz.msgs.Double)",
                      'name', ESC_SYSTEM_CODE),
    'esc/thrust_topic': ("the propeller's Thruster command topic", 'name', ESC_SYSTEM_CODE),
    'esc/pwm_us': ('the PWM of each tabled point, ascending', 'us', ESC_SYSTEM_CODE),
    'esc/thrust_n': ('the installed thrust at each point', 'N', ESC_SYSTEM_CODE),
}


@dataclass(frozen=True)
class System:
    """A gz-sim system plugin: its library, its class and the elements its Configure reads."""

    filename: str
    name: str
    elements: dict = field(default_factory=dict)


# The library of gz-sim8_8.14.0 src/systems/<dir>/ is gz-sim-<dir>-system (its CMakeLists.txt,
# gz_add_system); the class is what GZ_ADD_PLUGIN registers.
THRUSTER = System('gz-sim-thruster-system', 'gz::sim::systems::Thruster', THRUSTER_ELEMENTS)
HYDRODYNAMICS = System('gz-sim-hydrodynamics-system', 'gz::sim::systems::Hydrodynamics',
                       HYDRODYNAMICS_ELEMENTS)
JOINT_STATE_PUBLISHER = System('gz-sim-joint-state-publisher-system',
                               'gz::sim::systems::JointStatePublisher',
                               JOINT_STATE_PUBLISHER_ELEMENTS)
JOINT_POSITION_CONTROLLER = System('gz-sim-joint-position-controller-system',
                                   'gz::sim::systems::JointPositionController',
                                   JOINT_POSITION_CONTROLLER_ELEMENTS)
ODOMETRY_PUBLISHER = System('gz-sim-odometry-publisher-system',
                            'gz::sim::systems::OdometryPublisher', ODOMETRY_PUBLISHER_ELEMENTS)
# world systems the sensors need (Sensors renders cameras and lidars)
SENSORS_SYSTEM = System('gz-sim-sensors-system', 'gz::sim::systems::Sensors')
# the DVL's own: it creates the sensors in the Sensors system's render scene (gz-sim8_8.14.0
# src/systems/dvl/DopplerVelocityLogSystem.cc, its library gz_add_system(dvl ...))
DVL_SYSTEM = System('gz-sim-dvl-system', 'gz::sim::systems::DopplerVelocityLogSystem')
IMU_SYSTEM = System('gz-sim-imu-system', 'gz::sim::systems::Imu')
MAGNETOMETER_SYSTEM = System('gz-sim-magnetometer-system', 'gz::sim::systems::Magnetometer',
                             MAGNETOMETER_SYSTEM_ELEMENTS)
NAVSAT_SYSTEM = System('gz-sim-navsat-system', 'gz::sim::systems::NavSat')
# ArduPilot's plugin (libArduPilotPlugin.so; GZ_ADD_PLUGIN_ALIAS registers "ArduPilotPlugin")
ARDUPILOT_PLUGIN = System('ArduPilotPlugin', 'ArduPilotPlugin', ARDUPILOT_PLUGIN_ELEMENTS)
# gz-sim's Python system loader (gz_add_system(python-system-loader ...), its alias
# gz::sim::systems::PythonSystemLoader) carrying the package's ESC system
ESC_SYSTEM = System('gz-sim-python-system-loader-system', 'gz::sim::systems::PythonSystemLoader',
                    ESC_SYSTEM_ELEMENTS)

PLUGINS = {system.name: system.elements for system in (
    THRUSTER, HYDRODYNAMICS, JOINT_STATE_PUBLISHER, ODOMETRY_PUBLISHER, MAGNETOMETER_SYSTEM,
    ARDUPILOT_PLUGIN, JOINT_POSITION_CONTROLLER, ESC_SYSTEM)}
SENSOR_TYPES = {'gpu_lidar': GPU_LIDAR_SENSOR, 'imu': IMU_SENSOR,
                'magnetometer': MAGNETOMETER_SENSOR, 'navsat': NAVSAT_SENSOR,
                'camera': CAMERA_SENSOR, 'dvl': DVL_SENSOR}  # custom ones by their gz:type
LIGHT_TYPES = {'spot': SPOT_LIGHT}


def unread(element) -> list[str]:
    """
    Paths of the elements inside a plugin, sensor, light or inertial not in its table.

    ``<inertial>``: the added mass block (gazebo/added_mass.py).

    An element is named by its path below the plugin, sensor or light
    ('lidar/scan/horizontal'). A plugin, sensor or light type without a table is reported
    whole.
    """
    def named(tag: str) -> str:
        return tag.replace(f'{{{GZ_NAMESPACE}}}', 'gz:')  # as a namespace-aware reader names it

    if element.tag == 'plugin':
        table, kind = PLUGINS.get(element.get('name')), element.get('name')
    elif element.tag == 'inertial':
        table, kind = FLUID_ADDED_MASS_ELEMENTS, 'inertial'
    elif element.tag == 'light':
        table, kind = LIGHT_TYPES.get(element.get('type')), f"{element.get('type')} light"
    else:
        kind = element.get('gz:type') or element.get(f'{{{GZ_NAMESPACE}}}type') or \
            element.get('type')
        table, kind = SENSOR_TYPES.get(kind), f'{kind} sensor'
    if table is None:
        return [f'{kind}: no table of the elements it reads']
    found = []

    def walk(node, prefix):
        for child in node:
            path = prefix + named(child.tag)
            if path not in table:
                found.append(f'{kind}: {path}')
            walk(child, path + '/')

    walk(element, '')
    return found
