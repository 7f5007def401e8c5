"""`rubric check`: for each matter, lint, replay every trajectory against its
expectations, run every gate probe (and the attack thresholds when available).
One CheckRow per check; the report is the only link to the renderers."""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rubric_tools.authoring_codes import DUPLICATE_MATTER_ID, TRAJECTORY_WITHOUT_EXPECTATION
from rubric_tools.checking.expectations import (
    Expectation,
    Expectations,
    conventional_expectations,
    load_expectations,
)
from rubric_tools.checking.probes import run_probe_file
from rubric_tools.checking.repository import duplicate_ids, id_mismatch
from rubric_tools.checking.rows import CheckRow
from rubric_tools.config.lint import LintSection
from rubric_tools.config.project import ProjectConfig
from rubric_tools.diagnostics import Diagnostic, Severity
from rubric_tools.lint.baseline import configured_baseline, hide_baselined
from rubric_tools.lint.engine import MatterReport, lint_source, selected_rules
from rubric_tools.loading.action_check import SCHEMA_CODES
from rubric_tools.loading.layout import matters_to_check, probe_paths, trajectory_paths
from rubric_tools.loading.matter import MATTER_FILE, MatterSource, load_matter_source
from rubric_tools.replaying import MatterCache, TrajectoryReplay, replay_file
from rubric_tools.scoring.causes import critical_causes
from rubric_tools.scoring.text import show_pattern


@dataclass
class MatterCheck:
    root: Path
    matter_id: str
    rows: list[CheckRow] = field(default_factory=list)
    lint: MatterReport | None = None

    @property
    def passed(self) -> bool:
        return all(row.passed for row in self.rows)


@dataclass
class CheckReport:
    matters: list[MatterCheck] = field(default_factory=list)
    usage_errors: list[str] = field(default_factory=list)

    @property
    def rows(self) -> list[CheckRow]:
        return [row for matter in self.matters for row in matter.rows]

    @property
    def exit_code(self) -> int:
        if self.usage_errors:
            return 2
        return 0 if all(m.passed for m in self.matters) else 1


# ----------------------------------------------------------------- lint


def _lint_stage(source: MatterSource, config: ProjectConfig) -> MatterReport:
    """The matter's lint findings, as `rubric lint` reports them: the one place `rubric check`
    enters lint (`tests/test_call_walk.py`)."""
    report = lint_source(source, config.lint, selected_rules(config.lint))
    baseline = configured_baseline(config.source, config.lint.baseline)  # issue 11: only new findings gate
    if baseline is not None:
        report.diagnostics = hide_baselined(report.diagnostics, baseline)
    return report


def _lint_row(report: MatterReport, config: LintSection) -> CheckRow:
    failing = [d for d in report.diagnostics if d.severity >= config.fail_level]
    counts = {s: sum(1 for d in report.diagnostics if d.severity is s) for s in Severity}
    got = ", ".join(f"{n} {s.value}{'s' if n != 1 else ''}" for s, n in reversed(counts.items()) if n) or "clean"
    detail = "\n".join(_describe(d) for d in failing[:10])
    if len(failing) > 10:
        detail += f"\n… and {len(failing) - 10} more (run `rubric lint`)"
    return CheckRow(
        "lint",
        "rubric lint",
        not failing,
        f"nothing at or above {config.fail_level.value}",
        got,
        detail,
        report.root / "matter.yaml",
    )


def _describe(diagnostic: Diagnostic) -> str:
    return f"{diagnostic.file.name}:{diagnostic.line}:{diagnostic.column} {diagnostic.code} {diagnostic.message}"


# ----------------------------------------------------------------- trajectories


