"""The sin's own clause, negated the way drafting negates it: on its predicate ("Provider
shall not own …", "Provider does not own …", "Client Materials are not owned by …") or on
its object ("Provider shall own no rights in …"). Correct work a gate must stay silent on —
the commonest way a redline or an analysis says the opposite of the sin with the sin's own
words, which the frames around a clause ("it is not the case that …") do not show.

No tagger (see `grammar`): the first finite verb of the clause takes the negator; the
first determiner after the gate's match becomes "no".
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from rubric_tools.audit import lexicon
from rubric_tools.audit.grammar import MODALS, finite_verb_at, verb_of
from rubric_tools.audit.markers import governing_negator

_NEGATED = re.compile(governing_negator(), re.IGNORECASE)
#: A verb that takes "not" after it, as an auxiliary does.
_TAKES_NOT = frozenset("is are was were has have had does do did".split())
#: Determiners an object's negation replaces with "no".
_HAVE = {"has": "does not have", "have": "do not have", "had": "did not have"}
_DETERMINERS = re.compile(r"\b(?:the|all|any|a|an|its|their|such)\b", re.IGNORECASE)
_WORD = re.compile(r"[\w'’-]+")
#: Words that open a subordinate clause: a verb after them is a trigger, not the sin's.
_SUBORDINATORS = frozenset("after before when until once if unless upon whenever".split())


def negated_predicate(clause: str) -> str | None:
    """`clause` with its first finite verb negated, or None when it has no finite verb or
    already holds a negator."""
    if _NEGATED.search(clause):
        return None
    tokens = list(_WORD.finditer(clause))
    lowered = [t.group(0).lower() for t in tokens]
    for index, token in enumerate(tokens):
        if not finite_verb_at(lowered, index):
            continue
        word = lowered[index]
        if word == "can":
            return _spliced(clause, token, "cannot")
        if word in ("has", "have", "had"):
            following = verb_of(lowered[index + 1]) if index + 1 < len(lowered) else None
            if following is None or following[1] != "past":  # "has the right to": a main verb
                return _spliced(clause, token, _HAVE[word])
        if word in MODALS or word in _TAKES_NOT:
            return _spliced(clause, token, f"{token.group(0)} not")
        found = verb_of(word)
        if found is None:
            return None
        base, form = found
        auxiliary = {"3rd person": "does", "past": "did", "base": "do"}.get(form)
        return _spliced(clause, token, f"{auxiliary} not {base}") if auxiliary else None
    return None


def negated_object(clause: str, match_end: int) -> str | None:
    """`clause` with the determiner right after the gate's match (which ends at `match_end`
    on the sin's own verb) made "no" ("Provider shall own all rights in …" -> "Provider
    shall own no rights in …"), or None: no determiner there, a match that ends elsewhere
    (a trigger, "after Provider confirms an incident"), or a clause already negative."""
    if _NEGATED.search(clause):
        return None
    found = _DETERMINERS.search(clause, match_end)
    if found is None or clause[match_end : found.start()].strip():
        return None  # not the next word: another phrase's determiner
    before = _WORD.findall(clause[:match_end].lower())
    if not before or not lexicon.is_verb(before[-1]) or _SUBORDINATORS & set(before[-3:-1]):
        return None  # the match must end on the sin's own verb ("after Provider confirms" is a trigger)
    return f"{clause[: found.start()]}no{clause[found.end() :]}"


def negated_clauses(clause: str, match_end: int) -> Iterator[tuple[str, str]]:
    """(kind, text) of each negation of the clause."""
    predicate = negated_predicate(clause)
    if predicate is not None:
        yield "negated predicate", predicate
    obj = negated_object(clause, match_end)
    if obj is not None:
        yield "negated object", obj


def _spliced(clause: str, token: re.Match[str], replacement: str) -> str:
    return f"{clause[: token.start()]}{replacement}{clause[token.end() :]}"
