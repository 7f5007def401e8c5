"""Run every selected rule on every matter found under the given paths.

Matters are independent: one broken matter (or one crashing rule) never hides
another's findings. The result object is the only link to the reporters.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from rubric_tools.config.lint import LintSection
from rubric_tools.diagnostics import Diagnostic, Severity
from rubric_tools.lint import result_cache
from rubric_tools.lint.registry import RULES, Rule, all_rules
from rubric_tools.loading.layout import MATTER_FILE, find_matter_root

if TYPE_CHECKING:
    from rubric_tools.lint.schema_stage import SchemaReport
    from rubric_tools.loading.matter import MatterSource


def _rule_crashed(diagnostic: Diagnostic) -> bool:
    # Imported on use: a warm run with nothing to report never loads the catalogue.
    from rubric_tools.internal_codes import RULE_CRASHED

    return diagnostic.has(RULE_CRASHED)


@dataclass
class MatterReport:
    root: Path
    matter_id: str
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass
class LintReport:
    matters: list[MatterReport] = field(default_factory=list)
    fail_level: Severity = Severity.ERROR
    usage_errors: list[str] = field(default_factory=list)
    # Fixes and baselines (issue 11): findings outside any matter (stale baseline
    # entries), how many findings the baseline hid, how many fixes `--fix` applied.
    other: list[Diagnostic] = field(default_factory=list)
    baselined: int = 0
    fixed: int = 0
    unsafe_fixes: bool = False  # --unsafe-fixes: unsafe fixes count as available, like ruff's

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for m in self.matters for d in m.diagnostics] + self.other

    def count(self, severity: Severity) -> int:
        return sum(1 for d in self.diagnostics if d.severity is severity)

    @property
    def failed(self) -> bool:
        return any(d.severity >= self.fail_level for d in self.diagnostics)

    @property
    def exit_code(self) -> int:
        if self.usage_errors or any(_rule_crashed(d) for d in self.diagnostics):
            return 2
        return 1 if self.failed else 0


def discover_matters(paths: Sequence[Path]) -> tuple[list[Path], list[str]]:
    """Matter folders under `paths`: folders holding matter.yaml, found recursively; a
    file (or a folder inside a matter) stands for the matter that contains it."""
    roots: dict[Path, None] = {}
    problems: list[str] = []
    for path in paths:
        if not path.exists():
            problems.append(f"{path}: no such file or directory")
            continue
        owner = find_matter_root(path)
        if owner is not None:
            roots[owner.resolve()] = None
            continue
        if path.is_dir():
            found = sorted(p.parent.resolve() for p in path.rglob(MATTER_FILE))
            if not found:
                problems.append(f"{path}: no matter (a folder holding {MATTER_FILE}) found")
            roots.update(dict.fromkeys(found))
        else:
            problems.append(f"{path}: not inside a matter (no {MATTER_FILE} above it)")
    return list(roots), problems


def _matches(rule: Rule, selectors: Iterable[str]) -> bool:
    return any(rule.code.startswith(s.upper()) or rule.name == s.lower() for s in selectors)


def selected_rules(config: LintSection) -> list[Rule]:
    rules = all_rules()
    if config.select:
        rules = [r for r in rules if _matches(r, config.select)]
    return [r for r in rules if not _matches(r, config.ignore)]


def _severity(rule: Rule, config: LintSection) -> Severity:
    return config.severity.get(rule.code) or config.severity.get(rule.name) or rule.severity


def lint_source(
    source: MatterSource,
    config: LintSection,
    rules: Sequence[Rule] | None = None,
    *,
    witness_root: Path | None = None,
) -> MatterReport:
    """Run `rules` (default: the configured selection) on one loaded matter.

    Inline suppressions are applied, unused ones reported (X103, when selected), and
    every fix declared safe is replayed against the trajectories and probes of the
    matter at `witness_root` (default: this matter) and downgraded if a score moves
    (unless `config.prove_fixes` is off)."""
    # Imported here: a run whose matters all come from the result cache never needs the
    # loader, the scoring model or the rules.
    from rubric_tools.lint.context import LintContext

    report = MatterReport(source.root, source.matter_id)
    configured = selected_rules(config)
    context = LintContext(source, config, _schema_stage(source, configured, report))
    rules = list(rules if rules is not None else configured)
    for rule in rules:
        try:
            findings = list(rule.check(context))
        except Exception as exc:  # a rule bug must not hide other findings
            from rubric_tools.internal_codes import RULE_CRASHED

            report.diagnostics.append(
                Diagnostic.of(
                    RULE_CRASHED,
                    message=f"rule {rule.code} ({rule.name}) crashed: {exc!r}",
                    file=source.root / MATTER_FILE,
                    fix_hint="please report this: " + traceback.format_exc(limit=1).strip().splitlines()[-1],
                    matter=source.matter_id,
                )
            )
            continue
        severity = _severity(rule, config)
        for finding in findings:
            report.diagnostics.append(
                Diagnostic(
                    code=rule.code,
                    name=rule.name,
                    severity=severity,
                    message=finding.message,
                    file=finding.file,
                    span=finding.span,
                    fix_hint=finding.fix_hint,
                    matter=source.matter_id,
                    fix=finding.fix,
                )
            )
    report.diagnostics = _suppress(source, config, rules, report.diagnostics)
    if config.prove_fixes:
        from rubric_tools.lint.fix_proof import prove_safe_fixes

        try:
            report.diagnostics = prove_safe_fixes(
                source.root, source.matter, report.diagnostics, witness_root=witness_root
            )
        except Exception as exc:  # unproven is unsafe; the findings themselves still stand
            report.diagnostics = [
                replace(d, fix=d.fix.downgrade(f"could not be proven safe: {exc!r}")) if d.fix and d.fix.safe else d
                for d in report.diagnostics
            ]
    report.diagnostics = sorted(dict.fromkeys(report.diagnostics), key=Diagnostic.sort_key)
    return report


def _schema_stage(source: MatterSource, configured: Sequence[Rule], report: MatterReport) -> SchemaReport:
    """Validate the matter once, before any rule, recording what the configured schema rules
    report (whichever rules this run executes: a semantic rule defers to a schema rule the
    configuration selects). A crash is an internal error; the rules then see no schema error."""
    from rubric_tools.lint.schema_stage import SchemaReport, run_schema_stage

    try:
        return run_schema_stage(source, configured)
    except Exception as exc:  # a validation bug must not hide the other rules' findings
        from rubric_tools.internal_codes import RULE_CRASHED

        report.diagnostics.append(
            Diagnostic.of(
                RULE_CRASHED,
                message=f"the schema stage crashed: {exc!r}",
                file=source.root / MATTER_FILE,
                fix_hint="please report this: " + traceback.format_exc(limit=1).strip().splitlines()[-1],
                matter=source.matter_id,
            )
        )
        return SchemaReport()


def _suppress(
    source: MatterSource, config: LintSection, rules: Sequence[Rule], found: list[Diagnostic]
) -> list[Diagnostic]:
    """Drop what inline suppressions silence; report the unused ones when X103 runs."""
    from rubric_tools import suppressions

    comments = suppressions.matter_suppressions(source)
    if not comments:
        return found
    kept = suppressions.apply_suppressions(found, comments)
    unused_rule = RULES.get(suppressions.UNUSED_CODE)
    if unused_rule is None or unused_rule not in rules:
        return kept
    ran = {rule.code for rule in rules}
    names = {rule.name: rule.code for rule in RULES.values()}
    for comment in comments:
        unused = suppressions.unused_codes(comment, ran, names)
        if unused:
            kept.append(
                Diagnostic(
                    code=unused_rule.code,
                    name=unused_rule.name,
                    severity=_severity(unused_rule, config),
                    message=f"unused suppression of {', '.join(unused)}: nothing here is reported",
                    file=comment.file,
                    span=comment.span,
                    fix_hint="remove it (`rubric lint --fix` does)",
                    matter=source.matter_id,
                    fix=suppressions.removal_fix(comment, unused),
                )
            )
    return kept


#: Below this many matters a worker pool costs more than it saves.
PARALLEL_THRESHOLD = 4


def _lint_root(root: Path, config: LintSection, rule_codes: tuple[str, ...], key: str | None) -> MatterReport:
    from rubric_tools.loading.matter import load_matter_source

    rules = [RULES[code] for code in rule_codes]
    report = lint_source(load_matter_source(root), config, rules)
    if key is not None:
        result_cache.store(key, root, report.matter_id, report.diagnostics)
    return report


def _worker_count(matters: int) -> int:
    if matters < PARALLEL_THRESHOLD:
        return 1
    import multiprocessing  # only for a run with work to share out

    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return min(os.cpu_count() or 1, matters)


def lint_paths(paths: Sequence[Path], config: LintSection | None = None) -> LintReport:
    """Lint every matter under `paths`.

    A matter unchanged since it was last linted (same files, settings and tool) is
    taken from the result cache. The others are linted in forked worker processes
    when there are several and more than one CPU; the report is the same either way.
    """
    config = config or LintSection()
    roots, problems = discover_matters(paths)
    report = LintReport(fail_level=config.fail_level, usage_errors=problems)
    keys = [result_cache.matter_key(root, config) for root in roots]
    reports: dict[int, MatterReport] = {}
    for index, (root, key) in enumerate(zip(roots, keys, strict=True)):
        cached = result_cache.restore(key, root) if key is not None else None
        if cached is not None:
            reports[index] = MatterReport(root, cached[0], cached[1])
    misses = [index for index in range(len(roots)) if index not in reports]
    if misses:
        # Only now are the rule modules imported: a fully cached run never needs them.
        codes = tuple(rule.code for rule in selected_rules(config))
        arguments = (
            [roots[i] for i in misses],
            [config] * len(misses),
            [codes] * len(misses),
            [keys[i] for i in misses],
        )
        workers = _worker_count(len(misses))
        if workers == 1:
            fresh = list(map(_lint_root, *arguments))
        else:
            # fork: the workers inherit the registered rules (including any a caller added).
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
                fresh = list(pool.map(_lint_root, *arguments))
        reports.update(zip(misses, fresh, strict=True))
    report.matters = [reports[index] for index in range(len(roots))]
    return report
