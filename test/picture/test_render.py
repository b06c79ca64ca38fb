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
``bluerobotics-parts render``: the picture of every shipped config, and where things land.

The pixel test renders blocks of known colours at known places and finds them in the image
by colour alone; the projection it compares with is the panel's, and the distance between the
blocks in pixels is checked against the metre scale, so a wrong projection or scale fails.
"""

from __future__ import annotations

import io
import os
import sys
from xml.etree import ElementTree

from bluerobotics_parts.picture.render import draw, render_config
from bluerobotics_parts.picture.scene import build_scene
from conftest import cli, CONFIG_DIR, run, SHIPPED_CONFIGS, write_config
import numpy
from PIL import Image
import pytest

BACKGROUND = (247, 248, 250)


def image_of(data: bytes) -> numpy.ndarray:
    return numpy.asarray(Image.open(io.BytesIO(data)).convert('RGB'))


@pytest.mark.parametrize('config', SHIPPED_CONFIGS, ids=lambda p: p.name)
def test_every_shipped_config_renders(config):
    data, notes = render_config(config)
    assert data[:8] == b'\x89PNG\r\n\x1a\n'
    pixels = image_of(data)
    assert pixels.shape[1] == 1600 and 1200 <= pixels.shape[0] <= 1400
    panel = pixels[40:1100]
    drawn = numpy.any(numpy.abs(panel.astype(int) - BACKGROUND) > 30, axis=2).mean()
    assert 0.04 < drawn < 0.8, drawn  # neither blank nor one colour
    packed = panel.astype(numpy.int32) @ numpy.array([65536, 256, 1], dtype=numpy.int32)
    assert len(numpy.unique(packed)) > 500  # shaded, not flat
    assert notes == []


def test_the_command_writes_png_and_svg(tmp_path):
    png, svg = tmp_path / 'boat.png', tmp_path / 'boat.svg'
    result = cli('render', CONFIG_DIR / 'blueboat.yaml', '-o', png)
    assert result.returncode == 0, result.stderr
    assert result.stderr == f'wrote {png} (iso, top, side, front)\n'
    assert png.read_bytes()[:4] == b'\x89PNG'
    result = cli('render', CONFIG_DIR / 'blueboat.yaml', '-o', svg, '--view', 'side')
    assert result.returncode == 0, result.stderr
    root = ElementTree.parse(svg).getroot()
    assert root.get('width') == '1200'
    texts = {e.text for e in root.iter('{http://www.w3.org/2000/svg}text')}
    assert {'ping_beam', 'motor_port', 'mast', 'water line'} <= texts
    assert len(list(root.iter('{http://www.w3.org/2000/svg}polygon'))) > 1000


def test_one_view_alone():
    data, _ = render_config(CONFIG_DIR / 'bluerov2.yaml', views=['top'])
    assert image_of(data).shape[1] == 1200


BLOCK = """\
type: {name}
inertial: {{mass: 1.0}}
visual:
  - box: [0.2, 0.2, 0.2]
    material: {{name: {name}, rgba: {rgba}}}
"""


def blocks_config(tmp_path):
    for name, rgba in (('red_block', [1, 0, 0, 1]), ('green_block', [0, 0.8, 0, 1]),
                       ('blue_block', [0, 0, 1, 1])):
        (tmp_path / f'{name}.yaml').write_text(BLOCK.format(name=name, rgba=rgba))
    return write_config(tmp_path, """\
name: blocks
base: {type: red_block}
part_files: [red_block.yaml, green_block.yaml, blue_block.yaml]
parts:
  - {type: green_block, name: green, xyz: [0.6, 0, 0]}
  - {type: blue_block, name: blue, xyz: [0, 0.4, 0.3]}
