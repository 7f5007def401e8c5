"""The server's one door into the project: every analysis `rubric lsp` shows is asked for here.

The rest of the package translates between the Language Server Protocol and what these
functions return (diagnostics, fixes, the located model, sections, schemas, rule
documentation); it never analyses a matter itself. Each function is a narrow entry point
into lint, the audit, the loader, `rubric check`'s witnesses, the configuration and the
code documentation, so that when those move, only this module follows them.

Everything here may block for a while (loading, linting, auditing): the server calls it
off the event loop.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from rubric_tools.config.project import ProjectConfig
from rubric_tools.diagnostics import Diagnostic, Severity
from rubric_tools.loading.files import Overlay
from rubric_tools.loading.matter import MatterSource
from rubric_tools.loading.yaml_source import YamlSource
from rubric_tools.scoring.result import MaxScoreItem

__all__ = [
    "CodeDocumentation",
    "MissedExpectation",
    "Overlay",
    "ProbeProblem",
    "audit",
    "code_documentation",
    "documentation_anchor",
    "fix_file",
    "lint",
    "load",
    "matter_root_of",
    "meant_citation",
    "parse_yaml",
    "points_of",
    "probe_files",
    "probe_problems",
    "project_config",
    "read_text",
    "rule_codes",
    "schema_for",
    "schema_named",
    "trajectory_checks",
    "trajectory_files",
]

# --------------------------------------------------------------------------- matters


def matter_root_of(path: Path) -> Path | None:
    """The matter folder a file belongs to, found as `rubric check` finds it: the folder
    holding matter.yaml above it, or for a trajectory or probe file kept beside `matters/`
    (`examples/<id>/`, `trajectories/<id>/`, `tests/gate_probes/<id>.yaml`,
    `probes/<id>.yaml`) that matter."""
    from rubric_tools.loading.layout import find_matter_root, matters_to_check

    owner = find_matter_root(path)
    if owner is not None:
        return owner.resolve()
    if not path.is_file():
        return None
    roots, _ = matters_to_check([path])
    return roots[0] if roots else None


def trajectory_files(root: Path) -> list[Path]:
    """The matter's trajectories, as `rubric check` finds them."""
    from rubric_tools.loading.layout import trajectory_paths as found

    return [path.resolve() for path in found(root)]


def probe_files(root: Path) -> list[Path]:
    """The matter's gate probe files, as `rubric check` finds them."""
    from rubric_tools.loading.layout import probe_paths as found

    return [path.resolve() for path in found(root)]


def project_config(root: Path, config_file: Path | None, cwd: Path) -> ProjectConfig:
    """The configuration for the matter at `root`, read exactly as `rubric lint ROOT
    [--config FILE]` run from `cwd` reads it. Raises `ConfigError` (at file:line)."""
    from rubric_tools.config.resolve import resolve_config
    from rubric_tools.lint.vocabulary import CONFIG_VOCABULARY

    return resolve_config([root], CONFIG_VOCABULARY, config_file, cwd)


def load(root: Path, overlay: Overlay | None = None) -> MatterSource:
    """The matter as the loader reads it, with the editor's unsaved buffers."""
    from rubric_tools.loading.matter import load_matter_source

    return load_matter_source(root, overlay)


def read_text(path: Path) -> str | None:
    """A file's text, read under the file-system policy (None when it cannot be read)."""
    from rubric_tools.loading.yaml_source import read_text as read

    return read(path)[0]


def parse_yaml(path: Path, text: str) -> YamlSource:
    """YAML text of `path` as the loader reads it, with every node's position."""
    from rubric_tools.loading.yaml_source import parse_yaml_text

    return parse_yaml_text(path, text)


# --------------------------------------------------------------------------- findings


def lint(source: MatterSource, config: ProjectConfig, overlay: Overlay | None = None) -> list[Diagnostic]:
    """What `rubric lint` reports for the matter: its configured rules, inline suppressions,
    safe fixes proven against its trajectories and probes, the configured baseline."""
    from rubric_tools.lint.engine import lint_source, selected_rules

    found = lint_source(source, config.lint, selected_rules(config.lint), overlay=overlay).diagnostics
    if config.lint.baseline is None:
        return found
    from rubric_tools.lint.baseline import configured_baseline, hide_baselined

    baseline = configured_baseline(config.source, config.lint.baseline)
    return hide_baselined(found, baseline) if baseline is not None else found


def audit(source: MatterSource, config: ProjectConfig) -> list[Diagnostic]:
    """What `rubric audit` reports for the matter (nothing when it does not load cleanly,
    where `rubric audit` refuses it too: lint reports why)."""
    from rubric_tools.audit.runner import audit_source
    from rubric_tools.checking.audit_inputs import audit_inputs

    if any(d.severity is Severity.ERROR for d in source.diagnostics):
        return []
    return audit_source(source, config.audit, audit_inputs(source.root))


