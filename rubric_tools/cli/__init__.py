"""The `rubric` command line. Each command lives in its own module of this package:
it parses arguments and calls one library function that returns an exit code. A command
module is imported only when its command runs (or `rubric --help` lists it): see
`COMMAND_MODULES` in `rubric_tools.cli.app`."""

from __future__ import annotations

import gc
import sys
from typing import TextIO, cast

# The command line's modules (typer, click, ours) build objects that live as long as the
# process: a collection while they are imported frees nothing, so none runs meanwhile
# (`main` then freezes them, see there).
_collecting = gc.isenabled()
gc.disable()
try:
    from rubric_tools.cli.app import app
finally:
    if _collecting:
        gc.enable()

USAGE_ERROR = 2


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `rubric` console script.

    Every output goes through a stream that replaces unencodable text (a lone surrogate
    in a matter or a trajectory), and an exception no command caught is reported as one
    line with code I001 and exit 2 (its traceback only with `--debug`). When the compiled
    scorer was expected and is not running, one warning line on stderr says so."""
    from rubric_tools._accelerator import not_running_warning
    from rubric_tools.commands.common import report_internal_error, set_debug
    from rubric_tools.reporting.safe_output import CleanStream

    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = cast(TextIO, CleanStream(stdout)), cast(TextIO, CleanStream(stderr))
    warning = not_running_warning()
    if warning is not None:
        print(warning, file=sys.stderr)
    if argv is None:  # the process's own command line (the console script, `python -m`)
        # What start-up built (typer, click, our modules) lives as long as the process: frozen,
        # the collector's full passes stop walking it again. Not for a caller that runs commands
        # in its own process (tests, the fuzzer): its objects are no start-up of ours.
        gc.freeze()
    try:
        app(args=argv, standalone_mode=True)
    except SystemExit as exit_:
        code = exit_.code
        return code if isinstance(code, int) else (0 if code is None else USAGE_ERROR)
    except Exception as exc:  # a bug: one line, never a traceback unless asked for
        command = next((a for a in (argv if argv is not None else sys.argv[1:]) if not a.startswith("-")), "rubric")
        return report_internal_error(sys.stderr, exc, f"running `rubric {command}`")
    finally:
        sys.stdout, sys.stderr = stdout, stderr
        set_debug(False)
        if argv is None:
            # What the command built lives until the process exits: frozen too, the
            # collector's last full pass at exit does not walk it for nothing.
            gc.freeze()
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
