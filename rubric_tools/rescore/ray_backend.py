"""`--backend ray`: the same work on a Ray cluster, through Ray Data.

The driver reads the archive with the ordinary readers (so malformed records are
reported the same way), stages the work items as JSON lines with their matter folders
resolved, and Ray Data runs `read_json` → `map_batches(score_batch)` →
`write_parquet`. The driver then streams the Parquet files back in input order.
The matter folders must be readable at the same paths on every node (a shared file
system), as for any Ray job reading local files.
"""

from __future__ import annotations

import importlib
import json
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from rubric_tools.diagnostics import Diagnostic
from rubric_tools.rescore.worker import Scored, WorkItem, brief

BATCH_SIZE = 256
#: Work items per staged file: Ray reads a file per task, so shards make the parallelism.
SHARD = 2000
#: Large enough for the longest episode's line (pyarrow's default, 1 MiB, is not).
JSON_BLOCK_BYTES = 64 * 1024 * 1024


def _staged(index: int, item: WorkItem) -> str:
    source = item.record.source
    return json.dumps(
        {
            "index": index,
            "matter_id": item.record.matter_id or "",
            "matter_root": item.current_root,
            "base_root": item.base_root or "",
            "source_file": source.file,
            "source_index": source.index if source.index is not None else -1,
            "source_line": source.line if source.line is not None else -1,
            "actions": json.dumps(list(item.record.actions)),
            "recorded": json.dumps(item.record.recorded),
        }
    )


def _explicit_schema() -> Any:
    pa = importlib.import_module("pyarrow")

    text = ("matter_id", "matter_root", "base_root", "source_file", "actions", "recorded")
    return pa.schema(
        [
            ("index", pa.int64()),
            ("source_index", pa.int64()),
            ("source_line", pa.int64()),
            *((name, pa.string()) for name in text),
        ]
    )


def _score_staged(batch: dict[str, Any], base_enabled: bool) -> dict[str, Any]:
    from rubric_tools.rescore.batch import score_batch

    columns = {name: list(values) for name, values in batch.items()}
    columns["source_index"] = [None if v < 0 else v for v in columns["source_index"]]
    columns["source_line"] = [None if v < 0 else v for v in columns["source_line"]]
    columns["base_root"] = [v or None for v in columns["base_root"]]
    if not base_enabled:
        del columns["base_root"]
    scored = score_batch(columns, {})
    return {"index": scored["index"], "rescore": scored["rescore"]}


def _connect(address: str | None) -> None:
    ray = importlib.import_module("ray")

    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)


def run_ray(items: Iterable[Any], address: str | None) -> Iterator[Scored | Diagnostic]:
    # Optional dependencies, imported as Any: Ray's and pyarrow's types are not ours to check.
    pa_json = importlib.import_module("pyarrow.json")
    pq = importlib.import_module("pyarrow.parquet")
    ray_data = importlib.import_module("ray.data")

    with tempfile.TemporaryDirectory(prefix="rubric-rescore-ray-") as temp:
        staging, scored = Path(temp) / "items", Path(temp) / "scored"
        staging.mkdir()
        count, base_enabled = 0, False
        stream: IO[str] | None = None
        try:
            for item in items:
                if isinstance(item, Diagnostic):
                    yield item
                    continue
                assert isinstance(item, WorkItem), "the Ray backend stages parsed records"
                if count % SHARD == 0:
                    if stream is not None:
                        stream.close()
                    stream = (staging / f"{count // SHARD:08d}.jsonl").open("w", encoding="utf-8")
                assert stream is not None
                stream.write(_staged(count, item) + "\n")
                base_enabled = base_enabled or item.base_enabled
                count += 1
        finally:
            if stream is not None:
                stream.close()
        if count == 0:
            return
        _connect(address)
        context = ray_data.DataContext.get_current()
        context.execution_options.preserve_order = True
        context.enable_progress_bars = False
        dataset = ray_data.read_json(
            str(staging),
            read_options=pa_json.ReadOptions(block_size=JSON_BLOCK_BYTES),
            parse_options=pa_json.ParseOptions(explicit_schema=_explicit_schema()),
        )
        dataset = dataset.map_batches(
            _score_staged, fn_kwargs={"base_enabled": base_enabled}, batch_size=BATCH_SIZE, batch_format="numpy"
        )
        dataset.write_parquet(str(scored))
        yield from _read_back(sorted(scored.glob("*.parquet")), pq)


def _read_back(files: list[Path], pq: Any) -> Iterator[Scored]:
    """The scored rows in input order: files sorted by their first index, each file in order."""
    firsts = []
    for file in files:
        indexes = pq.read_table(file, columns=["index"]).column("index").to_pylist()
        if indexes:
            firsts.append((indexes[0], file))
    expected = 0
    for _, file in sorted(firsts):
        table = pq.read_table(file, columns=["index", "rescore"])
        for index, text in zip(table.column("index").to_pylist(), table.column("rescore").to_pylist(), strict=True):
            if index != expected:
                raise RuntimeError(f"Ray returned row {index} where {expected} was expected")
            expected += 1
            decoded = json.loads(text)
            yield text, brief(decoded["row"]) if "row" in decoded else None
