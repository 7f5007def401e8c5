"""Hidden-answer rules (Q005, Q006, Q009): does each matched item reveal a fact, and
only to an agent that asks?

`hidden_facts.yaml` maps question ids to `client_answers` and escalation ids to
`escalation_answers`; a matched item returns its answer into the agent's learned
facts. These rules share the Q codes of the question family they belong to.
"""

from __future__ import annotations

from collections.abc import Iterator

import regex

from rubric_tools.diagnostics import Severity
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.match_items import KINDS
from rubric_tools.lint.registry import rule
from rubric_tools.loading.elements import AnswerElement
from rubric_tools.loading.matter import HIDDEN_FACTS_FILE
from rubric_tools.scoring.text import normalize

#: A leaked sentence must be at least this long (normalized) to count as distinctive:
#: shorter ones ("Yes, in writing.") recur in any document by coincidence.
MIN_LEAK_CHARACTERS = 40
MIN_LEAK_WORDS = 6
_SENTENCE_END = regex.compile(r"(?<=[.!?;:])\s+")


def _answers(ctx: LintContext, key: str) -> tuple[AnswerElement, ...]:
    return ctx.model.client_answers if key == "client_answers" else ctx.model.escalation_answers


def _hidden_facts_loaded(ctx: LintContext) -> bool:
    # A missing or broken hidden_facts.yaml is the load rules' finding, not one per item.
    return ctx.model.file(HIDDEN_FACTS_FILE).mapping


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
        # Keys are read as text, as the engine reads them (`5:` answers question id 5).
        answers = {answer.id: answer for answer in _answers(ctx, answers_key)}
        for item in ctx.model.match_items(list_name):
            if item.id is None:
                continue
            answer = answers.get(item.id)
            if answer is not None and not answer.is_null and answer.text.strip():
                continue
            yield ctx.report(
                item.at("id"),
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
        ids = {item.id for item in ctx.model.match_items(list_name)}
        for answer in _answers(ctx, answers_key):
            if answer.id in ids:
                continue
            yield ctx.report(
                answer,
                f"{answers_key} entry {answer.id!r} matches no rubric {kind} id: no agent can ever receive it",
                key=True,
                hint=f"rename it to the id of the {kind} it answers, or delete it",
            )


def distinctive_passages(answer: str) -> list[str]:
    """The normalized answer if long enough, else its distinctive sentences."""
    normalized = normalize(answer)
    passages = [s.strip() for s in _SENTENCE_END.split(normalized)]
    if len(passages) > 1:
        passages.insert(0, normalized)
    return [p.rstrip(".!?;:") for p in passages if len(p) >= MIN_LEAK_CHARACTERS and len(p.split()) >= MIN_LEAK_WORDS]


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
        for answer in _answers(ctx, answers_key):
            if not answer.is_text:
                continue
            leak = next(
                (
                    (passage, document)
                    for passage in distinctive_passages(answer.text)
                    for document, text in documents
                    if passage in text
                ),
                None,
            )
            if leak is None:
                continue
            passage, document = leak
            shown = passage if len(passage) <= 80 else passage[:77] + "..."
            yield ctx.report(
                answer,
                f"{answers_key}.{answer.id} is printed verbatim in document {document.id!r} "
                f"({document.path_text}): {shown!r}",
                hint="keep the fact out of the documents, or reword the answer so asking adds something",
            )
