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
``render`` of big meshes and many parts: bounded, and the same picture.

What is bounded is counted, never timed (speed and the figures are benchmarks/render.py's):
the triangles handed to the canvas, the full-image masks Pillow is asked for, the memory of
the picture's own stages in a child process. What must not change is compared exactly: the
triangles of every shipped vehicle against files/stl.py's reading, and outlined polygons
against Pillow drawing them on the whole image.
"""

from __future__ import annotations

import io
import math
import sys
from xml.etree import ElementTree

from bluerobotics_parts import paths
from bluerobotics_parts.assembly.pipeline import resolve_config
from bluerobotics_parts.errors import InputError
from bluerobotics_parts.files import stl as stl_module
from bluerobotics_parts.files.stl import read_stl
from bluerobotics_parts.model import kinematics
from bluerobotics_parts.model.kinematics import Pose
from bluerobotics_parts.model.urdf_tree import floats
from bluerobotics_parts.model.vehicle import Vehicle
from bluerobotics_parts.picture import canvas as canvas_module
from bluerobotics_parts.picture import mesh
from bluerobotics_parts.picture.canvas import Canvas
from bluerobotics_parts.picture.render import draw, render_config
from bluerobotics_parts.picture.scene import build_scene, TRIANGLE_BUDGET
from conftest import CONFIG_DIR, run, write_config
import numpy
from PIL import Image, ImageDraw
import pytest

VEHICLES = [CONFIG_DIR / f'{name}.yaml' for name in ('blueboat', 'bluerov2', 'bluerov2_heavy')]
RECORD = numpy.dtype([('normal', '<f4', 3), ('vertices', '<f4', (3, 3)), ('extra', '<u2')])


def sphere(count: int, radius: float = 0.15) -> numpy.ndarray:
    """Return a latitude-longitude sphere of about ``count`` triangles, (n, 3, 3)."""
    rows = max(2, int(math.sqrt(count / 2)))
    columns = max(3, count // (2 * rows))
    theta = numpy.linspace(0, math.pi, rows + 1)[:, None]
    phi = numpy.linspace(0, 2 * math.pi, columns + 1)[None, :]
    grid = numpy.stack([radius * numpy.sin(theta) * numpy.cos(phi),
                        radius * numpy.sin(theta) * numpy.sin(phi),
                        radius * numpy.cos(theta) + 0 * phi], axis=-1)
    a, b = grid[:-1, :-1], grid[1:, :-1]
    c, d = grid[1:, 1:], grid[:-1, 1:]
    return numpy.concatenate([numpy.stack([a, b, c], axis=2).reshape(-1, 3, 3),
                              numpy.stack([a, c, d], axis=2).reshape(-1, 3, 3)])


def write_binary(path, triangles) -> None:
    records = numpy.zeros(len(triangles), RECORD)
    records['vertices'] = triangles
    path.write_bytes(b'test'.ljust(80) + len(triangles).to_bytes(4, 'little') +
                     records.tobytes())


def write_ascii(path, triangles) -> None:
    lines = ['solid test']
    for triangle in triangles:
        lines += ['  facet normal 0 0 0', '    outer loop']
        lines += ['      vertex ' + ' '.join(repr(float(v)) for v in vertex)
                  for vertex in triangle]
        lines += ['    endloop', '  endfacet']
    path.write_text('\n'.join(lines + ['endsolid test', '']), encoding='ascii')


PART = """\
type: {name}
inertial: {{mass: 1.0, mass_unverified: test}}
{hydrostatics}visual:
  - mesh: {mesh}
    material: {{name: {name}_grey, rgba: [0.5, 0.5, 0.6, 1.0]}}
"""


def mesh_part(folder, name: str, triangles, ascii_form: bool = False, base: bool = False):
    """Write a part file with one mesh (``name``.stl); return the part file's path."""
    (write_ascii if ascii_form else write_binary)(folder / f'{name}.stl', triangles)
    part = folder / f'{name}.yaml'
    part.write_text(PART.format(name=name, mesh=f'{name}.stl', hydrostatics=(
        'hydrostatics: {spawn_depth: 1.0}\n' if base else '')), encoding='utf-8')
    return part


def lone_part(folder, triangles, name: str = 'ball'):
    """Write a config whose vehicle is one mesh part alone (an ROV: no water line)."""
    mesh_part(folder, name, triangles, base=True)
    return write_config(folder, f'name: {name}\npart_files: [{name}.yaml]\n'
                                f'base: {{type: {name}}}\n')


def drawn(picture) -> int:
    return sum(len(item[1]) for item in picture.canvas.items if item[0] == 'triangles')


# -- reading ---------------------------------------------------------------------------------

@pytest.mark.parametrize('ascii_form', [False, True], ids=['binary', 'ascii'])
def test_read_in_chunks_is_read_stl_exactly(tmp_path, monkeypatch, ascii_form):
    """In chunks (and ASCII in blocks that cut vertices) the numbers are files/stl.py's."""
    triangles = sphere(3000) * numpy.array([1.0, 2.0, 0.5])
    path = tmp_path / 'm.stl'
    (write_ascii if ascii_form else write_binary)(path, triangles)
    monkeypatch.setattr(stl_module, '_BLOCK', 1000)  # ASCII blocks end inside vertices
    with stl_module.StlFile(path) as stl:
        chunks = list(stl.chunks(size=257))
        assert stl.counted() == len(triangles) and all(len(c) <= 257 for c in chunks)
        expected = read_stl(path)
        assert numpy.array_equal(numpy.concatenate(chunks), expected)
        scale = numpy.array([0.001, -0.002, 0.001])
        assert numpy.array_equal(mesh.read(stl, scale), expected * scale)


@pytest.mark.parametrize('ascii_form', [False, True], ids=['binary', 'ascii'])
def test_a_vertex_that_is_no_number_is_refused_both_ways(tmp_path, ascii_form):
    """A NaN coordinate would reach Gazebo's collision and the picture: refused, as ASCII's."""
    triangles = sphere(300)
    triangles[7, 1, 2] = numpy.nan
    path = tmp_path / 'm.stl'
    (write_ascii if ascii_form else write_binary)(path, triangles)
    with pytest.raises(InputError):
        read_stl(path)
    with pytest.raises(InputError):
        with stl_module.StlFile(path) as stl:
            list(stl.chunks())


def test_a_binary_count_is_known_before_any_triangle_is_read(tmp_path):
    write_binary(tmp_path / 'm.stl', sphere(5000))
    with stl_module.StlFile(tmp_path / 'm.stl') as stl:
        assert stl.binary and stl.count == 5000


# -- the shipped vehicles: every triangle, drawn as before ----------------------------------

@pytest.mark.parametrize('config', VEHICLES, ids=lambda p: p.stem)
def test_the_shipped_vehicles_are_drawn_from_every_triangle_as_read(config):
    """Their meshes are far under the budget: each solid is files/stl.py's triangles, placed."""
    resolved = resolve_config(config)
    scene = build_scene(resolved)
    assert scene.notes == []
    visuals = [(link.get('name'), visual) for link in resolved.tree.findall('link')
               for visual in link.findall('visual')]
    assert len(visuals) == len(scene.solids)
    vehicle = Vehicle.from_tree(resolved.tree, resolved.record, resolved.catalogue())
    poses = kinematics.link_poses(vehicle)
    for (link, visual), solid in zip(visuals, scene.solids):
        shape = visual.find('geometry')[0]
        if shape.tag != 'mesh':
            continue
        triangles = read_stl(paths.resolve_uri(shape.get('filename')))
        triangles = triangles[numpy.isfinite(triangles).all(axis=(1, 2))]
        triangles = triangles * numpy.array(floats(shape, 'scale', 3, 'x', default=(1, 1, 1)))
        origin = visual.find('origin')
        pose = poses[link].compose(Pose.from_xyz_rpy(floats(origin, 'xyz', 3, 'x'),
                                                     floats(origin, 'rpy', 3, 'x')))
        expected = triangles @ numpy.array(pose.rotation).T + numpy.array(pose.translation)
        assert numpy.array_equal(solid.triangles, expected), (link, shape.get('filename'))


def test_an_outlined_polygon_is_pillow_s_own_without_a_whole_image_mask(monkeypatch):
    """
    The legend's swatches and the frame markers, as Pillow draws them on the whole image.

    Pillow drew each wide outline through a mask the size of the image: a picture of 1,000
    parts filled 1,000 of them (25 s). Now only the picture itself is that large.
    """
    canvas = Canvas(300, 200)
    reference = Image.new('RGB', (600, 400), canvas.background)
    pen = ImageDraw.Draw(reference, 'RGBA')
    generator = numpy.random.default_rng(3)
    for index in range(150):
        x, y = generator.uniform(8, 292), generator.uniform(8, 192)
        if index % 2:
            x, y = round(x), round(y)
            points = [(x, y - 6), (x + 12, y - 6), (x + 12, y + 6), (x, y + 6)]
        else:
            points = [(x, y - 5), (x + 5, y), (x, y + 5), (x - 5, y)]
        fill = tuple(int(v) for v in generator.integers(0, 255, 3))
        canvas.polygon(points, fill=fill, outline=(120, 120, 128))
        pen.polygon([(px * 2, py * 2) for px, py in points], fill=(*fill, 255),
                    outline=(120, 120, 128), width=2)
    canvas.polygon([(0, 0), (300, 0), (300, 200)], fill=(9, 9, 9), outline=(1, 2, 3))  # edge
    pen.polygon([(0, 0), (600, 0), (600, 400)], fill=(9, 9, 9, 255), outline=(1, 2, 3), width=2)
    out = io.BytesIO()
    reference.reduce(2).save(out, format='PNG', optimize=False)
    whole = []
    new = Image.new

    def counting(mode, size, *args, **kwargs):
        whole.append(tuple(size) == (600, 400))
        return new(mode, size, *args, **kwargs)

    monkeypatch.setattr(canvas_module.Image, 'new', counting)
    assert canvas.png() == out.getvalue()
    assert sum(whole) <= 2  # the picture, and the one polygon reaching the image's edge


def test_svg_is_written_as_it_is_made_and_says_the_same(tmp_path):
    """``svg()`` and ``write_svg`` give one document; triangles as they were written."""
    canvas = Canvas(100, 80)
    points = numpy.array([[[1.0, 2.0], [30.5, 4.25], [10.0, 60.125]]] * 3)
    colours = numpy.array([[255, 0, 16], [1, 2, 3], [0, 0, 0]], dtype=numpy.uint8)
    canvas.triangles(points, colours)
    canvas.text((5, 5), 'a < b', 12)
    out = io.BytesIO()
    canvas.write_svg(out)
    assert out.getvalue().decode() == canvas.svg()
    root = ElementTree.fromstring(out.getvalue())
    polygons = list(root.iter('{http://www.w3.org/2000/svg}polygon'))
    assert [p.get('fill') for p in polygons] == ['#ff0010', '#010203', '#000000']
    assert polygons[0].get('points') == '1.00,2.00 30.50,4.25 10.00,60.12'


# -- big meshes ------------------------------------------------------------------------------

def test_a_big_mesh_on_the_boat_is_drawn_within_the_budget(tmp_path):
    """150,000 triangles on the BlueBoat, four views: more than a view's part of the budget."""
    mesh_part(tmp_path, 'ball', sphere(150_000))
    config = write_config(tmp_path, 'part_files: [ball.yaml]\nparts:\n  - {type: ball, '
                                    'name: ball, parent: base_link, xyz: [0, 0, 0.4]}\n')
    picture = draw(build_scene(resolve_config(config)))
    assert drawn(picture) <= TRIANGLE_BUDGET
    assert len(picture.scene.notes) == 1
    assert picture.scene.notes[0].startswith('mesh ball.stl: 149,')
    # the boat's own meshes keep every triangle: the grid merges only the finer detail
    boat = build_scene(resolve_config(CONFIG_DIR / 'blueboat.yaml'))
    counts = {s.link: len(s.triangles) for s in picture.scene.solids if s.instance != 'ball'}
    assert counts == {s.link: len(s.triangles) for s in boat.solids}


def test_simplifying_keeps_the_silhouette(tmp_path):
    """The simplified ball's bounding box and outline are the ball's, within a grid cell."""
    ball = sphere(40_000)
    resolved = resolve_config(lone_part(tmp_path, ball))
    whole, simple = build_scene(resolved, 10 ** 9), build_scene(resolved, 4000)
    assert len(whole.solids[0].triangles) == len(ball) and whole.notes == []
    assert 2000 < len(simple.solids[0].triangles) <= 4000
    cell = float(simple.notes[0].split(' mm grid')[0].split()[-1]) / 1000
    for a, b in ((whole.points().min(axis=0), simple.points().min(axis=0)),
                 (whole.points().max(axis=0), simple.points().max(axis=0))):
        assert numpy.abs(a - b).max() <= cell
    masks = []
    for scene in (whole, simple):
        picture = draw(scene, ['side'])
        pixels = numpy.asarray(Image.open(io.BytesIO(picture.canvas.png())).convert('RGB'))
        panel = pixels[:800]  # above the legend (the note makes it longer)
        masks.append(numpy.abs(panel.astype(int) - (247, 248, 250)).max(axis=2) > 40)
    assert (masks[0] ^ masks[1]).sum() < 0.02 * masks[0].sum()


def test_a_mesh_of_a_few_big_triangles_is_never_simplified(tmp_path):
    """The grid only merges what is finer than it: a coarse mesh beside a fine one is kept."""
    fine = sphere(30_000)
    coarse = sphere(200) + numpy.array([0.5, 0, 0])
    mesh_part(tmp_path, 'coarse', coarse)
    config = lone_part(tmp_path, fine)
    text = config.read_text() + ('parts:\n  - {type: coarse, name: coarse, parent: base_link, '
                                 'xyz: [0, 0, 0]}\n')
    config.write_text(text.replace('[ball.yaml]', '[ball.yaml, coarse.yaml]'))
    scene = build_scene(resolve_config(config), 5000)
    sizes = {solid.instance: len(solid.triangles) for solid in scene.solids}
    assert sizes['coarse'] == len(coarse) and sizes['base_link'] <= 5000 - len(coarse)


def test_the_budget_is_the_whole_picture_s(tmp_path):
    """One view draws the scene once, four draw it four times: each view gets its part."""
    config = lone_part(tmp_path, sphere(150_000))
    _, notes = render_config(config, views=['iso'])
    assert notes == []  # under the budget: one view draws every triangle
    data, notes = render_config(config, image_format='svg')  # four views
    assert len(notes) == 1
    assert notes[0].endswith(f'(at most {TRIANGLE_BUDGET // 4:,} triangles a view)')
    assert data.count(b'<polygon points=') <= TRIANGLE_BUDGET + 100  # + panels and legend


def test_a_mesh_beyond_what_render_reads_is_refused_naming_its_part_file(tmp_path):
    """Refused before it is read, with the part file's line and the limit (a real run)."""
    mesh_part(tmp_path, 'other', sphere(100))
    config = lone_part(tmp_path, sphere(100))
    config.write_text(config.read_text().replace('[ball.yaml]', '[ball.yaml, other.yaml]') +
                      'parts:\n  - {type: other, name: other, parent: base_link}\n')
    size = (tmp_path / 'ball.stl').stat().st_size
    script = ('import sys\nfrom bluerobotics_parts.picture import scene\n'
              f'scene.MESH_READ_LIMIT = {size + 10}\n'
              'from bluerobotics_parts.cli.main import main\n'
              f'sys.exit(main(["render", {str(config)!r}, "-o", '
              f'{str(tmp_path / "out.png")!r}]))\n')
    result = run([sys.executable, '-c', script])
    assert result.returncode == 1, result.stderr
    assert result.stderr == (
        f"error: {tmp_path / 'other.yaml'}:4: mesh other.stl ({tmp_path / 'other.stl'}): its "
        f'{size:,} bytes bring the meshes of this picture to {2 * size:,} bytes, more than the '
        f'{size + 10:,} render reads for one picture (twice the limit of one mesh); use a '
        'simpler mesh (fewer triangles)\n')
    assert not (tmp_path / 'out.png').exists()


PEAK = """\
import resource, sys
from bluerobotics_parts import paths
from bluerobotics_parts.assembly.pipeline import resolve_config
from bluerobotics_parts.picture.render import draw
from bluerobotics_parts.picture.scene import build_scene
resolved = resolve_config(sys.argv[1])
try:
    open('/proc/self/clear_refs', 'w').write('5')  # the peak so far: resolving's, not ours
except OSError:
    print('no-reset')
    sys.exit(0)
picture = draw(build_scene(resolved))
picture.canvas.png()
import io
picture.canvas.write_svg(io.BytesIO())
for line in open('/proc/self/status'):
    if line.startswith('VmHWM'):
        print(int(line.split()[1]) // 1024)
"""


@pytest.mark.skipif(not sys.platform.startswith('linux'), reason='peak memory from /proc')
def test_the_picture_of_a_big_mesh_stays_in_bounded_memory(tmp_path):
    """
    600,000 triangles: the picture's own stages (scene, layout, PNG, SVG) in a child process.

    Measured at 165 MB, the resolved config and the interpreter, numpy and Pillow included;
    the old code's stages took 1.4 GB for this mesh. Resolving is left out: its part file
    check reads the mesh whole (assembly/catalogue.py).
    """
    config = lone_part(tmp_path, sphere(600_000))
    result = run([sys.executable, '-c', PEAK, config])
    assert result.returncode == 0, result.stderr
    if result.stdout.strip() == 'no-reset':
        pytest.skip('/proc/self/clear_refs cannot be written here')
    assert int(result.stdout) < 250, result.stdout


# -- many parts ------------------------------------------------------------------------------

def one_by_one(canvas, labels: list, cell: tuple) -> None:
    """
    Place labels as render did: every spot of every label against every box, in Python.

    The placement is this test's own; each placed label is drawn by render's draw_label.
    """
    from bluerobotics_parts.picture.canvas import text_size
    from bluerobotics_parts.picture.render import draw_label, LABEL_SIZE, TITLE_SIZE

    left, top, width, height = cell
    bounds = (left + 4, top + TITLE_SIZE + 20, left + width - 4, top + height - 4)
    taken = [(x - 4, y - 4, x + 4, y + 4) for (x, y), _, _ in labels]
    for (x, y), label, colour in sorted(labels, key=lambda item: (item[0][1], item[0][0])):
        w, h = text_size(label, LABEL_SIZE)
        spot = None
        for radius in (10, 22, 36, 54, 76, 100, 130):
            for angle in range(-45, 315, 30):
                cx = x + radius * math.cos(math.radians(angle))
                cy = y - radius * math.sin(math.radians(angle))
                if math.cos(math.radians(angle)) >= -0.01:
                    box = (cx, cy - h / 2 - 2, cx + w + 4, cy + h / 2 + 2)
                else:
                    box = (cx - w - 4, cy - h / 2 - 2, cx, cy + h / 2 + 2)
                inside = box[0] >= bounds[0] and box[1] >= bounds[1] and \
                    box[2] <= bounds[2] and box[3] <= bounds[3]
                if inside and not any(box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and
                                      o[1] < box[3] for o in taken):
                    spot = (box, radius)
                    break
            if spot:
                break
        if spot is None:
            continue
        box, radius = spot
        taken.append(box)
        draw_label(canvas, (x, y), box, radius, label, colour)


@pytest.mark.parametrize('count', [12, 300])
def test_labels_are_placed_where_the_one_by_one_search_placed_them(count):
    """All spots at once (numpy) choose what the spot-by-spot search chose, to the bit."""
    from bluerobotics_parts.picture import render

    generator = numpy.random.default_rng(count)
    cell = (800, 560, 800, 560)
    labels = [((float(generator.uniform(820, 1580)), float(generator.uniform(600, 1100))),
               f'frame_{index}', (25, 25, 30)) for index in range(count)]
    labels.append((labels[0][0], 'same spot', (25, 25, 30)))
    ours, theirs = Canvas(1600, 1200), Canvas(1600, 1200)
    render._place_labels(ours, labels, cell)
    one_by_one(theirs, labels, cell)
    assert ours.items == theirs.items and len(ours.items) > 10


def test_a_long_parts_list_ends_with_a_count_by_type(tmp_path):
    """400 flags on the BlueROV2: the legend lists 30 rows and counts the rest."""
    from bluerobotics_parts.picture.render import LEGEND_ROWS

    config = write_config(tmp_path, 'base: {type: bluerov2_frame}\nparts:\n' + ''.join(
        f'  - {{type: blueboat_flag, name: flag{i}, parent: base_link, xyz: [0, 0, {i / 1000}]}}'
        '\n' for i in range(400)))
    scene = build_scene(resolve_config(config))
    picture = draw(scene)
    texts = [item[2] for item in picture.canvas.items if item[0] == 'text']
    summary = [t for t in texts if t.startswith('and ') and 'more parts:' in t]
    assert len(summary) == 1 and summary[0].endswith(' blueboat_flag')
    listed = sum(1 for t in texts if t.endswith('(blueboat_flag)'))
    assert int(summary[0].split()[1].replace(',', '')) == 400 - listed
    assert picture.canvas.height <= 2 * 560 + 44 + LEGEND_ROWS * 20 + 16 * 8


def test_a_vessel_of_many_shapes_is_drawn_without_its_water_line(tmp_path):
    """Finding the rest cuts every shape some 40 times: past WATER_LINE_SHAPES, a note says so."""
    from bluerobotics_parts.picture.scene import WATER_LINE_SHAPES

    boat = resolve_config(CONFIG_DIR / 'blueboat.yaml')
    few = build_scene(boat)
    assert few.rest is not None and not any('no water line' in n for n in few.notes)
    own = sum(1 for _ in boat.tree.iter('collision'))  # the boat's own shapes
    count = WATER_LINE_SHAPES + 1
    config = write_config(tmp_path, 'parts:\n' + ''.join(
        f'  - {{type: blueboat_flag, name: f{i}, parent: base_link, xyz: [0, 0, 0.3]}}\n'
        for i in range(count)))
    scene = build_scene(resolve_config(config))
    assert scene.rest is None
    assert [n for n in scene.notes if n.startswith('no water line')] == [
        f'no water line: {count + own} collision shapes, more than the {WATER_LINE_SHAPES} a '
        'picture finds the rest of (bluerobotics-parts info finds it for any vehicle)']
