"""`rubric rescore`: the command around `rescore.run.rescore`: consoles, progress bar,
table or JSON output, exit code (0, 1 when a threshold breaks, 2 on usage or input errors)."""

from __future__ import annotations

from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any, TextIO

from rich.console import Console
from rich.markup import escape

from rubric_tools.commands.common import table_width
from rubric_tools.rescore.bases import BaseError
from rubric_tools.rescore.run import EXIT_ERROR, RescoreOptions, rescore, usage_problem

EXIT_INTERRUPTED = 130


def _progress(stack: ExitStack, errors: Console) -> Any:
    """A progress bar on a terminal; nothing in a pipe."""
    from rich.progress import MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    progress = stack.enter_context(
        Progress(
            SpinnerColumn(),
            TextColumn("rescoring"),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            console=errors,
            transient=True,
        )
    )
    task = progress.add_task("rescore", total=None, rate="")

    def tick(_row: Any) -> None:
        progress.advance(task)
        elapsed = progress.tasks[0].elapsed or 0.0
        done = progress.tasks[0].completed
        progress.update(task, rate=f"{done / elapsed:,.0f}/s" if elapsed > 0 else "")

    return tick


@dataclass
class RescoreCommandOptions:
    rescore: RescoreOptions
    output_format: str = "table"  # table | json
    no_color: bool = False


def run_rescore(command: RescoreCommandOptions, stdout: TextIO, stderr: TextIO) -> int:
    options, output_format, no_color = command.rescore, command.output_format, command.no_color
    errors = Console(file=stderr, no_color=no_color, highlight=False, soft_wrap=True)
    problem = usage_problem(options)
    if problem is not None:
        errors.print(f"error: {escape(problem)}")
        return EXIT_ERROR

    def on_diagnostic(diagnostic: Any) -> None:
        from rubric_tools.reporting.rescore import diagnostic_line

        errors.print(escape(diagnostic_line(diagnostic)), soft_wrap=True)

    with ExitStack() as stack:
        stream = None
        if output_format == "json":
            from rubric_tools.reporting.rescore import JsonStream

            stream = JsonStream(stdout)
        tick = _progress(stack, errors) if (options.progress or errors.is_terminal) else None
        try:
            run = rescore(options, on_row=stream.row if stream else None, on_diagnostic=on_diagnostic, tick=tick)
        except BaseError as exc:
            errors.print(f"error: {escape(str(exc))}")
            return EXIT_ERROR
        except BrokenProcessPool:
            hint = "; rerun with --resume to continue" if options.out is not None else ""
            errors.print(f"error: a worker process died (out of memory, or killed){hint}")
            return EXIT_ERROR
        except KeyboardInterrupt:
            hint = " (rerun with --resume to continue)" if options.out is not None else ""
            errors.print(f"interrupted{hint}")
            return EXIT_INTERRUPTED
    if stream is not None:
        stream.finish(run)
    else:
        from rubric_tools.reporting.rescore import render_table

        render_table(run, Console(file=stdout, no_color=no_color, highlight=False, width=table_width(stdout)))
    return run.exit_code