""")


def centroid(pixels, channel):
    """Return the (column, row) centre of the pixels where ``channel`` clearly dominates."""
    values = pixels.astype(int)
    others = numpy.delete(values, channel, axis=2).max(axis=2)
    rows, columns = numpy.nonzero(values[:, :, channel] - others > 100)
    assert len(rows) > 50, 'colour not found'
    return numpy.array([columns.mean(), rows.mean()])


@pytest.mark.parametrize('view', ['top', 'side', 'front'])
def test_parts_land_where_the_projection_puts_them(tmp_path, view):
    from bluerobotics_parts.assembly.pipeline import resolve_config

    scene = build_scene(resolve_config(blocks_config(tmp_path)))
    picture = draw(scene, [view])
    pixels = image_of(picture.canvas.png())
    panel = picture.panels[view]
    centres = {0: (0, 0, 0), 1: (0.6, 0, 0), 2: (0, 0.4, 0.3)}  # colour channel -> block
    seen = [1, 2] if view == 'front' else [0, 1, 2]  # from ahead, green hides red
    found = {channel: centroid(pixels, channel) for channel in seen}
    for channel in seen:
        assert numpy.abs(found[channel] - panel.project(centres[channel])).max() < 4, channel
    # the scale bar's metres: the blocks' distance in pixels is metres times the scale
    if view == 'top':
        assert numpy.linalg.norm(found[1] - found[0]) == pytest.approx(0.6 * panel.scale, abs=3)
        assert found[1][0] > found[0][0] and found[2][1] < found[0][1]  # x right, y up
    if view == 'side':
        assert found[1][0] > found[0][0] and found[2][1] < found[0][1]  # x right, z up
        assert found[0][1] - found[2][1] == pytest.approx(0.3 * panel.scale, abs=3)
    if view == 'front':
        assert found[2][0] > found[1][0] and found[2][1] < found[1][1]  # y right, z up


def test_a_bad_config_fails_as_build_does(tmp_path):
    config = write_config(tmp_path, 'parts:\n  - {slot: mast, type: blueboat_flag}\n')
    out = tmp_path / 'boat.png'
    rendered = cli('render', config, '-o', out)
    built = cli('build', config, '-o', tmp_path / 'build')
    assert rendered.returncode == 1 and rendered.stdout == ''
    assert rendered.stderr == built.stderr and 'does not accept blueboat_flag' in built.stderr
    assert not out.exists()
    out.write_bytes(b'old')
    assert cli('render', config, '-o', out).returncode == 1
    assert out.read_bytes() == b'old'


@pytest.mark.parametrize('target, fragment', [
    ('boat.jpg', 'name a .png or .svg file'),
    ('link.png', 'symbolic link'),
    ('fifo.png', 'FIFO'),
])
def test_outputs_it_refuses(tmp_path, target, fragment):
    (tmp_path / 'elsewhere.png').write_bytes(b'keep')
    os.symlink(tmp_path / 'elsewhere.png', tmp_path / 'link.png')
    os.mkfifo(tmp_path / 'fifo.png')
    out = tmp_path / target
    result = cli('render', CONFIG_DIR / 'blueboat.yaml', '-o', out)
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith('error: ') and fragment in result.stderr
    assert 'Traceback' not in result.stderr
    assert (tmp_path / 'elsewhere.png').read_bytes() == b'keep'
    assert not (tmp_path / 'boat.jpg').exists()


def test_a_missing_library_is_a_message(tmp_path):
    """Pillow made unimportable in a real run (as where it is not installed)."""
    script = ('import sys; sys.modules["PIL"] = None\n'
              'from bluerobotics_parts.cli.main import main\n'
              f'sys.exit(main(["render", {str(CONFIG_DIR / "blueboat.yaml")!r}, "-o", '
              f'{str(tmp_path / "boat.png")!r}]))\n')
    result = run([sys.executable, '-c', script])
    assert result.returncode == 1
    assert result.stderr == ('error: render needs Pillow, which is not installed: pip install '
                             'Pillow, or apt install python3-pil (rosdep install installs them '
                             'from package.xml)\n')
    assert not (tmp_path / 'boat.png').exists()


def test_each_slot_label_names_one_thing(tmp_path):
    """A filled slot by its occupant; an empty one by its name, or its link where that repeats."""
    from bluerobotics_parts.assembly.pipeline import resolve_config

    config = write_config(tmp_path, 'slots:\n  - {name: ping_mount2, xyz: [0.3, -0.27, -0.02],'
                                    ' accepts: [blueboat_ping_singlebeam_mount],\n'
                                    '     default: blueboat_ping_singlebeam_mount}\n'
                                    'parts:\n  - {slot: ping, of: ping_mount2, name: ping2, '
                                    'type: ping_singlebeam}\n'
                                    '  - {slot: ping, of: ping_mount, type: none}\n')
    labels = {m.link: (m.kind, m.label) for m in build_scene(resolve_config(config)).markers}
    assert labels['ping_mount2_ping'] == ('slot', 'ping2')  # the occupant, not the slot's name
    assert labels['ping_mount_ping'] == ('empty', 'ping')
    assert labels['base_link_mast'] == ('empty', 'mast')


def test_a_base_part_whose_hydrostatics_are_not_numbers_is_refused_not_a_traceback(tmp_path):
    (tmp_path / 'raft.yaml').write_text('type: raft\ninertial: {mass: 5.0, mass_unverified: x}\n'
                                        'hydrostatics: {spawn_depth: deep}\n', encoding='utf-8')
    config = write_config(tmp_path, 'part_files: [raft.yaml]\nbase: {type: raft}\n')
    result = cli('render', config, '-o', tmp_path / 'raft.png')
    assert result.returncode == 1
    assert result.stderr == (f"error: {tmp_path / 'raft.yaml'}:3: hydrostatics spawn_depth "
                             "must be a number, got 'deep'\n")


def test_inner_frames_are_left_unmarked_unless_asked():
    """Rotors sit on their thruster's origin: their labels only covered the thruster's."""
    from bluerobotics_parts.assembly.pipeline import resolve_config

    resolved = resolve_config(CONFIG_DIR / 'bluerov2.yaml')
    frames = {frame.link for frame in resolved.record.frames}
    rotors = {link for link in frames if link.endswith('_rotor')}
    assert len(rotors) == 6

    def marked(choice):
        scene = build_scene(resolved, frames=choice)
        return scene, {m.label for m in scene.markers if m.kind == 'frame'}

    scene, default = marked('default')
    assert not default & rotors and {'light_port_lens', 'depth_port'} <= default
    assert scene.inner_frames == len(frames - default) >= len(rotors)
    scene, every = marked('all')
    assert every == frames and scene.inner_frames == 0
    scene, none = marked('slots')
    assert none == set() and scene.inner_frames == 0
    assert {m.kind for m in scene.markers} == {'slot', 'empty'}


def test_the_command_takes_frames_all(tmp_path):
    svg = tmp_path / 'rov.svg'
    result = cli('render', CONFIG_DIR / 'bluerov2.yaml', '-o', svg, '--view', 'top',
                 '--frames', 'all')
    assert result.returncode == 0, result.stderr
    texts = {e.text for e in ElementTree.parse(svg).getroot().iter(
        '{http://www.w3.org/2000/svg}text')}
    assert 'thruster_1_rotor' in texts


DARK_BOX = """\
type: {name}
inertial: {{mass: 1.0}}
visual:
  - box: [0.2, 0.2, 0.2]
    material: {{name: {name}, rgba: {rgba}}}
