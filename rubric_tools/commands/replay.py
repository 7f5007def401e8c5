"""What `rubric replay` does, as a function of its options that returns the exit code.

Output streams: each trajectory's text, JSON Lines record or JSON array element is written
as soon as it (and every trajectory before it) has replayed. With `jobs > 1` a process
pool replays in parallel and sends back encoded strings; input order is kept.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, TextIO

from rubric_tools.commands.common import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, debug_enabled, output_width
from rubric_tools.defaults import DEFAULT_SEARCH_TIMEOUT

if TYPE_CHECKING:  # at run time imported when needed: rich only for the text formats
    from rubric_tools.commands.replay_stream import Encoded, StreamSettings

EXIT_GATE_TIMEOUT, EXIT_INPUT_ERROR = EXIT_FINDINGS, EXIT_USAGE  # what 1 and 2 mean here
JSON_FORMAT_VERSION = 1
#: Trajectories handed to a pool worker at a time: large enough to amortize the hand-over,
#: small enough that output keeps flowing.
POOL_CHUNK = 8


@dataclass(frozen=True)
class ReplayOptions:
    arguments: Sequence[str]  # files, folders, globs, @LISTFILE, -
    output_format: str = "text"
    matter: Path | None = None
    trace: Path | None = None
    gate_timeout: float = DEFAULT_SEARCH_TIMEOUT
    jobs: int = 1
    no_color: bool = False


class JsonArrayWriter:
    """Writes `"name": [elements...]` of an indent=2 JSON document one element at a time."""

    def __init__(self, target: IO[str], name: str, last: bool = False) -> None:
        self.target, self.name, self.last, self.count = target, name, last, 0

    def add(self, element: str) -> None:
        if self.count == 0:
            self.target.write(f'  "{self.name}": [\n    {element}')
        else:
            self.target.write(f",\n    {element}")
        self.count += 1

    def close(self) -> None:
        if self.count == 0:
            self.target.write(f'  "{self.name}": []')
        else:
            self.target.write("\n  ]")
        self.target.write("\n" if self.last else ",\n")


def _encoded_results(options: ReplayOptions, settings: StreamSettings, stdin: TextIO) -> Iterator[Encoded]:
    from rubric_tools.commands.replay_inputs import expand_arguments
    from rubric_tools.commands.replay_stream import encode_in_worker, encode_item, init_worker
    from rubric_tools.replaying import MatterCache

    entries = expand_arguments(options.arguments, stdin)
    jobs = options.jobs or os.cpu_count() or 1
    if jobs == 1:
        cache = MatterCache()
        for entry in entries:
            yield encode_item(settings, cache, entry)
        return
    import multiprocessing  # only with --jobs: a one-process replay need not load it

    with multiprocessing.Pool(jobs, initializer=init_worker, initargs=(settings,)) as pool:
        yield from pool.imap(encode_in_worker, entries, chunksize=POOL_CHUNK)


def _settings(options: ReplayOptions, stdout: TextIO) -> StreamSettings:
    from rubric_tools.commands.replay_stream import StreamSettings

    color_system, width = None, 80
    if options.output_format in ("text", "concise"):
        from rich.console import Console

        probe = Console(file=stdout, no_color=options.no_color)
        width = output_width(stdout) or probe.width  # a pipe gets the fixed width every command uses
        if probe.is_terminal and not options.no_color:
            color_system = probe.color_system
    return StreamSettings(
        options.output_format,
        options.matter,
        options.gate_timeout,
        options.trace is not None,
        color_system,
        width,
        debug_enabled(),
    )


def _write_errors(stderr: TextIO, messages: Iterable[str]) -> None:
    for message in messages:
        stderr.write(f"error: {message}\n")


def _json_tail(stdout: TextIO, usage_errors: list[str]) -> None:
    import json

    errors = json.dumps(usage_errors, indent=2, ensure_ascii=False).replace("\n", "\n  ")
    stdout.write(f'  "errors": {errors}\n}}\n')


class _Outcome:
    """What the exit code depends on, gathered while streaming."""

    def __init__(self) -> None:
        self.usage_errors: list[str] = []
        self.input_error = False
        self.gate_timeout = False

    @property
    def exit_code(self) -> int:
        if self.usage_errors or self.input_error:
            return EXIT_INPUT_ERROR
        return EXIT_GATE_TIMEOUT if self.gate_timeout else EXIT_OK


def _stream(
    options: ReplayOptions,
    stdin: TextIO,
    stdout: TextIO,
    stderr: TextIO,
    diagnostics: JsonArrayWriter,
    trace: JsonArrayWriter | None,
    outcome: _Outcome,
) -> None:
    """Replay every trajectory, writing each one's output as it arrives, in input order."""
    as_json = options.output_format == "json"
    replays = JsonArrayWriter(stdout, "replays")
    written = 0
    for result in _encoded_results(options, _settings(options, stdout), stdin):
        if result.usage_error:
            outcome.usage_errors.append(result.usage_error)
            stderr.write(result.errors)  # an internal error's traceback, with --debug
            _write_errors(stderr, [result.usage_error])
            continue
        outcome.input_error |= result.input_error
        outcome.gate_timeout |= result.gate_timeout
        if as_json:
            if result.output:
                replays.add(result.output)
            for element in result.diagnostics:
                diagnostics.add(element)
        elif result.output:
            if options.output_format == "text" and written:
                stdout.write("\n")
            stdout.write(result.output)
            written += 1
        stderr.write(result.errors)
        if trace is not None and result.trace:
            trace.add(result.trace)
        stdout.flush()
    if as_json:
        replays.close()


