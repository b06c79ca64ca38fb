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
Running a node (thrust_allocator, scan_to_range, pose_to_pressure, scan_to_ping360).

Parameters (``Parameters``): each declared with its default and checked by one rule, at start
and at every ``ros2 param set``, so a bad value is a message naming the parameter and what is
valid (exit 1 at start, a refused set while running), never a traceback. Signals and the spin
(``run``): every node runs until SIGINT or SIGTERM, however many arrive and whenever, ending
with exit status 0: a terminal's Ctrl-C reaches every process of ``ros2 launch`` and launch
then sends its own SIGINT, so a second one during the shutdown is the normal case. Every rclpy
import is inside a function: the nodes' modules import (and explain themselves) without ROS.
"""

from __future__ import annotations

import math
import signal
import sys

from ...errors import NodeParameterError, shown


class Parameters:
    """
    A node's parameters: declared with their defaults, each checked by its rule.

    ``rules``: name -> rule (``real``, ``integer``, ``choice``, ``topic``...: value -> the value
    to use, or ValueError saying what is valid); a parameter without one takes any value of its
    default's type, a finite one for a double. A double (or a list of doubles) is declared with
    ``dynamic_typing``, so ``-p voltage:=-1``, an integer, reaches its rule as a number (and is
    taken as -1.0 or refused) instead of rclpy raising a type error; every other parameter keeps
    rclpy's static type, and a value of another type at start is refused naming the type. A bad
    value at start raises NodeParameterError (``run``: exit 1 with the message). ``watch`` then
    checks every set while the node runs. Calling the object gives a parameter's checked value.
    """

    def __init__(self, node, defaults: dict, rules: dict | None = None):
        from rcl_interfaces.msg import ParameterDescriptor
        from rclpy.exceptions import InvalidParameterTypeException

        self.node, self.defaults, self.rules = node, dict(defaults), dict(rules or {})
        self.live, self.apply = (), None
        self.values = {}
        for name, default in self.defaults.items():
            descriptor = ParameterDescriptor(dynamic_typing=_is_double(default))
            try:
                value = node.declare_parameter(name, default, descriptor).value
            except InvalidParameterTypeException:  # a value of another type from --ros-args
                raise NodeParameterError(f'{name} must be {_kind(default)}, e.g. {default!r}'
                                         ) from None
            self.values[name] = self.check(name, value)

    def __call__(self, name: str):
        return self.values[name]

    def check(self, name: str, value):
        """Return the value ``name``'s rule takes ``value`` as; NodeParameterError if none."""
        rule = self.rules.get(name) or _default_rule(self.defaults[name])
        try:
            return rule(value)
        except (TypeError, ValueError) as error:
            raise NodeParameterError(f'{name} {shown(value)}: {error}') from None

    def watch(self, live=(), apply=None) -> None:
        """
        Check every later ``ros2 param set`` of these parameters (rclpy's own pass).

        A value its rule refuses, or a parameter set at start only (not in ``live``), is
        refused with the reason; ``apply(values)`` takes the new values of all of them
        together, or returns why not (then nothing changes).
        """
        self.live, self.apply = tuple(live), apply
        self.node.add_on_set_parameters_callback(self._on_set)

    def _on_set(self, changed):
        from rcl_interfaces.msg import SetParametersResult

        asked = {p.name: p.value for p in changed if p.name in self.defaults}
        try:
            checked = {name: self.check(name, value) for name, value in asked.items()}
        except NodeParameterError as error:
            return SetParametersResult(successful=False, reason=str(error))
        fixed = sorted(set(checked) - set(self.live))
        if fixed:
            return SetParametersResult(successful=False, reason=(
                f"{', '.join(fixed)}: set at start only (restart the node with -p); "
                f"{', '.join(self.live) or 'nothing'} can change while it runs"))
        if checked and self.apply is not None:
            refused = self.apply({**self.values, **checked})
            if refused:
                return SetParametersResult(successful=False, reason=refused)
        self.values.update(checked)
        return SetParametersResult(successful=True)


def parameters(node, defaults: dict, rules: dict | None = None) -> Parameters:
    """Declare every parameter of ``defaults`` (name -> default) on ``node``, checked."""
    return Parameters(node, defaults, rules)


def _is_double(default) -> bool:
    return isinstance(default, float) or (
        isinstance(default, list) and bool(default) and all(isinstance(v, float) for v in default))


def _kind(default) -> str:
    return {bool: 'true or false', int: 'an integer', str: 'a string'}.get(
        type(default), 'a list' if isinstance(default, list) else type(default).__name__)


def _default_rule(default):
    if isinstance(default, float):
        return real()
    if _is_double(default):
        return lambda value: [real()(v) for v in _listed(value)]
    return lambda value: value


def _listed(value) -> list:
    if isinstance(value, (str, bytes)) or not hasattr(value, '__iter__'):
        raise ValueError('must be a list of numbers')
    return list(value)


# -- rules: value -> the value to use, or ValueError saying what is valid -----------------------

