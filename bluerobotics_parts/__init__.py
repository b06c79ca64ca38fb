"""bluerobotics_parts: Blue Robotics vehicles from a few lines of YAML.

Slot-based assembly (urdf/assembly.xacro) turns a config into a URDF that records what it
fitted (the manifest); the check, the Gazebo composition, the bridge generator and the
vehicle model read that record. See README.md and docs/.
"""

__version__ = "0.1.0"

from .errors import (AssemblyError, BlueRoboticsPartsError, ConfigError,  # noqa: F401
                     ResolveError)