def _bounds_text(expectation: Expectation, reference_score: float | None) -> str:
    parts = []
    if expectation.min_normalized is not None:
        parts.append(f"normalized ≥ {expectation.min_normalized:g}")
    if expectation.max_normalized is not None:
        parts.append(f"normalized ≤ {expectation.max_normalized:g}")
    if expectation.min_raw is not None:
        parts.append(f"raw ≥ {expectation.min_raw:g}")
    if expectation.max_raw is not None:
        parts.append(f"raw ≤ {expectation.max_raw:g}")
    if expectation.below is not None:
        score = f" ({reference_score:g})" if reference_score is not None else ""
        parts.append(f"below {expectation.below}{score}")
    if expectation.critical_failure is True:
        cause = f" ({expectation.cause.kind})" if expectation.cause else ""
        parts.append(f"critical failure{cause}")
    elif expectation.critical_failure is False:
        parts.append("no critical failure")
    return ", ".join(parts) or "replays cleanly"


def _failures(expectation: Expectation, result: dict[str, Any], reference_score: float | None) -> list[str]:
    normalized, raw = result["normalized_score"], result["raw_score"]
    problems = []
    if expectation.min_normalized is not None and normalized < expectation.min_normalized:
        problems.append(f"normalized {normalized:g} < {expectation.min_normalized:g}")
    if expectation.max_normalized is not None and normalized > expectation.max_normalized:
        problems.append(f"normalized {normalized:g} > {expectation.max_normalized:g}")
    if expectation.min_raw is not None and raw < expectation.min_raw:
        problems.append(f"raw {raw:g} < {expectation.min_raw:g}")
    if expectation.max_raw is not None and raw > expectation.max_raw:
        problems.append(f"raw {raw:g} > {expectation.max_raw:g}")
    if expectation.below is not None:
        if reference_score is None:
            problems.append(f"{expectation.below} did not replay, so `below` cannot be checked")
        elif normalized >= reference_score:
            problems.append(f"normalized {normalized:g} is not below {expectation.below}'s {reference_score:g}")
    if expectation.critical_failure is not None and result["critical_failure"] != expectation.critical_failure:
        problems.append("critical failure" if result["critical_failure"] else "no critical failure")
    if expectation.cause is not None and result["critical_failure"]:
        wanted = expectation.cause
        causes = critical_causes(result)
        if not any(
            c.kind == wanted.kind
            and (wanted.pattern is None or c.pattern == wanted.pattern)
            and (wanted.surface is None or c.surface == wanted.surface)
            and (wanted.criterion is None or c.criterion == wanted.criterion)
            for c in causes
        ):
            keys = {"kind": wanted.kind, "surface": wanted.surface, "criterion": wanted.criterion}
            described = ", ".join(f"{key}: {value}" for key, value in keys.items() if value is not None)
            pattern = ", pattern as given" if wanted.pattern is not None else ""
            problems.append(f"no recorded cause matches the expected one ({described}{pattern})")
    return problems


#: Public name for other checkers (coverage's mutation testing re-runs expectations).
expectation_failures = _failures


def _got_text(result: dict[str, Any]) -> str:
    critical = ", critical" if result["critical_failure"] else ""
    return f"{result['normalized_score']:g} (raw {result['raw_score']:g}/{result['max_score']:g}){critical}"


def _schema_problem(expectation: Expectation, findings: list[Diagnostic]) -> str | None:
    """T101-T104 findings fail a trajectory unless it is declared deliberately malformed."""
    if not findings or expectation.malformed:
        return None
    count = len(findings)
    return f"{count} action schema finding{'s' if count != 1 else ''} (declare `malformed: true` if deliberate)"


