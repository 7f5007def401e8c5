"""Point rules (P0xx): is every point in max_score earnable within the matter's budgets?

The derived max_score is the scorer's own (`derived_max_score`), never a copy, and
values come from the typed model so that the engine's defaults apply. Budget rules
count a *minimal* perfect trajectory, so each finding is a proof that no trajectory
can reach 1.0 — never a guess.
"""

from __future__ import annotations

from collections.abc import Iterator

from rubric_tools.diagnostics import Severity
from rubric_tools.fixing.fixes import Applicability, Fix
from rubric_tools.fixing.yaml_edits import render_number, replace_value
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.plans import round_plan, step_plan
from rubric_tools.lint.registry import rule
from rubric_tools.loading.elements import IssueElement, Location
from rubric_tools.loading.matter import RUBRIC_FILE
from rubric_tools.scoring.result import derived_max_score

TOLERANCE = 1e-9


def _number(value: float) -> str:
    return f"{value:g}"


def _points_node(issue: IssueElement, key: str) -> Location:
    # Point at the points where they are written; a defaulted value belongs to the issue.
    return issue.at(key) if issue.has(key) else issue.location


def _constraint_finding(ctx: LintContext, key: str, message: str, hint: str) -> Finding:
    constraints = ctx.model.constraints
    value = getattr(constraints.scored, key)
    shown = f"{key} {value}" if constraints.has(key) else f"{key} {value} (the default; not set in matter.yaml)"
    return ctx.report(constraints.at(key), f"{message} {shown}", hint=hint)


@rule("P001", "max-score-mismatch", Severity.ERROR, fixable=True)
def max_score_mismatch(ctx: LintContext) -> Iterator[Finding]:
    """The declared max_score differs from what the rubric awards.

    What it catches: a `max_score` in `rubric.yaml` that is not equal to the value
    the engine derives from the rubric — every question's and escalation's points,
    the six components of each issue, the settlement points of each negotiated issue,
    and the final submission's points and concept points.

    Why it matters: the engine trusts a declared max_score and divides by it. Too
    high and a perfect run scores below 1.0; too low and imperfect runs are clamped
    to 1.0. It drifts silently every time a point value is edited, which is why the
    shipped matters leave it out.

    Bad:

    ```yaml
    max_score: 4.0
    questions:
      - id: q_backup_region
        points: 0.5
    ```

    Good:

    ```yaml
    # no max_score: the engine derives it from the rubric
    questions:
      - id: q_backup_region
        points: 0.5
    ```
    """
    rubric = ctx.matter.rubric
    declared = rubric.max_score
    if declared is None:
        return
    derived = derived_max_score(rubric, ctx.matter.positions)
    if abs(declared - derived) <= TOLERANCE:
        return
    final = rubric.final_submission
    parts = [
        ("questions", sum(q.points for q in rubric.questions)),
        ("escalations", sum(e.points for e in rubric.escalations)),
        ("issues", sum(i.work_product_points for i in rubric.issues)),
        ("settlements", sum(i.settlement_points for i in rubric.issues if i.id in ctx.matter.positions)),
        ("final", final.points + final.concept_points),
    ]
    arithmetic = " + ".join(f"{_number(value)} {name}" for name, value in parts if value)
    yield ctx.report(
        ctx.model.file(RUBRIC_FILE).at("max_score"),
        f"declared max_score {_number(declared)} but the rubric awards {_number(derived)} ({arithmetic or '0'})",
        hint=f"delete max_score (the engine derives {_number(derived)}) or set it to {_number(derived)}",
        fix=_max_score_fix(ctx, derived),
    )


def _max_score_fix(ctx: LintContext, derived: float) -> Fix | None:
    """Write the derived value: unsafe, since every normalized score changes with it."""
    source = ctx.model.file(RUBRIC_FILE).location.source
    if source is None or ctx.model.max_score is None:
        return None
    edit = replace_value(source, ("max_score",), render_number(derived), derived)
    if edit is None:
        return None
    return Fix(f"set max_score to the derived {render_number(derived)}", (edit,), Applicability.UNSAFE)


