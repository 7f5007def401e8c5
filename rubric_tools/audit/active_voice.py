"""The active voice of a gate written in the passive, for the widening step `passive`
(`widen_voice` writes both directions): "OBJECT MODAL be VERBed …" also as "… MODAL VERB
OBJECT …" ("customer data may be stored outside the united states" -> "Provider may store
Customer Data outside the United States"), "OBJECT is VERBed …" also as "… VERBs OBJECT …".

The passive names no agent, so the active may have any subject; a gate whose passive names
its agent ("… by the landlord") is left to the words step. The object is the words that open
the branch; the rest after the participle is written after the object as it stands.
"""

from __future__ import annotations

import re

from rubric_tools.audit import lexicon
from rubric_tools.audit.passive_voice import (
    MODAL_NEGATORS,
    NEGATOR_FREE_ADVERB,
    PHRASE,
    REST,
    ClauseToken,
    alternatives_text,
    clause_tokens,
    object_regex,
    passives_of,
)
from rubric_tools.audit.pattern_tree import Item, parse_items, render
from rubric_tools.audit.thesaurus import Thesaurus

#: The forms of "be" that make a present or past passive with no modal.
_FINITE_BE = frozenset(("is", "are", "was", "were"))
#: What the active may write before its object, which the passive's subject left out.
_DETERMINER_SLOT = r"(?:(?:the|all|any|such|its|their|this|these)\s+)?"


def widen_voice(pattern: str, _thesaurus: Thesaurus) -> str | None:
    """The pattern with each branch also in the other voice: an active clause in the passive
    (`passive_voice`), a passive one in the active (`actives_of`); None when there is none."""
    others = other_voice(pattern)
    return "|".join([pattern, *others]) if others else None


def other_voice(pattern: str) -> list[str]:
    """Each branch of `pattern` in the other voice, alone (see `widen_voice`)."""
    tree = parse_items(pattern)
    if tree is None:
        return []
    return [p for branch in tree for p in (*passives_of(branch), *actives_of(branch))]


def actives_of(branch: list[Item]) -> list[str]:
    """The branch in the active voice when it reads "OBJECT MODAL (not) be PARTICIPLE …" or
    "OBJECT is PARTICIPLE …" with no agent; [] otherwise."""
    tokens = [t for t in clause_tokens(branch) if not t.space and not t.optional]
    auxiliary = next((i for i, t in enumerate(tokens) if _is_modal(t) or set(t.words) <= _FINITE_BE), None)
    if not auxiliary or any({REST, PHRASE} & set(t.words) for t in tokens[: auxiliary + 1]):
        return []  # no object before it, or an object that is no words
    modal = alternatives_text(tokens[auxiliary].words) if _is_modal(tokens[auxiliary]) else None
    at = auxiliary + 1
    if modal and at < len(tokens) and set(tokens[at].words) <= MODAL_NEGATORS:
        modal, at = rf"{modal}\s+{alternatives_text(tokens[at].words)}", at + 1
    if modal:
        if at >= len(tokens) or tokens[at].words != ("be",):
            return []
        at += 1
    if at >= len(tokens):
        return []
    verbs = _verbs_of_participles(tokens[at])
    tail = render(branch[tokens[at].end :])
    if verbs is None or re.match(r"(?:\\s[+*]?|\s)+by\b", tail):
        return []  # no passive participle, or an agent: the words step's to widen
    obj = object_regex(branch[: tokens[auxiliary].start])
    if not re.search(r"[a-z]{3}", obj):
        return []
    if modal:
        return [rf"\b{modal}\s+{NEGATOR_FREE_ADVERB}{lexicon.alternation(verbs)}\s+{_DETERMINER_SLOT}{obj}{tail}"]
    # "the deposit is retained" -> "retains the deposit", "retained the deposit"
    finite = [
        f for verb in verbs for tag in ("VB", "VBZ", "VBD") for f in lexicon.verb_variants_by_tag(verb).get(tag, ())
    ]
    return [rf"\b{lexicon.alternation(finite)}\s+{_DETERMINER_SLOT}{obj}{tail}"]


def _is_modal(token: ClauseToken) -> bool:
    return bool(token.words) and all(w in lexicon.MODALS for w in token.words)


def _verbs_of_participles(token: ClauseToken) -> list[str] | None:
    """The verbs whose past participles the token spells ("stored" -> "store"); None when
    any of its words is no past participle ("non-refundable", "void")."""
    verbs: list[str] = []
    for word in token.words:
        found = lexicon.participle_verbs(word)
        if not found or " " in word:
            return None
        verbs += found[:1]
    return list(dict.fromkeys(verbs)) or None