@dataclass(frozen=True)
class MissedExpectation:
    """A trajectory whose replay misses what expectations.yaml declares for it."""

    stem: str
    file: Path  # expectations.yaml
    line: int | None  # of the trajectory's entry
    problems: tuple[str, ...]


def trajectory_checks(
    source: MatterSource, overlay: Overlay | None = None
) -> tuple[list[Diagnostic], list[MissedExpectation]]:
    """What `rubric check` finds in the matter's trajectories, each replayed once: what
    `rubric replay` reports for each (its reading, every action against the schema, step
    warnings, unverified quotes), expectations.yaml's own problems (E001), and each
    trajectory that misses its declared expectation."""
    from rubric_tools.checking.expectations import load_expectations
    from rubric_tools.checking.runner import expectation_failures
    from rubric_tools.replaying import MatterCache, replay_file

    cache = MatterCache()
    cache.add(source)
    diagnostics: list[Diagnostic] = []
    results: dict[str, dict[str, Any]] = {}
    for path in trajectory_files(source.root):
        item = replay_file(path, source.root, cache, overlay=overlay)
        diagnostics += [d for d in item.diagnostics if d.file == path]  # not the matter's own load errors
        clean = not any(d.severity is Severity.ERROR for d in item.diagnostics)
        if item.replay is not None and clean and path.stem not in results:
            results[path.stem] = item.replay.result
    expectations = load_expectations(source.root, overlay)
    if expectations is None or expectations.file is None:
        return diagnostics, []
    diagnostics += expectations.diagnostics
    scores = {stem: result["normalized_score"] for stem, result in results.items()}
    missed = []
    for stem, expectation in expectations.by_stem.items():
        if stem not in results:
            continue
        reference = scores.get(expectation.below) if expectation.below else None
        problems = expectation_failures(expectation, results[stem], reference)
        if problems:
            line = expectation.span.line if expectation.span is not None else None
            missed.append(MissedExpectation(stem, expectations.file, line, tuple(problems)))
    return diagnostics, missed


@dataclass(frozen=True)
class ProbeProblem:
    """A probe file's problem as `rubric check` reports it: where, and what."""

    file: Path
    line: int
    message: str


def probe_problems(source: MatterSource, path: Path, overlay: Overlay | None = None) -> list[ProbeProblem]:
    """What `rubric check` reports for one probe file: schema errors, and each probe whose
    gates do not behave as it declares."""
    from rubric_tools.checking.probes import run_probe_file

    if not source.ok:
        return []
    result = run_probe_file(path, source.matter, overlay)
    if result.problem is not None:
        line = re.match(r"line (\d+): ", result.problem)
        return [ProbeProblem(path, int(line.group(1)) if line else 1, result.problem)]
    problems = []
    for error in result.schema_errors:
        line = re.match(r"line (\d+): (.*)", error, re.DOTALL)
        problems.append(ProbeProblem(path, int(line.group(1)) if line else 1, line.group(2) if line else error))
    for outcome in result.failures:
        if outcome.problem is not None:
            problems.append(
                ProbeProblem(path, outcome.line, f"{outcome.surface}/{outcome.criterion}: {outcome.problem}")
            )
            continue
        expected = "fire" if outcome.expect_fire else "stay silent"
        got = f"fired {outcome.fired[-1]!r}" if outcome.fired else "stayed silent"
        problems.append(
            ProbeProblem(
                path,
                outcome.line,
                f"probe on the {outcome.surface} gates of {outcome.criterion!r} should {expected}, but the list {got}",
            )
        )
    return problems


def meant_citation(citation: str, candidates: list[str]) -> str | None:
    """The real citation an unresolved one most likely means, as A002's "did you mean"
    finds it: the one it merely re-spells (`MSA §4.2.`), else the nearest."""
    from rubric_tools.lint.citations import canonical_match, nearest_citation

    return canonical_match(citation, candidates) or nearest_citation(citation, candidates)


def points_of(source: MatterSource) -> list[MaxScoreItem]:
    """Every term of the matter's derived max_score (what `rubric max-score` tables)."""
    from rubric_tools.scoring.result import max_score_items

    return max_score_items(source.matter.rubric, source.matter.positions)


# --------------------------------------------------------------------------- fixes


#: Rounds of "fix all safe fixes in this file", as `rubric lint --fix` (ruff's fix loop).
FIX_ROUNDS = 10


