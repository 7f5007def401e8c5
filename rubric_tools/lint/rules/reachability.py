"""Reachability rules (P1xx): can any trajectory earn the rubric's max_score?

P100 runs `rubric solve`'s solver and reports each point it could not earn at the YAML
node responsible: given the matter's model, the solver places each shortfall at the node
as written in the file.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from rubric_tools.diagnostics import Severity
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import Rule, rule
from rubric_tools.lint.rules import anchors, final, negotiation, points, questions, regexes, schema
from rubric_tools.prove.shortfalls import Reason
from rubric_tools.prove.solver import solve_model

HINTS: dict[Reason, str] = {
    Reason.BUDGET: "raise the constraint, or lower the points that need it",
    Reason.GATE_ON_REQUIRED_LANGUAGE: "narrow the gate (negation_guard, require_context) or reword the concept",
    Reason.SHADOWED_VARIANT: "put the more specific item first, or give it a distinctive variant",
    Reason.SETTLEMENT_NEVER_ACCEPTED: "make one accept_concepts variant compatible with the settlement concepts",
    Reason.UNREACHABLE_COMPONENT: "list what earns the component, or set its points to 0",
    Reason.DECLARED_MAX_MISMATCH: "delete max_score: the engine derives it from the rubric",
    Reason.MISSING_ANCHOR: "write the anchor as '<document id> §<section token>' of a loaded document",
    Reason.UNRESOLVABLE_CITATION: "cite a section that exists, as '<document id> §<section token>'",
    Reason.UNQUOTABLE_ANCHOR: "anchor the issue on a section with operative text, or set quote_points to 0",
    Reason.UNKNOWN_REQUIRED_ISSUE: "list only ids of issues in `issues`",
    Reason.REPLAY_MISMATCH: "this is a solver defect; run `rubric solve --format json` and report it",
}
# Rules that already explain a shortfall of this kind when they fire on the same node.
# There P100 only states the points out of reach and names them ("see A002"), so a
# defect is explained once; the point cost stays P100's.
COVERING_RULES: dict[Reason, tuple[Rule, ...]] = {
    Reason.BUDGET: (
        points.question_budget,
        points.escalation_budget,
        points.negotiation_round_budget,
        points.step_budget,
    ),
    Reason.GATE_ON_REQUIRED_LANGUAGE: (regexes.gate_matches_empty, regexes.gate_fires_on_correct_answer),
    Reason.SHADOWED_VARIANT: (questions.shadowed_variant, questions.unreachable_item),
    Reason.SETTLEMENT_NEVER_ACCEPTED: (
        negotiation.missing_accept_concepts,
        negotiation.non_negotiable_without_concepts,
    ),
    Reason.UNREACHABLE_COMPONENT: (
        points.unearnable_concept_points,
        points.unearnable_redline_points,
        points.unearnable_final_concept_points,
        questions.missing_concepts,
        questions.empty_concept,
        questions.duplicate_item_id,
        anchors.shared_anchor,
        anchors.non_canonical_anchor,
        anchors.anchor_on_preamble,
    ),
    Reason.DECLARED_MAX_MISMATCH: (points.max_score_mismatch,),
    Reason.MISSING_ANCHOR: (
        anchors.missing_anchor,
        anchors.unresolved_citation,
        anchors.non_canonical_anchor,
        schema.schema_type,
        schema.schema_required,
    ),
    Reason.UNRESOLVABLE_CITATION: (anchors.unresolved_citation, anchors.non_canonical_citation),
    Reason.UNQUOTABLE_ANCHOR: (anchors.anchor_on_preamble,),
    Reason.UNKNOWN_REQUIRED_ISSUE: (final.unknown_required_issue,),
}


class _OtherFindings:
    """The covering rules' findings on this matter, computed once and only if needed."""

    def __init__(self, ctx: LintContext) -> None:
        self.ctx = ctx
        self.by_code: dict[str, list[Finding]] = {}
        self._selected: set[str] | None = None

    def _active(self, code: str) -> bool:
        if self._selected is None:
            from rubric_tools.lint.engine import selected_rules  # the engine imports the rules

            self._selected = {r.code for r in selected_rules(self.ctx.config)}
        return code in self._selected

    def on_node(self, reason: Reason, finding: Finding) -> list[str]:
        """Codes of the selected covering rules that fire at the finding's node."""
        codes = []
        for rule_ in COVERING_RULES.get(reason, ()):
            code = rule_.code
            if not self._active(code):
                continue
            if code not in self.by_code:
                try:
                    self.by_code[code] = list(rule_.check(self.ctx))
                except Exception:  # that rule's own crash is reported by the engine
                    self.by_code[code] = []
            if any(_same_node(other, finding) for other in self.by_code[code]):
                codes.append(code)
        return codes


