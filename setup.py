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
Packaging for colcon (ament_python) and for plain `pip install .`.

Both install the data (urdf/, meshes/, launch/, config/) under share/bluerobotics_parts of the
install prefix; bluerobotics_parts.paths finds it there either way.
"""

from pathlib import Path

from setuptools import find_packages, setup

PACKAGE = 'bluerobotics_parts'
HERE = Path(__file__).resolve().parent


def data_tree(folder: str):
    """(destination, [files]) pairs for every file under `folder`, keeping the layout."""
    pairs = {}
    for path in sorted((HERE / folder).rglob('*')):
        if path.is_file() and '__pycache__' not in path.parts:
            relative = path.relative_to(HERE)
            pairs.setdefault(f'share/{PACKAGE}/{relative.parent}', []).append(str(relative))
    return sorted(pairs.items())


setup(
    name=PACKAGE,
    version='0.1.0',
    description='Blue Robotics vehicles from a few lines of YAML: slot-based assembly to URDF, '
                'Gazebo composition and ros_gz bridge generation',
    long_description=(HERE / 'README.md').read_text(encoding='utf-8'),
    long_description_content_type='text/markdown',
    license='Apache-2.0',
    python_requires='>=3.10',
    packages=find_packages(exclude=['test', 'test.*']),
    # numpy and Pillow draw `render`'s picture (about 50 MB installed, against 125 MB for
    # matplotlib: docs/DESIGN.md, "The picture: numpy and Pillow"; Pillow 10.1 or later, whose
    # fallback font takes a size);
    # argcomplete completes the command line in a shell
    install_requires=['PyYAML>=5.4', 'xacro>=2.0.8', 'numpy', 'Pillow>=10.1', 'argcomplete>=2'],
    extras_require={
        # what the test suite runs against: urdfdom's check_urdf, mesh checks, colcon, wheel
        # (test_packaging's offline pip install), pymavlink (the ground station of the SITL
        # flights), bluerobotics-ping (brping: the client Ping360 owners use, against the
        # simulated one); tools/setup_ros.sh adds ROS 2 and the linters
        'test': ['pytest<8', 'cmeel-urdfdom', 'trimesh', 'numpy', 'colcon-common-extensions',
                 'colcon-ros', 'wheel', 'jsonschema', 'pymavlink', 'bluerobotics-ping'],
    },
    data_files=[
        ('share/ament_index/resource_index/packages', [f'resource/{PACKAGE}']),
        (f'share/{PACKAGE}', ['package.xml']),
        (f'share/{PACKAGE}/hook', ['hooks/gz_resource_path.dsv']),
        *data_tree('urdf'),
        *data_tree('meshes'),
        *data_tree('launch'),
        *data_tree('config'),
        *data_tree('schema'),
    ],
    zip_safe=False,
    entry_points={
        'console_scripts': [
            'bluerobotics-parts = bluerobotics_parts.cli.main:main',
            'check_assembly = bluerobotics_parts.cli.check_assembly:main',
            'scan_to_range = bluerobotics_parts.ros.nodes.range_node:main',
            'pose_to_pressure = bluerobotics_parts.ros.nodes.pressure_node:main',
            'thrust_allocator = bluerobotics_parts.ros.nodes.thrust_allocator:main',
            'scan_to_ping360 = bluerobotics_parts.ros.nodes.ping360_node:main',
        ],
    },
)
