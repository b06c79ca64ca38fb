"""The Ping's scan -> Range conversion: what one scan reports, and the sensor's stated cone."""

from __future__ import annotations

import math

from bluerobotics_parts import catalogue
from bluerobotics_parts.echosounder import (EchosounderError, RangeReading, RangeSpec,
                                            scan_to_range, ULTRASOUND)
import pytest

INF = math.inf


@pytest.mark.parametrize('ranges, expected', [
    ([20.0, 19.5, 21.0], 19.5),  # the nearest echo across the beam wins
    ([INF, 12.25, INF], 12.25),  # rays that saw nothing do not hide the one that did
    ([-INF, 7.0, INF], 7.0),  # a too-close ray does not hide a valid echo
    ([0.2, 3.0], 3.0),  # a finite value below range_min is not a valid echo either
    ([0.5, 4.0], 0.5),  # range_min itself is measurable
    ([100.0, 150.0], 100.0),  # so is range_max; beyond it is nothing
    ([float('nan'), 8.0], 8.0),  # NaN rays (erroneous) are skipped
])
def test_the_nearest_valid_echo(ranges, expected):
    assert scan_to_range(ranges, 0.5, 100.0) == expected


@pytest.mark.parametrize('ranges, expected', [
    ([INF, INF, INF], INF),  # open water: no detection within range
    ([150.0, 101.0], INF),  # beyond range_max counts as no detection
    ([-INF, INF], -INF),  # only a detection too close to measure
    ([0.1, 0.3], -INF),
])
def test_no_valid_echo_follows_rep_117(ranges, expected):
    assert scan_to_range(ranges, 0.5, 100.0) == expected


@pytest.mark.parametrize('ranges', [[], [float('nan')] * 3])
def test_a_scan_without_usable_rays_reports_nothing(ranges):
    assert math.isnan(scan_to_range(ranges, 0.5, 100.0))
    spec = RangeSpec(0.4, 0.5, 100.0)
    assert RangeReading.from_scan(ranges, spec) is None


def test_a_reading_carries_the_cone_and_interval():
    spec = RangeSpec(field_of_view=0.436, min_range=0.5, max_range=100.0)
    reading = RangeReading.from_scan([INF, 42.0, 41.5], spec)
    assert reading == RangeReading(ULTRASOUND, 0.436, 0.5, 100.0, 41.5)
    assert RangeReading.from_scan([INF], spec).range == INF


def test_the_shipped_ping_gives_its_datasheet_cone():
    ping = catalogue.shipped()['ping_singlebeam'].echosounder
    spec = RangeSpec.from_part(ping)
    assert spec.field_of_view == pytest.approx(math.radians(25))  # Ping2 beam width
    assert (spec.min_range, spec.max_range) == (0.5, 100.0)
    assert spec.reading([0.4, 0.45]) == -INF  # inside the Ping's blanking distance


@pytest.mark.parametrize('kwargs, words', [
    ({'field_of_view': 0.0, 'min_range': 0.5, 'max_range': 10.0}, 'field_of_view'),
    ({'field_of_view': 4.0, 'min_range': 0.5, 'max_range': 10.0}, '(0, pi]'),
    ({'field_of_view': 0.4, 'min_range': 10.0, 'max_range': 10.0}, 'below max_range'),
    ({'field_of_view': 0.4, 'min_range': -1.0, 'max_range': 10.0}, 'min_range'),
    ({'field_of_view': 0.4, 'min_range': 0.5, 'max_range': INF}, 'max_range must be a finite'),
    ({'field_of_view': True, 'min_range': 0.5, 'max_range': 10.0}, 'field_of_view must be'),
])
def test_a_spec_that_describes_no_ranger_is_refused(kwargs, words):
    with pytest.raises(EchosounderError, match=None) as caught:
        RangeSpec(**kwargs)
    assert words in str(caught.value)
