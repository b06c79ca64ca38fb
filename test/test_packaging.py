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
``pip install .`` into a fresh virtual environment, then the README's main command, offline.

The installed package must find its data (urdf/, meshes/, config/) under the environment's
share/bluerobotics_parts, not in this checkout. No package index is asked (a buildfarm has
none): ``--no-index --no-deps --no-build-isolation``, this environment's packages (PyYAML,
xacro, setuptools, wheel) seen through a .pth file after the new site-packages, and
``--ignore-installed`` so pip does not uninstall this environment's editable install.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig

from conftest import REPO, run


def isolated(environ) -> dict:
    """
    Return the environment without what points Python at another copy of the package.

    colcon test sets PYTHONPATH to its install space, ament its prefixes.
    """
    return {k: v for k, v in environ.items()
            if k != 'PYTHONPATH' and not k.startswith(('AMENT_', 'COLCON_'))}


def test_pip_install_into_a_fresh_venv_then_build(tmp_path):
    venv = tmp_path / 'venv'
    env = isolated(os.environ)
    env['PIP_NO_INDEX'] = '1'  # a buildfarm has no network: any index access fails the test
    assert run([sys.executable, '-m', 'venv', '--without-pip', venv], env=env).returncode == 0
    python = venv / 'bin' / 'python'
    own = run([python, '-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'],
              env=env).stdout.strip()
    here = sysconfig.get_paths()['purelib']
    (venv.parent / 'venv' / own.split(str(venv) + '/', 1)[1] / 'zz_test_environment.pth') \
        .write_text(here + '\n', encoding='utf-8')
    # a copy: without build isolation setuptools builds in the source folder (build/, egg-info)
    source = tmp_path / 'source'
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
        '.git', '.venv', '.colcon', 'build', 'install', 'log', '*.egg-info', '__pycache__'))
    installed = run([python, '-m', 'pip', 'install', '--quiet', '--disable-pip-version-check',
                     '--no-index', '--no-deps', '--no-build-isolation', '--ignore-installed',
                     '--prefix', venv,
                     source], cwd=tmp_path, env=env)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    where = run([python, '-c', 'from bluerobotics_parts import paths; print(paths.share_dir())'],
                cwd=tmp_path, env=env)
    assert where.stdout.strip() == str(venv / 'share' / 'bluerobotics_parts'), where.stderr

    out = tmp_path / 'out' / 'blueboat'
    built = run([venv / 'bin' / 'bluerobotics-parts', 'build', REPO / 'config' / 'blueboat.yaml',
                 '--output', out], cwd=tmp_path, env=env)
    assert built.returncode == 0, built.stderr
    assert 'total mass: 17.05 kg' in built.stdout
    assert sorted(p.name for p in out.iterdir()) == ['bridge.yaml', 'robot_description.urdf']
    for script in ('check_assembly', 'scan_to_range'):
        assert (venv / 'bin' / script).exists()
    assert (venv / 'share' / 'bluerobotics_parts' / 'meshes' / 'blueboat_chassis'
            / 'blueboat_chassis.stl').is_file()
    assert (venv / 'share' / 'bluerobotics_parts' / 'launch' / 'vehicle.launch.py').is_file()
