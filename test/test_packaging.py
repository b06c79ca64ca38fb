"""`pip install .` into a fresh virtual environment, then the README's main command: the
installed package must find its data (urdf/, meshes/, config/) under the environment's
share/bluerobotics_parts, not in this checkout."""

from __future__ import annotations

import os
import sys

from conftest import REPO, run


def isolated(environ) -> dict:
    """The environment without what points Python at another copy of the package (colcon
    test sets PYTHONPATH to its install space, ament its prefixes)."""
    return {k: v for k, v in environ.items()
            if k != 'PYTHONPATH' and not k.startswith(('AMENT_', 'COLCON_'))}


def test_pip_install_into_a_fresh_venv_then_build(tmp_path):
    venv = tmp_path / 'venv'
    env = isolated(os.environ)
    assert run([sys.executable, '-m', 'venv', venv], env=env).returncode == 0
    python = venv / 'bin' / 'python'
    installed = run([python, '-m', 'pip', 'install', '--quiet', '--disable-pip-version-check',
                     REPO], cwd=tmp_path, env=env)
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
