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

"""ament_flake8 over the package, as ros2 pkg create's ament_python template runs it."""

from conftest import REPO
import pytest
import ros_support


@pytest.mark.flake8
@pytest.mark.linter
def test_flake8(monkeypatch):
    try:
        from ament_flake8.main import main_with_errors
    except ImportError as error:
        ros_support.installable(f'needs ament_flake8 ({error})')
    monkeypatch.chdir(REPO)  # ament_flake8 lints, and skips dot folders of, the working folder
    rc, errors = main_with_errors(argv=[])
    assert rc == 0, \
        'Found %d code style errors / warnings:\n' % len(errors) + \
        '\n'.join(errors)
