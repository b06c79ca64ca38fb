"""Launch actions from launch plans: the small mapping the two launch files share.

Needs ROS 2 (launch, launch_ros); only the launch files and their ROS-only tests import it.
The decisions are in launch_plan.py.
"""

from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue

from .errors import BlueRoboticsPartsError


def node(spec):
    """A launch_ros Node from a launch_plan.NodeSpec."""
    # Strings are passed as strings: launch_ros would otherwise read them as YAML.
    parameters = {key: ParameterValue(value, value_type=str) if isinstance(value, str) else value
                  for key, value in spec.parameters.items()}
    return Node(package=spec.package, executable=spec.executable, name=spec.name,
                namespace=spec.namespace or None, parameters=[parameters] if parameters else None,
                arguments=list(spec.arguments), remappings=list(spec.remappings),
                output=spec.output)


def argument_values(context, table) -> dict:
    """The launch argument values by name, defaults for those not given."""
    return {a.name: context.launch_configurations.get(a.name, a.default) for a in table}


def planned(make_plan, *args):
    """``make_plan(*args)``, with a package error turned into what launch reports as one
    message (no traceback) before any node starts."""
    try:
        return make_plan(*args)
    except BlueRoboticsPartsError as error:
        raise RuntimeError(f'bluerobotics_parts: {error}') from None
