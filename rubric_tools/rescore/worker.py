"""The scoring worker: one trajectory under the current and the base matter, as one row.

Each process keeps the matters it has loaded (a matter is loaded once per worker), and
sends its result back encoded as one JSON string: `{"row": ...}` or `{"problem": ...}`.
The same function serves the process pool, the single-process run and Ray.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rubric_tools._version import __version__
from rubric_tools.catalogue import CodeDoc
from rubric_tools.diagnostics import Diagnostic, Severity
from rubric_tools.loading.layout import folder_named
from rubric_tools.loading.matter import MatterSource, load_matter_source
from rubric_tools.rescore import compare
from rubric_tools.rescore.bases import current_matter, matter_digest
from rubric_tools.rescore.codes import MATTER_INVALID, RESCORE_FAILED, RESCORE_MATTER_NOT_FOUND
from rubric_tools.rescore.records import ArchiveRecord, RawEpisode, RawFile, recorded_score
from rubric_tools.scoring import replay
from rubric_tools.scoring.json_values import json_default


@dataclass(frozen=True)
class WorkItem:
    """A record with its matter folders resolved (`base_root` None: no base, or absent there)."""

    record: ArchiveRecord
    current_root: str
    base_root: str | None
    base_enabled: bool
    generation: str = ""  # the run: a process that outlives it (a Ray worker) reloads for the next


@dataclass(frozen=True)
class LoadedMatter:
    source: MatterSource
    digest: str
    error: str | None  # the first load error: such a matter scores nothing


#: Per matter folder: the generation it was loaded for, and the loaded matter.
_LOADED: dict[str, tuple[str, LoadedMatter]] = {}


def loaded_matter(root: str, generation: str = "") -> LoadedMatter:
    """The matter at `root`, loaded once per process and run (`generation`): a matter
    edited between two runs served by the same long-lived process is read again."""
    cached = _LOADED.get(root)
    if cached is None or cached[0] != generation:
        source = load_matter_source(Path(root))
        errors = [d for d in source.diagnostics if d.severity is Severity.ERROR]
        error = f"{errors[0].file}:{errors[0].line}: {errors[0].message}" if errors else None
        cached = _LOADED[root] = (generation, LoadedMatter(source, matter_digest(Path(root)), error))
    return cached[1]


def _score(matter: LoadedMatter, actions: tuple[Any, ...]) -> tuple[dict[str, Any], list[str]]:
    outcome = replay(matter.source.matter, actions)
    warnings = [f"step {s.step}: gate {p!r} hit the search time limit" for s in outcome.steps for p in s.gate_timeouts]
    warnings += [f"step {s.step}: gate regex does not compile: {e}" for s in outcome.steps for e in s.gate_errors]
    return outcome.result, warnings


def _problem(item: WorkItem, declared: CodeDoc, message: str, hint: str) -> dict[str, Any]:
    source = item.record.source
    problem = {
        "code": declared.code,
        "name": declared.name,
        "message": message,
        "file": source.file,
        "line": source.line or 1,
        "hint": hint,
    }
    return {"problem": problem}


def _comparison(current: dict[str, Any], reference: dict[str, Any] | None) -> dict[str, Any]:
    """Delta, changed flag, critical flip and per-item changes against the reference."""
    if reference is None:
        return {"delta": None, "changed": False, "critical_flip": None, "issue_changes": [], "event_changes": None}
    comparison: dict[str, Any] = {
        "delta": round(float(current["normalized_score"]) - float(reference["normalized_score"]), 6),
        "changed": not compare.same_score(compare.score_of(current), compare.score_of(reference)),
        "critical_flip": compare.critical_flip(current, reference),
        "issue_changes": [],
        "event_changes": None,
    }
    if compare.has_events(reference):  # a recorded result may carry only the scores
        comparison["issue_changes"] = compare.issue_changes(current, reference)
        comparison["event_changes"] = compare.event_changes(current, reference)
    return comparison


def score_item(item: WorkItem) -> str:
    """Score one work item; the result is a JSON string (a row or a problem)."""
    return score_with_brief(item)[0]


def _scored(item: WorkItem) -> dict[str, Any]:
    current = loaded_matter(item.current_root, item.generation)
    if current.error is not None:
        return _problem(
            item,
            MATTER_INVALID,
            f"matter {current.source.matter_id} does not load: {current.error}",
            "run `rubric lint` on the matter",
        )
    base = loaded_matter(item.base_root, item.generation) if item.base_root is not None else None
    if base is not None and base.error is not None:
        return _problem(
            item,
            MATTER_INVALID,
            f"base matter {base.source.matter_id} does not load: {base.error}",
            "run `rubric lint` on the base matter",
        )
    current_result, warnings = _score(current, item.record.actions)
    recorded = recorded_score(item.record.recorded)
    reference: dict[str, Any] | None = None
    row: dict[str, Any] = {
        "source": item.record.source.as_json(),
        "matter_id": current.source.matter_id,
        "steps": len(item.record.actions),
        "current": compare.score_of(current_result),
        "base": None,
        "recorded": recorded,
        "reproduced": None if recorded is None else compare.same_score(compare.score_of(current_result), recorded),
        "reference": None,
    }
    if base is not None:
        reference, base_warnings = _score(base, item.record.actions)
        warnings += [f"base: {w}" for w in base_warnings]
        row["base"] = compare.score_of(reference)
        row["reference"] = "base"
    elif recorded is not None and item.record.recorded is not None:
        reference = item.record.recorded  # without a base, the archive's own result is the reference
        row["reference"] = "recorded"
    row.update(_comparison(current_result, reference))
    row["rubric_digest"] = {"current": current.digest, "base": base.digest if base is not None else None}
    row["tool_version"] = __version__
    row["base_missing"] = item.base_enabled and base is None
    row["warnings"] = warnings
    return {"row": row}


#: What the summary needs of a row: the reading process keeps only this, not the row.
BRIEF_FIELDS = ("matter_id", "steps", "current", "base", "recorded", "reproduced", "delta", "changed", "base_missing")

Scored = tuple[str, dict[str, Any] | None]  # the encoded result, and the row's brief (None: a problem)


def brief(row: dict[str, Any]) -> dict[str, Any]:
    """The summary fields of a row (and whether the table should show it)."""
    flip = row["critical_flip"]
    return {
        **{name: row[name] for name in BRIEF_FIELDS},
        "critical_flip": {"direction": flip["direction"]} if flip is not None else None,
    }


ROW_PREFIX, ROW_SUFFIX = '{"row": ', "}"


def row_text(text: str) -> str:
    """The row's own JSON inside an encoded `{"row": ...}` result."""
    return text[len(ROW_PREFIX) : -len(ROW_SUFFIX)]


