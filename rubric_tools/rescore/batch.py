"""`rubric_tools.score_batch(batch, matters) -> batch`: score a batch of episodes.

For Ray Data's `map_batches`, Dask's `map_partitions` or any pipeline of column batches.
The batch is a mapping of columns (Ray's default `dict[str, numpy.ndarray]`, a
`dict[str, list]`) or a pandas DataFrame, with one row per episode:

- `matter_id`: the matter's id, looked up in `matters`;
- `actions`: the episode's actions, a list of action objects or its JSON text;
- or instead of those two, `episode`: the JSON text of a whole episode, one line of a
  JSONL of episodes (`{"matter_id", "actions", "result"?}`), e.g. from `read_text`;
- optional `recorded` (the archive's result: a dict or its JSON text), `source_file`,
  `source_index`, `source_line`; and `matter_root` / `base_root` (folders that override
  the lookup by id).

`matters` (and the optional keyword `base`) is a folder of matter folders, one matter
folder, or a mapping from matter id to folder. Matters are loaded once per process.
The batch comes back with the column `rescore`: per row, the JSON text
`{"row": {...}}` (the row `rubric rescore --out` writes) or `{"problem": {...}}`; plus
`current_normalized_score`, `delta` and `changed` for quick aggregation (null on a problem).
"""

from __future__ import annotations

import importlib
import json
import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from rubric_tools.catalogue import CodeDoc
from rubric_tools.diagnostics import Diagnostic
from rubric_tools.loading.layout import folder_named
from rubric_tools.rescore.archive import parse_episode
from rubric_tools.rescore.bases import matter_digest
from rubric_tools.rescore.codes import MALFORMED_RECORD, RESCORE_MATTER_NOT_FOUND
from rubric_tools.rescore.records import ArchiveRecord, RawEpisode, Source
from rubric_tools.rescore.worker import Scored, WorkItem, problem_json, score_with_brief

MatterFolders = str | Path | Mapping[str, str | Path]


def _folder(matters: MatterFolders | None, matter_id: str) -> str | None:
    if matters is None:
        return None
    if isinstance(matters, Mapping):
        found = matters.get(matter_id)
        return str(found) if found is not None else None
    found = folder_named(Path(matters), matter_id)
    return str(found) if found is not None else None


def _columns(batch: Any) -> dict[str, list[Any]]:
    if hasattr(batch, "column_names") and hasattr(batch, "to_pydict"):  # a pyarrow Table
        return dict(batch.to_pydict())
    return {str(name): list(batch[name]) for name in batch.keys()}


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _json(value: Any) -> Any:
    if isinstance(value, str | bytes):
        return json.loads(value)
    if hasattr(value, "tolist"):  # a numpy array of objects
        return value.tolist()
    return value


def _optional_int(value: Any) -> int | None:
    return None if _missing(value) else int(value)


def _problem(declared: CodeDoc, message: str, source: Source, hint: str | None = None) -> Scored:
    problem = {
        "code": declared.code,
        "name": declared.name,
        "message": message,
        "file": source.file,
        "line": source.line or 1,
        "column": 1,
        "hint": hint,
    }
    return json.dumps({"problem": problem}), None


def _record(get: Callable[[str], Any], i: int) -> ArchiveRecord | Scored:
    """The row's episode: from its `episode` JSON text, or its `matter_id`/`actions` columns."""
    index = _optional_int(get("source_index"))
    source = Source(str(get("source_file") or f"batch#{i}"), index, _optional_int(get("source_line")))
    if get("episode") is not None:
        parsed = parse_episode(
            RawEpisode(source.file, index if index is not None else i, source.line or 1, str(get("episode")))
        )
        if isinstance(parsed, Diagnostic):
            return json.dumps({"problem": problem_json(parsed)}), None
        return parsed
    try:
        actions = _json(get("actions") if get("actions") is not None else [])
        recorded = _json(get("recorded"))
    except ValueError as exc:
        return _problem(MALFORMED_RECORD, f"invalid JSON: {exc}", source)
    if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
        return _problem(MALFORMED_RECORD, "`actions` must be a list of action objects", source)
    matter_id = str(get("matter_id") or "")
    return ArchiveRecord(source, tuple(actions), matter_id, None, recorded if isinstance(recorded, dict) else None)


def _score_row(columns: dict[str, list[Any]], i: int, matters: MatterFolders, base: MatterFolders | None) -> Scored:
    def get(name: str) -> Any:
        values = columns.get(name)
        return None if values is None or _missing(values[i]) else values[i]

    record = _record(get, i)
    if not isinstance(record, ArchiveRecord):
        return record
    matter_id = record.matter_id or ""
    current_root = get("matter_root") or _folder(matters, matter_id)
    if current_root is None:
        return _problem(
            RESCORE_MATTER_NOT_FOUND,
            f"cannot find matter {matter_id!r}",
            record.source,
            "pass the matter folders in `matters`",
        )
    base_enabled = base is not None or "base_root" in columns
    base_root = get("base_root") or (_folder(base, matter_id) if base is not None else None)
    base_folder = str(base_root) if base_root else None
    generation = get("generation") or _generation(str(current_root), base_folder)
    return score_with_brief(WorkItem(record, str(current_root), base_folder, base_enabled, str(generation)))


def _generation(*roots: str | None) -> str:
    """The digests of the matter folders: a long-lived process (a Ray worker serving several
    pipelines) reloads a matter whose files changed. Computed once per batch and folder."""
    key = tuple(roots)
    if key not in _BATCH_GENERATIONS:
        _BATCH_GENERATIONS[key] = ":".join(matter_digest(Path(root)) for root in roots if root is not None)
    return _BATCH_GENERATIONS[key]


_BATCH_GENERATIONS: dict[tuple[str | None, ...], str] = {}


def score_batch(batch: Any, matters: MatterFolders, *, base: MatterFolders | None = None) -> Any:
    """Score every episode of `batch` under `matters` (and `base`); see the module doc."""
    columns = _columns(batch)
    count = len(next(iter(columns.values()), []))
    _BATCH_GENERATIONS.clear()  # the digests are checked again for each batch
    scored = [_score_row(columns, i, matters, base) for i in range(count)]
    briefs = [summary for _, summary in scored]
    added: dict[str, list[Any]] = {
        "rescore": [text for text, _ in scored],
        "current_normalized_score": [b["current"]["normalized_score"] if b else None for b in briefs],
        "delta": [b["delta"] if b else None for b in briefs],
        "changed": [b["changed"] if b else None for b in briefs],
    }
    if hasattr(batch, "assign"):  # a pandas DataFrame
        return batch.assign(**added)
    if hasattr(batch, "append_column"):  # a pyarrow Table
        pa = importlib.import_module("pyarrow")  # optional and untyped: imported as Any

        for name, values in added.items():
            batch = batch.append_column(name, pa.array(values))
        return batch
    return {**columns, **added}