@rule("P002", "unearnable-concept-points", Severity.ERROR)
def unearnable_concept_points(ctx: LintContext) -> Iterator[Finding]:
    """An issue awards concept points but lists no required_concepts to earn them with.

    What it catches: an issue whose `concept_points` (0.5 by default) is positive
    while `required_concepts` is missing or empty.

    Why it matters: the engine awards 0.0 concept points when there are no concepts,
    yet the points stay in the derived max_score. No trajectory can reach 1.0.

    Bad:

    ```yaml
    - id: uptime_credit
      anchor: "hosting §3.1"
      concept_points: 0.5
    ```

    Good:

    ```yaml
    - id: uptime_credit
      anchor: "hosting §3.1"
      concept_points: 0.5
      required_concepts: ["service credit", "99.9"]
    ```
    """
    for element in ctx.model.issues:
        issue = element.scored
        if issue.concept_points > 0 and not issue.required_concepts:
            yield ctx.report(
                _points_node(element, "concept_points"),
                f"issue {issue.id!r} awards concept_points {_number(issue.concept_points)} "
                "but has no required_concepts: they count in max_score and can never be earned",
                hint="list the required_concepts, or set concept_points: 0",
            )


@rule("P003", "unearnable-redline-points", Severity.ERROR)
def unearnable_redline_points(ctx: LintContext) -> Iterator[Finding]:
    """An issue awards redline points but lists no redline_concepts to earn them with.

    What it catches: an issue whose `redline_points` (1.0 by default) is positive
    while `redline_concepts` is missing or empty.

    Why it matters: without redline concepts the engine records every redline as
    `unscored_redline` (0.0), yet the points stay in the derived max_score. Because
    the default is 1.0, simply forgetting `redline_points: 0` on an issue that needs
    no redline has the same effect.

    Bad:

    ```yaml
    - id: uptime_credit
      anchor: "hosting §3.1"
      # redline_points defaults to 1.0
    ```

    Good:

    ```yaml
    - id: uptime_credit
      anchor: "hosting §3.1"
      redline_concepts: ["service credit"]
    ```
    """
    for element in ctx.model.issues:
        issue = element.scored
        if issue.redline_points > 0 and not issue.redline_concepts:
            default = "" if element.has("redline_points") else " (the default)"
            yield ctx.report(
                _points_node(element, "redline_points"),
                f"issue {issue.id!r} awards redline_points {_number(issue.redline_points)}{default} "
                "but has no redline_concepts: they count in max_score and can never be earned",
                hint="list the redline_concepts, or set redline_points: 0",
            )


@rule("P004", "unearnable-final-concept-points", Severity.ERROR)
def unearnable_final_concept_points(ctx: LintContext) -> Iterator[Finding]:
    """The final submission awards concept points but lists no required_concepts.

    What it catches: `final_submission.concept_points` positive while
    `final_submission.required_concepts` is missing or empty.

    Why it matters: the engine scores final concept points only against
    `required_concepts`; with none, nothing is ever awarded, yet the points are in the
    derived max_score.

    Bad:

    ```yaml
    final_submission:
      points: 0.5
      concept_points: 0.5
    ```

    Good:

    ```yaml
    final_submission:
      points: 0.5
      concept_points: 0.5
      required_concepts: ["service credit"]
    ```
    """
    final = ctx.matter.rubric.final_submission
    if final.concept_points > 0 and not final.required_concepts:
        yield ctx.report(
            ctx.model.final_submission.at("concept_points"),
            f"final_submission awards concept_points {_number(final.concept_points)} but has no "
            "required_concepts: they count in max_score and can never be earned",
            hint="list the required_concepts the summary must name, or remove concept_points",
        )


def _scored(points: list[float]) -> int:
    return sum(1 for p in points if p > 0)


@rule("P005", "question-budget", Severity.ERROR)
def question_budget(ctx: LintContext) -> Iterator[Finding]:
    """There are more scored questions than the client-question budget allows.

    What it catches: more questions with positive `points` than
    `constraints.maximum_client_questions` (5 by default).

    Why it matters: every question consumes the budget, so at least one scored
    question can never be asked and its points can never be earned: no trajectory
    reaches 1.0.

    Bad:

    ```yaml
    constraints:
      maximum_client_questions: 1
    # rubric.yaml has two questions worth 0.5 each
    ```

    Good:

    ```yaml
    constraints:
      maximum_client_questions: 3
    ```
    """
    scored = _scored([q.points for q in ctx.matter.rubric.questions])
    if scored > ctx.matter.constraints.maximum_client_questions:
        yield _constraint_finding(
            ctx,
            "maximum_client_questions",
            f"{scored} scored questions cannot all be asked within",
            "raise the budget or drop a question",
        )


