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
``info`` says which speeds are fitted and which predicted, and what added parts cost.

The BlueBoat's 3.0 m/s is the published figure its drag is fitted to; the BlueROV2's 0.985 m/s
is a prediction against the published 1 m/s; a part the config adds (a Ping360 under the hull,
a skid with a DVL) adds its drag (physics/drag.py, an estimate), which Gazebo leaves out.
"""

from __future__ import annotations

from bluerobotics_parts.model.kinematics import Pose
from bluerobotics_parts.physics import drag, hydrostatics
from conftest import cli, CONFIG_DIR, write_config
import pytest

KNOT = 1852 / 3600


def full_ahead(stdout: str) -> str:
    (line,) = [line for line in stdout.splitlines() if line.startswith('  full ahead: ')
               and ' N -> surge ' in line]
    return line


def test_the_boats_top_speed_is_marked_fitted_and_given_in_knots():
    result = cli('info', CONFIG_DIR / 'blueboat.yaml')
    assert full_ahead(result.stdout) == (
        "  full ahead: 80.4 N -> surge 3.000 m/s (5.83 kn); fitted: the base's surge drag is "
        'fitted to its published 3 m/s')
    assert 'parts added to the base' not in result.stdout


def test_the_rovs_top_speed_is_a_prediction_against_the_published_figure():
    assert full_ahead(cli('info', CONFIG_DIR / 'bluerov2.yaml').stdout) == (
        '  full ahead: 88.3 N -> surge 0.985 m/s (1.91 kn); predicted (published: 1 m/s)')
    assert full_ahead(cli('info', CONFIG_DIR / 'bluerov2_heavy.yaml').stdout).endswith(
        '; predicted (no published top speed)')


def test_a_ping360_under_the_hull_adds_drag_and_slows_the_boat(tmp_path):
    config = write_config(tmp_path, 'parts:\n  - {type: ping360, name: sonar360, rpy: '
                                    '[3.14159, 0, 0], xyz: [0.2, 0, -0.05]}\n')
    result = cli('info', config)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    (added,) = [line for line in lines if line.startswith('  parts added to the base')]
    assert added.startswith('  parts added to the base (sonar360 0.0')
    assert "drag is an estimate, Cd 1 on the frontal area under water; Gazebo's " \
        "Hydrodynamics has the base's coefficients only" in added
    (slower,) = [line for line in lines if line.startswith('  full ahead with that drag: ')]
    speed = float(slower.split('surge ')[1].split(' m/s')[0])
    assert 2.0 < speed < 3.0  # a 0.08 m^2 bluff body at 3 m/s is a third of the thrust
    knots = float(slower.split('(')[1].split(' kn)')[0])
    assert knots == pytest.approx(speed / KNOT, abs=0.006)


def test_the_payload_examples_added_parts_are_counted():
    result = cli('info', CONFIG_DIR / 'examples' / 'bluerov2_payload.yaml')
    (added,) = [line for line in result.stdout.splitlines()
                if line.startswith('  parts added to the base')]
    for instance in ('gripper', 'payload', 'dvl', 'foam', 'ballast'):
        assert f'{instance} 0.' in added, instance
    (slower,) = [line for line in result.stdout.splitlines()
                 if line.startswith('  full ahead with that drag: ')]
    assert float(slower.split('surge ')[1].split(' m/s')[0]) < 0.985


def test_frontal_area_of_placed_shapes_by_hand():
    box = hydrostatics.Box((0.5, 0.2, 0.1), Pose.from_xyz_rpy((0, 0, -0.05)), 'b')
    assert drag.frontal_area(box) == pytest.approx(0.02)
    turned = hydrostatics.Box((0.5, 0.2, 0.1),
                              Pose.from_xyz_rpy((0, 0, -0.05), (0, 0, 1.5707963267948966)), 'b')
    assert drag.frontal_area(turned) == pytest.approx(0.05)
    assert drag.frontal_area(box, surface=-0.05) == pytest.approx(0.01)  # half under water
    cylinder = hydrostatics.Cylinder(0.1, 0.4, Pose.from_xyz_rpy((0, 0, 0)), 'c')  # axis z
    assert drag.frontal_area(cylinder) == pytest.approx(0.08)
    part = drag.AddedDrag('p', 't', 0.02, 1)
    assert part.quadratic(1000.0) == pytest.approx(-0.5 * 1000 * drag.DRAG_COEFFICIENT * 0.02)
