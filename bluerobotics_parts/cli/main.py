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
# PYTHON_ARGCOMPLETE_OK (argcomplete's global completion looks for this line: completion.py)

"""
``bluerobotics-parts``: the pipeline as a command-line tool (no ROS needed).

One subcommand per step (``--help`` lists them; README.md shows them in use). Every mistake in
the input, usage included, ends as one message per problem on stderr and exit status 1, and a
failing command writes nothing; a fault of the program exits 2 with its traceback, so scripts
can tell the two apart and the fault can be reported.
"""

from __future__ import annotations

import argparse
import gc
from pathlib import Path
import sys

from ..errors import BlueRoboticsPartsError, OutputError, printable

#: A message of more lines than this prints that many and says how many more.
MESSAGE_LINES = 300

EXIT_OK, EXIT_FAILED, EXIT_INTERNAL = 0, 1, 2


class ArgumentParser(argparse.ArgumentParser):
    """argparse, a usage mistake exiting 1 like any mistake in the input (2: our faults)."""

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(EXIT_FAILED, f'{self.prog}: error: {message}\n')


def config_arg(value: str) -> Path | None:
    """Return the config path; an empty argument is the shipped BlueBoat (None)."""
    return Path(value) if value else None


def water_arg(value: str):
    """Return what ``--water`` names (formats/water.py); a usage mistake names what is valid."""
    from ..formats import water

    named = water.from_text(value)
    if water.problem(named):
        raise argparse.ArgumentTypeError(f'{water.problem(named)}')
    return named


def cmd_parts(args) -> int:
    from . import report
    from ..assembly import catalogue

    files = [Path(f).resolve() for f in args.part_file or []]
    sys.stdout.write(report.catalogue_text(catalogue.catalogue(files)))
    return EXIT_OK


def cmd_urdf(args) -> int:
    from ..assembly.pipeline import resolve_config
    from ..files.atomic import check_not_inputs, check_output_folder, write_text_atomically

    if args.output:
        check_output_folder(Path(args.output).parent, label=Path(args.output),
                            names=(Path(args.output).name,))
    resolved = resolve_config(args.config, name=args.name)
    if args.output:
        check_not_inputs([Path(args.output)], resolved.input_files())
        write_text_atomically(Path(args.output), resolved.urdf)
        print(f'wrote {printable(str(args.output))}', file=sys.stderr)
    else:
        sys.stdout.write(resolved.urdf)
    return EXIT_OK


def cmd_tree(args) -> int:
    from . import poses as pose_report, report
    from ..assembly.pipeline import resolve_config

    resolved = resolve_config(args.config, name=args.name)
    if args.format == 'json':
        sys.stdout.write(pose_report.tree_json(resolved))
    elif args.format == 'mermaid':
        sys.stdout.write(pose_report.tree_mermaid(resolved))
    elif args.poses:
        sys.stdout.write(pose_report.tree_with_poses(resolved))
    else:
        sys.stdout.write(report.tree_text(resolved.record, resolved.catalogue()))
    return EXIT_OK


def cmd_check(args) -> int:
    """Check a config against a URDF (``check``; the ``check_assembly`` script runs it too)."""
    from ..assembly.urdf_check import problems
    from ..formats.config import read
    from ..paths import default_config

    # '' is the shipped BlueBoat, as for every command; an unreadable URDF is one of the problems
    found = problems(read(default_config() if args.config is None else args.config),
                     Path(args.urdf))
    print_errors([str(problem) for problem in found])
    if found:
        return EXIT_FAILED
    print(printable(f'OK: {args.urdf} is consistent with '
                    f'{args.config or "the shipped BlueBoat"}'))
    return EXIT_OK


def cmd_build(args) -> int:
    from .build_output import BuildOutput
    from ..description import cache
    from ..files.atomic import (check_not_inputs, check_output_folder,
                                finish_interrupted_writes, write_files_atomically,
                                written_lines)
    from ..paths import ARDUPILOT_FILE, BRIDGE_FILE, GAZEBO_MODEL_FILE, URDF_FILE

    if not args.output:  # Path('') is the working folder: never by accident
        raise OutputError("build --output '': name the output folder (. for this one)")
    folder = Path(args.output)
    check_output_folder(folder, names=(URDF_FILE, BRIDGE_FILE, ARDUPILOT_FILE,
                                       GAZEBO_MODEL_FILE))
    finish_interrupted_writes(folder)  # a build that fails below leaves a whole set
    made = cache.reuse(None if args.no_cache else cache.folder(),
                       (args.config, args.name, args.gz_release, None, 'build',
                        (args.autopilot, args.autopilot_instance, args.camera, args.esc)),
                       lambda: _build_products(args), BuildOutput)
    files = {name: text.encode('utf-8') for name, text in made.artefacts.items()}
    if args.sdf:  # converted before anything is written: a failure writes nothing
        from ..gazebo.spawned_model import gazebo_sdf

        files[GAZEBO_MODEL_FILE] = gazebo_sdf(made.artefacts[URDF_FILE]).encode('utf-8')
    check_not_inputs([folder / name for name in files],
                     {Path(path): role for path, role in made.inputs.items()})
    write_files_atomically(folder, files)
    sys.stdout.write(made.summary + written_lines([folder / name for name in files]))
    return EXIT_OK


