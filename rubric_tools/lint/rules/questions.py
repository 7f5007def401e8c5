"""Question and escalation rules (Q001-Q004, Q007, Q008): can each item be matched?

The matcher is first-wins in rubric order over non-empty variants (see
`rubric_tools.lint.match_items`, which also explains why shadowing is sound). The
rules about the hidden answers the items reveal live in `answers.py`.
"""

from __future__ import annotations

from collections.abc import Iterator

from rubric_tools.diagnostics import Severity
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.match_items import KINDS, all_items, items, shadow_report
from rubric_tools.lint.registry import rule


@rule("Q001", "missing-concepts", Severity.ERROR)
def missing_concepts(ctx: LintContext) -> Iterator[Finding]:
    """A question or escalation has no concepts and no alias, so nothing can match it.

    What it catches: an item whose `concepts` is missing or empty and that has no
    non-empty `aliases` list either.

    Why it matters: the matcher only accepts a non-empty variant, so no question or
    escalation the agent writes can ever match the item. Its `points` still enter the
    derived max_score: every run loses them, and the hidden answer is never revealed.

    Bad:

    ```yaml
    questions:
      - id: q_backup_region
        points: 0.5
        concepts: []
    ```

    Good:

    ```yaml
    questions:
      - id: q_backup_region
        points: 0.5
        concepts: ["backup", "region"]
    ```
    """
    for item in all_items(ctx):
        if item.live_variants() or item.malformed():
            continue
        key = "concepts" if item.element.has("concepts") else "id"
        yield ctx.report(
            item.element.at(key),
            f"{item.name()} has no concepts and no alias to match on: no text can ever match it",
            key=key == "concepts",
            hint='list the phrases that identify it, e.g. concepts: ["backup", "region"]',
        )


@rule("Q002", "aliases-without-concepts", Severity.WARNING)
def aliases_without_concepts(ctx: LintContext) -> Iterator[Finding]:
    """A question or escalation matches only through its aliases; `concepts` is empty.

    What it catches: an item with a missing or empty `concepts` list whose aliases
    still give it something to match on (with no alias at all, Q001 reports it).

    Why it matters: the item works, but `concepts` is the variant everyone reads
    first — reviewers, `rubric explain`, the scoring contract's examples — and it is
    tried first. An empty one usually means the primary phrase was moved into
    `aliases` by mistake, or a key was misspelled (`concept:`).

    Bad:

    ```yaml
    - id: q_backup_region
      aliases:
        - ["backup", "region"]
        - ["where", "backups"]
    ```

    Good:

    ```yaml
    - id: q_backup_region
      concepts: ["backup", "region"]
      aliases:
        - ["where", "backups"]
    ```
    """
    for item in all_items(ctx):
        concepts = item.element.concepts
        if concepts is not None and concepts.concepts or not item.live_variants() or item.malformed():
            continue
        present = item.element.has("concepts")
        yield ctx.report(
            item.element.at("concepts" if present else "id"),
            f"{item.name()} has {'an empty' if present else 'no'} concepts list and matches only through aliases",
            key=present,
            hint="move the item's primary phrase list from aliases into concepts",
        )


@rule("Q003", "empty-concept", Severity.ERROR)
def empty_concept(ctx: LintContext) -> Iterator[Finding]:
    """A concept of a question or escalation is the empty string.

    What it catches: `""` (or whitespace only) in `concepts` or in an `aliases` list.

    Why it matters: matching is substring containment, and the empty string is
    contained in every text. A variant made only of empty concepts matches every
    question the agent asks, so the item swallows them all — and, matching being
    first-wins, shadows every item after it. Next to real concepts it is dead weight
    that hides a typo.

    Bad:

    ```yaml
    - id: q_backup_region
      concepts: ["backup", ""]
      aliases:
        - [""]
    ```

    Good:

    ```yaml
    - id: q_backup_region
      concepts: ["backup", "region"]
      aliases:
        - ["where", "backups"]
    ```
    """
    for item in all_items(ctx):
        for variant in item.variants():
            catch_all = all(not concept for concept in variant.concepts)
            for concept_index, concept in enumerate(variant.concepts):
                if concept:
                    continue
                effect = (
                    "this variant then matches every text"
                    if catch_all
                    else "it is contained in every text, so it adds nothing"
                )
                yield ctx.report(
                    variant.element.concepts[concept_index],
                    f"{item.name()}: empty concept in {variant.label}; {effect}",
                    hint="remove the empty string or write the phrase it was meant to hold",
                )


