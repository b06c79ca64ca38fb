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
The SDF Gazebo is given for a composed URDF: ``gz sdf -p``, then two repairs, read once.

- Added mass folded into each link's first ``<inertial>`` (added_mass.py says why).
- Eased limits on the joints a JointPositionController moves (``ease_controlled``). Measured
  on gz-sim 8.14 / gz-physics 7 dartsim (docs/DESIGN.md, "Controlled joints are eased in
  Gazebo"): a light link falls through the
  controller's velocity command under gravity once one step's acceleration nears the joint's
  velocity limit (a 0.03 kg jaw on a 1 rad/s joint fell at 1 rad/s; at 2 rad/s or without a
  limit it held), and a joint resting on a position limit does not leave it for a velocity
  command. So their velocity limit goes (the controller's ``cmd_max`` is that limit already;
  SDFormat's default is inf, sdformat14_14.9.0 sdf/1.11/joint.sdf), and their position limits
  widen by LIMIT_MARGIN of the range each way, so a joint held anywhere in its range never rests
  on one.

A launch spawns this SDF whenever the URDF needs either (``needs_sdf``).
"""

from __future__ import annotations

from pathlib import Path
import shutil
import subprocess
import tempfile
from xml.etree import ElementTree

from . import added_mass, gz_xml
from .elements import JOINT_POSITION_CONTROLLER
from ..errors import BlueRoboticsPartsError

LIMIT_MARGIN = 0.05  # of a controlled joint's range, added below and above it in Gazebo
TIMEOUT = 60.0  # s for gz sdf -p on a URDF (it takes well under one)


class ConversionError(BlueRoboticsPartsError):
    """The URDF could not be converted to the SDF Gazebo is given."""


def gazebo_sdf(urdf_text: str, gz: str | None = None) -> str:
    """
    Return the SDF Gazebo is given for a composed URDF: ``gz sdf -p``, then the repairs.

    ``gz`` is the Gazebo command (default: ``gz`` on PATH). Raises ConversionError naming what
    failed.
    """
    program = gz or shutil.which('gz')
    if not program:
        raise ConversionError('no gz on PATH: converting the description to SDF (gz sdf -p) '
                              'needs Gazebo Harmonic')
    with tempfile.TemporaryDirectory(prefix='bluerobotics_parts_sdf_') as folder:
        path = Path(folder) / 'robot_description.urdf'
        path.write_text(urdf_text, encoding='utf-8')
        try:
            run = subprocess.run([program, 'sdf', '-p', str(path)], capture_output=True,
                                 text=True, stdin=subprocess.DEVNULL, timeout=TIMEOUT)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise ConversionError(f'{program} sdf -p failed: {error}') from None
    if run.returncode != 0 or '<sdf' not in run.stdout:
        raise ConversionError(f'{program} sdf -p failed (exit {run.returncode}): '
                              + (run.stderr or run.stdout).strip()[-2000:])
    try:
        root = gz_xml.fromstring(run.stdout[run.stdout.index('<sdf'):])
    except ElementTree.ParseError as error:
        raise ConversionError(f'{program} sdf -p printed no readable SDF: {error}') from None
    added_mass.fold_tree(root)
    ease_tree(root)
    return ElementTree.tostring(root, encoding='unicode') + '\n'


def needs_sdf(urdf_text: str) -> bool:
    """Return whether Gazebo must be given the converted SDF: added mass or a joint control."""
    return added_mass.has_added_mass(urdf_text) or JOINT_POSITION_CONTROLLER.name in urdf_text


def ease_controlled(sdf_text: str) -> str:
    """Return the SDF with eased limits on every joint a position controller moves."""
    root = gz_xml.fromstring(sdf_text)
    ease_tree(root)
    return ElementTree.tostring(root, encoding='unicode') + '\n'


def ease_tree(root: ElementTree.Element) -> None:
    """
    Ease the controlled joints' limits in place (see above).

    No velocity limit; the position limits LIMIT_MARGIN of the range wider each way.
    """
    for model in root.iter('model'):
        moved = {name.text for plugin in model.iter('plugin')
                 if plugin.get('name') == JOINT_POSITION_CONTROLLER.name
                 for name in plugin.findall('joint_name')}
        for joint in model.findall('joint'):
            limit = joint.find('axis/limit')
            if joint.get('name') not in moved or limit is None:
                continue
            for velocity in limit.findall('velocity'):
                limit.remove(velocity)
            lower, upper = limit.find('lower'), limit.find('upper')
            if lower is not None and upper is not None:
                low, high = float(lower.text), float(upper.text)
                margin = LIMIT_MARGIN * (high - low)
                lower.text, upper.text = repr(low - margin), repr(high + margin)