def _trajectory_rows(source: MatterSource, cache: MatterCache, strict: bool = False) -> list[CheckRow]:
    files = trajectory_paths(source.root)
    declared = load_expectations(source.root)
    convention = conventional_expectations([p.stem for p in files])
    expectations: Expectations = declared or convention
    rows = [
        CheckRow("trajectory", "expectations.yaml", False, "a valid file", "invalid", _describe(d), d.file, d.line)
        for d in expectations.diagnostics
    ]
    replays: dict[str, TrajectoryReplay] = {}
    for path in files:
        if path.stem in replays:
            rows.append(
                CheckRow(
                    "trajectory",
                    path.name,
                    False,
                    "one trajectory per stem",
                    "duplicate stem",
                    f"{replays[path.stem].trajectory.name} has the same stem; expectations are "
                    "keyed by stem, so rename one",
                    path,
                )
            )
            continue
        replays[path.stem] = replay_file(path, source.root, cache)
    scores = {stem: item.replay.result["normalized_score"] for stem, item in replays.items() if item.replay is not None}
    for stem, item in replays.items():
        path = item.trajectory
        expectation = expectations.by_stem.get(stem) or convention.by_stem.get(stem)
        unchecked = expectation is None
        expectation = expectation or Expectation(stem, source="none")
        reference = scores.get(expectation.below) if expectation.below else None
        expected = _bounds_text(expectation, reference)
        errors = [d for d in item.diagnostics if d.severity is Severity.ERROR]
        if item.replay is None or errors:
            rows.append(
                CheckRow(
                    "trajectory",
                    path.name,
                    False,
                    expected,
                    "did not replay",
                    "\n".join(_describe(d) for d in errors[:5]),
                    path,
                    errors[0].line if errors else None,
                )
            )
            continue
        result = item.replay.result
        problems = _failures(expectation, result, reference)
        findings = [d for d in item.diagnostics if d.code in SCHEMA_CODES]
        schema_problem = _schema_problem(expectation, findings)
        details = [*problems] if not schema_problem else [*problems, schema_problem]
        lines = ["; ".join(details)] if details else []
        if schema_problem:
            lines += [_describe(d) + (f" ({d.fix_hint})" if d.fix_hint else "") for d in findings[:5]]
        if result["critical_failure"]:
            lines.append("cause: " + "; ".join(c.describe() for c in critical_causes(result)))
        if problems:  # a failing trajectory: say why each unverified quote failed
            lines += [line for mismatch in item.quote_mismatches for line in mismatch.lines()]
        if unchecked:
            lines.append(
                f"{TRAJECTORY_WITHOUT_EXPECTATION.code} no expectation: {path.name} is not in "
                "expectations.yaml and no naming convention covers it, so only its replay is checked"
            )
        passed = not problems and not schema_problem and not (unchecked and strict)
        rows.append(
            CheckRow(
                "trajectory",
                path.name,
                passed,
                expected,
                _got_text(result),
                "\n".join(lines),
                path,
                findings[0].line if schema_problem else None,
                warning=unchecked and passed,
            )
        )
    for stem in sorted(set(expectations.by_stem) - set(replays)):
        missing = expectations.by_stem[stem]
        if missing.source != "convention":
            rows.append(
                CheckRow(
                    "trajectory",
                    stem,
                    False,
                    "the trajectory exists",
                    "missing",
                    "expectations.yaml names a trajectory that was not found",
                    expectations.file,
                    missing.span.line if missing.span else None,
                )
            )
    return rows


# ----------------------------------------------------------------- probes


def _probe_rows(source: MatterSource) -> list[CheckRow]:
    rows = []
    for path in probe_paths(source.root):
        result = run_probe_file(path, source.matter)
        if result.problem is not None:
            rows.append(
                CheckRow("probes", path.name, False, "a readable probe file", "unreadable", result.problem, path)
            )
            continue
        failures = result.failures
        total = len(result.outcomes)
        detail = "\n".join(
            [*result.schema_errors]
            + [
                f"line {o.line}: {o.surface}/{o.criterion}: "
                + (
                    o.problem
                    or f"expected {'fire' if o.expect_fire else 'silence'}, "
                    f"got {'fire ' + show_pattern(o.fired[-1]) if o.fired else 'silence'}: {o.text[:80]!r}"
                )
                for o in failures[:10]
            ]
        )
        declared = "1 probe behaves" if total == 1 else f"{total} probes behave"
        rows.append(
            CheckRow(
                "probes",
                path.name,
                result.passed,
                f"{declared} as declared",
                f"{total - len(failures)}/{total} behave",
                detail,
                path,
                failures[0].line if failures else None,
            )
        )
    return rows


