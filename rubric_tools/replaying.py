"""`rubric replay`: find each trajectory's matter, load it once, replay, collect.

Returns a ReplayReport; rendering is the reporters' job.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rubric_tools.authoring_codes import QUOTE_NOT_VERIFIED
from rubric_tools.codes import GATE_TIMEOUT, INVALID_GATE, MALFORMED_FIELD, MATTER_NOT_FOUND
from rubric_tools.diagnostics import Diagnostic, Severity, Span
from rubric_tools.loading.action_check import validate_actions
from rubric_tools.loading.elements import Location
from rubric_tools.loading.files import Overlay
from rubric_tools.loading.layout import is_matter, locate_resolved
from rubric_tools.loading.matter import MATTER_FILE, MatterSource, load_matter_source
from rubric_tools.loading.resolved_paths import resolved_folder
from rubric_tools.loading.trajectory import Trajectory, load_trajectory
from rubric_tools.scoring import Replay, replay
from rubric_tools.scoring.gates import DEFAULT_SEARCH_TIMEOUT
from rubric_tools.scoring.quote_check import QuoteMismatch, quote_mismatches
from rubric_tools.scoring.text import show_pattern

EXIT_OK, EXIT_GATE_TIMEOUT, EXIT_INPUT_ERROR = 0, 1, 2


@dataclass
class TrajectoryReplay:
    """One trajectory: its matter, and its replay unless something stopped it."""

    trajectory: Path
    matter: MatterSource | None = None
    replay: Replay | None = None
    line_numbers: list[int] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    quote_mismatches: list[QuoteMismatch] = field(default_factory=list)

    @property
    def matter_id(self) -> str | None:
        return self.matter.matter_id if self.matter is not None else None


@dataclass
class ReplayReport:
    items: list[TrajectoryReplay] = field(default_factory=list)
    usage_errors: list[str] = field(default_factory=list)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for item in self.items for d in item.diagnostics]

    @property
    def exit_code(self) -> int:
        if self.usage_errors or any(d.severity is Severity.ERROR and not d.has(GATE_TIMEOUT) for d in self.diagnostics):
            return EXIT_INPUT_ERROR
        if any(d.has(GATE_TIMEOUT) for d in self.diagnostics):
            return EXIT_GATE_TIMEOUT
        return EXIT_OK


#: Folders whose trajectories' matter a MatterCache remembers; past this it starts again.
LOCATED_FOLDERS_LIMIT = 4096


class MatterCache:
    """Loads each matter folder once per run, and finds the matter of each folder of
    trajectories once (resolving paths and looking for matter.yaml up the tree cost more
    than replaying a short trajectory)."""

    def __init__(self) -> None:
        self._loaded: dict[Path, MatterSource] = {}
        self._resolved_roots: dict[Path, Path] = {}
        self._located: dict[str, Path | None] = {}

    def add(self, source: MatterSource) -> None:
        """Share a matter already loaded elsewhere (`rubric check` loads each one once)."""
        self._loaded[source.root.resolve()] = source

    def get(self, root: Path) -> MatterSource:
        key = self._resolved_roots.get(root)
        if key is None:
            key = self._resolved_roots[root] = root.resolve()
        if key not in self._loaded:
            self._loaded[key] = load_matter_source(key)
        return self._loaded[key]

    def locate(self, trajectory: Path) -> Path | None:
        """`locate_matter(trajectory)`. For a regular file (not a link, not a folder) that depends
        on the folder it names alone: one `lstat` per file, and each folder resolved and
        searched once."""
        try:
            regular = stat.S_ISREG(os.lstat(trajectory).st_mode)
        except (OSError, ValueError):
            regular = False
        if not regular:
            return locate_resolved(trajectory.resolve())
        folder = os.path.dirname(trajectory)
        if folder not in self._located:
            if len(self._located) >= LOCATED_FOLDERS_LIMIT:
                self._located.clear()
            self._located[folder] = locate_resolved(resolved_folder(Path(folder)) / trajectory.name)
        return self._located[folder]


def _step_diagnostics(item: TrajectoryReplay) -> list[Diagnostic]:
    """Per-step warnings (malformed fields) and gate problems, at the action's line."""
    found: list[Diagnostic] = []
    refused: set[str] = set()
    assert item.replay is not None
    for record, line in zip(item.replay.steps, item.line_numbers, strict=False):
        if not (record.warnings or record.gate_timeouts or record.gate_errors):
            continue  # most steps: no span built for them
        span = Span.point(line, 1)
        for warning in record.warnings:
            found.append(Diagnostic.of(MALFORMED_FIELD, f"step {record.step}: {warning}", item.trajectory, span))
        for pattern in record.gate_timeouts:
            found.append(
                Diagnostic.of(
                    GATE_TIMEOUT,
                    f"step {record.step}: gate {show_pattern(pattern)} hit the search time limit; "
                    "its verdict is unknown",
                    item.trajectory,
                    span,
                    "rewrite the pattern to avoid catastrophic backtracking",
                )
            )
        for error in record.gate_errors:
            if error in refused:
                continue  # the gate's own line says it once, not every step that runs it
            where = _gate_location(item.matter, error)
            if where is None:
                found.append(
                    Diagnostic.of(
                        INVALID_GATE,
                        f"step {record.step}: gate regex does not compile: {error}",
                        item.trajectory,
                        span,
                        "run `rubric lint` on the matter",
                    )
                )
                continue
            refused.add(error)
            found.append(
                Diagnostic.of(
                    INVALID_GATE,
                    f"gate regex is refused, so it never fires (first run at step {record.step} of "
                    f"{item.trajectory.name}): {error}",
                    where.file,
                    where.span,
                    "run `rubric lint` on the matter: it says what makes the regex invalid or too costly",
                )
            )
    return found


