"""Where rows go: a JSONL or Parquet file, written through a partial file and a
checkpoint beside it so that `--resume` continues an interrupted run.

Rows are appended to `<out>.partial.jsonl` as they come; every few hundred rows the
checkpoint `<out>.checkpoint.json` records how many work items are done, how many
bytes of the partial file hold them, and the run's key (the digests of the input and
the rubric). A finished run turns the partial file into `<out>` and removes both.
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

OUTPUT_SUFFIXES = (".jsonl", ".parquet")
CHECKPOINT_EVERY = 500
PARQUET_BATCH = 2048


class OutputError(Exception):
    """The output cannot be written as asked (a usage error)."""


def check_output(out: Path) -> None:
    if out.suffix not in OUTPUT_SUFFIXES:
        raise OutputError(f"{out}: --out must end in .jsonl or .parquet")
    if out.suffix == ".parquet" and not parquet_available():
        raise OutputError(f"{out}: Parquet output needs pyarrow: pip install 'rubric-tools[ray]' (or pyarrow)")


def parquet_available() -> bool:
    try:
        importlib.import_module("pyarrow.parquet")
    except ImportError:
        return False
    return True


class RowFile:
    """The partial JSONL of rows and its checkpoint."""

    def __init__(self, out: Path, key: str) -> None:
        self.out = out
        self.key = key
        self.partial = out.with_name(out.name + ".partial.jsonl")
        self.checkpoint = out.with_name(out.name + ".checkpoint.json")
        self._stream: IO[bytes] | None = None
        self.done = 0

    def resumable(self) -> tuple[int, int] | None:
        """(work items done, bytes of rows) from a checkpoint of this same run, if any."""
        try:
            state = json.loads(self.checkpoint.read_text(encoding="utf-8"))
            size = self.partial.stat().st_size
        except (OSError, ValueError):
            return None
        if not isinstance(state, dict) or state.get("key") != self.key:
            return None
        done, offset = state.get("done"), state.get("bytes")
        if not isinstance(done, int) or not isinstance(offset, int) or offset > size:
            return None
        return done, offset

    def open(self, resume_at: tuple[int, int] | None) -> None:
        if resume_at is None:
            self._stream = self.partial.open("wb")
            self.done = 0
        else:
            self._stream = self.partial.open("r+b")
            self._stream.truncate(resume_at[1])  # rows written after the last checkpoint are redone
            self._stream.seek(resume_at[1])
            self.done = resume_at[0]

    def previous_rows(self) -> Iterator[dict[str, Any]]:
        """The rows a resumed run had already written (for the summary)."""
        assert self._stream is not None
        end = self._stream.tell()
        with self.partial.open("rb") as stream:
            while stream.tell() < end:
                line = stream.readline()
                if line.strip():
                    yield json.loads(line)

    def write(self, encoded_row: str) -> None:
        assert self._stream is not None
        self._stream.write(encoded_row.encode("utf-8") + b"\n")

    def item_done(self) -> None:
        self.done += 1
        if self.done % CHECKPOINT_EVERY == 0:
            self.save_checkpoint()

    def save_checkpoint(self) -> None:
        assert self._stream is not None
        self._stream.flush()
        os.fsync(self._stream.fileno())
        state = {"key": self.key, "done": self.done, "bytes": self._stream.tell()}
        temporary = self.checkpoint.with_name(self.checkpoint.name + ".tmp")
        temporary.write_text(json.dumps(state), encoding="utf-8")
        os.replace(temporary, self.checkpoint)

    def close_interrupted(self) -> None:
        if self._stream is not None:
            self.save_checkpoint()
            self._stream.close()
            self._stream = None

    def finish(self) -> None:
        assert self._stream is not None
        self._stream.close()
        self._stream = None
        if self.out.suffix == ".parquet":
            write_parquet(self.partial, self.out)
            self.partial.unlink()
        else:
            os.replace(self.partial, self.out)
        self.checkpoint.unlink(missing_ok=True)


def flat_row(row: dict[str, Any]) -> dict[str, Any]:
    """A row with fixed columns for Parquet: scores as structs, the open-ended parts as JSON."""
    return {
        "source_file": row["source"]["file"],
        "source_index": row["source"]["index"],
        "source_line": row["source"]["line"],
        "matter_id": row["matter_id"],
        "steps": row["steps"],
        "current": row["current"],
        "base": row["base"],
        "recorded": row["recorded"],
        "delta": row["delta"],
        "reproduced": row["reproduced"],
        "changed": row["changed"],
        "critical_flip": json.dumps(row["critical_flip"]) if row["critical_flip"] is not None else None,
        "issue_changes": json.dumps(row["issue_changes"]),
        "event_changes": json.dumps(row["event_changes"]) if row["event_changes"] is not None else None,
        "rubric_digest_current": row["rubric_digest"]["current"],
        "rubric_digest_base": row["rubric_digest"]["base"],
        "tool_version": row["tool_version"],
        "warnings": row["warnings"],
    }


def _parquet_schema() -> Any:
    pa = importlib.import_module("pyarrow")
    score = pa.struct(
        [("raw_score", pa.float64()), ("normalized_score", pa.float64()), ("critical_failure", pa.bool_())]
    )
    return pa.schema(
        [
            ("source_file", pa.string()),
            ("source_index", pa.int64()),
            ("source_line", pa.int64()),
            ("matter_id", pa.string()),
            ("steps", pa.int64()),
            ("current", score),
            ("base", score),
            ("recorded", score),
            ("delta", pa.float64()),
            ("reproduced", pa.bool_()),
            ("changed", pa.bool_()),
            ("critical_flip", pa.string()),
            ("issue_changes", pa.string()),
            ("event_changes", pa.string()),
            ("rubric_digest_current", pa.string()),
            ("rubric_digest_base", pa.string()),
            ("tool_version", pa.string()),
            ("warnings", pa.list_(pa.string())),
        ]
    )


def write_parquet(rows_jsonl: Path, out: Path) -> None:
    """Convert a JSONL of rows to Parquet in batches (memory stays flat)."""
    pa = importlib.import_module("pyarrow")
    pq = importlib.import_module("pyarrow.parquet")

    schema = _parquet_schema()
    with pq.ParquetWriter(out, schema) as writer, rows_jsonl.open("rb") as stream:
        batch: list[dict[str, Any]] = []
        for line in stream:
            if line.strip():
                batch.append(flat_row(json.loads(line)))
            if len(batch) == PARQUET_BATCH:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                batch = []
        if batch:
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
