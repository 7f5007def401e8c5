"""Read rollout archives, one trajectory at a time, whatever their format.

Three formats, each optionally gzipped (detected by its magic bytes, not its name):

- a JSONL trajectory: one action object per line, one trajectory per file; its recorded
  result, if any, is the `result` of a `<name>.expected.json` beside it;
- a JSONL of episodes: one object per line, `{"matter_id", "actions": [...], "result"?}`;
- a trace (`*.trace.json`): one object, `{"matter", "seed", "events": [{"action"}], "result"}`.

A folder is searched recursively for `*.jsonl` and `*.trace.json` (and their `.gz`).
A malformed record is reported with its file and line and skipped; the rest is read.
Nothing holds more than one trajectory in memory.
"""

from __future__ import annotations

import gzip
import json
import os
import zlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from rubric_tools.diagnostics import Diagnostic
from rubric_tools.loading.layout import DISK
from rubric_tools.rescore.codes import EMPTY_ARCHIVE, MALFORMED_RECORD, UNREADABLE_ARCHIVE
from rubric_tools.rescore.records import ArchiveRecord, RawEpisode, RawFile, Source, record_problem

GZIP_MAGIC = b"\x1f\x8b"
ARCHIVE_SUFFIXES = (".jsonl", ".jsonl.gz", ".trace.json", ".trace.json.gz")
SIDECAR_SUFFIX = ".expected.json"
#: A whole-document trace larger than this is refused rather than read into memory.
MAX_TRACE_BYTES = 256 * 1024 * 1024

Item = ArchiveRecord | Diagnostic


def archive_files(paths: Sequence[Path]) -> Iterator[Path | Diagnostic]:
    """The archive files named, folders searched recursively, in a stable order."""
    for path in paths:
        if path.is_dir():
            found = False
            # Streamed in the order of sorted Paths: a folder may hold 100,000 trajectories.
            for name in DISK.sorted_files(path, _archive_file_in(path), order="parts"):
                found = True
                yield Path(name)
            if not found:
                yield record_problem(path, 1, EMPTY_ARCHIVE, "no *.jsonl or *.trace.json file here")
        elif path.is_file():
            yield path
        else:
            yield record_problem(path, 1, UNREADABLE_ARCHIVE, "no such file or folder")


def _archive_file_in(top: Path) -> Callable[[tuple[str, ...], str], bool]:
    def accept(folder: tuple[str, ...], name: str) -> bool:
        return name.endswith(ARCHIVE_SUFFIXES) and os.path.isfile(os.path.join(top, *folder, name))

    return accept


def _open_text(path: Path) -> IO[str]:
    with path.open("rb") as probe:
        magic = probe.read(2)
    if magic == GZIP_MAGIC:
        return gzip.open(path, "rt", encoding="utf-8-sig")
    return path.open("r", encoding="utf-8-sig")


def _plain_name(path: Path) -> str:
    return path.name.removesuffix(".gz")


def _is_whole_document(path: Path) -> bool:
    return _plain_name(path).endswith(".json")


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    with _open_text(path) as stream:
        for number, line in enumerate(stream, start=1):
            if line.strip():
                yield number, line


def _first_object(path: Path) -> dict[str, Any] | None:
    """The first line of a JSONL file that parses as an object (format detection)."""
    for _, line in _lines(path):
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):
            continue
        return value if isinstance(value, dict) else None
    return None


def read_archive(
    paths: Sequence[Path], raw_episodes: bool = False, raw_files: bool = False
) -> Iterator[Item | RawEpisode | RawFile]:
    """Every record of every archive, and a diagnostic for every problem, in order.

    With `raw_episodes` the lines of a JSONL of episodes come unparsed (`RawEpisode`), with
    `raw_files` one-trajectory files come unread (`RawFile`): reading and parsing them is
    left to the workers, which keeps the reading process light."""
    for entry in archive_files(paths):
        if isinstance(entry, Diagnostic):
            yield entry
            continue
        try:
            yield from read_file(entry, raw_episodes, raw_files)
        except (OSError, EOFError, zlib.error, UnicodeDecodeError, gzip.BadGzipFile) as exc:
            reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
            yield record_problem(entry, 1, UNREADABLE_ARCHIVE, f"cannot read archive: {reason}")


