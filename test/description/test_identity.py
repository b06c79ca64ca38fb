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

"""The description identity and the file rules (description/identity.py), on real folders."""

from __future__ import annotations

import hashlib
import json
import os

from bluerobotics_parts.description.identity import (check_file_rules, check_identity_text,
                                                     folder_identity, identity_of, manifest_bytes,
                                                     MANIFEST_FILE, read_manifest)
from bluerobotics_parts.errors import BlueRoboticsPartsError, DescriptionError
import pytest

SCHEMA = 'bluerobotics_parts.description-manifest.v2'
SCHEMA_V1 = 'bluerobotics_parts.description-manifest.v1'
VECTOR_MANIFEST = (b'{"files":["a.txt"],"name":"v",'
                   b'"schema":"bluerobotics_parts.description-manifest.v1"}\n')
VECTOR_IDENTITY = 'sha256:b2c478eb4dab4a904190a4a8543d58ec240a8abfde3dc690ca4d8b33306dd64f'
NO_DIGEST = '0' * 64


def write_folder(folder, files, listed=None, name='v'):
    """Return a description folder: the files and a v2 manifest listing ``listed`` (or all)."""
    folder.mkdir(parents=True, exist_ok=True)
    for path, data in files.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    listed = list(files) if listed is None else listed
    digests = {path: hashlib.sha256(files[path]).hexdigest() if path in files else NO_DIGEST
               for path in listed}
    if len(digests) < len(listed):  # a path listed twice: only the v1 list can say so
        document = {'schema': SCHEMA_V1, 'name': name, 'files': listed}
    else:
        document = {'schema': SCHEMA, 'name': name, 'gz_release': 'harmonic', 'files': digests}
    (folder / MANIFEST_FILE).write_text(json.dumps(document) + '\n')
    return folder


# -- identity ----------------------------------------------------------------------------------

def test_manifest_bytes_are_compact_sorted_json_with_digests_and_one_newline():
    hello = hashlib.sha256(b'hello\n').hexdigest()
    assert manifest_bytes('v', {'a.txt': b'hello\n'}, 'harmonic') == (
        b'{"files":{"a.txt":"' + hello.encode() + b'"},"gz_release":"harmonic","name":"v",'
        b'"schema":"bluerobotics_parts.description-manifest.v2"}\n')
    assert manifest_bytes('v', {'b': b'', 'a': b''}, 'ionic').startswith(b'{"files":{"a":')


def test_manifest_round_trip(tmp_path):
    files = {'a.txt': b'hello\n', 'meshes/m.stl': b'solid'}
    (tmp_path / 'meshes').mkdir()
    for path, data in files.items():
        (tmp_path / path).write_bytes(data)
    (tmp_path / MANIFEST_FILE).write_bytes(manifest_bytes('v', files, 'jetty'))
    manifest = read_manifest(tmp_path)
    assert manifest['files'] == ['a.txt', 'meshes/m.stl'] and manifest['gz_release'] == 'jetty'
    assert manifest['sha256'] == {p: hashlib.sha256(d).hexdigest() for p, d in files.items()}
    assert folder_identity(tmp_path) == identity_of(
        {**files, MANIFEST_FILE: manifest_bytes('v', files, 'jetty')})


def test_identity_test_vector_in_memory():
    entries = {MANIFEST_FILE: VECTOR_MANIFEST, 'a.txt': b'hello\n'}
    assert identity_of(entries) == VECTOR_IDENTITY


def test_identity_test_vector_of_a_folder(tmp_path):
    (tmp_path / MANIFEST_FILE).write_bytes(VECTOR_MANIFEST)
    (tmp_path / 'a.txt').write_bytes(b'hello\n')
    assert folder_identity(tmp_path) == VECTOR_IDENTITY


def test_identity_does_not_depend_on_entry_order():
    forward = {MANIFEST_FILE: b'm', 'a': b'1', 'b/c': b'2'}
    backward = dict(reversed(list(forward.items())))
    assert identity_of(forward) == identity_of(backward)


def test_every_listed_byte_counts_and_unlisted_files_do_not(tmp_path):
    folder = write_folder(tmp_path / 'd', {'a.txt': b'hello\n', 'meshes/m.stl': b'solid'})
    before = folder_identity(folder)
    (folder / 'notes.txt').write_text('provenance, not listed')
    assert folder_identity(folder) == before
    (folder / 'meshes/m.stl').write_bytes(b'solie')
    assert folder_identity(folder) != before


