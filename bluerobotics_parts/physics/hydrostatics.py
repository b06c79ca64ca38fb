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
Static flotation of a resolved vehicle: where its level waterline settles, and its drafts.

Gazebo's Buoyancy system lifts a vehicle by the water its *collision* geometry displaces, so
this uses exactly that geometry (boxes, cylinders and spheres, placed by model/kinematics.py)
and bisects for the waterline z at which water_density * displaced_volume(z) = mass. Volumes
are exact for boxes and spheres; a cylinder is integrated along its axis (exact when level or
upright, Gauss-Legendre otherwise). Mesh collisions are refused: their volume would need a
watertight mesh we do not have.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
import math

from .water import SEA_WATER_DENSITY
from ..assembly.record import parse_urdf
from ..errors import HydrostaticsError
from ..model import kinematics
from ..model.urdf_tree import floats
from ..model.vehicle import Vehicle

_TOLERANCE = 1e-9  # m, on the waterline


@dataclass(frozen=True)
class Box:
    size: tuple
    pose: kinematics.Pose
    link: str


@dataclass(frozen=True)
class Cylinder:
    radius: float
    length: float
    pose: kinematics.Pose  # the cylinder's axis is the pose's z
    link: str


@dataclass(frozen=True)
class Sphere:
    radius: float
    pose: kinematics.Pose
    link: str


@dataclass(frozen=True)
class Flotation:
    """
    An upright vehicle floating at level trim (all in metres, root link frame).

    * ``waterline``: the solved z.
    * ``hull_draft`` = waterline - ``hull_bottom``, the lowest point of the base part's own
      collision geometry (the BlueBoat's hull boxes).
    * ``overall_draft`` = waterline - ``lowest_point``, the lowest point of every link's
      collision geometry and of every propeller disc. A fitted propeller has no collision (its
      slot says ``collision: false``), so its disc is taken from the part data: diameter at the
      joint origin, perpendicular to the joint axis.
    * ``freeboard`` = ``hull_top`` - waterline, the top of the base part's collision geometry.
    """

    mass: float  # kg
    water_density: float  # kg/m^3
    displaced_volume: float  # m^3
    waterline: float  # z of the water surface in the root link frame
    hull_bottom: float
    hull_top: float
    lowest_point: float

    @property
    def hull_draft(self) -> float:
        return self.waterline - self.hull_bottom

    @property
    def overall_draft(self) -> float:
        return self.waterline - self.lowest_point

    @property
    def freeboard(self) -> float:
        return self.hull_top - self.waterline


def flotation(urdf: str, mass: float | None = None,
              water_density: float = SEA_WATER_DENSITY) -> Flotation:
    """
    Float the vehicle of a resolved URDF, level.

    ``mass`` defaults to the sum of its link masses; pass another to float it loaded (payload
    assumed at the centre, level trim). stability.py finds the trimmed rest.
    """
    vehicle = Vehicle.from_urdf(urdf)
    poses = kinematics.link_poses(vehicle)
    shapes = collision_shapes(urdf, poses)
    if not shapes:
        raise HydrostaticsError('the vehicle has no collision geometry: nothing displaces '
                                'water, so it cannot float')
    mass = vehicle.total_mass if mass is None else float(mass)
    if mass <= 0:
        raise HydrostaticsError(f'mass must be positive to float the vehicle, got {mass} kg')
    hull = [s for s in shapes if s.link == vehicle.root_link]
    if not hull:
        raise HydrostaticsError(f'the root link {vehicle.root_link} has no collision geometry: '
                                'there is no hull to measure drafts from')
    low = min(extent(s)[0] for s in shapes)
    high = max(extent(s)[1] for s in shapes)
    target = mass / water_density
    capacity = displaced_volume(shapes, high)
    if capacity < target:
        raise HydrostaticsError(
            f'the vehicle sinks: {mass:.2f} kg needs {target:.4f} m^3 of displaced water, but '
            f'all its collision geometry holds {capacity:.4f} m^3 '
            f'({capacity * water_density:.2f} kg at {water_density:g} kg/m^3)')
    while high - low > _TOLERANCE:
        middle = 0.5 * (low + high)
        if displaced_volume(shapes, middle) < target:
            low = middle
        else:
            high = middle
    waterline = 0.5 * (low + high)
    bottoms = [extent(s)[0] for s in shapes] + propeller_disc_bottoms(vehicle, poses)
    return Flotation(mass, water_density, displaced_volume(shapes, waterline), waterline,
                     min(extent(s)[0] for s in hull), max(extent(s)[1] for s in hull),
                     min(bottoms))