def read_file(path: Path, raw_episodes: bool = False, raw_files: bool = False) -> Iterator[Item | RawEpisode | RawFile]:
    if _is_whole_document(path):
        yield from [RawFile(str(path))] if raw_files else _read_trace(path)
        return
    first = _first_object(path)
    if first is not None and isinstance(first.get("actions"), list):
        yield from _read_episodes(path, raw_episodes)
    else:
        yield from [RawFile(str(path))] if raw_files else _read_trajectory(path)


def _json_line(path: Path, number: int, line: str) -> tuple[Any, Diagnostic | None]:
    try:
        return json.loads(line), None
    except json.JSONDecodeError as exc:
        return None, record_problem(
            path, number, MALFORMED_RECORD, f"line is not valid JSON: {exc.msg}", column=exc.colno
        )
    except (ValueError, RecursionError):
        return None, record_problem(path, number, MALFORMED_RECORD, "line is not valid JSON")


def _sidecar_result(path: Path) -> dict[str, Any] | None:
    stem = _plain_name(path).removesuffix(".jsonl")
    sidecar = path.with_name(stem + SIDECAR_SUFFIX)
    if not sidecar.is_file():
        return None
    try:
        data = json.loads(sidecar.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError, RecursionError):
        return None
    result = data.get("result") if isinstance(data, dict) else None
    return result if isinstance(result, dict) else None


def _read_trajectory(path: Path) -> Iterator[Item]:
    """One action per line: a bad line makes the whole trajectory unscorable, as in replay."""
    actions: list[Any] = []
    problems: list[Diagnostic] = []
    for number, line in _lines(path):
        value, problem = _json_line(path, number, line)
        if problem is None and not isinstance(value, dict):
            problem = record_problem(
                path,
                number,
                MALFORMED_RECORD,
                f"action is JSON but not an object (it is a {type(value).__name__})",
            )
        if problem is not None:
            problems.append(problem)
            continue
        actions.append(value)
    if problems:
        yield from problems
        return
    yield ArchiveRecord(Source(str(path)), tuple(actions), None, str(path), _sidecar_result(path))


