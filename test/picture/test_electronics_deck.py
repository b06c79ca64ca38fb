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
The BlueBoat's Navigator and GNSS receiver sit on its electronics deck, not in the air.

The deck (blueboat_electronics_deck) fills the chassis's deck slot and carries the two in its
own slots, where they were; it hangs from the cross members and adds no mass, so the boat's
mass, centre of gravity and sensor poses stay what they were.
"""

from __future__ import annotations

from bluerobotics_parts.assembly.catalogue import shipped
from bluerobotics_parts.assembly.pipeline import resolve_config
from bluerobotics_parts.files.stl import read_stl
from bluerobotics_parts.model import kinematics
from bluerobotics_parts.model.vehicle import Vehicle
from bluerobotics_parts.paths import share_dir
from conftest import CONFIG_DIR
import numpy as np
import pytest


@pytest.fixture(scope='module')
def boat():
    resolved = resolve_config(CONFIG_DIR / 'blueboat.yaml')
    vehicle = Vehicle.from_urdf(resolved.urdf)
    return resolved, vehicle, kinematics.link_poses(vehicle)


def test_the_deck_carries_the_navigator_and_the_gnss_where_they_were(boat):
    resolved, vehicle, poses = boat
    record = resolved.record
    assert record.occupant('base_link', 'deck').type == 'blueboat_electronics_deck'
    assert record.occupant('deck', 'navigator').type == 'navigator_flight_controller'
    assert record.occupant('deck', 'gnss').type == 'blueboat_gnss'
    assert poses['navigator'].translation == pytest.approx((0.0, 0.0, 0.10))
    assert poses['gnss'].translation == pytest.approx((0.0, 0.0, 0.20))
    assert vehicle.total_mass == pytest.approx(17.05)
    assert vehicle.links['deck'].mass == 0


def test_something_is_under_each_of_them_in_the_picture(boat):
    """The deck's mesh (what render draws) has a face right under the board and the puck."""
    _, _, poses = boat
    deck = shipped()['blueboat_electronics_deck']
    origin = np.array(poses['deck'].translation)
    vertices = read_stl(share_dir() / 'meshes' / deck.data['visual'][0]['mesh']).reshape(-1, 3) \
        + origin
    for part, bottom in (('navigator', 0.09), ('gnss', 0.20)):
        x, y, _ = poses[part].translation
        near = vertices[(np.abs(vertices[:, 0] - x) < 0.07) & (np.abs(vertices[:, 1] - y) < 0.05)]
        assert np.isclose(near[:, 2], bottom, atol=1e-6).any(), part  # a face right under it
    members_bottom = 0.147 - 0.03  # the chassis's cross members (tools/make_meshes.py)
    assert vertices[:, 2].max() == pytest.approx(0.20) and \
        np.isclose(vertices[:, 2], members_bottom).any()