def collision_shapes(urdf: str, poses: dict) -> list:
    """Every ``<collision>`` of every link, placed in the root frame."""
    shapes = []
    for link in parse_urdf(urdf).findall('link'):
        name = link.get('name')
        for index, collision in enumerate(link.findall('collision')):
            origin = collision.find('origin')
            where = f'link {name}, collision origin'
            local = kinematics.Pose.from_xyz_rpy(floats(origin, 'xyz', 3, where),
                                                 floats(origin, 'rpy', 3, where))
            pose = poses[name].compose(local)
            geometry = collision.find('geometry')
            shape = geometry[0] if geometry is not None and len(geometry) else None
            what = f'link {name}, collision #{index + 1}'
            if shape is None:
                raise HydrostaticsError(f'{what} has no geometry')
            if shape.tag == 'box':
                shapes.append(Box(_sizes(shape, 'size', 3, what), pose, name))
            elif shape.tag == 'cylinder':
                shapes.append(Cylinder(_sizes(shape, 'radius', 1, what)[0],
                                       _sizes(shape, 'length', 1, what)[0], pose, name))
            elif shape.tag == 'sphere':
                shapes.append(Sphere(_sizes(shape, 'radius', 1, what)[0], pose, name))
            else:
                raise HydrostaticsError(
                    f'{what} is a {shape.tag}: the hydrostatic check measures only box, '
                    "cylinder and sphere collisions (a mesh's volume needs a closed mesh); "
                    "approximate it with those shapes, as Gazebo's buoyancy also needs")
    return shapes


def propeller_disc_bottoms(vehicle: Vehicle, poses: dict) -> list:
    """Return the lowest point of each fitted propeller's disc (diameter from part data)."""
    bottoms = []
    for actuator in vehicle.actuators.values():
        if actuator.joint is None:
            continue
        origin, axis = kinematics.joint_frame(vehicle, poses, actuator.joint)
        spread = math.sqrt(max(0.0, 1.0 - axis[2] ** 2))
        bottoms.append(origin[2] - 0.5 * actuator.diameter * spread)
    return bottoms


# -- geometry ------------------------------------------------------------------------------------

def extent(shape) -> tuple:
    """(lowest z, highest z) of a placed shape."""
    rotation, centre = shape.pose.rotation, shape.pose.translation
    if isinstance(shape, Box):
        half = sum(abs(rotation[2][i]) * shape.size[i] / 2 for i in range(3))
    elif isinstance(shape, Cylinder):
        axis_z = rotation[2][2]
        half = abs(axis_z) * shape.length / 2 + shape.radius * math.sqrt(max(0.0, 1 - axis_z ** 2))
    else:
        half = shape.radius
    return centre[2] - half, centre[2] + half


def displaced_volume(shapes, waterline: float) -> float:
    """Return the volume of the shapes below z = waterline (overlaps counted twice, as Gazebo)."""
    return sum(volume_below(shape, waterline) for shape in shapes)


def volume_below(shape, waterline: float) -> float:
    low, high = extent(shape)
    if waterline <= low:
        return 0.0
    if waterline >= high:
        return full_volume(shape)
    if isinstance(shape, Box):
        return _box_below(shape, min(waterline, high))
    if isinstance(shape, Cylinder):
        return _cylinder_below(shape, waterline)
    cap = min(waterline - low, 2 * shape.radius)
    return math.pi * cap * cap * (3 * shape.radius - cap) / 3


def full_volume(shape) -> float:
    if isinstance(shape, Box):
        return shape.size[0] * shape.size[1] * shape.size[2]
    if isinstance(shape, Cylinder):
        return math.pi * shape.radius ** 2 * shape.length
    return 4.0 / 3.0 * math.pi * shape.radius ** 3


def _box_vertices(box: Box) -> list:
    half = [v / 2 for v in box.size]
    return [box.pose.apply((sx * half[0], sy * half[1], sz * half[2]))
            for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]


def _box_below(box: Box, top: float) -> float:
    """
    Integrate the horizontal cross-section area from the bottom up to ``top``.

    Between two vertex heights the area is a quadratic in z, so Simpson's rule on each such
    interval is exact.
    """
    vertices = _box_vertices(box)
    heights = sorted({v[2] for v in vertices if v[2] < top} | {top})
    volume = 0.0
    for z0, z1 in zip(heights, heights[1:]):
        if z1 - z0 <= 0:
            continue
        middle = 0.5 * (z0 + z1)
        volume += (z1 - z0) / 6 * (_section_area(vertices, z0)
                                   + 4 * _section_area(vertices, middle)
                                   + _section_area(vertices, z1))
    return volume