def _build_products(args) -> tuple:
    """Build (no cache): the output, and the user files read (for the cache)."""
    from .build_output import BuildOutput
    from ..build import artefacts, summary_head
    from ..description.identified import identified_build

    made = identified_build(args.config, name=args.name, gz_release=args.gz_release,
                            autopilot=args.autopilot, autopilot_instance=args.autopilot_instance,
                            camera=args.camera, esc=args.esc)
    output = BuildOutput({name: data.decode('utf-8') for name, data in
                          artefacts(made.build).items()}, summary_head(made.build, made.identity),
                         {str(path): role for path, role in
                          made.build.resolved.input_files().items()})
    return output, made.files_read


def cmd_bridge(args) -> int:
    """
    Print the bridge YAML of a resolved URDF, or of a config (resolved and built first).

    A file is a config when it is named .yaml or .yml, a URDF when .urdf or .xml, and
    otherwise whichever its first character says (XML starts with ``<``); either way the YAML
    is what ``build`` writes for it.
    """
    from ..assembly.record import read_urdf_file
    from ..errors import RecordError
    from ..gazebo.bridge import bridge_yaml_for_urdf

    if Path(args.urdf).suffix.lower() in ('.yaml', '.yml'):
        return _bridge_of_config(args)
    urdf = read_urdf_file(args.urdf)
    if Path(args.urdf).suffix.lower() not in ('.urdf', '.xml') and \
            not urdf.lstrip().startswith('<'):
        return _bridge_of_config(args)
    try:
        text = bridge_yaml_for_urdf(urdf, name=args.name,
                                    folder=Path(args.urdf).absolute().parent)
    except RecordError as error:  # the file is the user's: say which
        raise RecordError(f'{args.urdf}: {error}') from None
    sys.stdout.write(text)
    return EXIT_OK


def _bridge_of_config(args) -> int:
    from ..build import build_gazebo

    sys.stdout.write(build_gazebo(Path(args.urdf), name=args.name).bridge_yaml)
    return EXIT_OK


def cmd_export(args) -> int:
    from ..description.export import export

    result = export(args.config, Path(args.directory), name=args.name,
                    gz_release=args.gz_release)
    sys.stdout.write(''.join(printable(line) + '\n' for line in result.summary().splitlines()))
    return EXIT_OK


def cmd_verify(args) -> int:
    from ..description.export import verify

    identity = verify(Path(args.directory), expect=args.expect)
    print(f'ok: {printable(str(args.directory))}')
    print(f'identity: {identity}')
    return EXIT_OK


def cmd_info(args) -> int:
    from .info import info_text, vehicle_info

    sys.stdout.write(info_text(vehicle_info(args.config, name=args.name, water=args.water)))
    return EXIT_OK


def cmd_new(args) -> int:
    from .starter import run as new

    return new(args)


def cmd_render(args) -> int:
    from .render import run as render

    return render(args)


def cmd_validate(args) -> int:
    from .validate import run as validate

    return validate(args)


def cmd_schema(args) -> int:
    from ..assembly.schema import schema_text

    sys.stdout.write(schema_text(args.which))
    return EXIT_OK


#: The subcommands, in the order ``--help`` lists them (parser() defines each).
COMMANDS = ('parts', 'urdf', 'tree', 'check', 'build', 'bridge', 'export', 'verify', 'info',
            'validate', 'render', 'schema', 'new')


class _Unused:
    """Stands in for a subcommand's parser that this run does not need: takes every call."""

    def __getattr__(self, name):
        return lambda *args, **kwargs: self


