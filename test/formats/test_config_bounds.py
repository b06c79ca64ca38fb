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

"""A config's numbers keep the part files' bound (+/-1e9), refused at their line."""

from __future__ import annotations

from conftest import cli, write_config
import pytest


@pytest.mark.parametrize('text,where', [
    ('parts:\n  - {type: blueboat_flag, name: f2, xyz: [1.0e+300, 0, 0]}\n',
     '2: parts entry #1 (f2): xyz numbers must be within -1e9 and 1e9 (metres, radians), got '
     '[1e+300, 0, 0]'),
    ('parts:\n  - {type: blueboat_flag, name: f2, rpy: "0 0 2e10"}\n',
     '2: parts entry #1 (f2): rpy numbers must be within -1e9 and 1e9 (metres, radians), got '
     "'0 0 2e10'"),
    ('slots:\n  - {name: s, xyz: [0, 0, -5.0e+12], accepts: [blueboat_flag]}\n',
     '2: slots entry #1 (s): xyz numbers must be within -1e9 and 1e9 (metres, radians), got '
     '[0, 0, -5000000000000.0]'),
], ids=['placement', 'text', 'adhoc'])
def test_a_number_past_the_bound_is_refused_as_in_a_part_file(tmp_path, text, where):
    config = write_config(tmp_path, text)
    result = cli('tree', config)
    assert result.returncode == 1
    assert result.stderr == f'error: {config}:{where}\n'


def test_a_number_within_the_bound_is_taken(tmp_path):
    config = write_config(tmp_path, 'parts:\n  - {type: blueboat_flag, name: f2, '
                                    'xyz: [1.0e+9, 0, 0]}\n')
    assert cli('tree', config).returncode == 0