def real(low: float = -math.inf, high: float = math.inf, unit: str = '', *,
         above: bool = False, also: tuple = (), note: str = ''):
    """
    Return the rule of a finite number from ``low`` to ``high`` (``above``: more than ``low``).

    ``also``: other values taken as they are (0 for "the default", ``note`` says so); an
    integer is a number.
    """
    unit = f' {unit}' if unit else ''
    if math.isfinite(low) and math.isfinite(high):
        span = f' above {low:g} and at most {high:g}{unit}' if above else \
            f' from {low:g} to {high:g}{unit}'
    elif math.isfinite(low):
        span = f" {'above' if above else 'of at least'} {low:g}{unit}"
    elif math.isfinite(high):
        span = f' of at most {high:g}{unit}'
    else:
        span = ''
    valid = f'must be a finite number{span}' + ''.join(f', or {v:g}' for v in also) + note

    def rule(value) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(valid)
        if value in also:
            return float(value)
        if not (math.isfinite(value) and (low < value if above else low <= value) and
                value <= high):
            raise ValueError(valid)
        return float(value)
    return rule


def integer(low: int, high: int, meaning: str = ''):
    """Return the rule of a whole number from ``low`` to ``high``."""
    def rule(value) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f'must be a whole number from {low} to {high}{meaning}')
        return value
    return rule


def choice(options: tuple):
    """Return the rule of one of ``options``."""
    def rule(value):
        if value not in options:
            raise ValueError(f"must be one of {', '.join(map(str, options))}")
        return value
    return rule


def topic(value) -> str:
    """
    Take a ROS topic name as rclpy does (relative, ``~/`` and substitutions included).

    rclpy's own checks: validate_topic_name, then expand_topic_name and
    validate_full_topic_name, as create_subscription would (with this node's names in place of
    the placeholders, which are valid tokens whatever the node is called).
    """
    from rclpy.exceptions import NameValidationException
    from rclpy.expand_topic_name import expand_topic_name
    from rclpy.validate_full_topic_name import validate_full_topic_name
    from rclpy.validate_topic_name import validate_topic_name

    if not isinstance(value, str):
        raise ValueError('must be a topic name (a string)')
    try:
        validate_topic_name(value)
        validate_full_topic_name(expand_topic_name(value, 'node', '/'))
    except (NameValidationException, ValueError) as error:
        why = str(error).splitlines()[0].rstrip(':')
        why = why.split(' is invalid: ')[-1].split(', at ')[0]
        raise ValueError(f'is not a ROS topic name ({why.removeprefix("Invalid topic name: ")})'
                         '; e.g. cmd_vel or /boat/cmd_vel') from None
    return value


class StopRequest:
    """
    Records SIGINT / SIGTERM instead of raising KeyboardInterrupt.

    rclpy's own handlers are not installed (``SignalHandlerOptions.NO``): they raise
    KeyboardInterrupt wherever the signal lands, also inside ``destroy_node``, and the node then
    dies with exit code -2. Here a signal only sets a flag; the spin loop sees it within
    ``SPIN_PERIOD`` seconds and shuts down once. From the first signal on, further ones are
    ignored: Python resets a handler it installed to the default (die) while the interpreter
    finalizes (CPython 3.11, Modules/signalmodule.c, _PySignal_Fini), and a late second
    SIGINT would otherwise kill the exiting process.
    """

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self):
        self.requested = False
        for number in self.SIGNALS:
            signal.signal(number, self._handle)

    def _handle(self, number, frame) -> None:
        self.request()

    def request(self) -> None:
        """Stop, and ignore every later SIGINT / SIGTERM (the process is on its way out)."""
        self.requested = True
        for number in self.SIGNALS:
            signal.signal(number, signal.SIG_IGN)


SPIN_PERIOD = 0.1  # s: the longest a stop request waits for the spin loop


def run(program: str, make, errors, argv=None, needs: str = 'rclpy') -> int:
    """
    Run a converter node until SIGINT / SIGTERM (StopRequest); return its exit status.

    ``make`` builds the node (rclpy initialised); ``errors``: the exception type its bad
    parameters raise (exit 1 with the message), as is NodeParameterError (``Parameters``).
    Without rclpy: exit 1, saying what it needs.
    """
    stop = StopRequest()  # first: a signal during start-up must not raise either
    try:
        import rclpy
        from rclpy.executors import SingleThreadedExecutor
        from rclpy.signals import SignalHandlerOptions
    except ImportError as error:
        print(f'{program} needs ROS 2 ({needs}): {error}. Source your ROS 2 '
              "setup (e.g. /opt/ros/jazzy/setup.bash) and the workspace's install/setup.bash, "
              f'then run it with ros2 run bluerobotics_parts {program}.', file=sys.stderr)
        return 1
    rclpy.init(args=sys.argv if argv is None else argv,
               signal_handler_options=SignalHandlerOptions.NO)
    try:
        node = make()
    except (errors, NodeParameterError) as error:
        print(f'{program}: {error}', file=sys.stderr)
        rclpy.try_shutdown()
        return 1
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    try:
        while not stop.requested and rclpy.ok():
            executor.spin_once(timeout_sec=SPIN_PERIOD)
    finally:
        stop.request()  # however it ends, signals from now on find nothing to interrupt
        executor.shutdown()
        node.destroy_node()
        rclpy.try_shutdown()
    return 0
