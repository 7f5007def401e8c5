"""Question and escalation rules (Q0xx): can each item be matched, and does it pay off?

Questions and escalations are matched the same way (engine.md §3): the normalized
free text is compared with each item in rubric order, over `concepts` then each
`aliases` list, and the first item with a matching variant wins. These rules reason
about that matcher statically; the shadowing rules rely on one sound implication:
if every concept of an earlier variant V is a substring of some concept of a later
variant W, any text that contains all of W contains all of V, so V always wins.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import regex

from rubric_tools.diagnostics import Severity
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import rule
from rubric_tools.loading.matter import HIDDEN_FACTS_FILE, RUBRIC_FILE
from rubric_tools.loading.yaml_source import InstancePath
from rubric_tools.scoring.text import normalize

#: rubric list → (hidden_facts key holding its answers, what one item is called)
KINDS: dict[str, tuple[str, str]] = {
    "questions": ("client_answers", "question"),
    "escalations": ("escalation_answers", "escalation"),
}

#: A leaked sentence must be at least this long (normalized) to count as distinctive:
#: shorter ones ("Yes, in writing.") recur in any document by coincidence.
MIN_LEAK_CHARACTERS = 40
MIN_LEAK_WORDS = 6
_SENTENCE_END = regex.compile(r"(?<=[.!?;:])\s+")


@dataclass(frozen=True)
class RawVariant:
    """One variant of an item: its node path and its normalized concepts."""

    path: InstancePath
    concepts: tuple[str, ...]

    @property
    def label(self) -> str:
        return "concepts" if self.path[-1] == "concepts" else f"aliases[{self.path[-1]}]"

    def shown(self) -> str:
        return "[" + ", ".join(repr(c) for c in self.concepts) + "]"


@dataclass(frozen=True)
class RawItem:
    """A question or escalation as written, with where it sits."""

    list_name: str
    index: int
    data: Mapping[str, Any]

    @property
    def path(self) -> InstancePath:
        return (self.list_name, self.index)

    @property
    def id(self) -> str | None:
        value = self.data.get("id")
        return str(value) if value is not None else None

    @property
    def kind(self) -> str:
        return KINDS[self.list_name][1]

    def name(self) -> str:
        return f"{self.kind} {self.id!r}" if self.id is not None else f"{self.list_name}[{self.index}]"

    def variants(self) -> list[RawVariant]:
        """`concepts` then every `aliases` list, in the matcher's order."""
        found: list[RawVariant] = []
        concepts = self.data.get("concepts")
        if isinstance(concepts, list):
            found.append(RawVariant((*self.path, "concepts"), _normalized(concepts)))
        aliases = self.data.get("aliases")
        for alias_index, alias in enumerate(aliases if isinstance(aliases, list) else []):
            if isinstance(alias, list):
                found.append(RawVariant((*self.path, "aliases", alias_index), _normalized(alias)))
        return found

    def live_variants(self) -> list[RawVariant]:
        """The variants that can match at all: the engine skips empty ones."""
        return [v for v in self.variants() if v.concepts]


def _normalized(concepts: list[Any]) -> tuple[str, ...]:
    return tuple(normalize(str(concept)) for concept in concepts)


def raw_items(ctx: LintContext, list_name: str) -> list[RawItem]:
    entries = ctx.rubric_data.get(list_name)
    return [RawItem(list_name, i, e) for i, e in enumerate(entries if isinstance(entries, list) else [])
            if isinstance(e, Mapping)]


def all_items(ctx: LintContext) -> Iterator[RawItem]:
    for list_name in KINDS:
        yield from raw_items(ctx, list_name)


def shadows(earlier: tuple[str, ...], later: tuple[str, ...]) -> bool:
    """Whether any text matching `later` also matches `earlier` (both non-empty)."""
    return bool(earlier) and bool(later) and all(any(e in w for w in later) for e in earlier)


