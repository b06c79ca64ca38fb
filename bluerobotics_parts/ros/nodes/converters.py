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


"""The parameters of each sensor kind's converter node (the kinds' ``converter``)."""

from __future__ import annotations

from ...sensing.scanning_sonar import RANGE_LIMITS


def converter_parameters(names, values: dict, root_pose) -> dict:
    """
    Return the parameters of a sensor's converter node (launch_plan starts it).

    ``root_pose``: the sensor link's pose in the vehicle's root link (kinematics.Pose).
    """
    return CONVERTERS[names.kind][0](names, values, root_pose)


def _range_parameters(names, values: dict, root_pose) -> dict:
    """Return scan_to_range's parameters (range_node.py reads them)."""
    return {'scan_topic': names.ros['scan'], 'range_topic': names.ros['range'],
            'frame_id': names.frame_id, 'field_of_view': float(values['beam_width']),
            'min_range': float(values['range_min']), 'max_range': float(values['range_max'])}


def _pressure_parameters(names, values: dict, root_pose) -> dict:
    """Return pose_to_pressure's parameters (pressure_node.py reads them)."""
    return {'odometry_topic': names.odometry_topic, 'pressure_topic': names.ros['pressure'],
            'frame_id': names.frame_id, 'offset': list(root_pose.translation),
            'max_pressure': float(values['max_pressure']),
            'update_rate': float(values['update_rate'])}


def _ping360_parameters(names, values: dict, root_pose) -> dict:
    """
    Return scan_to_ping360's parameters (ping360_node.py reads them).

    Its range, step and gain start as the real sonar's tools start them (2 m: ping360_node's
    DEFAULT_RANGE) and change while it runs, within the part's range_min and range_max (what
    Gazebo's circle sees) held within the Ping360's 0.75 to 50 m, which the node refuses to
    leave.
    """
    low, high = RANGE_LIMITS
    return {'scan_topic': names.ros['scan'], 'beam_topic': names.ros['beam'],
            'frame_id': names.frame_id,
            'range_min': min(max(float(values['range_min']), low), high),
            'range_max': min(max(float(values['range_max']), low), high)}


#: Per sensor kind with a converter: (its node's parameters from the part data, the node's
#: module in this folder, whose PARAMETERS it declares).
CONVERTERS = {'echosounder': (_range_parameters, 'range_node'),
              'pressure': (_pressure_parameters, 'pressure_node'),
              'scanning_sonar': (_ping360_parameters, 'ping360_node')}


def accepted_parameters(kind: str) -> frozenset:
    """Return the parameter names a kind's converter node declares (what a launch may set)."""
    import importlib  # the node modules only when a cache entry is read

    return frozenset(importlib.import_module(f'.{CONVERTERS[kind][1]}', __package__).PARAMETERS)