# Box edges: vertex index pairs that differ in one coordinate sign (see _box_vertices order).
_EDGES = [(i, i | bit) for i in range(8) for bit in (1, 2, 4) if not i & bit]


def _section_area(vertices, z: float) -> float:
    """Return the area of the box's cross-section with the plane at height z."""
    points = []
    for a, b in _EDGES:
        za, zb = vertices[a][2], vertices[b][2]
        if za == zb:
            if za == z:
                points += [vertices[a][:2], vertices[b][:2]]
            continue
        t = (z - za) / (zb - za)
        if 0.0 <= t <= 1.0:
            points.append(tuple(vertices[a][i] + t * (vertices[b][i] - vertices[a][i])
                                for i in range(2)))
    return _polygon_area(_convex_hull(points))


def _convex_hull(points) -> list:
    """Andrew's monotone chain: the hull of 2-D points, counter-clockwise."""
    points = sorted(set(points))
    if len(points) < 3:
        return points

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower, upper = [], []
    for p in points:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(points):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _polygon_area(polygon) -> float:
    return 0.5 * abs(sum(polygon[i][0] * polygon[i - 1][1] - polygon[i - 1][0] * polygon[i][1]
                         for i in range(len(polygon))))


def _cylinder_below(cylinder: Cylinder, waterline: float) -> float:
    """Integrate, along the axis, the part of each circular slice below the waterline."""
    rotation, centre = cylinder.pose.rotation, cylinder.pose.translation
    axis_z = rotation[2][2]  # z component of the axis direction
    spread = cylinder.radius * math.sqrt(max(0.0, 1 - axis_z ** 2))  # slice's vertical half-size
    half = cylinder.length / 2
    disc = math.pi * cylinder.radius ** 2

    def area(s):
        depth = waterline - (centre[2] + s * axis_z)
        if spread < 1e-12:
            return disc if depth >= 0 else 0.0
        t = max(-1.0, min(1.0, depth / spread))
        return cylinder.radius ** 2 * (math.acos(-t) + t * math.sqrt(1 - t * t))

    if abs(axis_z) < 1e-15:  # level: every slice is the same
        return area(0.0) * cylinder.length
    # Split where a slice starts or stops touching the water: smooth in between.
    cuts = {-half, half}
    for edge in (-spread, 0.0 if spread < 1e-12 else None, spread):
        if edge is not None:
            s = (waterline - centre[2] - edge) / axis_z
            if -half < s < half:
                cuts.add(s)
    cuts = sorted(cuts)
    return sum(_integrate(area, a, b) for a, b in zip(cuts, cuts[1:]))


def _integrate(function, a: float, b: float) -> float:
    nodes, weights = _gauss_legendre(32)
    middle, half = 0.5 * (a + b), 0.5 * (b - a)
    return half * sum(w * function(middle + half * x) for x, w in zip(nodes, weights))


@lru_cache(maxsize=None)
def _gauss_legendre(count: int) -> tuple:
    """Nodes and weights on [-1, 1] (Newton's method on the Legendre polynomial)."""
    nodes, weights = [], []
    for i in range(1, count + 1):
        x = math.cos(math.pi * (i - 0.25) / (count + 0.5))
        for _ in range(100):
            p0, p1 = 1.0, x
            for k in range(2, count + 1):
                p0, p1 = p1, ((2 * k - 1) * x * p1 - (k - 1) * p0) / k
            derivative = count * (x * p1 - p0) / (x * x - 1)
            step = p1 / derivative
            x -= step
            if abs(step) < 1e-15:
                break
        nodes.append(x)
        weights.append(2 / ((1 - x * x) * derivative * derivative))
    return tuple(nodes), tuple(weights)


def _sizes(element, attribute: str, count: int, what: str) -> tuple:
    try:
        values = tuple(float(v) for v in element.get(attribute, '').split())
    except ValueError:
        values = ()
    if len(values) != count or not all(math.isfinite(v) and v > 0 for v in values):
        raise HydrostaticsError(f'{what}: {element.tag} {attribute}='
                                f'{element.get(attribute)!r} is not {count} positive number(s)')
    return values
