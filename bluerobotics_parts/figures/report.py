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
``validate``'s report: each figure published, predicted and simulated, side by side, and plots.

A row never stays silently empty: where a column has no value it says why (no published
figure; Gazebo not installed or skipped; a figure Gazebo is given rather than measures). The
report is a Markdown file and the same as one self-contained HTML file (the plots inlined),
with the plots as PNG files beside them.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
import datetime
import html
import math

from . import simulated as sim
from .predicted import Info
from .published import published
from ..physics.power import Throttles
from ..physics.thrust_curves import NEUTRAL_US, SPAN_US
from ..picture.chart import line_chart, Series

GIVEN = 'not measured: Gazebo is given this figure (the model), it does not come out of a run'
NOT_FLOWN = 'not measured: no manoeuvre of validate gives it'
NO_BATTERY = 'not simulated: Gazebo draws no battery'
NO_PUBLISHED = 'no published figure'


@dataclass(frozen=True)
class Row:
    label: str
    unit: str
    digits: int
    published: object = None  # published.Published
    predicted: float | None = None
    simulated: float | None = None
    notes: dict = field(default_factory=dict)  # column -> why it is empty
    fitted: bool = False  # the model is fitted to the published figure: no independent check

    def cell(self, column: str) -> str:
        value = {'published': self.published.value if self.published else None,
                 'predicted': self.predicted, 'simulated': self.simulated}[column]
        if value is None:
            return '- (' + (self.notes.get(column) or NO_PUBLISHED) + ')'
        text = f'{value:.{self.digits}f}'
        if column == 'published' and self.published.given and \
                self.published.given != f'{value:g} {self.unit}':
            text += f' ({self.published.given})'
        if column == 'predicted' and self.fitted:
            text += ' (fitted to the published figure)'
        return text


@dataclass(frozen=True)
class Report:
    name: str
    config: str
    water: float
    rows: tuple
    plots: dict  # file name -> (title, PNG bytes)
    sources: tuple  # (figure, source) of each published figure
    gazebo: str  # the Gazebo the simulated column was measured with, or why none
    date: str


def report(build, info: Info, traces: dict | None, no_gazebo_reason: str,
           config_label: str, gazebo_version: str = '') -> Report:
    """
    Return the report of a vehicle.

    ``traces``: manoeuvre key -> scenario.Trace (figures/simulated.py), None when Gazebo did
    not run (``no_gazebo_reason`` says why).
    """
    base = build.catalogue[build.resolved.record.base.type]
    figures = published(base)
    runs = dict(traces or {})
    flown = {m.key: m for m in sim.manoeuvres(info)}

    def measured(key, read):
        """Return (value, why none) of a figure read off manoeuvre ``key``."""
        if key not in flown:
            return None, NOT_FLOWN
        if traces is None:
            return None, 'Gazebo not run: see above'
        value = read(runs[key])
        return value, ('' if value is not None else 'the run never reached it')

    rows = []

    def add(label, unit, digits, key=None, predicted=None, why_not_predicted='',
            simulated=(None, GIVEN), fitted=False):
        value, why = simulated
        notes = {'simulated': why, 'predicted': why_not_predicted}
        rows.append(Row(label, unit, digits, figures.get(key) if key else None, predicted,
                        value, notes, fitted))

    add('mass', 'kg', 2, 'mass', info.mass)
    add('net buoyancy wholly submerged (+: it rises)' if info.trim.dives else
        'reserve buoyancy (all of it under water)', 'kg', 3, 'net_buoyancy', info.trim.net,
        simulated=(None, NOT_FLOWN))
    rest = info.rests.get('exact')
    at_rest = measured('rest', sim.rest_pose)
    no_rest = info.no_rest or ('a diving vehicle: flown under water, not at rest at the '
                               'surface' if info.trim.dives else 'no rest')
    if rest is not None and not info.trim.dives:
        z = (at_rest[0][0], '') if at_rest[0] else (None, at_rest[1])
        add('base link height at rest (above the surface)', 'm', 3, None, rest.z, '', z)
        add('freeboard', 'm', 3, 'freeboard', rest.freeboard, '',
            (rest.freeboard + at_rest[0][0] - rest.z, '') if at_rest[0] else (None, at_rest[1]))
        add('trim at rest (+: bow down)', 'deg', 2, None, math.degrees(rest.pitch), '',
            (at_rest[0][2], '') if at_rest[0] else (None, at_rest[1]))
        add('heel at rest (+: starboard down)', 'deg', 2, None, math.degrees(rest.roll), '',
            (at_rest[0][1], '') if at_rest[0] else (None, at_rest[1]))
    else:
        add('trim and draft at rest', 'deg', 2, None, None, no_rest, (None, no_rest))
    ahead, astern = (info.runs + (None, None))[:2]
    no_model = 'no Hydrodynamics coefficients or propellers: no run to predict'
    add('top speed ahead', 'm/s', 3, 'top_speed', ahead.final_speed if ahead else None,
        no_model, measured('ahead', sim.surge_speed),
        fitted=bool(info.published and info.published.get('fitted')))
    add('top speed astern', 'm/s', 3, None, astern.final_speed if astern else None, no_model,
        measured('astern', sim.surge_speed))
    add('time to 63% of the top speed, ahead', 's', 2, None,
        ahead.rise_time if ahead else None, no_model if not ahead else 'it never settled',
        measured('ahead', sim.rise_time))
    add('heading change over the run ahead (+: to port)', 'deg', 1, None,
        ahead.heading_change if ahead else None, no_model, measured('ahead', sim.heading_change))
    turn = flown.get('turn')
    predicted_turn = sim.predicted_turn(info) if turn else None
    add(f"yaw rate, {turn.label if turn else 'turning'} (+: to port)", 'deg/s', 1, None,
        predicted_turn.yaw_rate if predicted_turn else None, no_model,
        measured('turn', sim.yaw_rate))
    if info.dips:
        add('worst pitch in the run ahead (+: bow down)', 'deg', 1, None, info.dips[0].worst,
            '', measured('ahead', sim.worst_pitch))
        add('height change in the run ahead (+: up)', 'm', 3, None, None,
            'the pitch model leaves heave out', measured('ahead', sim.depth_change))
    if info.allocator is not None:
        for axis, key, label, unit in ((0, 'surge', 'thrust ahead at rest (bollard)', 'N'),
                                       (1, 'sway', 'thrust sideways at rest', 'N'),
                                       (2, 'heave', 'thrust up at rest', 'N'),
                                       (5, None, 'yaw moment at rest', 'N m')):
            if axis in info.allocator.axes:
                add(label, unit, 1, key, info.allocator.largest(axis, 1.0))
    for state in info.endurance:
        add(f'endurance, {state.label}', 'h', 2, None, state.hours,
            'nothing drawn', (None, NO_BATTERY))
    if not info.endurance:
        add('endurance', 'h', 2, None, None, 'no battery part, or no thrust curves',
            (None, NO_BATTERY))
    sources = tuple((key, figure.source) for key, figure in figures.items())
    gazebo = gazebo_version if traces is not None else no_gazebo_reason
    return Report(build.name, config_label, info.water, tuple(rows),
                  plots(build, info, traces), sources, gazebo,
                  datetime.date.today().isoformat())