def test_identity_test_vector_is_a_version_1_manifest_and_still_reads(tmp_path):
    (tmp_path / MANIFEST_FILE).write_bytes(VECTOR_MANIFEST)
    manifest = read_manifest(tmp_path)
    assert manifest['schema'] == SCHEMA_V1 and manifest['sha256'] is None
    assert manifest['files'] == ['a.txt'] and manifest['gz_release'] is None


def test_dropping_a_name_from_the_manifest_changes_the_identity(tmp_path):
    full = folder_identity(write_folder(tmp_path / 'full', {'a.txt': b'1', 'b.txt': b'2'}))
    fewer = folder_identity(write_folder(tmp_path / 'fewer', {'a.txt': b'1', 'b.txt': b'2'},
                                         listed=['a.txt']))
    assert full != fewer


def test_identity_in_memory_needs_the_manifest():
    with pytest.raises(DescriptionError, match=MANIFEST_FILE):
        identity_of({'a.txt': b'hello\n'})


@pytest.mark.parametrize('text', ['sha256:' + '0' * 63, 'sha256:' + 'A' * 64, '0' * 64,
                                  'md5:' + '0' * 64])
def test_malformed_expected_identity_is_refused(text):
    with pytest.raises(DescriptionError, match='64 lowercase hex digits'):
        check_identity_text(text)
    assert check_identity_text(VECTOR_IDENTITY) == VECTOR_IDENTITY


# -- the file rules, one each ------------------------------------------------------------------

def refused(folder, *words):
    with pytest.raises(DescriptionError) as caught:
        folder_identity(folder)
    message = str(caught.value)
    for word in words:
        assert word in message, message
    assert isinstance(caught.value, BlueRoboticsPartsError)
    return message


def test_rule_no_empty_path(tmp_path):
    folder = write_folder(tmp_path / 'd', {'a.txt': b'1'}, listed=['a.txt', ''])
    refused(folder, "''", 'empty path')


def test_rule_no_absolute_path(tmp_path):
    outside = tmp_path / 'outside.txt'
    outside.write_text('exists')
    folder = write_folder(tmp_path / 'd', {'a.txt': b'1'}, listed=['a.txt', str(outside)])
    refused(folder, str(outside), 'absolute')


def test_rule_no_backslash(tmp_path):
    folder = write_folder(tmp_path / 'd', {'meshes\\m.stl': b'1'})  # exists under that name
    refused(folder, 'meshes\\\\m.stl', 'backslash')


def test_rule_no_dot_segment(tmp_path):
    folder = write_folder(tmp_path / 'd', {'a.txt': b'1'}, listed=['./a.txt'])
    refused(folder, "'./a.txt'", "'.' segment")


def test_rule_no_dot_dot_segment(tmp_path):
    (tmp_path / 'outside.txt').write_text('exists, but outside the folder')
    folder = write_folder(tmp_path / 'd', {'a.txt': b'1'}, listed=['a.txt', '../outside.txt'])
    refused(folder, "'../outside.txt'", "'..' segment")


def test_rule_no_duplicates(tmp_path):
    folder = write_folder(tmp_path / 'd', {'a.txt': b'1'}, listed=['a.txt', 'a.txt'])
    refused(folder, "'a.txt'", 'listed twice')


def test_rule_manifest_does_not_list_itself(tmp_path):
    folder = write_folder(tmp_path / 'd', {'a.txt': b'1'}, listed=['a.txt', MANIFEST_FILE])
    refused(folder, MANIFEST_FILE, 'must not list itself')


def test_rule_entry_is_not_a_folder(tmp_path):
    folder = write_folder(tmp_path / 'd', {'meshes/m.stl': b'1'}, listed=['meshes'])
    refused(folder, "'meshes'", 'is a folder', 'regular file')


def test_rule_entry_is_not_a_symbolic_link(tmp_path):
    folder = write_folder(tmp_path / 'd', {'a.txt': b'1'}, listed=['a.txt', 'b.txt'])
    os.symlink('a.txt', folder / 'b.txt')  # resolves to a regular file, still refused
    refused(folder, "'b.txt'", 'symbolic link')


