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
A set-up without root or sudo: the Debian tools are skipped with a reason, and so are the tests.

tools/setup.sh records what it could not install (``name: reason``); conftest.tool then skips
the tests that need it with that reason instead of failing them. Run here on a copy of the
script with ``apt-get`` unreachable: as a user without root and sudo it must go on.
"""

from __future__ import annotations

import os
from pathlib import Path
import shutil
import subprocess

import conftest
from conftest import REPO
import pytest


def test_a_tool_the_set_up_skipped_skips_its_tests_with_the_reason(tmp_path, monkeypatch):
    marker = tmp_path / 'skipped'
    marker.write_text('ign: needs root or sudo to install\n', encoding='utf-8')
    monkeypatch.setattr(conftest, 'SKIPPED_TOOLS', marker)
    with pytest.raises(pytest.skip.Exception, match='ign is not installed: needs root or sudo'):
        conftest.tool('ign')
    assert conftest.set_up_without('ruby') is None
    monkeypatch.setattr(conftest, 'SKIPPED_TOOLS', tmp_path / 'none')
    with pytest.raises(AssertionError, match='not-a-tool is not installed'):
        conftest.tool('not-a-tool')


@pytest.mark.skipif(os.geteuid() == 0 and not shutil.which('setpriv'),
                    reason='needs a user without root: setpriv (util-linux) to drop it')
def test_setup_as_a_user_without_root_or_sudo_skips_the_debian_tools(tmp_path):
    """The SDFormat step of tools/setup.sh, with no ign, no root and no sudo on PATH."""
    bin_dir = tmp_path / 'bin'
    bin_dir.mkdir()
    for program in ('bash', 'env', 'id', 'rm', 'echo', 'cat'):
        found = shutil.which(program)
        if found:
            (bin_dir / program).symlink_to(found)
    script = (REPO / 'tools' / 'setup.sh').read_text(encoding='utf-8')
    head = script.split('PYTHON=${PYTHON:-python3}')[0]  # the helpers, without the venv
    head = head.replace('cd "$(dirname "$0")/.."', '')  # here, not the checkout
    step = script.split('extras=""')[1].split('echo "setup: installing bluerobotics_parts')[0]
    (tmp_path / '.venv').mkdir()
    test_script = tmp_path / 'setup_step.sh'
    test_script.write_text(head + 'set -- test\nextras=""' + step, encoding='utf-8')
    command = [shutil.which('bash'), str(test_script)]
    if os.geteuid() == 0:  # drop root: a user without root, and no sudo on PATH
        command = [shutil.which('setpriv'), '--reuid=65534', '--regid=65534', '--clear-groups',
                   *command]
        for folder in (tmp_path, *tmp_path.parents[:2]):
            os.chmod(folder, os.stat(folder).st_mode | 0o005)
        os.chmod(tmp_path, 0o777)
        os.chmod(tmp_path / '.venv', 0o777)
    result = subprocess.run(command, cwd=tmp_path, env={'PATH': str(bin_dir)},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "setup: skipping ign: Debian's SDFormat tools" in result.stderr
    recorded = Path(tmp_path / '.venv' / 'bluerobotics_parts-skipped-tools').read_text()
    assert recorded.startswith("ign: Debian's SDFormat tools (libsdformat-dev ignition-tools) "
                               'need root or sudo to install')
