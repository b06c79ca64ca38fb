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
Shell completion of ``bluerobotics-parts`` through argcomplete (which colcon also uses).

argcomplete answers when the shell's completion hook runs the command with ``_ARGCOMPLETE``
set (``eval "$(register-python-argcomplete bluerobotics-parts)"``, or its global activation,
which finds the ``PYTHON_ARGCOMPLETE_OK`` marker at the top of cli/main.py) and does nothing
otherwise. Without argcomplete the command works the same, without completion.
"""

from __future__ import annotations

import os


def completing() -> bool:
    """Return whether the shell's completion hook runs the command (argcomplete's variable)."""
    return '_ARGCOMPLETE' in os.environ


def enable(parser) -> None:
    """Answer a completion request for ``parser`` (and exit), if the shell made one."""
    if not completing():
        return  # the usual case: no import, no cost
    try:
        import argcomplete
    except ImportError:
        return
    argcomplete.autocomplete(parser)