def fix_file(root: Path, path: Path, overlay: Overlay, config: ProjectConfig) -> str | None:
    """The text of `path` (its buffer in `overlay`) with every safe fix of its own findings
    applied, round after round until none applies, as `rubric lint --fix` does, in memory;
    None when there is nothing to fix. Other files are never changed."""
    from rubric_tools.fixing.apply_fixes import apply_fixes

    current = dict(overlay)
    changed = False
    for _ in range(FIX_ROUNDS):
        findings = lint(load(root, current), config, current)
        fixes = [
            d.fix for d in findings if d.fix is not None and d.fix.safe and all(e.file == path for e in d.fix.edits)
        ]
        results = [result for result in apply_fixes(fixes, current) if result.applied and result.path == path]
        if not results:
            break
        current[path] = results[0].after.encode("utf-8")
        changed = True
    if not changed:
        return None
    return current[path].decode("utf-8")


# --------------------------------------------------------------------------- documentation


@dataclass(frozen=True)
class CodeDocumentation:
    """A diagnostic code's documentation, as `rubric explain CODE` shows it."""

    code: str
    name: str
    severity: Severity
    facts: tuple[tuple[str, str], ...]
    markdown: str  # the documentation body, Markdown
    summary: str
    is_rule: bool


def code_documentation(query: str) -> CodeDocumentation | None:
    """The documentation of a code (a lint rule or another family, by code or name), found
    through the one code registry `rubric explain` reads (a renamed code gives its new
    code's entry); None for an unknown code."""
    from rubric_tools.code_registry import lookup
    from rubric_tools.reporting.explain import docstring_markdown

    entry = lookup(query)
    if entry is None:
        return None
    if entry.is_rule:
        facts: tuple[tuple[str, str], ...] = (
            ("Default severity", entry.severity.value),
            ("Family", entry.family),
            ("Fixable", "yes" if entry.fixable else "no"),
        )
    else:
        facts = (("Severity", entry.severity.value), ("Family", entry.family), ("Kind", "not a lint rule"))
    return CodeDocumentation(
        entry.code, entry.name, entry.severity, facts, docstring_markdown(entry.doc), entry.summary, entry.is_rule
    )


def rule_codes() -> list[CodeDocumentation]:
    """Every code of the registry, lint rules first (U-codes are suppressible too)."""
    from rubric_tools.code_registry import entries

    found = [documented for entry in entries() if (documented := code_documentation(entry.code)) is not None]
    return sorted(found, key=lambda documented: not documented.is_rule)


#: AUTHORING.md, whose catalogue documents every code: shipped in the wheel as package
#: data (pyproject's force-include), beside the package in a checkout or editable install.
AUTHORING_FILES = (
    Path(__file__).resolve().parents[1] / "_docs" / "AUTHORING.md",
    Path(__file__).resolve().parents[2] / "AUTHORING.md",
)


def documentation_anchor(code: str) -> tuple[Path, int, str] | None:
    """Where AUTHORING.md's catalogue documents `code`: (the file, the 1-based line of its
    heading, the heading's GitHub anchor); None when no AUTHORING.md is installed."""
    return _catalogue_headings().get(code.upper())


@cache
def _catalogue_headings() -> Mapping[str, tuple[Path, int, str]]:
    for authoring in AUTHORING_FILES:
        try:
            text = authoring.read_text(encoding="utf-8")
        except OSError:
            continue
        return _headings(authoring, text)
    return {}


def _headings(authoring: Path, text: str) -> dict[str, tuple[Path, int, str]]:
    found: dict[str, tuple[Path, int, str]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        match = re.match(r"#{2,6} ([A-Z]\d{3}) .*", line)
        if match and match.group(1) not in found:
            found[match.group(1)] = (authoring, number, _github_anchor(line.lstrip("#").strip()))
    return found


def _github_anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


# --------------------------------------------------------------------------- schemas


#: The schema of each kind of matter file.
_SCHEMA_OF: dict[str, str] = {
    "matter.yaml": "matter",
    "rubric.yaml": "rubric",
    "hidden_facts.yaml": "hidden_facts",
    "counterparty.yaml": "counterparty",
    "expectations.yaml": "expectations",
    "probes": "probes",
    "trajectory": "trajectory",
}


def schema_for(kind: str) -> dict[str, Any] | None:
    """The JSON Schema of a kind of file (`rubric.yaml`, `probes`, `trajectory`...)."""
    name = _SCHEMA_OF.get(kind)
    return schema_named(name) if name is not None else None


def schema_named(name: str) -> dict[str, Any] | None:
    """A shipped JSON Schema by name (`rubric`, `action.schema.json`); None if unknown."""
    from rubric_tools.schemas import SchemaNotFoundError, load_schema

    try:
        return load_schema(name)
    except SchemaNotFoundError:
        return None
