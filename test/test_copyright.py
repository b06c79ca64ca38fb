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
The license header on every source file, as ros2 pkg create's ament_python template checks it.

ament_copyright runs when it is installed. It is not on PyPI, so elsewhere
tools/license_headers.py checks what it checks (which files, the header's form, LICENSE and
CONTRIBUTING.md at a repository root); ``tools/license_headers.py --add`` adds the header.
"""

import importlib.util

from conftest import REPO
import pytest


def license_headers():
    spec = importlib.util.spec_from_file_location('license_headers',
                                                  REPO / 'tools' / 'license_headers.py')
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.copyright
@pytest.mark.linter
def test_copyright(monkeypatch):
    monkeypatch.chdir(REPO)
    try:
        from ament_copyright.main import main
    except ImportError:
        problems = license_headers().problems(['.', 'test'])
        assert not problems, 'Found errors (tools/license_headers.py --add fixes the headers):\n' \
            + '\n'.join(f'{path}: {problem}' for path, problem in sorted(problems.items()))
    else:
        rc = main(argv=['.', 'test'])
        assert rc == 0, 'Found errors'


def test_the_header_check_finds_a_missing_or_wrong_header(tmp_path):
    module = license_headers()
    good = tmp_path / 'good.py'
    good.write_text('#!/usr/bin/env python3\n"""Doc."""\n', encoding='utf-8')
    module.add_header(good)
    assert module.header_problem(good) == ''
    assert good.read_text(encoding='utf-8').startswith('#!/usr/bin/env python3\n# Copyright ')
    missing = tmp_path / 'missing.py'
    missing.write_text('"""Doc."""\n', encoding='utf-8')
    assert module.header_problem(missing) == 'could not find copyright notice'
    other = tmp_path / 'other.py'
    other.write_text('# Copyright 2026 Someone\n#\n# All rights reserved.\n', encoding='utf-8')
    assert 'not the Apache-2.0 license text' in module.header_problem(other)
    assert set(module.problems([tmp_path])) == {missing, other}
    (tmp_path / 'ignored').mkdir()
    (tmp_path / 'ignored' / 'AMENT_IGNORE').write_text('', encoding='utf-8')
    (tmp_path / 'ignored' / 'x.py').write_text('', encoding='utf-8')
    (tmp_path / '.hidden').mkdir()
    (tmp_path / '.hidden' / 'y.py').write_text('x = 1\n', encoding='utf-8')
    assert set(module.problems([tmp_path])) == {missing, other}
