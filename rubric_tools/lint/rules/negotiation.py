"""Negotiation rules (N0xx): counterparty.yaml and the settlement fields of rubric issues.

What a settlement is worth is decided by the closing text alone (engine.md §3):
`settlement_points` × the fraction of `settlement_concepts` present, with the
settlement gates and the non-negotiable check able to turn it into a critical
failure. `rubric_tools.lint.plans.closing_outcome` evaluates a candidate closing
text exactly that way, with the scorer's own concept matching and gates.
"""

from __future__ import annotations

from collections.abc import Iterator

from rubric_tools.diagnostics import Severity
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.plans import closing_outcome
from rubric_tools.lint.registry import rule
from rubric_tools.loading.elements import IssueElement, PositionElement
from rubric_tools.loading.matter import COUNTERPARTY_FILE

#: Fields read only when the issue has a position. (Settlement gates on an issue
#: without one are reported by G009, settlement-gate-without-position.)
DEAD_WITHOUT_POSITION = ("non_negotiable", "settlement_concepts", "settlement_points")


def _positions(ctx: LintContext) -> Iterator[PositionElement]:
    """The positions written as mappings (any other value is the schema rules' finding)."""
    return (position for position in ctx.model.positions if position.mapping)


@rule("N001", "position-for-unknown-issue", Severity.ERROR)
def position_for_unknown_issue(ctx: LintContext) -> Iterator[Finding]:
    """A counterparty position is keyed to an id that is not a rubric issue.

    What it catches: a key of `counterparty.yaml`'s `positions` that is not the `id`
    of any issue in `rubric.yaml`.

    Why it matters: positions are looked up by issue id, so this script is never
    used; the issue it was written for (usually a renamed id) is not negotiated at
    all: every markup on it is `unsupported_markup` (−0.5) and its settlement points
    are silently left out of max_score.

    Bad:

    ```yaml
    positions:
      uptime_credits:          # the rubric issue is uptime_credit
        accept_concepts: [["service credit"]]
    ```

    Good:

    ```yaml
    positions:
      uptime_credit:
        accept_concepts: [["service credit"]]
    ```
    """
    issue_ids = ctx.model.issue_ids()
    for position in _positions(ctx):
        if position.issue_id not in issue_ids:
            yield ctx.report(
                position,
                f"position {position.issue_id!r} is not a rubric issue id; the engine never uses it",
                key=True,
                hint=f"rename it to the id of the issue it negotiates (one of: {', '.join(sorted(issue_ids))})"
                if issue_ids
                else "add the issue to rubric.yaml or delete the position",
            )


@rule("N002", "missing-accept-concepts", Severity.ERROR)
def missing_accept_concepts(ctx: LintContext) -> Iterator[Finding]:
    """A position cannot accept the agent's language: no accept_concepts, or an empty variant.

    What it catches: a position with `accept_concepts` missing or empty, and every
    empty variant (`[]`) in `accept_concepts`.

    Why it matters: the counterparty accepts a markup only when every concept of a
    non-empty variant is in it. With none, the agent's own language can never close
    the issue — however good it is. An empty variant is never used by the engine; it
    usually stands for a concept list that was never written (it does not mean
    "accept anything").

    Bad:

    ```yaml
    uptime_credit:
      accept_concepts:
        - []
    ```

    Good:

    ```yaml
    uptime_credit:
      accept_concepts:
        - ["service credit"]
    ```
    """
    for position in _positions(ctx):
        written = position.field("accept_concepts")
        # Any non-empty list can close the position, whatever its entries (the schema checks those).
        if written is None or not isinstance(written.value, list) or not written.value:
            what = "an empty accept_concepts" if written is not None else "no accept_concepts"
            yield ctx.report(
                written.location if written is not None else position.location,
                f"position {position.issue_id!r} has {what}: the agent's language can never close it",
                key=True,
                hint='add the concept lists the counterparty accepts, e.g. accept_concepts: [["service credit"]]',
            )
            continue
        for variant in position.accept_concepts:
            if not variant.concepts:
                index = variant.location.path[-1]
                yield ctx.report(
                    variant,
                    f"position {position.issue_id!r}: accept_concepts[{index}] is empty and never matches any text",
                    hint="write the concepts this variant needs, or delete it",
                )


