"""The package's exception types: one base class, so commands can turn any of them into a
one-line message instead of a traceback."""

from __future__ import annotations


def located(message: str, file: str | None = None, line: int | None = None) -> str:
    """``file:line: message``, or as much of the location as is known."""
    if file and line:
        return f'{file}:{line}: {message}'
    if file:
        return f'{file}: {message}'
    return message


class BlueRoboticsPartsError(Exception):
    """Base of every error this package raises on bad input."""


class ConfigError(BlueRoboticsPartsError):
    """A config (or part file) that cannot be read: syntax, shape, types, duplicate keys.

    ``str()`` gives ``file:line: message`` when the location is known.
    """

    def __init__(self, message: str, file: str | None = None, line: int | None = None):
        self.message = message
        self.file = file
        self.line = line
        super().__init__(located(message, file, line))


class ResolveError(ConfigError):
    """The xacro expansion failed; ``message`` starts with ``ASSEMBLY ERROR`` when the resolver
    itself caught the mistake."""


class AssemblyError(BlueRoboticsPartsError):
    """The resolved assembly is inconsistent with its config; ``problems`` lists every one."""

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__('\n'.join(str(p) for p in self.problems))


class OutputError(BlueRoboticsPartsError):
    """An output file or folder that cannot be written (permissions, a missing parent, a full
    disk); nothing is left half-written."""