def parser(only: str | None = None) -> argparse.ArgumentParser:
    """
    Return the command line's parser; ``only``: build just that subcommand's.

    A run of one command needs one subcommand's parser, and building all of them costs a
    cached ``build`` 12 ms of its 70; ``--help``, a mistyped command and shell completion
    get them all.
    """
    from ..picture.views import FRAME_CHOICES, VIEW_NAMES

    from .. import __version__

    top = ArgumentParser(
        prog='bluerobotics-parts',
        description='Blue Robotics vehicles from YAML: resolve, check, compose for Gazebo, '
                    'bridge, export.')
    top.add_argument('--version', action='version', version=f'%(prog)s {__version__}')
    commands = top.add_subparsers(dest='command', required=True, metavar='COMMAND')

    def command(name, handler, help_text):
        assert name in COMMANDS, name
        if only is not None and name != only:
            return _Unused()
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(handler=handler)
        return sub

    def gz_release(sub):
        sub.add_argument('--gz-release', default='harmonic', metavar='RELEASE',
                         help='Gazebo release the SDF extensions target: harmonic (default), '
                              'ionic, jetty')

    def vehicle_name(sub, overrides="the config's name:"):
        sub.add_argument('--name', help='vehicle name (namespace, Gazebo model name); '
                         f'overrides {overrides}')

    sub = command('parts', cmd_parts, 'list the part catalogue: types, slots, defaults')
    sub.add_argument('--part-file', action='append', metavar='FILE',
                     help='also list the part defined in FILE (repeatable)')

    sub = command('urdf', cmd_urdf, 'resolve and check a config; print the URDF')
    sub.add_argument('config', type=config_arg, help="config YAML ('' = the shipped BlueBoat)")
    sub.add_argument('-o', '--output', help='write the URDF to this file instead of stdout')
    vehicle_name(sub)

    sub = command('tree', cmd_tree, 'print the resolved assembly as an indented tree')
    sub.add_argument('config', type=config_arg)
    sub.add_argument('--poses', action='store_true',
                     help="each instance's and frame's pose in the root link and its parent")
    sub.add_argument('--format', choices=('text', 'json', 'mermaid'), default='text',
                     help='json: instances, slots and frames with their poses, for scripts; '
                          'mermaid: the TF tree as a Mermaid flowchart')
    vehicle_name(sub)

    sub = command('check', cmd_check, 'check a config against a URDF resolved from it')
    sub.add_argument('config', type=config_arg)
    sub.add_argument('urdf', type=Path)

    sub = command('build', cmd_build, 'resolve, check, compose for Gazebo and write '
                  'robot_description.urdf and bridge.yaml')
    sub.add_argument('config', type=config_arg)
    sub.add_argument('--output', '-o', required=True, metavar='DIR',
                     help='folder for the artefacts (created; files replaced only on success)')
    sub.add_argument('--no-cache', action='store_true',
                     help='build even if an earlier build of the same inputs is cached '
                          '(the cache: $XDG_CACHE_HOME/bluerobotics_parts; '
                          'BLUEROBOTICS_PARTS_CACHE=off turns it off)')
    vehicle_name(sub)
    gz_release(sub)
    sub.add_argument('--autopilot', default='none', choices=('none', 'ardupilot'),
                     help="ardupilot: add ArduPilot's Gazebo plugin, wired to the base frame's "
                          'motor outputs, and write ardupilot.parm for SITL (default: none)')
    sub.add_argument('--autopilot-instance', default=0, type=int, metavar='N',
                     help="SITL's instance (-I N): its ports are 9002 + 10 N (JSON) and "
                          '5760 + 10 N (MAVLink); default 0')
    sub.add_argument('--esc', default='curve', choices=('curve', 'linear'),
                     help="with --autopilot: curve turns each motor's PWM into its propeller's "
                          "published thrust (the ESC system, run by Gazebo's Python); linear "
                          "keeps ArduPilot's plugin's linear map (default: curve)")
    sub.add_argument('--camera', default=None, metavar='WxH[@HZ]',
                     help="every camera's image size and rate in Gazebo instead of its part's, "
                          'e.g. 640x360@15: the knob when rendering is slow')
    sub.add_argument('--sdf', action='store_true',
                     help='also write gazebo_model.sdf, the model a launch spawns: the URDF '
                          "converted by Gazebo's gz sdf -p, with the added mass in the base "
                          "link's inertial (needs Gazebo Harmonic's gz on PATH)")

    sub = command('bridge', cmd_bridge, 'print the ros_gz_bridge YAML of a config, or of a '
                  'URDF resolved by bluerobotics_parts')
    sub.add_argument('urdf', metavar='CONFIG|URDF',
                     help='a config YAML, or a URDF resolved by bluerobotics_parts (with its '
                          'assembly record)')
    vehicle_name(sub, "the config's name: or the URDF's robot name")

    sub = command('export', cmd_export, 'write a self-contained description folder with its '
                  'identity')
    sub.add_argument('config', type=config_arg)
    sub.add_argument('directory')
    vehicle_name(sub)
    gz_release(sub)

    sub = command('verify', cmd_verify, 're-check an exported description; print its identity')
    sub.add_argument('directory')
    sub.add_argument('--expect', metavar='IDENTITY',
                     help='fail unless the identity is this (sha256:...)')

    sub = command('info', cmd_info, 'how the vehicle floats and drives: mass, centre of gravity, '
                  'displacement, draft, trim, metacentric heights (exact and as Gazebo computes '
                  'them), net buoyancy and trim, thrust limits, top speed')
    sub.add_argument('config', type=config_arg)
    vehicle_name(sub)
    sub.add_argument('--water', type=water_arg, metavar='WATER', help='sea, fresh or a density '
                     "in kg/m^3 (default: the config's water:, else sea)")

    sub = command('validate', cmd_validate, 'how close the simulated vehicle is to the real one: '
                  'a report (Markdown and HTML) and plots of each figure published, predicted '
                  'and, where Gazebo Harmonic is installed, measured in a headless run')
    sub.add_argument('config', type=config_arg)
    sub.add_argument('-o', '--output', required=True, metavar='DIR',
                     help='the folder for report.md, report.html and the plots')
    sub.add_argument('--no-gazebo', action='store_true',
                     help='leave the simulated column empty (no Gazebo run)')
    vehicle_name(sub)

    sub = command('render', cmd_render, 'draw the assembled vehicle (PNG or SVG): its parts, '
                  'every slot and part frame, the water line, a metre scale; no ROS needed')
    sub.add_argument('config', type=config_arg)
    sub.add_argument('-o', '--output', required=True, metavar='FILE',
                     help='the picture: FILE.png or FILE.svg')
    sub.add_argument('--view', action='append', choices=VIEW_NAMES,
                     help='a view to draw (repeatable; default: iso, top, side and front)')
    sub.add_argument('--joint', action='append', metavar='NAME=VALUE', default=[],
                     help='draw a moving joint at a position, rad or m (repeatable; default 0): '
                          'e.g. hd_camera_joint=0.5')
    sub.add_argument('--frames', choices=FRAME_CHOICES, default='default',
                     help='which frames to mark: default, every slot and part frame but inner '
                          'ones (rotors, a frame on another); all; slots, the slots alone')
    vehicle_name(sub)

    sub = command('schema', cmd_schema, 'print the JSON Schema of a config or of a part file '
                  '(for editors: docs/CONFIG.md)')
    sub.add_argument('which', choices=('config', 'part'), metavar='{config,part}',
                     help='config: a vehicle config; part: a part file')

    sub = command('new', cmd_new, 'write a commented config to start from: the vehicle, every '
                  'slot with what it accepts and its default')
    if not isinstance(sub, _Unused):
        from .starter import arguments
        arguments(sub)
    return top


