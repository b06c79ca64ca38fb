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
bluerobotics_parts: Blue Robotics vehicles from a few lines of YAML.

Slot-based assembly turns a config into a URDF that records what it fitted (the assembly
record), which the check, the Gazebo composition, the bridge and the vehicle model read (see
README.md and docs/). Importing the package is cheap: these names load on first use.

    from bluerobotics_parts import Assembly
    urdf = Assembly().fit('motor_port', 't200_thruster_ccw').build()
"""

__version__ = '0.1.0'

_LAZY = {
    'Assembly': 'api',
    'AssemblyError': 'errors',
    'BlueRoboticsPartsError': 'errors',
    'ConfigError': 'errors',
    'Vehicle': 'model.vehicle',
    'VehicleError': 'errors',
}

__all__ = sorted(_LAZY) + ['__version__']


def __getattr__(name):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f'.{_LAZY[name]}', __name__), name)
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')


def __dir__():
    return __all__