def run_replay(options: ReplayOptions, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    from rubric_tools.loading.layout import MATTER_FILE, is_matter

    as_json = options.output_format == "json"
    header = f'{{\n  "version": {JSON_FORMAT_VERSION},\n'
    if options.matter is not None and not is_matter(options.matter):
        message = f"{options.matter}: --matter is not a matter folder (no {MATTER_FILE})"
        if as_json:
            stdout.write(header + '  "replays": [],\n  "diagnostics": [],\n')
            _json_tail(stdout, [message])
        _write_errors(stderr, [message])
        return EXIT_INPUT_ERROR
    trace_file: IO[str] | None = None
    if options.trace is not None:
        try:
            trace_file = options.trace.open("w", encoding="utf-8")
        except OSError as exc:
            _write_errors(stderr, [f"cannot write trace {options.trace}: {exc.strerror}"])
            return EXIT_INPUT_ERROR
    outcome = _Outcome()
    try:
        _replay_into(options, stdin, stdout, stderr, trace_file, outcome)
    except BrokenPipeError:  # `rubric replay ... | head`: the reader has seen enough
        _silence(stdout)
    return outcome.exit_code


def _silence(stream: TextIO) -> None:
    """Point a closed pipe's descriptor at /dev/null, so the exit flush cannot fail again."""
    try:
        descriptor = stream.fileno()
    except (OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, descriptor)
    os.close(devnull)


def _diagnostics_spool(as_json: bool) -> IO[str]:
    """Where the JSON document's diagnostics wait: they follow every replay, so on disk, not
    in memory. The other formats write none (and need not import tempfile)."""
    if not as_json:
        return io.StringIO()
    import tempfile

    return tempfile.TemporaryFile("w+", encoding="utf-8")


def _replay_into(
    options: ReplayOptions,
    stdin: TextIO,
    stdout: TextIO,
    stderr: TextIO,
    trace_file: IO[str] | None,
    outcome: _Outcome,
) -> None:
    as_json = options.output_format == "json"
    header = f'{{\n  "version": {JSON_FORMAT_VERSION},\n'
    if as_json:
        stdout.write(header)
    with _diagnostics_spool(as_json) as spool:
        diagnostics = JsonArrayWriter(spool, "diagnostics")
        trace = JsonArrayWriter(trace_file, "replays", last=True) if trace_file is not None else None
        try:
            if trace_file is not None:
                trace_file.write(header)
            _stream(options, stdin, stdout, stderr, diagnostics, trace, outcome)
        finally:
            if trace_file is not None and trace is not None:
                trace.close()
                trace_file.write("}\n")
                trace_file.close()
        if as_json:
            diagnostics.close()
            spool.seek(0)
            while chunk := spool.read(1 << 16):
                stdout.write(chunk)
            _json_tail(stdout, outcome.usage_errors)