def _same_node(one: Finding, other: Finding) -> bool:
    return (
        one.file == other.file
        and one.span is not None
        and other.span is not None
        and (one.span.line, one.span.column) == (other.span.line, other.span.column)
    )


def _has_load_errors(ctx: LintContext) -> bool:
    return any(d.code.startswith("L") and d.severity is Severity.ERROR for d in ctx.load_diagnostics)


@rule("P100", "max-score-unreachable", Severity.ERROR)
def max_score_unreachable(ctx: LintContext) -> Iterator[Finding]:
    """No trajectory can earn the rubric's max_score: `rubric solve` names the points out of reach.

    What it catches: every point the solver of `rubric solve` cannot earn while it plays
    the matter from the rubric, the documents and the counterparty script alone — a
    required concept that trips the issue's own gate, a question every variant of which
    an earlier question wins, a settlement no acceptable markup can close, a component
    with nothing to earn it (concept_points without required_concepts, redline_points
    without redline_concepts), a budget too small for the work, an anchor or required
    citation that resolves to nothing, or a declared max_score that differs from the
    derived one. The finding sits on the node responsible and says how many points it
    costs. Where another rule already explains the same defect on the same node (A002 for
    an anchor naming a missing section, P001 for a stale max_score), P100 only states the
    points out of reach and says "see A002", so each defect is explained once.

    Why it matters: max_score is the denominator of every normalized score. A point no
    trajectory can earn makes a perfect agent look imperfect, shifts every comparison
    between agents, and usually hides a defect (a gate that punishes the rubric's own
    required language is the common one).

    Bad:

    ```yaml
    issues:
      - id: uptime_credit
        anchor: "hosting §3.1"
        required_concepts: ["service credit", "unenforceable"]
        critical_failure_patterns:
          - "unenforceable"
    ```

    Good:

    ```yaml
    issues:
      - id: uptime_credit
        anchor: "hosting §3.1"
        required_concepts: ["service credit", "99.9"]
        critical_failure_patterns:
          - pattern: "uptime commitments are unenforceable"
            negation_guard: true
    ```
    """
    if _has_load_errors(ctx):
        return  # the load rules report why the matter cannot be read as written
    others = _OtherFindings(ctx)
    for shortfall in solve_model(ctx.model).shortfalls:
        points = abs(shortfall.points)
        plural = "s" if points != 1 else ""
        # A declared max_score below the derived one is no shortfall: the rubric awards more.
        cost = (
            f"{points:g} point{plural} of max_score"
            if shortfall.points >= 0
            else f"max_score {points:g} point{plural} below what the rubric awards"
        )
        headline = f"{cost} out of reach" if shortfall.points >= 0 else cost
        critical = "; every trajectory is a critical failure" if shortfall.critical else ""
        finding = ctx.at(
            shortfall.file,
            shortfall.path,
            f"{shortfall.message} ({shortfall.reason.value}: {cost}{critical})",
            hint=HINTS[shortfall.reason],
        )
        covered = others.on_node(shortfall.reason, finding)
        if covered:
            finding = replace(
                finding,
                message=f"{headline} ({shortfall.reason.value}{critical}): see {', '.join(covered)}",
                fix_hint=f"fix {', '.join(covered)} on this node",
            )
        yield finding
