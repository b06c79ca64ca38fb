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
The strict config loader, and the rules of the resolution after it.

Shapes, value types, duplicate keys; file:line in every message, every problem at once.
"""

from __future__ import annotations

from bluerobotics_parts.errors import ConfigError
from bluerobotics_parts.formats import config as config_module
from conftest import write_config
import pytest


def load_error(tmp_path, text: str) -> str:
    """Return the message of the whole path (loader, then resolution) for a config file."""
    from bluerobotics_parts.assembly.pipeline import resolve_config

    path = write_config(tmp_path, text, 'my_boat.yaml')
    with pytest.raises(ConfigError) as caught:
        resolve_config(path)
    return str(caught.value).replace(str(path), 'my_boat.yaml')


def test_empty_file_is_a_valid_empty_config(tmp_path):
    config = config_module.read(write_config(tmp_path, '')).checked()
    assert config.data == {}
    assert config.name == 'blueboat' and config.base_name == 'base_link'
    assert config.base_type == 'blueboat_chassis'


def test_comments_only_is_empty_too(tmp_path):
    assert config_module.read(write_config(tmp_path, '# nothing\n\n')).checked().data == {}


@pytest.mark.parametrize('text, expected', [
    # duplicate keys in one mapping, at every level
    ('name: a\nname: b\n', "my_boat.yaml:2: duplicate key 'name' (first given on line 1)"),
    ('parts:\n  - slot: mast\n    type: blueboat_antenna_mast\n    type: none\n',
     "my_boat.yaml:4: duplicate key 'type' (first given on line 3)"),
    ('base:\n  type: blueboat_chassis\n  name: a\n  name: b\n',
     "my_boat.yaml:4: duplicate key 'name' (first given on line 3)"),
])
def test_duplicate_keys_are_errors_with_both_lines(tmp_path, text, expected):
    message = load_error(tmp_path, text)
    assert message.startswith(expected), message
    assert 'silently keep only the last' in message


@pytest.mark.parametrize('text, expected', [
    ('- a\n- b\n', 'my_boat.yaml:1: the config must be a mapping'),
    ('parts:\n  slot: mast\n', 'my_boat.yaml:1: parts: must be a list'),
    ('parts:\n  - mast\n',
     'my_boat.yaml:2: parts entry #1 must be a mapping of keys, not a string'),
    ('slots:\n  - [a, b]\n',
     'my_boat.yaml:2: slots entry #1 must be a mapping of keys, not a list'),
    ('base: chassis\n', 'my_boat.yaml:1: base must be a mapping of keys'),
    ('parts:\n  - {slot: mast, type: 3}\n',
     'my_boat.yaml:2: parts entry #1 (slot mast): type must be a non-empty string, not a number'),
    ('parts:\n  - {slot: mast, type: [a]}\n',
     'parts entry #1 (slot mast): type must be a non-empty string, not a list'),
    ('parts:\n\n  - type: blueboat_flag\n    name: f\n    xyz: [1, 2]\n',
     'my_boat.yaml:5: ASSEMBLY ERROR: parts entry #1 (f): xyz must be three finite numbers'),
    ("parts:\n  - {type: blueboat_flag, name: f, rpy: '0 0 x'}\n",
     'my_boat.yaml:2: ASSEMBLY ERROR: parts entry #1 (f): rpy must be three finite numbers'),
    ('parts:\n  - {type: blueboat_flag, name: f, xyz: [true, 0, 0]}\n',
     'xyz must be three finite numbers'),
    ("slots:\n  - {name: s, collision: 'no'}\n",
     "my_boat.yaml:2: slots entry #1 (s): collision must be true or false, got 'no'"),
    ('slots:\n  - {name: s, joint: hinge}\n',
     "slots entry #1 (s): joint 'hinge' is not a slot joint; valid: fixed, continuous, "
     'revolute, prismatic'),
    ('slots:\n  - {name: s, joint: revolute}\n',
     'slots entry #1 (s): a revolute joint needs limits: {lower, upper, effort, velocity}'),
    ('slots:\n  - {name: s, accepts: blueboat_flag}\n',
     'slots entry #1 (s): accepts must be a list of part types'),
    ('slots:\n  - {of: base_link, xyz: [0, 0, 0]}\n',
     'my_boat.yaml:2: ASSEMBLY ERROR: slots entry #1 needs name:'),
    ('parts:\n  - {slot: mast}\n',
     'my_boat.yaml:2: ASSEMBLY ERROR: parts entry #1 (slot mast) needs type:'),
    ('parts:\n  - {type: blueboat_flag}\n',
     'parts entry #1 is a free placement (it has no slot:) and needs name:'),
    ('parts:\n  - {type: none, name: x}\n', 'type none only empties a slot'),
    ('name: my boat\n', "my_boat.yaml:1: name 'my boat' cannot be a ROS namespace"),
    ('parts:\n  - {slot: mast, type: blueboat_antenna_mast, name: 2nd}\n',
     "name '2nd' is not a valid link name"),
    ('part_files: [missing.yaml]\n', 'my_boat.yaml:1: part file missing.yaml not found'),
    ('parts: [\n', 'my_boat.yaml:2: not valid YAML'),
    ('on: true\n',
     'my_boat.yaml:1: the top level has a key that YAML reads as true (on: or yes:); valid '
     'keys: name, base'),
    ('parts:\n  - {slot: mast, type: none, name: m}\n',
     'my_boat.yaml:2: parts entry #1 (slot mast): name: has no effect on an empty slot'),
    ('parts:\n  - {type: blueboat_flag, name: f, xyz: [.inf, 0, 0]}\n',
     'xyz must be three finite numbers'),
    ("parts:\n  - {type: blueboat_flag, name: f, xyz: '1e400 0 0'}\n",
     'xyz must be three finite numbers'),
    ('slots:\n  - {name: s, rpy: [.nan, 0, 0]}\n',
     'my_boat.yaml:2: ASSEMBLY ERROR: slots entry #1 (s): rpy must be three finite numbers'),
    ("name: 'True'\n",
     "my_boat.yaml:1: name 'True' cannot be a ROS namespace: xacro would read it as a boolean"),
    ('parts:\n  - {slot: mast, type: blueboat_antenna_mast, name: nan}\n',
     "name 'nan' is not a valid link name: xacro would read it"),
    ("base: {name: 'false'}\n", "base: name 'false' is not a valid link name"),
    ('parts:\n  - {slot: null, type: none}\n',
     'my_boat.yaml:2: parts entry #1: slot must be a non-empty string, not an empty value'),
])
def test_shape_and_type_errors_name_file_line_and_item(tmp_path, text, expected):
    message = load_error(tmp_path, text)
    assert expected in message, message
    assert message.startswith('my_boat.yaml:')


def test_vectors_accept_lists_and_strings(tmp_path):
    config = config_module.read(write_config(tmp_path, """