def score_with_brief(item: WorkItem) -> Scored:
    try:
        result = _scored(item)
        if "row" not in result:
            return json.dumps(result, default=json_default), None
        row = json.dumps(result["row"], allow_nan=False, default=json_default)
        return ROW_PREFIX + row + ROW_SUFFIX, brief(result["row"])
    except Exception as exc:  # noqa: BLE001  one record must never stop the run: report it, go on
        message = f"cannot score this trajectory: {type(exc).__name__}: {exc}"
        return json.dumps(_problem(item, RESCORE_FAILED, message, "please report it")), None


@dataclass(frozen=True)
class Resolver:
    """Finds a matter id's folders inside a worker, for the episodes it parses itself."""

    matters: str
    base_dir: str | None = None
    base_folders: dict[str, str | None] | None = None  # --base-rev: current folder -> its exported base
    generation: str = ""  # the run (see WorkItem)

    @property
    def base_enabled(self) -> bool:
        return self.base_dir is not None or self.base_folders is not None

    def work_item(self, record: ArchiveRecord) -> WorkItem | None:
        if record.matter_id is None:  # a one-trajectory file: its matter comes from its path
            key = (self, "path:" + str(Path(record.matter_hint or "").parent))
        else:
            key = (self, "id:" + record.matter_id)
        roots = _RESOLVED.get(key)
        if roots is None:
            roots = _RESOLVED[key] = self._roots(current_matter(record, Path(self.matters)))
        current, base = roots
        if current is None:
            return None
        return WorkItem(record, current, base, self.base_enabled, self.generation)

    def _roots(self, current: Path | None) -> tuple[str | None, str | None]:
        if current is None:
            return None, None
        base: Path | None = None
        if self.base_dir is not None:
            base = folder_named(Path(self.base_dir), current.name)
        elif self.base_folders is not None:
            exported = self.base_folders.get(str(current.resolve()))
            base = Path(exported) if exported is not None else None
        return str(current), str(base) if base is not None else None

    def __hash__(self) -> int:
        return hash((self.matters, self.base_dir, self.generation))


#: Matter folders found per (resolver, matter id or trajectory folder), once per process.
_RESOLVED: dict[tuple[Resolver, str], tuple[str | None, str | None]] = {}


def score_file(raw: RawFile, resolver: Resolver) -> Scored:
    """Read one one-trajectory file (JSONL trajectory or trace), find its matter, score it."""
    from rubric_tools.rescore.archive import read_archive

    items = list(read_archive([Path(raw.path)]))
    problems = [problem_json(item) for item in items if isinstance(item, Diagnostic)]
    records = [item for item in items if isinstance(item, ArchiveRecord)]
    if problems or not records:
        return json.dumps({"problems": problems}), None
    item = resolver.work_item(records[0])
    if item is None:
        return _not_found(records[0]), None
    return score_with_brief(item)


def _not_found(record: ArchiveRecord) -> str:
    what = f"matter {record.matter_id!r}" if record.matter_id else "this trajectory's matter"
    problem = {
        "code": RESCORE_MATTER_NOT_FOUND.code,
        "name": RESCORE_MATTER_NOT_FOUND.name,
        "message": f"cannot find {what}",
        "file": record.source.file,
        "line": record.source.line or 1,
        "column": 1,
        "hint": "pass --matters DIR (a folder of matter folders)",
    }
    return json.dumps({"problem": problem})


def score_raw(episode: RawEpisode, resolver: Resolver) -> Scored:
    """Parse one line of a JSONL of episodes, find its matter and score it."""
    from rubric_tools.rescore.archive import parse_episode

    record = parse_episode(episode)
    if isinstance(record, Diagnostic):
        return json.dumps({"problem": problem_json(record)}), None
    item = resolver.work_item(record)
    if item is None:
        return _not_found(record), None
    return score_with_brief(item)


def problem_json(diagnostic: Diagnostic) -> dict[str, Any]:
    return {
        "code": diagnostic.code,
        "name": diagnostic.name,
        "message": diagnostic.message,
        "file": str(diagnostic.file),
        "line": diagnostic.line,
        "column": diagnostic.column,
        "hint": diagnostic.fix_hint,
    }
