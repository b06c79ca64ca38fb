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
What ``build`` writes and prints, as a build cache entry holds it (cli/main.py, cmd_build).

A plain class, not a dataclass: a cached build imports no dataclasses (errors.Problem says
why).
"""

from __future__ import annotations

import re

#: What a build's printed summary never holds: terminal control characters (line breaks aside).
SUMMARY_CONTROL = re.compile(r'[\x00-\x09\x0b-\x1f\x7f-\x9f]')


class BuildOutput:
    """
    What ``build`` writes and prints (a cache entry holds it).

    A plain class: a cached build imports no dataclasses (errors.Problem says why).
    """

    __slots__ = ('artefacts', 'summary', 'inputs')

    def __init__(self, artefacts: dict, summary: str, inputs: dict):
        self.artefacts = artefacts  # file name -> text
        self.summary = summary  # what it prints before the files written
        self.inputs = inputs  # the user's files it read: path -> what it is (never replaced)

    def to_data(self) -> dict:
        return {'artefacts': dict(self.artefacts), 'summary': self.summary,
                'inputs': dict(self.inputs)}

    @classmethod
    def from_data(cls, data) -> 'BuildOutput | None':
        """
        Return the output a cache entry holds, None unless it is what a build makes.

        An entry is data from a file: only build's own files, under their fixed names, and a
        summary without terminal control characters (line breaks aside).
        """
        from ..paths import ARDUPILOT_FILE, BRIDGE_FILE, URDF_FILE

        if not (isinstance(data, dict) and set(data) == {'artefacts', 'summary', 'inputs'}
                and isinstance(data['summary'], str) and isinstance(data['artefacts'], dict)
                and isinstance(data['inputs'], dict)
                and all(isinstance(k, str) and isinstance(v, str)
                        for k, v in data['inputs'].items())
                and {URDF_FILE, BRIDGE_FILE} <= set(data['artefacts'])
                <= {URDF_FILE, BRIDGE_FILE, ARDUPILOT_FILE}
                and all(isinstance(v, str) for v in data['artefacts'].values())
                and not SUMMARY_CONTROL.search(data['summary'])):
            return None
        return cls(data['artefacts'], data['summary'], data['inputs'])