@rule("Q004", "duplicate-item-id", Severity.ERROR)
def duplicate_item_id(ctx: LintContext) -> Iterator[Finding]:
    """Two questions (or two escalations) share an id.

    What it catches: an `id` used twice within `questions`, or twice within
    `escalations`. The finding points at the later one.

    Why it matters: the engine scores an id once. Once either item matched, a match
    on the other counts as a redundant repeat (−0.15), so one item's points are in the
    derived max_score but can never be earned. Both also read the same hidden answer.

    Bad:

    ```yaml
    questions:
      - id: q_backup_region
        concepts: ["backup", "region"]
      - id: q_backup_region
        concepts: ["retention"]
    ```

    Good:

    ```yaml
    questions:
      - id: q_backup_region
        concepts: ["backup", "region"]
      - id: q_backup_retention
        concepts: ["retention"]
    ```
    """
    for list_name in KINDS:
        first_index: dict[str, int] = {}
        for item in items(ctx, list_name):
            if item.id is None:
                continue
            if item.id in first_index:
                yield ctx.report(
                    item.element.at("id"),
                    f"{item.kind} id {item.id!r} is already used by {list_name}[{first_index[item.id]}]; "
                    "the engine scores an id once, so one item's points can never be earned",
                    hint="give each item its own id (and its own hidden answer)",
                )
            else:
                first_index[item.id] = item.index


@rule("Q007", "shadowed-variant", Severity.WARNING)
def shadowed_variant(ctx: LintContext) -> Iterator[Finding]:
    """A variant of a question or escalation can never match: an earlier item always wins.

    What it catches: a variant W of an item such that an earlier item (in rubric
    order) has a variant V each of whose concepts is a substring of some concept of
    W. Any text containing all of W then contains all of V, and matching is first-wins,
    so the earlier item takes every text meant for W. (When every variant of an item is
    shadowed, Q008 reports the item instead.)

    Why it matters: the variant is dead. An agent asking exactly the right question
    in those words is credited with the other item — or, if that was already asked,
    penalised for a redundant question.

    Bad:

    ```yaml
    questions:
      - id: q_backup
        concepts: ["backup"]
      - id: q_backup_region
        concepts: ["region"]
        aliases:
          - ["backup", "location"]      # "backup" wins first
    ```

    Good:

    ```yaml
    questions:
      - id: q_backup_region
        concepts: ["region"]
        aliases:
          - ["backup", "location"]
      - id: q_backup
        concepts: ["backup"]
    ```
    """
    for item, shadowed in shadow_report(ctx):
        if len(shadowed) == len(item.live_variants()):
            continue  # the whole item is unreachable: Q008's finding
        for variant, winner, winning_variant in shadowed:
            yield ctx.report(
                variant.element,
                f"{item.name()} {variant.label} {variant.shown()} can never match: "
                f"{winner.name()} {winning_variant.label} {winning_variant.shown()} comes first and "
                "matches every text this variant matches",
                hint="put the more specific item first, or make this variant distinguishable",
            )


@rule("Q008", "unreachable-item", Severity.ERROR)
def unreachable_item(ctx: LintContext) -> Iterator[Finding]:
    """Every variant of a question or escalation is shadowed by earlier items: it can never match.

    What it catches: an item each of whose variants is shadowed (see Q007): for each
    one an earlier item has a variant whose concepts are all substrings of its
    concepts, so the earlier item wins on every text that could match this one.

    Why it matters: the item's points are in the derived max_score but can never be
    earned, and its hidden answer can never be revealed. No trajectory reaches 1.0.

    Bad:

    ```yaml
    escalations:
      - id: esc_credit
        concepts: ["credit"]
      - id: esc_uptime_credit
        concepts: ["service credit"]   # "credit" is inside "service credit"
    ```

    Good:

    ```yaml
    escalations:
      - id: esc_uptime_credit
        concepts: ["service credit"]
      - id: esc_credit
        concepts: ["credit"]
    ```
    """
    for item, shadowed in shadow_report(ctx):
        if len(shadowed) != len(item.live_variants()):
            continue
        winners = sorted({winner.name() for _, winner, _ in shadowed})
        yield ctx.report(
            item.element.at("id"),
            f"{item.name()} can never be matched: every variant is shadowed by "
            f"{', '.join(winners)}, which come{'s' if len(winners) == 1 else ''} first",
            hint="move this item above the items that shadow it, or give it distinguishing concepts",
        )
