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


"""A build with its identity and the user files it read: what ``build`` and a launch keep."""

from __future__ import annotations

from dataclasses import dataclass

from .cache import digests_read
from .export import description_sources
from .identity import identity_of


@dataclass(frozen=True)
class IdentifiedBuild:
    build: object  # build.Build
    identity: str  # the description's identity (an export of it has the same)
    files_read: dict  # user file -> SHA-256 of the bytes the build read (the cache's check)


def identified_build(config, name: str | None = None, gz_release: str | None = None,
                     current=None, camera=None, **autopilot) -> IdentifiedBuild:
    """
    Build, then identify the description (its meshes are read: it can fail, before any write).

    The arguments are ``build.build_gazebo``'s (``autopilot``, ``autopilot_instance`` too).
    """
    from ..build import build_gazebo  # only on a cache miss: a hit needs no pipeline

    result = build_gazebo(config, name=name, gz_release=gz_release, current=current,
                          camera=camera, **autopilot)
    files, sources = description_sources(result)
    return IdentifiedBuild(result, identity_of(files), digests_read(files, sources))