# ----------------------------------------------------------------- attack


def _attack_rows(source: MatterSource, config: ProjectConfig) -> list[CheckRow]:
    from rubric_tools.checking.attack_rows import attack_rows  # the solver and strategies load only here

    return attack_rows(source, config.attack)


# ----------------------------------------------------------------- audit


def _audit_rows(source: MatterSource, config: ProjectConfig) -> list[CheckRow]:
    from rubric_tools.checking.audit_rows import audit_rows  # `rubric audit`'s adapter

    return audit_rows(source, config.audit)


# ----------------------------------------------------------------- driver


def check_matter(root: Path, config: ProjectConfig, cache: MatterCache | None = None) -> MatterCheck:
    source = load_matter_source(root)  # once: lint, replays, probes and attack share it
    cache = cache or MatterCache()
    cache.add(source)
    check = MatterCheck(source.root, source.matter_id)
    check.lint = _lint_stage(source, config)
    check.rows.append(_lint_row(check.lint, config.lint))
    declared = source.model.file(MATTER_FILE).field("matter_id")
    mismatch = id_mismatch(source.root, declared.value if declared is not None else None)
    if mismatch is not None:
        check.rows.append(
            CheckRow(
                "matter", "matter_id", False, "the folder name", source.matter_id, mismatch, source.root / "matter.yaml"
            )
        )
    check.rows += _trajectory_rows(source, cache, config.check.strict)
    if source.ok:
        check.rows += _probe_rows(source)
        check.rows += _attack_rows(source, config)
        check.rows += _audit_rows(source, config)
    return check


def check_paths(paths: Sequence[Path], config: ProjectConfig | None = None) -> CheckReport:
    config = config or ProjectConfig()
    roots, problems = matters_to_check(paths)
    report = CheckReport(usage_errors=problems)
    workers = _check_workers(len(roots))
    if workers == 1:
        cache = MatterCache()
        report.matters = [check_matter(root, config, cache) for root in roots]
    else:
        # fork: workers inherit the rules, the solver and the audit loaded once here; map
        # keeps the matters in input order. Each worker first sets what it inherited aside
        # from the garbage collector (`gc.freeze`): it lives as long as the worker, and
        # every full collection would otherwise walk it all again.
        _load_before_forking(config)
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(workers, mp_context=context, initializer=gc.freeze) as pool:
            report.matters = list(pool.map(check_matter, roots, [config] * len(roots)))
    for matter in report.matters:
        for other in duplicate_ids(report.matters).get(matter.root, []):
            matter.rows.append(
                CheckRow(
                    "matter",
                    "matter_id",
                    False,
                    "an id no other matter uses",
                    "duplicate",
                    f"{DUPLICATE_MATTER_ID.code} {other} declares the same matter_id {matter.matter_id!r}",
                    matter.root / "matter.yaml",
                )
            )
    return report


def _load_before_forking(config: ProjectConfig) -> None:
    """Import what every matter's check runs before forking (the lint rules, the solver of
    the attack rows, the audit): each worker would otherwise import it all itself. The
    audit's lexicon (lemminflect's tables, about 0.6 s of CPU per process) is read here
    too when the audit row generates texts from the gates; by default it does not
    (`audit_rows`), and then nothing reads it."""
    from rubric_tools.checking import attack_rows  # noqa: F401  (imported for the workers)
    from rubric_tools.checking.audit_rows import generates_texts

    selected_rules(config.lint)  # imports and registers the rules
    if generates_texts(config.audit):
        from rubric_tools.audit.runner import preload

        preload()


def _check_workers(matters: int) -> int:
    """One process per CPU, up to one per matter; 1 where fork is unavailable."""
    if matters < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return min(os.cpu_count() or 1, matters)
