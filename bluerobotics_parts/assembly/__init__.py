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
Config to URDF: the catalogue, the slot resolution, the URDF and its record, the check.

``resolve_config(config)`` (pipeline.py) resolves and checks; ``check(config, urdf)`` and
``problems(config, urdf)`` (urdf_check.py) hold a URDF to its config. Importing this folder
loads nothing until one of them is used.
"""

_LAZY = {'check': 'urdf_check', 'problems': 'urdf_check', 'resolve_config': 'pipeline'}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f'.{_LAZY[name]}', __name__), name)
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
