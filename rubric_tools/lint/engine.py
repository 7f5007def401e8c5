"""Run every selected rule on every matter found under the given paths.

Matters are independent: one broken matter (or one crashing rule) never hides
another's findings. The result object is the only link to the reporters.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rubric_tools.config.lint import LintSection
from rubric_tools.diagnostics import Diagnostic, Severity
from rubric_tools.lint import result_cache
from rubric_tools.lint.registry import RULES, Rule, all_rules
from rubric_tools.loading.layout import discover_matters as discover_matters  # where lint's callers found it

if TYPE_CHECKING:
    from rubric_tools.loading.files import Overlay
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


def _matches(rule: Rule, selectors: Iterable[str]) -> bool:
    return any(rule.code.startswith(s.upper()) or rule.name == s.lower() for s in selectors)


def selected_rules(config: LintSection) -> list[Rule]:
    rules = all_rules()
    if config.select:
        rules = [r for r in rules if _matches(r, config.select)]
    return [r for r in rules if not _matches(r, config.ignore)]


def lint_source(
    source: MatterSource,
    config: LintSection,
    rules: Sequence[Rule] | None = None,
    *,
    witness_root: Path | None = None,
    overlay: Overlay | None = None,
) -> MatterReport:
    """Run `rules` (default: the configured selection) on one loaded matter, through the
    stages of `rubric_tools.lint.stages`: the schema, the rules, inline suppressions, the
    replay proof of safe fixes against the trajectories and probes of the matter at
    `witness_root` (default: this matter; unless `config.prove_fixes` is off), the order.
    A file that could not be read hides the findings that depend on its content. A matter
    loaded with an `overlay` (unsaved editor buffers, `rubric lsp`) is proven with it."""
    # Imported here: a run whose matters all come from the result cache never needs the
    # loader, the scoring model or the rules.
    from rubric_tools.lint import stages
    from rubric_tools.lint.context import LintContext
    from rubric_tools.lint.unreadable_files import hide_dependent_findings

    configured = selected_rules(config)
    schema, found = stages.validate_schema(source, configured)
    rules = list(rules if rules is not None else configured)
    found += stages.run_rules(LintContext(source, config, schema), rules, config)
    found = stages.apply_suppressions(source, config, rules, found)
    found = hide_dependent_findings(found)
    if config.prove_fixes:
        found = stages.prove_fixes(source, found, witness_root, overlay)
    return MatterReport(source.root, source.matter_id, stages.in_order(found))


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

            # What a worker inherits (the rules, the loaded schema) lives as long as it: frozen,
            # the collector's full passes do not walk it again (as `rubric audit`'s workers).
            context = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(workers, mp_context=context, initializer=gc.freeze) as pool:
                fresh = list(pool.map(_lint_root, *arguments))
        reports.update(zip(misses, fresh, strict=True))
    report.matters = [reports[index] for index in range(len(roots))]
    return report