@rule("P006", "escalation-budget", Severity.ERROR)
def escalation_budget(ctx: LintContext) -> Iterator[Finding]:
    """There are more scored escalations than the escalation budget allows.

    What it catches: more escalations with positive `points` than
    `constraints.maximum_escalations` (2 by default).

    Why it matters: every escalation consumes the budget, so at least one scored
    escalation can never be raised — its points are lost and, if it is `required`,
    the final submission is penalised on every run.

    Bad:

    ```yaml
    constraints:
      maximum_escalations: 1
    # rubric.yaml has two escalations worth 0.5 each
    ```

    Good:

    ```yaml
    constraints:
      maximum_escalations: 2
    ```
    """
    scored = _scored([e.points for e in ctx.matter.rubric.escalations])
    if scored > ctx.matter.constraints.maximum_escalations:
        yield _constraint_finding(
            ctx,
            "maximum_escalations",
            f"{scored} scored escalations cannot all be raised within",
            "raise the budget or drop an escalation",
        )


@rule("P007", "negotiation-round-budget", Severity.ERROR)
def negotiation_round_budget(ctx: LintContext) -> Iterator[Finding]:
    """Settling every negotiated issue needs more rounds than the negotiation budget allows.

    What it catches: a matter whose negotiated issues need, all together, more rounds
    than `constraints.maximum_negotiation_rounds` (8 by default). An issue needs
    `resist_rounds + 1` markups to close on the agent's language — or fewer when
    accepting an earlier counter would earn its full settlement points without
    tripping a gate; the rule counts the cheaper way.

    Why it matters: every markup and every acceptance burns a round. When the budget
    runs out first, some settlement points can never be earned.

    Bad:

    ```yaml
    # matter.yaml
    constraints:
      maximum_negotiation_rounds: 2
    # counterparty.yaml
    positions:
      uptime_credit:
        resist_rounds: 2
    ```

    Good:

    ```yaml
    constraints:
      maximum_negotiation_rounds: 4
    ```
    """
    if not ctx.matter.negotiation_enabled:
        return
    plan = round_plan(ctx.matter)
    budget = ctx.matter.constraints.maximum_negotiation_rounds
    if plan.total > budget:
        yield _constraint_finding(
            ctx,
            "maximum_negotiation_rounds",
            f"settling every negotiated issue needs {plan.arithmetic()} rounds, more than",
            f"raise maximum_negotiation_rounds to at least {plan.total}, or lower resist_rounds",
        )


@rule("P008", "step-budget", Severity.ERROR)
def step_budget(ctx: LintContext) -> Iterator[Finding]:
    """Earning every point needs more steps than the step budget allows.

    What it catches: `constraints.maximum_steps` (30 by default) smaller than the
    shortest trajectory that earns every point: one read per document holding an
    issue anchor (a whole-document read records every section, and anchors must be
    read before issue credit; other citations need not be read), one ask per scored
    question, one escalation per scored escalation, one submit_issue per issue, one
    propose_redline per issue with earnable redline points, the negotiation rounds
    P007 counts, and the submit_final.

    Why it matters: the episode is truncated at the budget; the points after it can
    never be earned, so even a flawless agent cannot reach 1.0.

    Bad:

    ```yaml
    constraints:
      maximum_steps: 5
    # 1 read + 1 ask + 1 escalate + 1 submit_issue + 1 redline + 1 round + 1 final = 7
    ```

    Good:

    ```yaml
    constraints:
      maximum_steps: 20
    ```
    """
    plan = step_plan(ctx.matter)
    budget = ctx.matter.constraints.maximum_steps
    if plan.total > budget:
        yield _constraint_finding(
            ctx,
            "maximum_steps",
            f"a minimal perfect trajectory needs {plan.arithmetic()} steps, more than",
            f"raise maximum_steps to at least {plan.total}",
        )
