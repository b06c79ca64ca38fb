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
``bluerobotics-parts validate CONFIG -o DIR``: the report, its rows, its plots, its mistakes.

Without Gazebo Harmonic (or with --no-gazebo) every simulated cell says why it is empty; where
Gazebo is installed, the simulated rows are filled and agree with the predictions within the
tolerances the gz tests hold, and Ctrl-C leaves no gz process behind.
"""

from __future__ import annotations

import os
from pathlib import Path
import re
import signal
import subprocess
import sys
import time

from bluerobotics_parts.figures.published import KGF
from bluerobotics_parts.picture.chart import _dashes, ticks
from conftest import cli, CONFIG_DIR, REPO
import gz_support
from PIL import Image
import pytest
import yaml

SHIPPED = ('blueboat', 'bluerov2', 'bluerov2_heavy')
CELL = re.compile(r'^(-?\d+\.\d+( \([^)]*\))?|- \(.+\))$')


def rows(text: str) -> dict:
    """Return figure -> [unit, published, predicted, simulated] from report.md's table."""
    table = [line for line in text.splitlines() if line.startswith('| ')][1:]
    return {cells[0]: cells[1:] for cells in
            ([c.strip() for c in line.strip('|').split(' | ')] for line in table)}


@pytest.fixture(scope='module', params=SHIPPED)
def validated(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp('validate') / 'report'
    result = cli('validate', CONFIG_DIR / f'{request.param}.yaml', '-o', folder, '--no-gazebo')
    assert result.returncode == 0, result.stderr
    return request.param, folder, result


def test_the_committed_reports_match_the_models_of_today(validated):
    """docs/validation/ is measured, not stale: its published and predicted columns are today's."""
    name, folder, _ = validated
    committed = REPO / 'docs' / 'validation' / name / 'report.md'
    assert committed.is_file(), f'{committed}: run tools/make_validation_docs.py'
    text = committed.read_text(encoding='utf-8')
    assert re.search(r'^Simulated with: gz-sim \d+\.\d+\.\d+', text, re.MULTILINE), text[:300]
    now = rows((folder / 'report.md').read_text(encoding='utf-8'))
    then = rows(text)
    assert sorted(then) == sorted(now), 'rows changed: run tools/make_validation_docs.py'
    for figure, cells in now.items():
        stale = (figure, then[figure], cells, 'run tools/make_validation_docs.py')
        assert then[figure][:3] == cells[:3], stale
        assert not then[figure][3].startswith('- (Gazebo not run'), (figure, then[figure])
    index = (REPO / 'docs' / 'validation' / 'README.md').read_text(encoding='utf-8')
    assert f'[{name}/report.md]({name}/report.md)' in index


def test_the_report_and_its_plots_are_written(validated):
    vehicle, folder, result = validated
    names = {p.name for p in folder.iterdir()}
    assert {'report.md', 'report.html', 'speed.png', 'thrust_curve.png', 'turning.png'} <= names
    if vehicle != 'blueboat':
        assert 'pitch.png' in names  # a diving vehicle's pitch in the run ahead
    for png in folder.glob('*.png'):
        with Image.open(png) as image:
            assert image.size == (800, 480), png
            # a plot, not a blank page: a fair share of it is drawn
            drawn = image.convert('L').histogram()[:200]
            drawn = sum(drawn)
            assert drawn > 3000, png
    page = (folder / 'report.html').read_text(encoding='utf-8')
    assert page.count('src="data:image/png;base64,') == len(list(folder.glob('*.png')))
    assert 'src="http' not in page and '<script' not in page  # one self-contained file
    assert result.stderr.startswith(f'wrote {folder}: report.md, report.html, ')


def test_every_cell_has_a_value_or_says_why_not(validated):
    vehicle, folder, _ = validated
    table = rows((folder / 'report.md').read_text(encoding='utf-8'))
    assert len(table) >= 12
    for figure, (unit, *cells) in table.items():
        assert unit, figure
        for cell in cells:
            assert CELL.match(cell), (figure, cell)
    simulated = [cells[3] for cells in table.values()]
    assert all(cell.startswith('- (') for cell in simulated)  # --no-gazebo
    assert sum('Gazebo not run' in cell for cell in simulated) >= 4


def test_the_published_figures_are_the_part_data_with_their_sources(validated):
    vehicle, folder, _ = validated
    text = (folder / 'report.md').read_text(encoding='utf-8')
    table = rows(text)
    base = {'blueboat': 'blueboat_chassis', 'bluerov2': 'bluerov2_frame',
            'bluerov2_heavy': 'bluerov2_heavy_frame'}[vehicle]
    data = yaml.safe_load((REPO / 'urdf' / 'parts' / f'{base}.yaml').read_text())['hydrostatics']
    assert table['mass'][1] == f"{data['mass']:.2f}"
    assert f"- mass: {data['mass_source']}" in text
    if 'bollard_thrust' in data:
        assert table['thrust ahead at rest (bollard)'][1] == \
            f"{data['bollard_thrust'] * KGF:.1f} ({data['bollard_thrust']:g} kgf)"
    if 'top_speed' in data:
        assert table['top speed ahead'][1] == f"{data['top_speed']:.3f}"
    else:
        assert table['top speed ahead'][1] == '- (no published figure)'


def test_the_predicted_column_is_what_info_prints():
    from bluerobotics_parts.figures.predicted import vehicle_info

    folder = Path(os.environ.get('TMPDIR', '/tmp'))
    info = vehicle_info(CONFIG_DIR / 'blueboat.yaml')
    out = folder / f'validate_info_{os.getpid()}'
    result = cli('validate', CONFIG_DIR / 'blueboat.yaml', '-o', out, '--no-gazebo')
    try:
        assert result.returncode == 0, result.stderr
        table = rows((out / 'report.md').read_text(encoding='utf-8'))
    finally:
        for file in out.glob('*'):
            file.unlink()
        out.rmdir()
    assert table['mass'][2] == f'{info.mass:.2f}'
    fitted = ' (fitted to the published figure)' if info.published['fitted'] else ''
    assert table['top speed ahead'][2] == f'{info.runs[0].final_speed:.3f}{fitted}'
    assert table['top speed astern'][2] == f'{info.runs[1].final_speed:.3f}'
    assert table['freeboard'][2] == f"{info.rests['exact'].freeboard:.3f}"


def test_without_gazebo_the_report_says_so_and_how_to_get_it(tmp_path):
    result = cli('validate', CONFIG_DIR / 'bluerov2.yaml', '-o', tmp_path / 'r', '--no-gazebo')
    assert result.returncode == 0, result.stderr
    text = (tmp_path / 'r' / 'report.md').read_text(encoding='utf-8')
    assert 'Simulated with: Gazebo not run: skipped (--no-gazebo).' in text
    if gz_support.missing() is not None:
        plain = cli('validate', CONFIG_DIR / 'bluerov2.yaml', '-o', tmp_path / 'p')
        assert plain.returncode == 0, plain.stderr
        said = (tmp_path / 'p' / 'report.md').read_text(encoding='utf-8')
        assert 'Simulated with: Gazebo not run: needs Gazebo Harmonic' in said
        assert 'install Gazebo Harmonic' in said


@pytest.mark.parametrize('mistake, message', [
    ('missing', 'nothing.yaml: no such file'),
    ('bad_yaml', 'bad.yaml:2'),
    ('output_is_a_file', 'is a regular file, not a folder'),
])
def test_a_mistake_is_one_message_exit_1_and_nothing_written(tmp_path, mistake, message):
    config = CONFIG_DIR / 'blueboat.yaml'
    out = tmp_path / 'report'
    if mistake == 'missing':
        config = tmp_path / 'nothing.yaml'
    elif mistake == 'bad_yaml':
        config = tmp_path / 'bad.yaml'
        config.write_text('parts:\n  - {slot: motor_port, type: nope}\n', encoding='utf-8')
        message = f'{config}:2'
    else:
        out.write_text('mine', encoding='utf-8')
    result = cli('validate', config, '-o', out, '--no-gazebo')
    assert result.returncode == 1, result.stdout + result.stderr
    assert message in result.stderr, result.stderr
    assert 'Traceback' not in result.stderr
    if mistake == 'output_is_a_file':
        assert out.read_text(encoding='utf-8') == 'mine'
    else:
        assert not out.exists()


def test_the_report_never_replaces_its_own_config(tmp_path):
    config = tmp_path / 'report.md'
    config.write_text((CONFIG_DIR / 'bluerov2.yaml').read_text(encoding='utf-8'),
                      encoding='utf-8')
    before = config.read_bytes()
    result = cli('validate', config, '-o', tmp_path, '--no-gazebo')
    assert result.returncode == 1
    assert 'report.md' in result.stderr and 'Traceback' not in result.stderr
    assert config.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ['report.md']


def test_chart_ticks_cover_the_data_at_round_steps():
    assert ticks(0.0, 3.02) == [0.0, 1.0, 2.0, 3.0, 4.0]  # a step of 1, the last past 3.02
    assert ticks(-0.985, 0.985) == [-1.0, -0.5, 0.0, 0.5, 1.0]
    assert ticks(1100, 1900) == [1000, 1200, 1400, 1600, 1800, 2000]  # multiples of the step
    assert ticks(2.0, 2.0) == [2.0, 2.2, 2.4, 2.6, 2.8, 3.0]


def test_a_dashed_line_is_drawn_half_the_time():
    pieces = _dashes([(0.0, 0.0), (100.0, 0.0)])
    drawn = sum(p[-1][0] - p[0][0] for p in pieces)
    assert len(pieces) == 7 and drawn == pytest.approx(52.0)  # six whole dashes, then 96..100


# -- with Gazebo Harmonic ------------------------------------------------------------------------

def test_the_simulated_rows_are_filled_and_agree_with_the_predictions(tmp_path):
    """The tolerances of test/gazebo: the boat's top speed within 3%, its trim within 1 deg."""
    gz_support.require()
    result = cli('validate', CONFIG_DIR / 'blueboat.yaml', '-o', tmp_path / 'r')
    assert result.returncode == 0, result.stderr
    assert '  full ahead from rest: 30 s\n' in result.stderr  # the progress display
    text = (tmp_path / 'r' / 'report.md').read_text(encoding='utf-8')
    assert re.search(r'Simulated with: gz-sim 8\.\d+\.\d+', text), text[:400]
    table = rows(text)
    for figure in ('top speed ahead', 'top speed astern', 'trim at rest (+: bow down)',
                   'freeboard', 'time to 63% of the top speed, ahead'):
        assert not table[figure][3].startswith('- ('), (figure, table[figure])
    assert float(table['top speed ahead'][3]) == pytest.approx(3.0, rel=0.03)
    assert abs(float(table['trim at rest (+: bow down)'][3]) -
               float(table['trim at rest (+: bow down)'][2])) < 1.0
    page = (tmp_path / 'r' / 'report.html').read_text(encoding='utf-8')
    assert 'Gazebo' in page


def test_ctrl_c_stops_the_runs_and_leaves_no_gz_behind(tmp_path):
    gz_support.require()
    out = tmp_path / 'r'
    process = subprocess.Popen(
        [sys.executable, '-m', 'bluerobotics_parts', 'validate', str(CONFIG_DIR / 'bluerov2.yaml'),
         '-o', str(out)], stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL,
        cwd=REPO, start_new_session=True)
    lines = []
    for line in process.stderr:
        lines.append(line)
        if line.startswith('    ') and 's simulated' in line:  # a run's progress
            break
    children = _descendants(process.pid)
    assert children, ''.join(lines)
    os.killpg(process.pid, signal.SIGINT)  # a terminal's Ctrl-C reaches the whole group
    rest = process.communicate(timeout=30)[1]
    assert process.returncode == 130, ''.join(lines) + rest
    assert 'stopped (Ctrl-C)' in rest and 'nothing was written' in rest
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(pid) for pid in children):
        time.sleep(0.2)
    assert not [pid for pid in children if _alive(pid)]
    assert not out.exists()


def _descendants(pid: int) -> list:
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for entry in Path('/proc').iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / 'stat').read_text().rsplit(')', 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == parent:
                    found.append(int(entry.name))
                    todo.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f'/proc/{pid}/stat').read_text().rsplit(')', 1)[1].split()[0]
    except OSError:
        return False
    return state != 'Z'