parts:
  - {type: blueboat_flag, name: a, xyz: [1, 2.5, -3], rpy: "0 0 1.5"}
""")).checked()
    from bluerobotics_parts.formats import vectors

    entry = config.entries[0]
    assert vectors.parse(entry['xyz']) == vectors.Vector((1.0, 2.5, -3.0), '1 2.5 -3')
    assert vectors.parse(entry['rpy']) == vectors.Vector((0.0, 0.0, 1.5), '0 0 1.5')


def test_line_of_every_item_is_known(tmp_path):
    config = config_module.read(write_config(tmp_path, """name: boat
parts:
  - slot: mast
    type: blueboat_antenna_mast
  - {slot: flag, type: none}
""")).checked()
    assert config.line(('name',)) == 1
    assert config.line(('parts', 0)) == 3
    assert config.line(('parts', 0, 'type')) == 4
    assert config.line(('parts', 1, 'type')) == 5


def test_from_dict_checks_the_same_rules():
    with pytest.raises(ConfigError, match='parts entry #1 \\(slot mast\\): type must be a '
                                          'non-empty string, not a number'):
        config_module.from_data({'parts': [{'slot': 'mast', 'type': 3}]}).checked()
    assert config_module.from_data({'name': 'b2'}).checked().name == 'b2'


def test_yaml_merge_keys_work_and_may_be_overridden(tmp_path):
    config = config_module.read(write_config(tmp_path, """
parts:
  - &mast {slot: mast, type: blueboat_antenna_mast}
  - <<: *mast
    slot: payload
    type: blueboat_payload_bracket
""")).checked()
    assert config.entries[1] == {'slot': 'payload', 'type': 'blueboat_payload_bracket'}


def test_a_key_repeated_after_a_merge_is_still_a_duplicate(tmp_path):
    message = load_error(tmp_path, 'base: &b {type: blueboat_chassis}\nother:\n  <<: *b\n'
                                   '  name: a\n  name: b\n')
    assert message.startswith("my_boat.yaml:5: duplicate key 'name' (first given on line 4)")


def test_absurd_nesting_is_an_error_not_a_crash(tmp_path):
    message = load_error(tmp_path, 'name: ' + '[' * 5000 + ']' * 5000 + '\n')
    assert 'my_boat.yaml:1: nested too deeply' in message


# -- YAML's own mistakes, in plain words -------------------------------------

@pytest.mark.parametrize('text, line, words, shown', [
    ('parts:\n  - {slot: flag, type: none\n  - slot: mast\n', 3,
     "a { } mapping is not closed: a ',' or '}' is missing", '      - slot: mast\n            ^'),
    ('name: b\nparts:\n- slot: flag\n  type: none\n x: 1\n', 5,
     'this line does not line up with the keys above it', '     x: 1\n     ^'),
    ('a: b: c\n', 1, "a ': ' where no key can start", '    a: b: c\n        ^'),
    ('parts:\n\t- x\n', 2, 'a tab: YAML indents with spaces only', '\n    ^'),
    ('name: "a\\qb"\n', 1, 'an unknown \\ escape in a "double-quoted" string',
     '    name: "a\\qb"\n            ^'),
], ids=['open mapping', 'indentation', 'colon', 'tab', 'escape'])
def test_a_syntax_mistake_is_said_plainly_with_its_line_and_a_caret(tmp_path, text, line, words,
                                                                    shown):
    path = write_config(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        config_module.read(path)
    message = str(caught.value)
    assert message.startswith(f'{path}:{line}: not valid YAML: {words}')
    assert '(YAML: ' in message and ', column ' in message  # PyYAML's words, for a search
    assert message.endswith(shown)


def test_text_that_is_not_utf8_names_its_line_and_column(tmp_path):
    path = tmp_path / 'boat.yaml'
    path.write_bytes(b'name: boat\nparts: \xff\n')
    with pytest.raises(ConfigError) as caught:
        config_module.read(path)
    assert str(caught.value) == (f'{path}:2: config is not UTF-8 text: byte 0xff at column 8 '
                                 '(save the file as UTF-8)')