def _gate_location(matter: MatterSource | None, error: str) -> Location | None:
    """Where the rubric writes the regex that `error` (`"<regex>: <why>"`) is about."""
    if matter is None:
        return None
    for gate in matter.model.gates():
        written = [
            (gate.pattern, gate.pattern_location),
            (gate.require_context, gate.at("require_context")),
            (gate.exclude_context, gate.at("exclude_context")),
        ]
        for regex, location in written:
            if regex and error.startswith(f"{regex}: "):
                return location
    return None


def replay_file(
    path: Path,
    matter_root: Path | None,
    cache: MatterCache,
    gate_timeout: float = DEFAULT_SEARCH_TIMEOUT,
    overlay: Overlay | None = None,
    *,
    quote_hints: bool = True,
) -> TrajectoryReplay:
    """Replay one trajectory file (its unsaved buffer in `overlay`, if any) on its matter.
    `quote_hints`: give each unverified quote's diagnostic the closest passage of its section
    as a hint (aligning is costly; the JSON outputs, which carry no hints, skip it:
    `item.quote_mismatches` still explain themselves on demand)."""
    item = TrajectoryReplay(path)
    root = matter_root or cache.locate(path)
    if root is None:
        item.diagnostics.append(
            Diagnostic.of(
                MATTER_NOT_FOUND,
                "cannot find this trajectory's matter: no matter.yaml above it and no "
                "matters/<matter_id> beside its folder",
                path,
                Span.point(1, 1),
                "pass --matter DIR",
            )
        )
        return item
    item.matter = cache.get(root)
    load_errors = [d for d in item.matter.diagnostics if d.severity is Severity.ERROR]
    if load_errors:
        item.diagnostics.extend(load_errors)
        return item
    trajectory: Trajectory = load_trajectory(path, overlay)
    item.diagnostics.extend(trajectory.diagnostics)
    if not trajectory.valid:
        return item
    item.line_numbers = trajectory.line_numbers
    item.diagnostics.extend(validate_actions(trajectory))
    item.replay = replay(item.matter.matter, trajectory.actions, gate_timeout=gate_timeout)
    item.diagnostics.extend(_step_diagnostics(item))
    item.quote_mismatches = _quote_mismatches(item)
    for mismatch in item.quote_mismatches:
        line = item.line_numbers[mismatch.step - 1] if mismatch.step <= len(item.line_numbers) else 1
        explanation = mismatch.lines() if quote_hints else [mismatch.head()]
        item.diagnostics.append(
            Diagnostic.of(
                QUOTE_NOT_VERIFIED,
                explanation[0],
                item.trajectory,
                Span.point(line, 1),
                " / ".join(part.strip() for part in explanation[2:]) or None,
            )
        )
    return item


def _quote_mismatches(item: TrajectoryReplay) -> list[QuoteMismatch]:
    """Every quote the engine did not verify, with the closest text of its section."""
    assert item.replay is not None and item.matter is not None
    found: list[QuoteMismatch] = []
    for record in item.replay.steps:
        for event in record.events:
            quotes = event.get("quotes")
            if isinstance(quotes, list) and any(q.get("status") != "verified" for q in quotes):
                found += quote_mismatches(item.matter.matter, record.step, record.action, quotes)
    return found


def replay_paths(
    paths: Sequence[Path], matter_root: Path | None = None, gate_timeout: float = DEFAULT_SEARCH_TIMEOUT
) -> ReplayReport:
    report = ReplayReport()
    if matter_root is not None and not is_matter(matter_root):
        report.usage_errors.append(f"{matter_root}: --matter is not a matter folder (no {MATTER_FILE})")
        return report
    cache = MatterCache()
    for path in paths:
        if not path.is_file():
            report.usage_errors.append(f"{path}: no such trajectory file")
            continue
        report.items.append(replay_file(path, matter_root, cache, gate_timeout))
    return report


def step_trace(item: TrajectoryReplay) -> list[dict[str, Any]]:
    """The full per-step record: action, reward, events, budgets after the step."""
    assert item.replay is not None
    trace = []
    for record, line in zip(item.replay.steps, item.line_numbers, strict=False):
        trace.append(
            {
                "step": record.step,
                "line": line,
                "type": record.type,
                "action": record.action,
                "reward": record.reward,
                "events": list(record.events),
                "raw_score": record.raw_score,
                "penalty": record.penalty_reason,
                "warnings": list(record.warnings),
                "gate_timeouts": list(record.gate_timeouts),
                "terminated": record.terminated,
                "truncated": record.truncated,
                "budgets_after": record.budgets._asdict(),
            }
        )
    return trace