def shadowing_of(items: list[RawItem], position: int, variant: RawVariant) -> tuple[RawItem, RawVariant] | None:
    """The first earlier item variant that always wins over `variant`, if any."""
    for earlier in items[:position]:
        for candidate in earlier.live_variants():
            if shadows(candidate.concepts, variant.concepts):
                return earlier, candidate
    return None


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
        if item.live_variants():
            continue
        key = "concepts" if "concepts" in item.data else "id"
        yield ctx.at(
            RUBRIC_FILE, (*item.path, key),
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
        concepts = item.data.get("concepts")
        if isinstance(concepts, list) and concepts or not item.live_variants():
            continue
        present = "concepts" in item.data
        yield ctx.at(
            RUBRIC_FILE, (*item.path, "concepts" if present else "id"),
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
                effect = ("this variant then matches every text" if catch_all
                          else "it is contained in every text, so it adds nothing")
                yield ctx.at(
                    RUBRIC_FILE, (*variant.path, concept_index),
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
        for item in raw_items(ctx, list_name):
            if item.id is None:
                continue
            if item.id in first_index:
                yield ctx.at(
                    RUBRIC_FILE, (*item.path, "id"),
                    f"{item.kind} id {item.id!r} is already used by {list_name}[{first_index[item.id]}]; "
                    "the engine scores an id once, so one item's points can never be earned",
                    hint="give each item its own id (and its own hidden answer)",
                )
            else:
                first_index[item.id] = item.index


def _answers(ctx: LintContext, key: str) -> Mapping[Any, Any]:
    answers = ctx.hidden_facts_data.get(key)
    return answers if isinstance(answers, Mapping) else {}


def _hidden_facts_loaded(ctx: LintContext) -> bool:
    # A missing or broken hidden_facts.yaml is the load rules' finding, not one per item.
    return isinstance(ctx.data(HIDDEN_FACTS_FILE), Mapping)


@rule("Q005", "missing-hidden-answer", Severity.ERROR)
def missing_hidden_answer(ctx: LintContext) -> Iterator[Finding]:
    """A question or escalation has no hidden answer to reveal when it is matched.

    What it catches: a question id with no entry in `hidden_facts.yaml`'s
    `client_answers`, or an escalation id with none in `escalation_answers` (a blank
    answer counts as none).

    Why it matters: a matched question exists to hand the agent a fact it can only
    learn by asking; without an answer the agent earns the points and learns nothing,
    so the issue that depends on the fact cannot be worked out. Usually an id was
    renamed on one side only.

    Bad:

    ```yaml
    # rubric.yaml
    questions:
      - id: q_backup_region
        concepts: ["backup", "region"]
    # hidden_facts.yaml
    client_answers:
      q_backup_location: Backups must stay in the primary region.
    ```

    Good:

    ```yaml
    # hidden_facts.yaml
    client_answers:
      q_backup_region: Backups must stay in the primary region.
    ```
    """
    if not _hidden_facts_loaded(ctx):
        return
    for list_name, (answers_key, _) in KINDS.items():
        answers = _answers(ctx, answers_key)
        for item in raw_items(ctx, list_name):
            if item.id is None:
                continue
            answer = answers.get(item.id)
            if answer is not None and str(answer).strip():
                continue
            yield ctx.at(
                RUBRIC_FILE, (*item.path, "id"),
                f"{item.name()} has no answer in hidden_facts.yaml {answers_key}",
                hint=f"add {answers_key}.{item.id} to hidden_facts.yaml",
            )


@rule("Q006", "orphan-hidden-answer", Severity.WARNING)
def orphan_hidden_answer(ctx: LintContext) -> Iterator[Finding]:
    """A hidden answer belongs to no question or escalation, so no agent can obtain it.

    What it catches: a key of `client_answers` that is not the id of a rubric
    question, or a key of `escalation_answers` that is not the id of an escalation.

    Why it matters: an answer is revealed only when its item is matched. An orphan is
    either leftover text or — more often — the answer to an item whose id was renamed,
    so the fact the matter depends on never reaches the agent.

    Bad:

    ```yaml
    client_answers:
      q_backup_location: Backups must stay in the primary region.   # no such question
    ```

    Good:

    ```yaml
    client_answers:
      q_backup_region: Backups must stay in the primary region.
    ```
    """
    for list_name, (answers_key, kind) in KINDS.items():
        ids = {item.id for item in raw_items(ctx, list_name)}
        for key in _answers(ctx, answers_key):
            if str(key) in ids:
                continue
            yield ctx.at(
                HIDDEN_FACTS_FILE, (answers_key, key),
                f"{answers_key} entry {str(key)!r} matches no rubric {kind} id: no agent can ever receive it",
                key=True,
                hint=f"rename it to the id of the {kind} it answers, or delete it",
            )


def _shadow_report(ctx: LintContext) -> Iterator[tuple[RawItem, list[tuple[RawVariant, RawItem, RawVariant]]]]:
    """Every item with its shadowed variants (and what shadows each)."""
    for list_name in KINDS:
        items = raw_items(ctx, list_name)
        for position, item in enumerate(items):
            shadowed = []
            for variant in item.live_variants():
                winner = shadowing_of(items, position, variant)
                if winner is not None:
                    shadowed.append((variant, *winner))
            if shadowed:
                yield item, shadowed


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
    for item, shadowed in _shadow_report(ctx):
        if len(shadowed) == len(item.live_variants()):
            continue  # the whole item is unreachable: Q008's finding
        for variant, winner, winning_variant in shadowed:
            yield ctx.at(
                RUBRIC_FILE, variant.path,
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
    for item, shadowed in _shadow_report(ctx):
        if len(shadowed) != len(item.live_variants()):
            continue
        winners = sorted({winner.name() for _, winner, _ in shadowed})
        yield ctx.at(
            RUBRIC_FILE, (*item.path, "id"),
            f"{item.name()} can never be matched: every variant is shadowed by "
            f"{', '.join(winners)}, which come{'s' if len(winners) == 1 else ''} first",
            hint="move this item above the items that shadow it, or give it distinguishing concepts",
        )


def distinctive_passages(answer: str) -> list[str]:
    """The normalized answer if long enough, else its distinctive sentences."""
    normalized = normalize(answer)
    passages = [s.strip() for s in _SENTENCE_END.split(normalized)]
    if len(passages) > 1:
        passages.insert(0, normalized)
    return [p.rstrip(".!?;:") for p in passages
            if len(p) >= MIN_LEAK_CHARACTERS and len(p.split()) >= MIN_LEAK_WORDS]


@rule("Q009", "answer-in-documents", Severity.WARNING)
def answer_in_documents(ctx: LintContext) -> Iterator[Finding]:
    """A hidden answer is printed in a matter document, so asking is not needed to learn it.

    What it catches: a `client_answers` or `escalation_answers` entry whose text — the
    whole answer or one of its distinctive sentences (at least 40 characters and six
    words) — appears verbatim in a document, after the engine's normalization
    (lowercase, whitespace folded).

    Why it matters: hidden facts test whether the agent knows to ask. A fact the
    agent can read in the documents rewards reading, not asking, and makes the
    question's points free for an agent that never asks anything.

    Bad:

    ```yaml
    # documents/hosting.md says: "Backups must stay in the same region as the primary data."
    client_answers:
      q_backup_region: Backups must stay in the same region as the primary data.
    ```

    Good:

    ```yaml
    client_answers:
      q_backup_region: >-
        Our regulator told us last spring that backups may not leave the EU region.
    ```
    """
    documents = [(d, normalize(d.text)) for d in ctx.documents if d.text is not None]
    if not documents:
        return
    for answers_key, _ in KINDS.values():
        for key, answer in _answers(ctx, answers_key).items():
            if not isinstance(answer, str):
                continue
            leak = next(((passage, document) for passage in distinctive_passages(answer)
                         for document, text in documents if passage in text), None)
            if leak is None:
                continue
            passage, document = leak
            shown = passage if len(passage) <= 80 else passage[:77] + "..."
            yield ctx.at(
                HIDDEN_FACTS_FILE, (answers_key, key),
                f"{answers_key}.{key} is printed verbatim in document {document.id!r} "
                f"({document.path_text}): {shown!r}",
                hint="keep the fact out of the documents, or reword the answer so asking adds something",
            )