# -- plots ---------------------------------------------------------------------------------------

def plots(build, info: Info, traces: dict | None) -> dict:
    """Return file name -> (title, PNG) of the plots a user would rather look at than read."""
    traces = traces or {}
    found = {}
    speed = []
    for run, key in zip(info.runs, ('ahead', 'astern')):
        speed.append(Series(f'{key}, predicted', tuple((t, u) for t, u, *_ in run.samples),
                            dashed=True))
        if key in traces:
            trace = traces[key]
            speed.append(Series(f'{key}, Gazebo', tuple(
                (trace.time[i], trace.surge(i)) for i in range(len(trace.time)))))
    if speed:
        found['speed.png'] = ('Speed from rest, full ahead and full astern', line_chart(
            f'{build.name}: speed from rest', 'time, s', 'speed along the heading, m/s', speed))
    throttles = Throttles(build.resolved.record, build.catalogue, info.limits)
    curves = []
    seen = set()
    for instance, curve in throttles.curves.items():
        if curve.name in seen:
            continue
        seen.add(curve.name)
        points = tuple((NEUTRAL_US + SPAN_US * k / 50, curve.force(k / 50, throttles.voltage)
                        * throttles.fractions[instance]) for k in range(-50, 51))
        curves.append(Series(f'{curve.name} installed ({instance})', points))
    if curves:
        found['thrust_curve.png'] = ('Thrust against the ESC pulse at the battery', line_chart(
            f'thrust at {throttles.voltage:g} V (installed)', 'ESC pulse width, us',
            'thrust, N', curves))
    turn = next((m for m in sim.manoeuvres(info) if m.key == 'turn'), None)
    if turn is not None and info.trim.dives:  # it spins in place: its heading tells
        predicted = sim.predicted_turn(info)
        heading = [Series('predicted', tuple((t, h) for t, _, _, _, h in predicted.samples),
                          dashed=True)]
        if 'turn' in traces:
            trace = traces['turn']
            heading.append(Series('Gazebo', tuple(zip(trace.time, sim.headings(trace)))))
        found['turning.png'] = (f'The heading in the turn ({turn.label})', line_chart(
            f'{build.name}: {turn.label}', 'time, s', 'heading change (+: to port), deg',
            heading))
    elif turn is not None:
        predicted = sim.predicted_turn(info)
        track = [Series('predicted', tuple((x, y) for _, _, x, y, _ in predicted.samples),
                        dashed=True)]
        if 'turn' in traces:
            track.append(Series('Gazebo', tuple((p[0], p[1]) for p in traces['turn'].pose)))
        found['turning.png'] = (f'The track of the turn ({turn.label})', line_chart(
            f'{build.name}: {turn.label}, {turn.seconds:g} s', 'x (ahead at the start), m',
            'y (to port), m', track, equal=True))
    if info.dips:
        pitch = [Series('predicted', info.dips[0].samples, dashed=True)]
        if 'ahead' in traces:
            trace = traces['ahead']
            pitch.append(Series('Gazebo', tuple((t, p[4]) for t, p in zip(trace.time,
                                                                          trace.pose))))
        found['pitch.png'] = ('Pitch in the run ahead', line_chart(
            f'{build.name}: pitch, full ahead from rest', 'time, s', 'pitch (+: bow down), deg',
            pitch))
        if 'ahead' in traces:
            trace = traces['ahead']
            found['depth.png'] = ('Depth in the run ahead', line_chart(
                f'{build.name}: height change, full ahead from rest', 'time, s',
                'height change (+: up), m', [Series('Gazebo', tuple(
                    (t, p[2] - trace.pose[0][2]) for t, p in zip(trace.time, trace.pose)))]))
    return {name: (title, canvas.png()) for name, (title, canvas) in found.items()}


