#!/usr/bin/env python3
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
Regenerate schema/*.schema.json from the loader's definitions (bluerobotics_parts.assembly.schema).

Run after changing a key of the config or the part format, or the shipped parts (the config
schema lists their types and slots); test/test_schema.py fails until the files are current.
"""

from pathlib import Path
import sys

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bluerobotics_parts.assembly import schema  # noqa: E402


def main() -> int:
    for which, name in schema.FILES.items():
        target = REPO / 'schema' / name
        target.parent.mkdir(exist_ok=True)
        target.write_text(schema.schema_text(which), encoding='utf-8')
        print(f'wrote {target.relative_to(REPO)}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