def test_rule_entry_is_not_reached_through_a_linked_folder(tmp_path):
    real = tmp_path / 'elsewhere'
    real.mkdir()
    (real / 'm.stl').write_bytes(b'1')
    folder = write_folder(tmp_path / 'd', {}, listed=['meshes/m.stl'])
    os.symlink(real, folder / 'meshes')
    refused(folder, "'meshes/m.stl'", "'meshes'", 'symbolic link')


def test_rule_listed_file_exists(tmp_path):
    folder = write_folder(tmp_path / 'd', {'a.txt': b'1'}, listed=['a.txt', 'meshes/gone.stl'])
    refused(folder, "'meshes/gone.stl'", 'is missing')


def test_file_rules_take_a_parsed_manifest(tmp_path):
    folder = write_folder(tmp_path / 'd', {'a.txt': b'1'})
    manifest = read_manifest(folder)
    check_file_rules(manifest, folder)  # the folder follows every rule
    with pytest.raises(DescriptionError, match="'b.txt' is missing"):
        check_file_rules({**manifest, 'files': ['a.txt', 'b.txt']}, folder)


# -- the manifest's own shape ------------------------------------------------------------------

def test_missing_manifest_is_named(tmp_path):
    refused(tmp_path, MANIFEST_FILE, 'missing')


@pytest.mark.parametrize('text, words', [
    ('{not json', ['not valid JSON']),
    ('{"schema":"%s","name":"v","name":"w","files":{}}' % SCHEMA, ["duplicate key 'name'"]),
    ('{"schema":"other.v9","name":"v","files":[]}', ["'other.v9'", SCHEMA]),
    ('{"schema":"%s","name":"v","gz_release":"harmonic","files":{},"extra":1}' % SCHEMA,
     ["'extra'", 'valid keys']),
    ('{"schema":"%s","name":"v","gz_release":"harmonic","files":["a.txt"]}' % SCHEMA,
     ['files must map each relative path']),
    ('{"schema":"%s","name":"v","gz_release":"harmonic","files":{"a.txt":"ABC"}}' % SCHEMA,
     ['64 lowercase hex digits']),
    ('{"schema":"%s","name":"v","files":{}}' % SCHEMA, ['gz_release must name']),
    ('{"schema":"%s","gz_release":"harmonic","files":{}}' % SCHEMA, ['name must be']),
    ('{"schema":"%s","name":"v","files":"a.txt"}' % SCHEMA_V1, ['files must be a list']),
])
def test_malformed_manifest_is_refused(tmp_path, text, words):
    (tmp_path / MANIFEST_FILE).write_text(text)
    refused(tmp_path, MANIFEST_FILE, *words)


def test_a_manifest_that_is_not_a_regular_file_is_named(tmp_path):
    os.mkfifo(tmp_path / MANIFEST_FILE)  # would block a plain open for ever
    refused(tmp_path, MANIFEST_FILE, 'FIFO')


def test_verify_command_refuses_the_test_vector_folder(tmp_path):
    """Return an error, not ok: a v1 manifest records no digests (its identity still reads)."""
    from conftest import cli

    (tmp_path / MANIFEST_FILE).write_bytes(VECTOR_MANIFEST)
    (tmp_path / 'a.txt').write_bytes(b'hello\n')
    result = cli('verify', tmp_path, '--expect', VECTOR_IDENTITY)
    assert result.returncode == 1 and 'Traceback' not in result.stderr
    assert 'older bluerobotics_parts' in result.stderr
    assert folder_identity(tmp_path) == VECTOR_IDENTITY


@pytest.mark.parametrize('listed, fragment', [
    (['\ud800'], 'is not valid Unicode text'),
    (['x' * 300], 'cannot be looked at (File name too long)'),
])
def test_odd_listed_names_are_messages_not_crashes(tmp_path, listed, fragment):
    from conftest import cli

    write_folder(tmp_path, {}, listed=listed)
    result = cli('verify', tmp_path)
    assert result.returncode == 1 and 'Traceback' not in result.stderr
    assert fragment in result.stderr


def test_a_manifest_nested_absurdly_deep_is_a_message(tmp_path):
    from conftest import cli

    (tmp_path / MANIFEST_FILE).write_text('[' * 100000 + ']' * 100000)
    result = cli('verify', tmp_path)
    assert result.returncode == 1 and 'Traceback' not in result.stderr
    assert 'nested too deeply' in result.stderr or 'not valid JSON' in result.stderr