@rule("N003", "missing-reject-message", Severity.WARNING)
def missing_reject_message(ctx: LintContext) -> Iterator[Finding]:
    """A position has no reject_message for when its counters run out.

    What it catches: a position without a non-blank `reject_message`.

    Why it matters: once every counter has been served, each further unacceptable
    markup is answered with the reject message. Without one the agent receives an
    empty reply and cannot tell a refusal from a malfunction.

    Bad:

    ```yaml
    uptime_credit:
      accept_concepts: [["service credit"]]
    ```

    Good:

    ```yaml
    uptime_credit:
      accept_concepts: [["service credit"]]
      reject_message: That is our final offer on credits.
    ```
    """
    for position in _positions(ctx):
        if position.reject_message is None or not position.reject_message.strip():
            present = position.has("reject_message")
            what = "a blank reject_message" if present else "no reject_message"
            yield ctx.report(
                position.at("reject_message") if present else position.location,
                f"position {position.issue_id!r} has {what}: "
                "a markup refused after the last counter gets an empty reply",
                key=True,
                hint="add reject_message: the counterparty's final refusal, in its own words",
            )


@rule("N004", "incomplete-counter", Severity.ERROR)
def incomplete_counter(ctx: LintContext) -> Iterator[Finding]:
    """A counter's `message` or `text` is blank.

    What it catches: an entry of a position's `counters` whose `message` (what the
    counterparty says) or `text` (the clause it offers) is an empty or
    whitespace-only string. (A counter without the key at all is a schema finding,
    S002, and is not reported twice.)

    Why it matters: the `text` is what the issue closes on if the agent accepts the
    counter, and what the settlement is scored on; a blank one closes the issue on an
    empty clause. The `message` is all the agent sees of the counter.

    Bad:

    ```yaml
    counters:
      - message: We can offer a smaller credit.
        text: ""
    ```

    Good:

    ```yaml
    counters:
      - message: We can offer a smaller credit.
        text: Host will provide a five percent service credit for each month below 99.9 percent.
    ```
    """
    for position in _positions(ctx):
        for counter in position.counters:
            for name, value in (("message", counter.message), ("text", counter.text)):
                # Absent or non-string values are the schema's findings; blank strings pass it.
                if value is not None and not value.strip():
                    what = (
                        "the agent sees an empty reply"
                        if name == "message"
                        else "accepting it closes the issue on an empty clause"
                    )
                    yield ctx.report(
                        counter.at(name),
                        f"position {position.issue_id!r} counter {counter.index + 1} has a blank {name}: {what}",
                        hint="a counter needs message (what is said) and text (the clause offered)",
                    )


def _issues_with_positions(ctx: LintContext) -> Iterator[tuple[IssueElement, bool]]:
    positions = ctx.model.position_table
    for issue in ctx.model.issues:
        issue_id = issue.written_text("id")
        yield issue, issue_id is not None and issue_id in positions


def _has_concepts(issue: IssueElement) -> bool:
    """True unless settlement_concepts is absent or empty. A value of the wrong type is
    the schema rules' finding, so it is not reported again as missing here."""
    if issue.settlement_concepts is not None:
        return bool(issue.settlement_concepts.concepts)
    written = issue.field("settlement_concepts")
    return written is not None and written.value is not None


@rule("N005", "settlement-scaffold", Severity.WARNING)
def settlement_scaffold(ctx: LintContext) -> Iterator[Finding]:
    """A negotiated issue has no settlement_concepts: any closing text earns full points.

    What it catches: an issue with a counterparty position and positive
    `settlement_points` (1.0 by default) but no `settlement_concepts`. (A
    `non_negotiable` one is N006's, stronger, finding.)

    Why it matters: with no concepts the engine awards the full settlement points on
    whatever the issue closes on — the counterparty's worst counter included. It is
    the max-score scaffold, not a grading: nothing checks what was agreed.

    Bad:

    ```yaml
    - id: uptime_credit
      anchor: "hosting §3.1"
      settlement_points: 1.0
    ```

    Good:

    ```yaml
    - id: uptime_credit
      anchor: "hosting §3.1"
      settlement_points: 1.0
      settlement_concepts: ["service credit"]
    ```
    """
    for element, negotiated in _issues_with_positions(ctx):
        # By id, as the engine settles it: with a duplicate id the last issue's points count.
        settled = ctx.model.issue_by_id(str(element.id))
        if not negotiated or settled is None or _has_concepts(element) or element.scored.non_negotiable:
            continue
        issue = settled.scored
        if issue.settlement_points <= 0:
            continue
        node = next((k for k in ("settlement_concepts", "settlement_points") if element.has(k)), None)
        yield ctx.report(
            element.at(node) if node else element.location,
            f"issue {issue.id!r} is negotiated but has no settlement_concepts: any closing text, "
            f"however bad, earns the full settlement_points {issue.settlement_points:g}",
            key=node is not None,
            hint="list the settlement_concepts the closing clause must contain",
        )


