"""bluerobotics_parts: Blue Robotics vehicles from a few lines of YAML.

Slot-based assembly (urdf/assembly.xacro) turns a config into a URDF that records what it
fitted (the manifest); the check, the Gazebo composition, the bridge generator and the
vehicle model read that record. See README.md and docs/.

    from bluerobotics_parts import Assembly
    urdf = Assembly().fit("motor_port", "t200_thruster_ccw").build()
"""

__version__ = '0.1.0'

from .api import Assembly  # noqa: E402,F401
from .errors import (AssemblyError, BlueRoboticsPartsError, ConfigError,  # noqa: E402,F401
                     ResolveError)
from .vehicle import Vehicle, VehicleError  # noqa: E402,F401

__all__ = ['Assembly', 'AssemblyError', 'BlueRoboticsPartsError', 'ConfigError', 'ResolveError',
           'Vehicle', 'VehicleError', '__version__']
