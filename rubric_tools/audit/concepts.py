"""Verdicts on concepts: never earnable (U005), earned by unrelated text (U006), earned
without doing the work (U007), in no readable text (U008), and punished by a gate of
another surface of the same issue (U009).

Concepts are compared as the scorer compares them: normalized, as substrings of the
normalized text (`rubric_tools.scoring.text`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from rubric_tools.audit.codes import (
    CONCEPT_EARNED_BY_UNRELATED_TEXT,
    CONCEPT_NOT_IN_READABLE_TEXT,
    CONCEPT_PUNISHED_ON_OTHER_SURFACE,
)
from rubric_tools.audit.corpus import sentences
from rubric_tools.audit.findings import AuditFinding, Evidence
from rubric_tools.audit.words import COMMON_WORDS
from rubric_tools.gate_analysis.concept_nodes import (
    CONCEPT_NEVER_EARNABLE,
    ConceptNode,
    concept_nodes,
    never_earnable,
    never_earnable_message,
)
from rubric_tools.gate_analysis.gate_firing import fires, gate_lists
from rubric_tools.gate_analysis.redline_clause import (
    CONCEPT_EARNED_WITHOUT_WORK,
    clause_source,
    concepts_in_clause,
    without_work_message,
)
from rubric_tools.loading.matter import MATTER_FILE, MatterSource
from rubric_tools.scoring.text import normalize, show_pattern

#: Concepts this short are earned by fragments of unrelated words.
SHORT_CONCEPT = 2


def _finding(code: str, node: ConceptNode, message: str, evidence: list[Evidence], **subject: Any) -> AuditFinding:
    return AuditFinding(
        code,
        message,
        node.location.file,
        node.location.span,
        evidence,
        subject={"concept": node.text, "field": node.field, **subject},
    )


def never_earnable_findings(source: MatterSource) -> Iterator[AuditFinding]:
    """U005 for every concept no text can earn (also lint rule U005)."""
    for node in concept_nodes(source):
        reason = never_earnable(node)
        if reason is not None:
            yield _finding(CONCEPT_NEVER_EARNABLE.code, node, never_earnable_message(node, reason), [])


def _inside_another_word(concept: str, word: str) -> bool:
    """Whether `word` holds `concept` without being about it: a short concept anywhere
    ("ip" in "equip"), a longer one past the word's start ("train" in "constraint"; a
    prefix is an inflection: "credit" in "credits")."""
    return word != concept and concept in word and (len(concept) <= 3 or word.find(concept) > 0)


@lru_cache(maxsize=1024)  # a concept is often rewarded by several issues and lists
def _unrelated_words(concept: str) -> tuple[str, ...]:
    if " " in concept or not concept.isalpha():
        return ()
    return tuple(sorted(word for word in COMMON_WORDS if _inside_another_word(concept, word)))


#: At most this many of the matter's own sentences shown as evidence of a U006.
_UNRELATED_SENTENCES = 2
_WORD = re.compile(r"[a-z]+")


def _sentences_with(source: MatterSource, concept: str) -> list[Evidence]:
    """Sentences of the matter's own documents that earn `concept` only through words that
    hold it ("Ownership of the premises stays with the landlord" earns "ip"): what the
    author sees earned without the concept being said. Not a sentence with a word that is
    about the concept ("ip", or "training" for "train")."""
    found: list[Evidence] = []
    for document_id, document in source.matter.documents.items():
        for token, section in document.sections.items():
            for sentence in sentences(section):
                lowered = sentence.lower()
                if not sentence.rstrip().endswith((".", ";", ":", "?", "!")):
                    continue  # a heading ("2 Data Ownership") is no sentence of the matter
                holding = [word for word in _WORD.findall(lowered) if concept in word] if concept in lowered else []
                if holding and all(_inside_another_word(concept, word) for word in holding):
                    found.append(
                        Evidence(sentence, f"{document_id} §{token}", "unrelated text", "not earned", "earned")
                    )
                    if len(found) == _UNRELATED_SENTENCES:
                        return found
    return found


def _unrelated(source: MatterSource) -> Iterator[AuditFinding]:
    for node in concept_nodes(source):
        concept = node.normalized
        words = _unrelated_words(concept)
        if (len(concept) <= SHORT_CONCEPT and concept.isalpha()) or words:
            why = f"common words contain it: {', '.join(words[:6])}" if words else "it is too short to mean anything"
            evidence = _sentences_with(source, concept) if concept.isalpha() else []
            evidence += [
                Evidence(
                    f'Any text with the word "{word}" earns it.',
                    "common words",
                    "unrelated text",
                    "not earned",
                    "earned",
                )
                for word in words
            ]
            yield _finding(
                CONCEPT_EARNED_BY_UNRELATED_TEXT.code,
                node,
                f"concept {node.text!r} ({node.field}) is earned by unrelated text: {why}",
                evidence,
            )


def _without_work(source: MatterSource) -> Iterator[AuditFinding]:
    """U007, the verdict lint rule U007 reports too (`gate_analysis.redline_clause`)."""
    for found in concepts_in_clause(source.model):
        clause = clause_source(source.model, found.anchor) or ""
        for concept in found.present:
            node = ConceptNode(concept.location, concept.text, f"issue {found.issue.label} redline_concepts")
            # The clause's own sentence that holds the concept (a statement before a heading):
            # what pasting the clause back proposes.
            holding = [s for s in sentences(clause) if concept.normalized in normalize(s)]
            # A heading ends with no stop; the lexicon is not asked (`rubric check` reads no texts).
            holding.sort(key=lambda s: not s.rstrip().endswith((".", ";", ":", "?", "!")))
            shown = holding[0] if holding else concept.normalized
            evidence = [Evidence(shown, found.anchor, "clause under review", "not earned", "earned")]
            yield _finding(CONCEPT_EARNED_WITHOUT_WORK.code, node, without_work_message(found, concept), evidence)


def readable_text(source: MatterSource) -> str:
    """Everything the agent can read or be told, normalized, as one text."""
    matter = source.matter
    parts = [text for document in matter.documents.values() for text in document.normalized_sections.values()]
    matter_file = source.model.file(MATTER_FILE)
    for key in ("assignment", "public_facts", "title"):
        written = matter_file.field(key)
        parts.append(normalize(str(written.value) if written is not None else ""))  # what the agent is shown
    parts += [normalize(answer) for answer in (*matter.client_answers.values(), *matter.escalation_answers.values())]
    for position in matter.positions.values():
        parts += [normalize(f"{c.message} {c.text}") for c in position.counters] + [normalize(position.reject_message)]
    return "\n".join(parts)


#: Words every drafter writes: a phrase made only of these is not the author's wording.
_FUNCTION_WORDS = frozenset("a an and any each in no not of on or shall may must will the to with".split())


#: A phrase opening with these is a drafting formula ("shall not exceed"), not the author's wording.
_FORMULA_OPENERS = frozenset("shall will may must not does do is are".split())


def _guessed_wording(concept: str) -> bool:
    """Whether a concept missing from the materials is a phrase the agent must guess: several
    words, not a drafting formula, not only function words, and no citation ("§3.4" follows
    the citation format)."""
    words = concept.split()
    return (
        len(words) >= 2
        and "§" not in concept
        and words[0] not in _FORMULA_OPENERS
        and not set(words) <= _FUNCTION_WORDS
    )


def _unreadable(source: MatterSource) -> Iterator[AuditFinding]:
    readable = readable_text(source)
    grouped: dict[str, list[ConceptNode]] = {}
    for node in concept_nodes(source):
        if node.surface is not None or node.field.startswith("final"):
            if _guessed_wording(node.normalized) and node.normalized not in readable and never_earnable(node) is None:
                grouped.setdefault(node.field, []).append(node)
    for field, nodes in grouped.items():
        names = ", ".join(repr(n.text) for n in nodes)
        yield _finding(
            CONCEPT_NOT_IN_READABLE_TEXT.code,
            nodes[0],
            f"{field}: {names} appear{'s' if len(nodes) == 1 else ''} in no "
            "document, answer or counter the agent can read: the agent must guess the wording",
            [],
            concepts=[n.text for n in nodes],
        )


#: Surfaces whose concepts are the fix's own wording. Required concepts describe the problem,
#: so a redline gate punishing them (the clause's "nine months" kept in the redline) is by design.
FIX_SURFACES = ("redline", "settlement")


def _cross_surface(source: MatterSource) -> Iterator[AuditFinding]:
    nodes = list(concept_nodes(source))
    for gate_list in gate_lists(source.model):
        rewarded = [
            n
            for n in nodes
            if n.issue_id == gate_list.issue_id and n.surface in FIX_SURFACES and n.surface != gate_list.surface
        ]
        for entry in gate_list.entries:
            hits = [n for n in rewarded if n.normalized and fires(entry.gate, n.normalized)]
            if not hits:
                continue
            evidence = [
                Evidence(n.normalized, n.field, "rewarded concept", "silent", "fired", entry.surface) for n in hits
            ]
            yield AuditFinding.on_entry(
                CONCEPT_PUNISHED_ON_OTHER_SURFACE.code,
                entry,
                f"gate {show_pattern(entry.gate.pattern)} on {gate_list.issue_id}/{gate_list.surface} "
                f"punishes {hits[0].text!r}, which {hits[0].field} rewards",
                evidence,
            )


def concept_findings(source: MatterSource) -> Iterator[AuditFinding]:
    """U006-U009 (U005 is `never_earnable_findings`)."""
    yield from _unrelated(source)
    yield from _without_work(source)
    yield from _unreadable(source)
    yield from _cross_surface(source)