# -- text ----------------------------------------------------------------------------------------

COLUMNS = ('published', 'predicted', 'simulated')
HEADINGS = ('figure', 'unit', 'published', 'predicted (info)', 'simulated (Gazebo)')


def markdown(report: Report) -> str:
    """Return the report as Markdown (the plots linked beside it)."""
    lines = [f'# {report.name}: how close the simulated vehicle is to the real one', '',
             f'Config: `{report.config}`; water {report.water:g} kg/m^3; made {report.date} by '
             '`bluerobotics-parts validate`.', '',
             f'Simulated with: {report.gazebo}.', '',
             '| ' + ' | '.join(HEADINGS) + ' |', '|' + '---|' * len(HEADINGS)]
    for row in report.rows:
        cells = [row.label, row.unit] + [row.cell(c) for c in COLUMNS]
        lines.append('| ' + ' | '.join(c.replace('|', '/') for c in cells) + ' |')
    lines += ['', '## Sources of the published figures', '']
    lines += [f'- {key}: {source}' for key, source in report.sources] or \
        ['- none: the base part publishes no figure']
    lines += ['', '## Plots', '']
    for name, (title, _) in report.plots.items():
        lines += [f'![{title}]({name})', '']
    lines += ['Predicted: the figures `bluerobotics-parts info` prints (the planar and pitch '
              'models, the hydrostatics); simulated: a headless Gazebo run of the same '
              'manoeuvre (the same thrusts, from rest). Dashed lines are predictions.', '']
    return '\n'.join(lines)


def html_page(report: Report) -> str:
    """Return the report as one self-contained HTML page (the plots inlined)."""
    out = ['<!DOCTYPE html>', '<html lang="en"><head><meta charset="utf-8">',
           f'<title>{html.escape(report.name)}: validation</title>',
           '<style>body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em}'
           'table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.3em .5em;'
           'vertical-align:top}th{background:#eee}img{max-width:100%}</style></head><body>',
           f'<h1>{html.escape(report.name)}: how close the simulated vehicle is to the real '
           'one</h1>',
           f'<p>Config: <code>{html.escape(report.config)}</code>; water {report.water:g} '
           f'kg/m^3; made {report.date} by <code>bluerobotics-parts validate</code>.</p>',
           f'<p>Simulated with: {html.escape(report.gazebo)}.</p>',
           '<table><tr>' + ''.join(f'<th>{html.escape(h)}</th>' for h in HEADINGS) + '</tr>']
    for row in report.rows:
        cells = [row.label, row.unit] + [row.cell(c) for c in COLUMNS]
        out.append('<tr>' + ''.join(f'<td>{html.escape(c)}</td>' for c in cells) + '</tr>')
    out += ['</table>', '<h2>Sources of the published figures</h2>', '<ul>']
    out += [f'<li>{html.escape(key)}: {html.escape(source)}</li>'
            for key, source in report.sources] or ['<li>none</li>']
    out += ['</ul>', '<h2>Plots</h2>']
    for title, png in report.plots.values():
        data = base64.b64encode(png).decode('ascii')
        out.append(f'<figure><img alt="{html.escape(title)}" src="data:image/png;base64,'
                   f'{data}"><figcaption>{html.escape(title)}</figcaption></figure>')
    out += ['<p>Dashed lines are predictions.</p>', '</body></html>', '']
    return '\n'.join(out)
