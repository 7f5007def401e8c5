"""`rubric solve` and `rubric attack` as library functions returning the exit code.

Exit codes: solve 0 when max_score is reached, 1 when points fall short; attack 0
when every threshold holds, 1 when one fails; both 1 when the matter has lint errors
(a proof of a rubric that does not lint says nothing), 2 on input errors (no matter,
a matter file that cannot be read, an unwritable --write file, a bad configuration).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from rich.console import Console

from rubric_tools.commands.common import EXIT_FINDINGS, EXIT_USAGE, output_width
from rubric_tools.config.errors import ConfigError
from rubric_tools.config.lint import LintSection
from rubric_tools.config.resolve import resolve_config
from rubric_tools.diagnostics import Severity
from rubric_tools.lint.vocabulary import CONFIG_VOCABULARY
from rubric_tools.loading.layout import MATTER_FILE, is_matter
from rubric_tools.loading.matter import MatterSource, load_matter_source
from rubric_tools.prove.render import render_attack_text, render_solution_text
from rubric_tools.prove.solver import solve
from rubric_tools.reporting import safe_output
from rubric_tools.scoring.json_values import json_default


def load_for_proof(path: Path, err: TextIO) -> MatterSource | None:
    """The matter at `path`, or None (with a message on `err`) when it cannot be proved:
    no matter.yaml there, or a matter file the loader could not read as written."""
    root = path.parent if path.is_file() else path
    if not is_matter(root):
        err.write(f"error: {path} is not a matter folder (no {MATTER_FILE})\n")
        return None
    source = load_matter_source(root)
    load_errors = [d for d in source.diagnostics if d.code.startswith("L") and d.severity is Severity.ERROR]
    for diagnostic in load_errors:
        err.write(
            f"error: {diagnostic.file}:{diagnostic.line}:{diagnostic.column}: {diagnostic.code} {diagnostic.message}\n"
        )
    return None if load_errors else source


def lint_errors_noted(source: MatterSource, command: str, err: TextIO, config: LintSection | None = None) -> bool:
    """True (with the findings on `err`) when the matter has lint errors. The proof still
    runs, since its output explains many of them, but the command then exits 1: a proof
    of a rubric that does not lint is no green light. P100 is left out: its findings
    are the solver's shortfalls, which `rubric solve` prints itself."""
    from rubric_tools.lint.engine import lint_source, selected_rules
    from rubric_tools.lint.rules.reachability import max_score_unreachable

    configured = config or LintSection()
    settings = replace(configured, ignore=(*configured.ignore, max_score_unreachable.code))
    report = lint_source(source, settings, selected_rules(settings))
    errors = [d for d in report.diagnostics if d.severity is Severity.ERROR]
    if not errors:
        return False
    count = f"{len(errors)} lint error{'s' if len(errors) != 1 else ''}"
    err.write(
        f"error: {source.root} has {count}, so `rubric {command}` exits 1 whatever it finds "
        f"(run `rubric lint {source.root}`):\n"
    )
    for diagnostic in errors[:10]:
        err.write(
            f"  {diagnostic.file}:{diagnostic.line}:{diagnostic.column}: {diagnostic.code} {diagnostic.message}\n"
        )
    if len(errors) > 10:
        err.write(f"  ... and {len(errors) - 10} more\n")
    return True


def write_trajectory(actions: Sequence[object], destination: Path) -> None:
    """The trajectory as YAML for a `.yaml`/`.yml` destination, else as JSONL."""
    from rubric_tools.loading.trajectory import is_yaml_trajectory
    from rubric_tools.loading.trajectory_writer import actions_to_jsonl, actions_to_yaml

    text = actions_to_yaml(actions) if is_yaml_trajectory(destination) else actions_to_jsonl(actions)
    destination.write_text(text, encoding="utf-8")


def run_solve(
    path: Path, write: Path | None, output_format: str, out: TextIO, err: TextIO, *, no_color: bool = False
) -> int:
    """Solve the matter at `path`, print the proof, optionally write the trajectory."""
    source = load_for_proof(path, err)
    if source is None:
        return EXIT_USAGE
    try:
        config = resolve_config([source.root], CONFIG_VOCABULARY)
    except ConfigError as exc:
        err.write(f"error: {exc}\n")
        return EXIT_USAGE
    lint_failed = lint_errors_noted(source, "solve", err, config.lint)
    solution = solve(source.matter, model=source.model)
    if write is not None:
        try:
            write_trajectory(solution.actions, write)
        except OSError as exc:
            err.write(f"error: cannot write {write}: {exc.strerror or exc}\n")
            return EXIT_USAGE
    if output_format == "json":
        document = solution.to_json()
        document["trajectory"] = list(solution.actions)
        if write is not None:
            document["written_to"] = str(write)
        out.write(safe_output.dumps(document, default=json_default) + "\n")
    else:
        render_solution_text(solution, Console(file=out, no_color=no_color, highlight=False, width=output_width(out)))
        if write is not None:
            out.write(f"trajectory written to {write}\n")
    return EXIT_FINDINGS if lint_failed else solution.exit_code


def run_attack(
    path: Path, output_format: str, out: TextIO, err: TextIO, *, config_file: Path | None = None, no_color: bool = False
) -> int:
    """Replay every reward-hacking strategy against the matter at `path`."""
    from rubric_tools.prove.attacks import attack_matter

    source = load_for_proof(path, err)
    if source is None:
        return EXIT_USAGE
    try:
        config = resolve_config([source.root], CONFIG_VOCABULARY, config_file)
    except ConfigError as exc:
        err.write(f"error: {exc}\n")
        return EXIT_USAGE
    lint_failed = lint_errors_noted(source, "attack", err, config.lint)
    report = attack_matter(source, config.attack)
    if output_format == "json":
        out.write(safe_output.dumps(report.to_json(), default=json_default) + "\n")
    else:
        render_attack_text(report, Console(file=out, no_color=no_color, highlight=False, width=output_width(out)))
    return EXIT_FINDINGS if lint_failed else report.exit_code
