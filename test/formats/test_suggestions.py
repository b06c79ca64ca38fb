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
A name a slip away from a valid one is suggested first.

The rule is errors.did_you_mean, and urdf/lib/helpers.xacro's bp_did_you_mean for the xacro
resolver: both give the same first message (test/system/test_differential.py).
"""

from bluerobotics_parts.build import build_gazebo
from bluerobotics_parts.errors import BlueRoboticsPartsError, did_you_mean
from conftest import write_config, xacro_cli
import pytest

TYPES = ['t200_thruster_ccw', 't200_thruster_cw', 'm200_weedless_prop_ccw', 'blueboat_flag']


@pytest.mark.parametrize('name, expected', [
    ('t200_thuster_ccw', 't200_thruster_ccw'),    # a letter left out
    ('t200_thrusterr_cw', 't200_thruster_cw'),    # one added
    ('t200_thrsuter_cw', 't200_thruster_cw'),     # two swapped
    ('bluebaot_flag', 'blueboat_flag'),
])
def test_a_slip_is_suggested(name, expected):
    assert did_you_mean(name, TYPES) == f'did you mean {expected}? '


@pytest.mark.parametrize('name', ['t200', 'flag', 'ping_singlebeam', 't200_thruster_ccw', 3, ''])
def test_nothing_close_or_the_name_itself_suggests_nothing(name):
    assert did_you_mean(name, TYPES) == ''


@pytest.mark.parametrize('text, line, message', [
    ('parts:\n  - {slot: motor_port, type: t200_thuster_ccw}\n', 2,
     "ASSEMBLY ERROR: unknown part type 't200_thuster_ccw' in parts entry #1 (slot motor_port); "
     'did you mean t200_thruster_ccw? slot motor_port accepts: m200_weedless_prop_ccw, '
     't200_thruster_ccw, or none for an empty slot'),
    ('parts:\n  - {slot: motr_stbd, type: none}\n', 2,
     'ASSEMBLY ERROR: parts entry #1 (slot motr_stbd): base_link (blueboat_chassis) has no slot '
     "'motr_stbd'; did you mean motor_stbd? its slots: "),
])
def test_the_resolvers_suggest_it_first(tmp_path, text, line, message):
    config = write_config(tmp_path, text)
    with pytest.raises(BlueRoboticsPartsError) as caught:
        build_gazebo(config)
    assert str(caught.value).startswith(f'{config}:{line}: {message}')
    refused = xacro_cli(config)
    assert refused.returncode != 0 and f'error: {message}' in refused.stderr


def test_a_key_slip_is_suggested(tmp_path):
    config = write_config(tmp_path, 'parts:\n  - {slot: flag, type: none, nmae: f}\n')
    with pytest.raises(BlueRoboticsPartsError) as caught:
        build_gazebo(config)
    assert "unknown key 'nmae'; did you mean name? valid keys: slot, of, type, name" in \
        str(caught.value)