def _matter_id(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("matter_id", value.get("id"))
    if isinstance(value, str | int) and not isinstance(value, bool) and str(value).strip():
        return str(value)
    return None


def _actions_problem(actions: Any) -> str | None:
    if not isinstance(actions, list):
        return "`actions` must be a list of action objects"
    bad = next((i for i, a in enumerate(actions) if not isinstance(a, dict)), None)
    return None if bad is None else f"action {bad} is not an object"


def _read_episodes(path: Path, raw: bool) -> Iterator[Item | RawEpisode]:
    """One episode per line; with `raw`, the lines are left for a worker to parse (and,
    in an uncompressed file, to read: only their byte range is passed on)."""
    if raw and not _is_gzip(path):
        yield from _episode_ranges(path)
        return
    for index, (number, line) in enumerate(_lines(path)):
        episode = RawEpisode(str(path), index, number, line)
        yield episode if raw else parse_episode(episode)


def _is_gzip(path: Path) -> bool:
    with path.open("rb") as probe:
        return probe.read(2) == GZIP_MAGIC


def _episode_ranges(path: Path) -> Iterator[RawEpisode]:
    """Where each non-blank line of an uncompressed JSONL of episodes lies in the file."""
    offset, index = 0, 0
    with path.open("rb") as stream:
        for number, line in enumerate(stream, start=1):
            if line.strip() and (len(line) > 16 or line.decode("utf-8", "replace").strip()):
                yield RawEpisode(str(path), index, number, "", offset, len(line))
                index += 1
            offset += len(line)


def episode_text(episode: RawEpisode) -> str | None:
    """The episode's line: carried with it, or read from its byte range (None when those
    bytes are not UTF-8)."""
    if episode.offset < 0:
        return episode.text
    stream = _open_archives.get(episode.file)
    if stream is None:
        if len(_open_archives) >= 8:  # a worker keeps a few archives open, not every one
            _open_archives.pop(next(iter(_open_archives))).close()
        stream = _open_archives[episode.file] = open(episode.file, "rb")  # noqa: SIM115  (kept open on purpose)
    # pread, not seek + read: forked workers may share the open file (and so its offset).
    data = os.pread(stream.fileno(), episode.length, episode.offset)
    try:
        return data.decode("utf-8-sig" if episode.offset == 0 else "utf-8")
    except UnicodeDecodeError:
        return None


#: Archives a worker process has open, by path (see `episode_text`).
_open_archives: dict[str, IO[bytes]] = {}


def parse_episode(episode: RawEpisode) -> Item:
    """One line of a JSONL of episodes: the record, or why it is malformed."""
    path, number, index = Path(episode.file), episode.line, episode.index
    text = episode_text(episode)
    if text is None:
        return record_problem(path, number, MALFORMED_RECORD, "the line is not valid UTF-8")
    value, problem = _json_line(path, number, text)
    if problem is not None:
        return problem
    if not isinstance(value, dict):
        return record_problem(path, number, MALFORMED_RECORD, "episode is not a JSON object")
    matter_id = _matter_id(value.get("matter_id", value.get("matter")))
    reason = "no `matter_id`" if matter_id is None else _actions_problem(value.get("actions"))
    if reason is not None:
        return record_problem(
            path,
            number,
            MALFORMED_RECORD,
            f"episode {index}: {reason}",
            'each line: {"matter_id": ..., "actions": [{"type": ...}, ...]}',
        )
    recorded = value.get("result", value.get("recorded"))
    return ArchiveRecord(
        Source(episode.file, index, number),
        tuple(value["actions"]),
        matter_id,
        episode.file,
        recorded if isinstance(recorded, dict) else None,
    )


def _read_trace(path: Path) -> Iterator[Item]:
    if path.stat().st_size > MAX_TRACE_BYTES:
        yield record_problem(path, 1, MALFORMED_RECORD, f"trace is larger than {MAX_TRACE_BYTES} bytes")
        return
    with _open_text(path) as stream:
        text = stream.read(MAX_TRACE_BYTES + 1)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        yield record_problem(
            path, exc.lineno, MALFORMED_RECORD, f"trace is not valid JSON: {exc.msg}", column=exc.colno
        )
        return
    except (ValueError, RecursionError):
        yield record_problem(path, 1, MALFORMED_RECORD, "trace is not valid JSON")
        return
    matter_id = _matter_id(value.get("matter")) if isinstance(value, dict) else None
    events = value.get("events") if isinstance(value, dict) else None
    if matter_id is None or not isinstance(events, list):
        yield record_problem(
            path,
            1,
            MALFORMED_RECORD,
            "a trace is an object with `matter` and `events`",
            '{"matter": ..., "seed": ..., "events": [{"action": {...}}], "result": {...}}',
        )
        return
    # Events without an action (a reset, an observation) carry nothing to score.
    actions = [event["action"] for event in events if isinstance(event, dict) and "action" in event]
    reason = _actions_problem(actions)
    if reason is not None or any(not isinstance(event, dict) for event in events):
        yield record_problem(path, 1, MALFORMED_RECORD, f"trace events: {reason or 'an event is not an object'}")
        return
    recorded = value.get("result")
    yield ArchiveRecord(
        Source(str(path)), tuple(actions), matter_id, str(path), recorded if isinstance(recorded, dict) else None
    )
