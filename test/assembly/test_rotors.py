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
Thrusters whose rotor alone turns: the part data, the frames that carry it, the vehicles.

A spinning whole thruster would act as a gyroscope on the vehicle: the body sits on its slot's
fixed joint and only a light rotor frame turns, with the whole part's mass and centre of mass
kept.
"""

from bluerobotics_parts.assembly.catalogue import shipped
from bluerobotics_parts.assembly.pipeline import resolve_config
from bluerobotics_parts.cli.info import vehicle_info
from bluerobotics_parts.files.yaml_lines import load_text
from bluerobotics_parts.formats.part_format import part_problems
from bluerobotics_parts.model.vehicle import Vehicle
from conftest import CONFIG_DIR
import pytest

THRUSTERS = {'t200_thruster_cw': 0.344, 't200_thruster_ccw': 0.344,
             'm200_weedless_prop_cw': 0.15, 'm200_weedless_prop_ccw': 0.15}
# The spin inertia (kg m^2) when the whole part turned: a solid cylinder of its mass and size.
WHOLE_SPIN = {'t200_thruster_cw': 0.00043, 't200_thruster_ccw': 0.00043,
              'm200_weedless_prop_cw': 0.0002352, 'm200_weedless_prop_ccw': 0.0002352}

# Mass (kg) and centre of gravity (m, base_link) of the shipped vehicles before the split
# (the whole thruster on its continuous joint), printed by `info` at bf5390c.
BEFORE = {'blueboat.yaml': (17.05, (0.012385, -0.003372, 0.053488)),
          'bluerov2.yaml': (10.5, (0.006071, 0.0, -0.039057)),
          'bluerov2_heavy.yaml': (13.5, (0.00473, 0.0, -0.02876)),
          'examples/t200.yaml': (17.438, (0.000539, -0.003297, 0.049695))}


@pytest.mark.parametrize('part_type', sorted(THRUSTERS))
def test_body_and_rotor_keep_the_whole_parts_mass_and_centre(part_type):
    part = shipped()[part_type]
    body, rotor = part.data['inertial'], part.data['frames']['rotor']
    assert rotor['joint'] == 'continuous' and rotor['axis'] == [1.0, 0.0, 0.0]
    assert part.propeller.rotor == 'rotor'
    assert body['mass'] + rotor['inertial']['mass'] == pytest.approx(THRUSTERS[part_type])
    assert part.mass == pytest.approx(THRUSTERS[part_type])
    assert body['com'] == rotor['inertial']['com'] == [0.0, 0.0, 0.0]  # on the axis, as before
    assert rotor.get('xyz', [0, 0, 0]) == [0, 0, 0]
    # the rotor is a small fraction of the part, and spins with far less inertia
    assert rotor['inertial']['mass'] < 0.5 * THRUSTERS[part_type]
    assert rotor['inertial']['inertia']['ixx'] < 0.25 * WHOLE_SPIN[part_type]
    for section in (body, rotor['inertial']):
        assert 'mass_unverified' in section and 'inertia_unverified' in section


@pytest.mark.parametrize('config', sorted(BEFORE))
def test_every_vehicle_keeps_its_mass_and_centre_of_gravity(config):
    mass, centre = BEFORE[config]
    info = vehicle_info(CONFIG_DIR / config)
    assert info.mass == pytest.approx(mass, abs=1e-9)
    assert info.centre_of_gravity == pytest.approx(centre, abs=1e-6)


@pytest.mark.parametrize('config, thrusters', [('blueboat.yaml', 2), ('bluerov2.yaml', 6),
                                               ('bluerov2_heavy.yaml', 8)])
def test_only_the_rotors_turn(config, thrusters):
    """Of the joints that move freely: the camera's tilt is limited (revolute), not turning."""
    vehicle = Vehicle.from_urdf(resolve_config(CONFIG_DIR / config).urdf)
    turning = [j for j in vehicle.joints.values() if j.type == 'continuous']
    limited = [j.name for j in vehicle.joints.values() if j.type not in ('fixed', 'continuous')]
    assert limited == ([] if config == 'blueboat.yaml' else ['hd_camera_joint'])
    assert len(turning) == thrusters
    for joint in turning:
        assert joint.child.endswith('_rotor') and joint.parent == joint.child[:-len('_rotor')]
        assert vehicle.links[joint.child].mass < 0.07
        assert vehicle.actuators[joint.parent].joint == joint.name
        assert vehicle.joints[f'{joint.parent}_joint'].type == 'fixed'


PART = """\
type: pod
inertial: {{mass: 1.0, mass_unverified: test}}
frames:
  spinner:
{frame}
propeller: {{rotation: cw, diameter: 0.1, max_thrust: 10, min_thrust: -5,
            thrust_coefficient: 0.01, rotor: {rotor}}}
"""


def problems(tmp_path, frame: str, rotor: str = 'spinner') -> list[str]:
    path = tmp_path / 'pod.yaml'
    path.write_text(PART.format(frame=frame, rotor=rotor), encoding='utf-8')
    return [str(p) for p in part_problems(load_text(path.read_text(), path))]


def test_a_turning_frame_is_accepted_with_its_inertial(tmp_path):
    assert problems(tmp_path, '    joint: continuous\n    axis: [0, 1, 0]\n'
                              '    inertial: {mass: 0.01, mass_unverified: test}') == []


@pytest.mark.parametrize('frame, rotor, line, message', [
    ('    joint: continuous', 'spinner', 4,
     'frame spinner moves (joint: continuous), so it needs inertial: with the mass of what '
     'moves'),
    ('    joint: revolute\n    inertial: {mass: 0.01}', 'spinner', 5,
     'frame spinner: a revolute joint needs limits: {lower, upper, effort, velocity} (rad or '
     'm, N m or N, per second)'),
    ('    joint: hinge\n    inertial: {mass: 0.01}', 'spinner', 5,
     "frame spinner: joint must be one of fixed, continuous, revolute, prismatic, got 'hinge'"),
    ('    joint: continuous\n    axis: [0, 0, 0]\n    inertial: {mass: 0.01}', 'spinner', 6,
     'frame spinner: axis must not be zero'),
    ('    joint: continuous\n    inertial: {mass: -1}', 'spinner', 6,
     'frame spinner inertial mass (kg) must be positive, got -1'),
    ('    xyz: [0, 0, 0]', 'spinner', 7,
     "propeller rotor 'spinner' is not one of the part's continuous frames (none declared)"),
    ('    joint: continuous\n    inertial: {mass: 0.01}', 'nose', 8,
     "propeller rotor 'nose' is not one of the part's continuous frames (spinner)"),
])
def test_a_turning_frame_or_rotor_mistake_is_named_at_its_line(tmp_path, frame, rotor, line,
                                                               message):
    found = problems(tmp_path, frame, rotor)
    assert any(p.endswith(f'pod.yaml:{line}: {message}') for p in found), found
