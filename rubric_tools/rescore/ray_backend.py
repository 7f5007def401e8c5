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
from rubric_tools.rescore.archive import episode_text
from rubric_tools.rescore.records import RawEpisode, RawFile
from rubric_tools.rescore.worker import Resolver, Scored, WorkItem, brief

BATCH_SIZE = 256
#: Work items per staged file: Ray reads a file per task, so shards make the parallelism.
SHARD = 2000
#: Large enough for the longest episode's line (pyarrow's default, 1 MiB, is not).
JSON_BLOCK_BYTES = 64 * 1024 * 1024


_TEXT_COLUMNS = ("episode", "matter_id", "matter_root", "base_root", "source_file", "actions", "recorded", "generation")


def _staged(index: int, item: WorkItem | RawEpisode, generation: str) -> str:
    """One staged line: an unparsed episode (a Ray worker parses it) or a parsed record."""
    if isinstance(item, RawEpisode):
        row: dict[str, Any] = {
            "generation": generation,
            "episode": episode_text(item) or "",  # staged whole: Ray workers read no archive themselves
            "source_file": item.file,
            "source_index": item.index,
            "source_line": item.line,
        }
    else:
        source = item.record.source
        row = {
            "matter_id": item.record.matter_id or "",
            "matter_root": item.current_root,
            "base_root": item.base_root or "",
            "source_file": source.file,
            "source_index": source.index if source.index is not None else -1,
            "source_line": source.line if source.line is not None else -1,
            "actions": json.dumps(list(item.record.actions)),
            "recorded": json.dumps(item.record.recorded),
            "generation": item.generation,
        }
    return json.dumps({name: None for name in _TEXT_COLUMNS} | row | {"index": index})


def _explicit_schema() -> Any:
    pa = importlib.import_module("pyarrow")
    numbers = [(name, pa.int64()) for name in ("index", "source_index", "source_line")]
    return pa.schema(numbers + [(name, pa.string()) for name in _TEXT_COLUMNS])


def _score_staged(batch: dict[str, Any], matters: Any, base: Any, base_enabled: bool) -> dict[str, Any]:
    from rubric_tools.rescore.batch import score_batch

    columns = {name: list(values) for name, values in batch.items()}
    for name in ("source_index", "source_line"):
        columns[name] = [None if v is None or v < 0 else v for v in columns[name]]
    columns["base_root"] = [v or None for v in columns["base_root"]]
    if not base_enabled:
        del columns["base_root"]
    scored = score_batch(columns, matters, base=base)
    return {"index": scored["index"], "rescore": scored["rescore"]}


def _batch_folders(resolver: Resolver | None) -> tuple[Any, Any]:
    """`score_batch`'s `matters` and `base` for episodes the Ray workers parse themselves."""
    if resolver is None:
        return {}, None
    if resolver.base_folders is not None:
        exported = {Path(current).name: base for current, base in resolver.base_folders.items() if base is not None}
        return resolver.matters, exported
    return resolver.matters, resolver.base_dir


def _connect(address: str | None) -> None:
    ray = importlib.import_module("ray")

    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)


def run_ray(
    items: Iterable[WorkItem | RawEpisode | RawFile | Diagnostic], address: str | None, resolver: Resolver | None = None
) -> Iterator[Scored | Diagnostic]:
    # Optional dependencies, imported as Any: Ray's and pyarrow's types are not ours to check.
    pa_json = importlib.import_module("pyarrow.json")
    pq = importlib.import_module("pyarrow.parquet")
    ray_data = importlib.import_module("ray.data")

    with tempfile.TemporaryDirectory(prefix="rubric-rescore-ray-") as temp:
        staging, scored = Path(temp) / "items", Path(temp) / "scored"
        staging.mkdir()
        count = 0
        base_enabled = resolver is not None and resolver.base_enabled
        stream: IO[str] | None = None
        try:
            for item in items:
                if isinstance(item, Diagnostic):
                    yield item
                    continue
                assert not isinstance(item, RawFile), "the Ray driver reads one-trajectory files itself"
                if count % SHARD == 0:
                    if stream is not None:
                        stream.close()
                    stream = (staging / f"{count // SHARD:08d}.jsonl").open("w", encoding="utf-8")
                assert stream is not None
                stream.write(_staged(count, item, resolver.generation if resolver else "") + "\n")
                base_enabled = base_enabled or (item.base_enabled if isinstance(item, WorkItem) else False)
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
        matters, base = _batch_folders(resolver)
        dataset = dataset.map_batches(
            _score_staged,
            fn_kwargs={"matters": matters, "base": base, "base_enabled": base_enabled},
            batch_size=BATCH_SIZE,
            batch_format="numpy",
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
