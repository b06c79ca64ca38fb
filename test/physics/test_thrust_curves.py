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
Throttle to newtons and amperes against Blue Robotics' published T200 table.

The figures below are typed from the sheet ("T200 Public Performance Data 10-20V September
2019", the rows at 1100 and 1900 us and the dead band edges, PART_FACTS.md for 12 and 16 V), not
read from urdf/thrust_curves/t200.yaml, so a wrong row or a wrong reading of the file fails.
"""

from __future__ import annotations

from bluerobotics_parts.assembly import catalogue as part_catalogue
from bluerobotics_parts.formats.part_format import THRUST_CURVES
from bluerobotics_parts.physics import power, thrust_curves
from bluerobotics_parts.physics.thrust_curves import KGF
from conftest import CONFIG_DIR
import pytest

# voltage -> (kgf at 1900 us, kgf at 1100 us, A at 1900 us, the dead band's zero rows in us)
PUBLISHED = {12: (3.714, -2.904, 16.91, (1464, 1536)),
             16: (5.245, -4.069, 23.83, (1472, 1528)),
             20: (6.722, -5.036, 31.21, (1476, 1528))}


def pwm_throttle(pwm: float) -> float:
    return (pwm - 1500.0) / 400.0


@pytest.mark.parametrize('voltage', sorted(PUBLISHED))
def test_the_t200_curve_is_the_published_table(voltage):
    curve = thrust_curves.load('t200')
    forward, reverse, current, (first, last) = PUBLISHED[voltage]
    assert curve.force(1.0, voltage) == pytest.approx(forward * KGF, abs=0.001 * KGF)
    assert curve.force(-1.0, voltage) == pytest.approx(reverse * KGF, abs=0.001 * KGF)
    assert curve.current(1.0, voltage) == pytest.approx(current, abs=0.01)
    assert curve.dead_band(voltage) == (pwm_throttle(first), pwm_throttle(last))
    for pwm in (first, 1500, last):  # no thrust and no current in the dead band
        assert curve.force(pwm_throttle(pwm), voltage) == 0.0
        assert curve.current(pwm_throttle(pwm), voltage) == 0.0
    assert curve.force(pwm_throttle(last + 4), voltage) > 0  # the first row that pushes
    assert curve.force(pwm_throttle(first - 4), voltage) < 0
    assert curve.force(2.0, voltage) == curve.force(1.0, voltage)  # throttle is clipped


def test_between_tabled_voltages_it_is_linear_and_outside_held():
    curve = thrust_curves.load('t200')
    at_16, at_18 = curve.force(1.0, 16.0), curve.force(1.0, 18.0)
    assert curve.force(1.0, 17.0) == pytest.approx((at_16 + at_18) / 2)
    assert curve.force(1.0, 25.0) == curve.force(1.0, 20.0)
    assert curve.clamped(25.0) == 20.0 and curve.clamped(6.0) == 10.0


@pytest.mark.parametrize('thrust', [-35.0, -5.0, -0.5, 0.3, 12.0, 50.0])
def test_throttle_reads_the_curve_backwards(thrust):
    curve = thrust_curves.load('t200')
    assert curve.force(curve.throttle(thrust, 16.0), 16.0) == pytest.approx(thrust, rel=1e-6)
    assert curve.throttle(0.0, 16.0) == 0.0
    assert curve.throttle(80.0, 16.0) == 1.0 and curve.throttle(-80.0, 16.0) == -1.0


def test_the_m200_curve_ends_at_its_chart_figures():
    """PART_FACTS.md: M200 weedless, 16 V: 5.63 kgf at 1900 us, 2.81 kgf reverse; 22 A."""
    curve = thrust_curves.load('m200_weedless')
    assert curve.force(1.0, 16.0) == pytest.approx(5.63 * KGF, rel=1e-4)
    assert curve.force(-1.0, 16.0) == pytest.approx(-2.81 * KGF, rel=1e-4)
    assert curve.current(1.0, 16.0) == pytest.approx(22.0, rel=1e-4)
    assert curve.dead_band(16.0) == thrust_curves.load('t200').dead_band(16.0)


def test_the_shipped_curves_are_the_folder_and_every_propeller_names_one():
    assert thrust_curves.names() == THRUST_CURVES
    library = part_catalogue.catalogue()
    for type_name in library.types():
        propeller = library[type_name].propeller
        if propeller is not None:
            assert propeller.thrust_curve in THRUST_CURVES, type_name
            curve = thrust_curves.load(propeller.thrust_curve)
            # the part's limits are the curve's 16 V ends
            assert curve.force(1.0, 16.0) == pytest.approx(propeller.max_thrust, rel=2e-3)
            assert curve.force(-1.0, 16.0) == pytest.approx(propeller.min_thrust, rel=2e-3)


def test_an_unknown_curve_names_the_shipped_ones():
    with pytest.raises(thrust_curves.CurveError, match='shipped: m200_weedless, t200'):
        thrust_curves.load('t300')


def test_the_boat_reads_its_curves_at_its_batteries_voltage():
    from bluerobotics_parts.assembly.pipeline import resolve_config

    resolved = resolve_config(CONFIG_DIR / 'blueboat.yaml')
    catalogue = resolved.catalogue()
    battery = power.vehicle_battery(resolved.record, catalogue)
    assert (battery.packs, battery.voltage, battery.capacity) == (2, 14.8, 36.0)
    assert battery.energy == pytest.approx(532.8)  # the datasheet's 532 Wh for two packs