def main(argv=None) -> int:
    from .completion import completing, enable

    argv = sys.argv[1:] if argv is None else list(argv)
    only = argv[0] if argv and argv[0] in COMMANDS else None
    top = parser(None if completing() else only)
    enable(top)
    args = top.parse_args(argv)
    return run(args.handler, args)


def print_errors(lines: list, rest: str = 'more') -> None:
    """Print message lines on stderr, each ``error: `` and printable, at most MESSAGE_LINES."""
    for line in lines[:MESSAGE_LINES]:
        print(f'error: {printable(line)}', file=sys.stderr)
    if len(lines) > MESSAGE_LINES:
        print(f'error: ... and {len(lines) - MESSAGE_LINES} {rest}', file=sys.stderr)


def run(handler, *args) -> int:
    """
    Run a command and return its exit status.

    1 with one message per problem for a mistake in the input, 2 with the traceback for a
    fault of the program. The cyclic garbage collector is off meanwhile (and back on after):
    the command's data (YAML, the resolution, element trees) holds no reference cycles to
    reclaim, and its scans cost a third of a 3,000-part build's CPU (benchmarks/speed.py).
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return handler(*args)
    except BlueRoboticsPartsError as error:
        print_errors(str(error).rstrip('\n').split('\n') if str(error)
                     else [type(error).__name__], rest='more lines')
        return EXIT_FAILED
    except KeyboardInterrupt:
        return 130
    except Exception:  # a bug: say so, with what is needed to report it
        import traceback

        traceback.print_exc()
        print('internal error: this is a fault of bluerobotics_parts, not of your input; '
              'please report it with the traceback above', file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        if collecting:
            gc.enable()


if __name__ == '__main__':
    sys.exit(main())
