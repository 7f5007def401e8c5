"""Long path lists on the command line: what the command-line layer costs per argument.

`rubric replay` and `rubric lint` given 10k, 50k and 100k paths, in process (100k paths
do not fit in a real command line: that is what `@LIST` and `-` are for), best of
`--repeat` runs each, everything measured alongside in the same run.

1. The command-line layer alone: `rubric_tools.cli.main` parsing the group and the
   command, converting every value and calling the command's function, whose `run_...`
   is replaced by one that returns at once. Beside it, the same with click's parser as it
   is (it takes each argument with `state.rargs.pop(0)`, which shifts the rest of the
   list: quadratic), i.e. before `rubric_tools.cli.linear_parser`; and the reference,
   one `os.stat` per path (the floor of anything that looks at each path; typer checks
   that each of lint's paths is readable).
2. Replay's inputs end to end: the paths on the command line, then expanded as
   `run_replay` does first (`expand_arguments`: a file check each), against the same
   paths given as one `@LIST` file and expanded the same way.

Target: linear, i.e. the per-argument cost at the largest size within 1.5x of the
smallest's; and replay's command line costing about what the same `@LIST` costs.

    python benchmarks/arguments.py [--sizes 10000 50000 100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

from rubric_tools.cli import main
from rubric_tools.commands import lint as lint_command
from rubric_tools.commands import replay as replay_command
from rubric_tools.commands.replay_inputs import expand_arguments

LINEAR_TARGET = 1.5  # per-argument cost, largest size over smallest


def _expand_replay_inputs(options: Any, stdin: Any, stdout: Any, stderr: Any) -> int:
    for _ in expand_arguments(options.arguments, stdin):
        pass
    return 0


@contextlib.contextmanager
def _stubbed(click_parser: bool, expand: bool) -> Iterator[None]:
    """The commands' work replaced (by nothing, or by expanding replay's inputs); click's
    own parser if asked."""
    run_replay = _expand_replay_inputs if expand else (lambda *_: 0)
    with contextlib.ExitStack() as stack:
        stack.enter_context(mock.patch.object(replay_command, "run_replay", run_replay))
        stack.enter_context(mock.patch.object(lint_command, "run_lint", lambda *_: 0))
        if click_parser:
            stack.enter_context(mock.patch("rubric_tools.cli.lazy_group.linear", lambda parser: parser))
        stack.enter_context(contextlib.redirect_stdout(io.StringIO()))
        yield


def _best(repeat: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def _command_line(
    command: str, arguments: list[str], click_parser: bool = False, expand: bool = False
) -> Callable[[], object]:
    def run() -> None:
        with _stubbed(click_parser, expand):
            code = main([command, *arguments])
        if code != 0:
            raise SystemExit(f"rubric {command} exited {code}")

    return run


def _stat_each(paths: list[str]) -> Callable[[], object]:
    return lambda: [os.stat(path) for path in paths]


def main_(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 50_000, 100_000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="rubric-arguments-") as folder:
        files = [Path(folder) / f"t{index:04d}.jsonl" for index in range(1000)]
        for file in files:
            file.write_text("{}\n", encoding="utf-8")
        print(f"best of {args.repeat} runs in this run; µs per argument; ratios to the reference measured alongside")
        print("1. the command-line layer alone (the command's work stubbed out)")
        print(f"  {'':8} {'paths':>7} {'ours':>8} {'click':>8} {'os.stat':>8}  {'ours/stat':>9} {'click/ours':>10}")
        for command in ("replay", "lint"):
            per_argument: list[float] = []
            for size in args.sizes:
                paths = [str(files[index % len(files)]) for index in range(size)]
                ours = _best(args.repeat, _command_line(command, paths))
                click = _best(args.repeat, _command_line(command, paths, click_parser=True))
                floor = _best(args.repeat, _stat_each(paths))
                per_argument.append(ours / size)
                print(
                    f"  {command:8} {size:>7} {ours / size * 1e6:8.2f} {click / size * 1e6:8.2f}"
                    f" {floor / size * 1e6:8.2f}  {ours / floor:8.2f}x {click / ours:9.2f}x"
                )
            growth = per_argument[-1] / per_argument[0]
            verdict = "met" if growth <= LINEAR_TARGET else "MISSED"
            print(
                f"  {command}: per-argument cost, {args.sizes[-1]} over {args.sizes[0]} paths: {growth:.2f}x"
                f" (linear: <= {LINEAR_TARGET}x: {verdict})"
            )
        print("2. replay's inputs end to end (parsed, then expanded as run_replay does): command line vs @LIST")
        print(f"  {'':8} {'paths':>7} {'ours':>8} {'@LIST':>8}  {'ours/@LIST':>10}")
        listing = Path(folder) / "list.txt"
        for size in args.sizes:
            paths = [str(files[index % len(files)]) for index in range(size)]
            listing.write_text("".join(f"{path}\n" for path in paths), encoding="utf-8")
            ours = _best(args.repeat, _command_line("replay", paths, expand=True))
            reference = _best(args.repeat, _command_line("replay", [f"@{listing}"], expand=True))
            shown = f"{ours / size * 1e6:8.2f} {reference / size * 1e6:8.2f}  {ours / reference:9.2f}x"
            print(f"  {'replay':8} {size:>7} {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main_())
