"""``check_assembly CONFIG URDF``: the assembly check as a command (also ``ros2 run
bluerobotics_parts check_assembly``). Exit 0 with one OK line, or 1 with one line per problem
on stderr."""

from __future__ import annotations

import argparse
from pathlib import Path
import sys

from .assembly import problems
from .config import load
from .errors import BlueRoboticsPartsError


def run_check(config_path: Path, urdf_path: Path) -> int:
    try:
        config = load(config_path)
        found = problems(config, Path(urdf_path))  # an unreadable URDF is one of them
    except BlueRoboticsPartsError as error:
        print(f'error: {error}', file=sys.stderr)
        return 1
    for problem in found:
        print(f'error: {problem}', file=sys.stderr)
    if found:
        return 1
    print(f'OK: {urdf_path} is consistent with {config_path}')
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog='check_assembly',
        description='Check a config against the URDF resolved from it (the assembly manifest).')
    parser.add_argument('config', type=Path, help='the config YAML')
    parser.add_argument('urdf', type=Path, help='the URDF resolved from it')
    args = parser.parse_args(argv)
    return run_check(args.config, args.urdf)


if __name__ == '__main__':
    sys.exit(main())