"""


@pytest.mark.parametrize('rgba, outlined', [([0.05, 0.05, 0.06, 1], 12), ([0.7, 0.7, 0.7, 1], 0)])
def test_a_dark_material_has_its_creases_outlined(tmp_path, rgba, outlined):
    """
    A black box gets its 12 edges drawn (each from both faces), a light one none.

    Black parts on a dark shade merged (the BlueROV2's frame, thrusters and enclosures); the
    face diagonals of a box are no creases.
    """
    (tmp_path / 'box.yaml').write_text(DARK_BOX.format(name='box', rgba=rgba))
    config = write_config(tmp_path, 'name: box\nbase: {type: box}\npart_files: [box.yaml]\n')
    svg = tmp_path / 'box.svg'
    assert cli('render', config, '-o', svg, '--view', 'iso').returncode == 0
    lines = list(ElementTree.parse(svg).getroot().iter('{http://www.w3.org/2000/svg}line'))
    ends = {tuple(sorted([(float(e.get('x1')), float(e.get('y1'))),
                          (float(e.get('x2')), float(e.get('y2')))])) for e in lines}
    assert len(lines) == 2 * outlined and len(ends) == outlined


def test_dark_faces_stay_apart():
    """The three faces of a black box seen iso differ clearly in shade (they merged before)."""
    from bluerobotics_parts.picture.scene import box, Solid

    scene = build_scene_of([Solid('box', 'box', box((0.2, 0.2, 0.2)), (0.05, 0.05, 0.06, 1))])
    picture = draw(scene, ['iso'])
    _, _, colours, edges, _ = next(i for i in picture.canvas.items if i[0] == 'triangles')
    shades = sorted({int(c) for c in colours[:, 0]})
    assert edges.sum() == 24 and len(shades) >= 3
    visible = sorted(shades)[-3:]
    assert min(b - a for a, b in zip(visible, visible[1:])) >= 13, shades  # was 10 and 11


def build_scene_of(solids):
    from bluerobotics_parts.picture.scene import Scene

    return Scene('box', 'box', solids, [], [('box', 'box', solids[0].rgba)], 1.0)
