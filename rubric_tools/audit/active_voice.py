"""The active voice of a gate written in the passive, for the widening step `passive`
(`widen_voice` writes both directions): "OBJECT MODAL be VERBed …" also as "… MODAL VERB
OBJECT …" ("customer data may be stored outside the united states" -> "Provider may store
Customer Data outside the United States"), "OBJECT is VERBed …" also as "… VERBs OBJECT …".

Where the passive names no agent the active may have any subject; where it names one ("…
may be terminated by the landlord", "prohibited by law from selling"), the agent is the
active's subject ("the landlord may terminate …", "law prohibits … from selling"). The
object is the words that open the branch (a branch that opens with its participle has none:
a few words of any object stand in its place); the rest after the participle, or after the
agent, is written after the object as it stands.
"""

from __future__ import annotations

import re

from rubric_tools.audit import lexicon
from rubric_tools.audit.clause_slots import NEGATOR_FREE_ADVERB
from rubric_tools.audit.gerund_subject import gerund_subjects_of
from rubric_tools.audit.passive_voice import (
    DETERMINERS,
    MODAL_NEGATORS,
    PHRASE,
    REST,
    ClauseToken,
    alternatives_text,
    clause_tokens,
    object_regex,
    passives_guessing_no_object,
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
    (`passive_voice`), a passive one in the active (`actives_of`), an extraposed one with
    its act as the subject (`gerund_subject`); None when there is none."""
    others = other_voice(pattern)
    return "|".join([pattern, *others]) if others else None


def other_voice(pattern: str) -> list[str]:
    """Each branch of `pattern` in the other voice, alone (see `widen_voice`)."""
    tree = parse_items(pattern)
    if tree is None:
        return []
    return [p for branch in tree for p in (*passives_of(branch), *actives_of(branch), *gerund_subjects_of(branch))]


def voice_guessing_no_object(pattern: str) -> list[str]:
    """Each branch of `pattern` with a window in the passive that guesses no object
    (`passive_voice.passives_guessing_no_object`)."""
    tree = parse_items(pattern)
    return [p for branch in tree or [] for p in passives_guessing_no_object(branch)]


def actives_of(branch: list[Item]) -> list[str]:
    """The branch in the active voice when it reads "OBJECT MODAL (not) be PARTICIPLE …" or
    "OBJECT is PARTICIPLE …" (any subject), "… PARTICIPLE by AGENT …" (the agent as the
    subject), or opens with "PARTICIPLE by AGENT" (`_active_of_participle_first`); [] otherwise."""
    tokens = [t for t in clause_tokens(branch) if not t.space and not t.optional]
    auxiliary = next((i for i, t in enumerate(tokens) if _is_modal(t) or set(t.words) <= _FINITE_BE), None)
    if auxiliary is None and tokens:
        return _active_of_participle_first(branch, tokens)
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
    if verbs is None:
        return []  # no passive participle
    agent = _agent_after(branch, tokens, at)
    if agent is None and at + 1 < len(tokens) and tokens[at + 1].words == ("by",):
        return []  # an agent that is no words ("by[^.]{0,40}regulators"): the words step's to widen
    tail = render(branch[agent[1] if agent else tokens[at].end :])
    obj = object_regex(branch[: tokens[auxiliary].start])
    if not re.search(r"[a-z]{3}", obj):
        return []
    subject = rf"\b{agent[0]}\s+" if agent else r"\b"
    if modal:
        verb = lexicon.alternation(verbs)
        return [rf"{subject}{modal}\s+{NEGATOR_FREE_ADVERB}{verb}\s+{_DETERMINER_SLOT}{obj}{tail}"]
    # "the deposit is retained" -> "retains the deposit", "retained the deposit"
    return [rf"{subject}{_finite(verbs)}\s+{_DETERMINER_SLOT}{obj}{tail}"]


def _active_of_participle_first(branch: list[Item], tokens: list[ClauseToken]) -> list[str]:
    """A branch that opens with its participle and names its agent, "VERBed by AGENT …"
    ("prohibited by law from selling"), in the active: "AGENT VERBs … …" ("law prohibits
    Provider from selling"), a few words of any object in place of the one it leaves out."""
    verbs = _verbs_of_participles(tokens[0])
    agent = _agent_after(branch, tokens, 0) if verbs is not None else None
    if verbs is None or agent is None:
        return []
    return [rf"\b{agent[0]}\s+{NEGATOR_FREE_ADVERB}{_finite(verbs)}{_ANY_OBJECT}{render(branch[agent[1] :])}"]


#: The object of an active whose passive left it out: a few words, none a negator ("bars no
#: tenant from subletting" is the opposite claim).
_ANY_OBJECT = r"(?:\s+(?!(?:no|not|never|none|nobody)\b)[\w'’-]+){1,4}?"


def _finite(verbs: list[str]) -> str:
    """The verbs' finite forms, present and past ("retain", "retains", "retained")."""
    return lexicon.alternation(
        [f for verb in verbs for tag in ("VB", "VBZ", "VBD") for f in lexicon.verb_variants_by_tag(verb).get(tag, ())]
    )


def _agent_after(branch: list[Item], tokens: list[ClauseToken], participle: int) -> tuple[str, int] | None:
    """The agent the passive names after its participle, "by (the) WORD", as a regex and
    where it ends in the branch; None when "by" does not follow, or what follows it is no
    word (a window, a class)."""
    after = tokens[participle + 1 :]
    if not after or after[0].words != ("by",):
        return None
    at = 1
    while at < len(after) and set(after[at].words) <= DETERMINERS:
        at += 1
    if at >= len(after) or {REST, PHRASE} & set(after[at].words) or not all(w.isalpha() for w in after[at].words):
        return None
    return render(branch[after[1].start : after[at].end]), after[at].end


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