@rule("N006", "non-negotiable-without-concepts", Severity.ERROR)
def non_negotiable_without_concepts(ctx: LintContext) -> Iterator[Finding]:
    """A negotiated issue is `non_negotiable` but has no settlement_concepts, so its gate can never fire.

    What it catches: `non_negotiable: true` on an issue with a counterparty position
    and no `settlement_concepts`.

    Why it matters: the non-negotiable gate fires when a settlement concept is
    missing from the closing text. With no concepts nothing is ever missing: conceding
    the point the client said not to concede is scored as a full-points settlement.

    Bad:

    ```yaml
    - id: uptime_credit
      anchor: "hosting §3.1"
      non_negotiable: true
    ```

    Good:

    ```yaml
    - id: uptime_credit
      anchor: "hosting §3.1"
      non_negotiable: true
      settlement_concepts: ["service credit"]
    ```
    """
    for issue, negotiated in _issues_with_positions(ctx):
        if negotiated and issue.scored.non_negotiable and not _has_concepts(issue):
            yield ctx.report(
                issue.at("non_negotiable"),
                f"issue {issue.written_repr('id')} is non_negotiable but has no settlement_concepts: "
                "the non-negotiable gate can never fire",
                hint="list the settlement_concepts that must survive the negotiation",
            )


@rule("N007", "dead-settlement-fields", Severity.WARNING)
def dead_settlement_fields(ctx: LintContext) -> Iterator[Finding]:
    """Settlement fields on an issue the counterparty does not negotiate have no effect.

    What it catches: `non_negotiable: true`, `settlement_concepts` or
    `settlement_points` on an issue with no position in `counterparty.yaml` (or in a
    matter without one). Settlement gates on such an issue are G009's finding.

    Why it matters: settlement is scored only for issues with a position, so these
    fields are never read — the settlement points are not even in max_score. Either
    the position is missing (often keyed to a misspelled id) and the author believes a
    negotiation is being graded, or the fields are leftovers that mislead reviewers.

    Bad:

    ```yaml
    # no counterparty.yaml position for this issue
    - id: uptime_credit
      anchor: "hosting §3.1"
      non_negotiable: true
    ```

    Good:

    ```yaml
    - id: uptime_credit
      anchor: "hosting §3.1"
    ```
    """
    where = (
        "counterparty.yaml has no position for it"
        if ctx.model.file(COUNTERPARTY_FILE).mapping
        else "the matter has no counterparty.yaml"
    )
    for issue, negotiated in _issues_with_positions(ctx):
        if negotiated:
            continue
        # non_negotiable: false is harmless; only a true one misleads.
        dead = [
            key
            for key in DEAD_WITHOUT_POSITION
            if issue.has(key) and (key != "non_negotiable" or issue.scored.non_negotiable)
        ]
        for key in dead:
            yield ctx.report(
                issue.at(key),
                f"issue {issue.written_repr('id')}: {key} has no effect, {where}",
                key=True,
                hint="add a counterparty position for this issue, or delete the field",
            )


@rule("N008", "trap-not-a-trap", Severity.WARNING)
def trap_not_a_trap(ctx: LintContext) -> Iterator[Finding]:
    """A counter marked `trap: true` would be safe to accept.

    What it catches: a counter annotated `trap: true` whose `text`, if the agent
    accepted it, trips none of the issue's settlement gates and misses none of a
    non-negotiable issue's settlement concepts — decided by running the scorer's own
    settlement logic on the counter text.

    Why it matters: a trap exists to test whether the agent spots a client-harming
    concession; a trap that scores no critical failure tests nothing, and the matter
    quietly rewards the capitulation it was written to catch. Usually a gate pattern
    does not match the counter's actual wording.

    Bad:

    ```yaml
    # rubric.yaml: settlement_critical_failure_patterns: ["five percent"]
    counters:
      - message: We can offer a smaller credit.
        text: Host will provide a 5% service credit.
        trap: true
    ```

    Good:

    ```yaml
    # rubric.yaml: settlement_critical_failure_patterns: ['\\b(?:five|5) ?(?:percent|%)']
    counters:
      - message: We can offer a smaller credit.
        text: Host will provide a 5% service credit.
        trap: true
    ```
    """
    for position in _positions(ctx):
        element = ctx.model.issue_by_id(position.issue_id)
        if element is None:
            continue
        issue = element.scored
        for counter in position.counters:
            if not counter.scored.trap:
                continue
            outcome = closing_outcome(issue, counter.scored.text)
            if outcome.critical or outcome.undecided:
                continue
            partial = f" and still earns {outcome.points:g} of {issue.settlement_points:g}"
            yield ctx.report(
                counter.at("trap"),
                f"counter {counter.index + 1} of {position.issue_id!r} is marked as a trap, but accepting it trips "
                f"no settlement gate and misses no non-negotiable concept{partial}",
                hint="add a settlement_critical_failure_patterns entry matching its text, "
                "mark the issue non_negotiable, or drop trap: true",
            )
