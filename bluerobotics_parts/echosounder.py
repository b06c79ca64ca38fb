"""Turning the simulated Ping's LaserScan into the single range a sensor_msgs/Range carries.

ros_gz cannot bridge ``sensor_msgs/msg/Range``, so the Ping is simulated as a narrow gpu_lidar
fan across its beam width and bridged as a LaserScan; ``range_node`` republishes each scan as a
Range. The arithmetic lives here, free of ROS, so it is tested without it.

What one scan becomes (REP 117 semantics, as the Range message documents them):

* the nearest echo within ``[range_min, range_max]``: a single-beam echosounder reports the
  first return inside its cone, so the shortest valid ray wins;
* ``-inf`` when no ray is within range but at least one saw something closer than
  ``range_min`` (a detection too close to measure; gz-sensors masks such rays to ``-inf``);
* ``+inf`` when nothing was detected within range (open water; gz-sensors writes ``+inf``);
* ``nan`` when the scan has no usable ray at all (empty, or only NaN, REP 117's "erroneous"):
  there is nothing to report, and the node publishes nothing for such a scan.

Values beyond ``range_max`` count as no detection, whatever the simulator wrote for them.
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from .errors import BlueRoboticsPartsError

# sensor_msgs/msg/Range radiation types (the message's constants, repeated so this module
# needs no ROS): the Ping is an acoustic ranger.
ULTRASOUND = 0
INFRARED = 1


class EchosounderError(BlueRoboticsPartsError):
    """Echosounder parameters that cannot describe a ranger."""


def scan_to_range(ranges, range_min: float, range_max: float) -> float:
    """The range one scan reports: nearest valid echo, or -inf / +inf / nan (module doc)."""
    nearest = math.inf
    too_close = False
    usable = False
    for value in ranges:
        value = float(value)
        if math.isnan(value):
            continue
        usable = True
        if value < range_min:
            too_close = True
        elif value <= range_max:
            nearest = min(nearest, value)
    if not usable:
        return math.nan
    if math.isfinite(nearest):
        return nearest
    return -math.inf if too_close else math.inf


@dataclass(frozen=True)
class RangeSpec:
    """What a Range message states about the sensor besides the reading: the cone's full
    opening angle (rad) and the measurable interval (m). Checked on construction, so a bad
    parameter fails when the node starts, not on the first scan."""

    field_of_view: float
    min_range: float
    max_range: float

    def __post_init__(self):
        values = {'field_of_view': self.field_of_view, 'min_range': self.min_range,
                  'max_range': self.max_range}
        for key, value in values.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value):
                raise EchosounderError(f'echosounder {key} must be a finite number, got {value!r}')
        if not 0 < self.field_of_view <= math.pi:
            raise EchosounderError(f'echosounder field_of_view must be in (0, pi] rad (the full '
                                   f'opening angle of the beam), got {self.field_of_view!r}')
        if not 0 <= self.min_range < self.max_range:
            raise EchosounderError(f'echosounder min_range ({self.min_range!r}) must be >= 0 and '
                                   f'below max_range ({self.max_range!r})')

    @classmethod
    def from_part(cls, echosounder) -> 'RangeSpec':
        """From a part's echosounder data (``catalogue.Echosounder``): beam width, range."""
        return cls(field_of_view=echosounder.beam_width, min_range=echosounder.range_min,
                   max_range=echosounder.range_max)

    def reading(self, ranges) -> float:
        """The range a scan's rays report, within this sensor's interval."""
        return scan_to_range(ranges, self.min_range, self.max_range)


@dataclass(frozen=True)
class RangeReading:
    """The fields of one sensor_msgs/msg/Range, as plain values."""

    radiation_type: int
    field_of_view: float
    min_range: float
    max_range: float
    range: float

    @classmethod
    def from_scan(cls, ranges, spec: RangeSpec) -> 'RangeReading | None':
        """The Range for one scan's rays, or None when the scan has nothing to report."""
        value = spec.reading(ranges)
        if math.isnan(value):
            return None
        return cls(ULTRASOUND, spec.field_of_view, spec.min_range, spec.max_range, value)
