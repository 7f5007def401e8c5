"""The sin's own clause, negated the way drafting negates it: on its predicate ("Provider
shall not own …", "Provider does not own …", "Client Materials are not owned by …") or on
its object ("Provider shall own no rights in …") or on its subject, in a list ("Neither
Provider nor any of its affiliates, … may …"). Correct work a gate must stay silent on —
the commonest way a redline or an analysis says the opposite of the sin with the sin's own
words, which the frames around a clause ("it is not the case that …") do not show.

No tagger (see `grammar`): the first finite verb of the clause takes the negator; the
determiner that opens the object of the match's own verb (after its recipient, if any)
becomes "no".
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from rubric_tools.audit import lexicon
from rubric_tools.audit.grammar import AUXILIARIES, MODALS, PARTY_ROLES, PREPOSITIONS, finite_verb_at, verb_of
from rubric_tools.audit.markers import STATED_LIMIT, governing_negator
from rubric_tools.audit.thesaurus import NEUTRAL_OBJECT

_NEGATED = re.compile(governing_negator(), re.IGNORECASE)
_STATED_LIMIT = re.compile(STATED_LIMIT, re.IGNORECASE)
#: A verb that takes "not" after it, as an auxiliary does.
_TAKES_NOT = frozenset("is are was were has have had does do did".split())
#: Determiners an object's negation replaces with "no".
_HAVE = {"has": "does not have", "have": "do not have", "had": "did not have"}
_DETERMINERS = re.compile(r"\b(?:the|all|any|a|an|its|their|such)\b", re.IGNORECASE)
_WORD = re.compile(r"[\w'’-]+")
#: Words that open a subordinate clause: a verb after them is a trigger, not the sin's.
_SUBORDINATORS = frozenset("after before when until once if unless upon whenever".split())


def _match_clause_start(
    clause: str, tokens: list[re.Match[str]], lowered: list[str], match: tuple[int, int] | None
) -> int:
    """The index of the token that opens the clause the gate's match (`match`, a span of
    `clause`) stands in: after the last ";", or the last comma after which a clause of its
    own opens (a subject, then a finite verb before the match ends), before the match. "If
    Landlord fails to repair, Tenant will pay the cost" is negated on "will", the sin's own
    verb, not on "fails": a negation of the other clause leaves the sin asserted. A comma
    before a parenthetical or a verb whose subject came earlier ("Provider, at its option,
    may use …") opens no clause. 0 without a match."""
    if match is None:
        return 0
    start = 0
    for index in range(1, len(tokens)):
        if tokens[index].start() > match[0]:
            break  # a break right before the match's first word is before the match
        gap = clause[tokens[index - 1].end() : tokens[index].start()]
        if ";" in gap or ("," in gap and _opens_a_clause(tokens, lowered, index, match[1])):
            start = index
    return start


def _subject_between(clause: str, tokens: list[re.Match[str]], lowered: list[str], verb: int, end: int) -> bool:
    """Whether a comma after token `verb` and before character `end` (where the match
    starts) is followed, before the match, by a word of its own that is no verb, function
    word or preposition: the subject of another clause ("The component is statically
    linked, GPLv3 infects …"), not a list of the verb's ("may enter, inspect, and repair
    …") nor a phrase ("shall, in each case, pay …")."""
    commas = [i for i in range(verb + 1, len(tokens)) if "," in clause[tokens[i - 1].end() : tokens[i].start()]]
    for index in commas:
        if tokens[index].start() >= end:
            return False
        if lowered[index] in PREPOSITIONS or lowered[index] in _SUBORDINATORS:
            continue  # a phrase or a condition set off by commas
        segment = range(index, min([i for i in commas if i > index] + [len(tokens)]))
        if any(_a_subject_word(lowered[i]) for i in segment if tokens[i].start() < end):
            return True
    return False


def _a_subject_word(word: str) -> bool:
    return word not in lexicon.FUNCTION_WORDS and word not in PREPOSITIONS and verb_of(word) is None


def _opens_a_clause(tokens: list[re.Match[str]], lowered: list[str], first: int, end: int) -> bool:
    """Whether a finite verb with a word before it (its subject) follows token `first`
    before character `end`, and `first` opens no subordinate clause ("…, if Provider
    asks, …") or phrase ("…, at its option, may …")."""
    if lowered[first] in _SUBORDINATORS or lowered[first] in PREPOSITIONS:
        return False
    verbs = (i for i in range(first + 1, len(tokens)) if tokens[i].start() < end)
    return any(finite_verb_at(lowered, i) for i in verbs)


def negated_predicate(clause: str, match: tuple[int, int] | None = None) -> str | None:
    """`clause` with the first finite verb of the match's own clause negated (`match`, the
    gate's span: `_match_clause_start`), or None when it has no finite verb or already holds
    a negator. A subject opened by "either" or "any" takes the negation
    itself: "Neither party gives notice", "No fines will be assessed" (never "Either party
    does not give notice")."""
    if _NEGATED.search(clause):
        return None
    tokens = list(_WORD.finditer(clause))
    lowered = [t.group(0).lower() for t in tokens]
    start = _match_clause_start(clause, tokens, lowered, match)
    for index, token in enumerate(tokens[start:], start):
        if not finite_verb_at(lowered, index):
            continue
        if match is not None and _subject_between(clause, tokens, lowered, index, match[0]):
            return None  # the sin's clause has a subject of its own, and no verb this module knows
        if index > start and lowered[start] in _NEGATED_DETERMINER:
            negated = _NEGATED_DETERMINER[lowered[start]]
            opening = tokens[start]
            return _spliced(clause, opening, negated.capitalize() if opening.group(0)[0].isupper() else negated)
        word = lowered[index]
        following_word = lowered[index + 1] if index + 1 < len(lowered) else ""
        if (
            word not in MODALS
            and word not in AUXILIARIES
            and (following_word in MODALS or following_word in AUXILIARIES)
        ):
            continue  # "representation claims will not exceed": a noun before the predicate
        if following_word == "not":
            return None  # "will not exceed": a limit idiom, already negative in form
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


def negated_object(clause: str, match: tuple[int, int]) -> str | None:
    """`clause` with the determiner of the sin's own object made "no" ("Provider shall own
    all rights in …" -> "Provider shall own no rights in …"; "Client assigns to Consultant
    all right …" -> "Client assigns to Consultant no right …"), or None: the gate's match
    (`match`, a span of `clause`) holds no verb of its own whose object opens with a
    determiner, its verb is a trigger's ("after Provider confirms an incident"), or the
    clause is already negative."""
    if _NEGATED.search(clause):
        return None
    tokens = list(_WORD.finditer(clause))
    lowered = [t.group(0).lower() for t in tokens]
    if _neutral_object(tokens, lowered, match):
        # "nothing" in place of the neutral object a witness ending on its verb was given
        # (`completion.repair_object`): "Provider owns this" -> "Provider owns nothing".
        return f"{clause[: tokens[-1].start()]}nothing{clause[tokens[-1].end() :]}"
    inside = [i for i, t in enumerate(tokens) if t.start() >= match[0] and t.end() <= match[1]]
    verb = next((i for i in inside if _the_sins_verb(lowered, i)), None)
    if verb is None:
        return None
    determiner = _object_determiner(tokens, lowered, verb)
    if determiner is not None:
        if determiner.start() > match[1] + 1:
            return None  # not the match's own object
        return f"{clause[: determiner.start()]}no{clause[determiner.end() :]}"
    noun = _bare_object(tokens, lowered, verb)
    if noun is None or noun.start() > match[1] + 1:
        return None
    return f"{clause[: noun.start()]}no {clause[noun.start() :]}"


def _neutral_object(tokens: list[re.Match[str]], lowered: list[str], match: tuple[int, int]) -> bool:
    """Whether the clause ends on the match's own verb and, after the match, the neutral
    object a witness ending on that verb was given."""
    return (
        len(tokens) > 2
        and lowered[-1] == NEUTRAL_OBJECT
        and tokens[-2].end() <= match[1] < tokens[-1].end()
        and _the_sins_verb(lowered, len(tokens) - 2)
    )


def _the_sins_verb(lowered: list[str], index: int) -> bool:
    """A main verb of the sin: a known verb, not a modal or an auxiliary (the verb after one
    is), not after a word that opens a subordinate clause."""
    word = lowered[index]
    if word in MODALS or word in _TAKES_NOT or not lexicon.is_verb(word):
        return False
    if _SUBORDINATORS & set(lowered[max(index - 2, 0) : index]):
        return False  # "after Provider confirms": a trigger
    return index == 0 or finite_verb_at(lowered, index) or lowered[index - 1] in MODALS


def _object_determiner(tokens: list[re.Match[str]], lowered: list[str], verb: int) -> re.Match[str] | None:
    """The determiner that opens the verb's object, right after the verb or after its
    recipient ("to Consultant", "to the Customer", "Consultant")."""
    after = _object_start(tokens, lowered, verb)
    if _determiner(lowered, after):
        return tokens[after]
    if after != verb + 1 and _determiner(lowered, verb + 1):
        return tokens[verb + 1]
    return None


def _determiner(lowered: list[str], index: int) -> bool:
    return index < len(lowered) and bool(_DETERMINERS.fullmatch(lowered[index]))


def _object_start(tokens: list[re.Match[str]], lowered: list[str], verb: int) -> int:
    """Where the verb's object starts: right after the verb, or after its recipient ("to
    Consultant", "to the Customer", a named party "Consultant", a party's role "consultant")."""
    after = verb + 1
    if after < len(lowered) and lowered[after] == "to":
        after += 2 if _determiner(lowered, after + 1) else 1  # "to", and "the" if it follows
        after += 1  # the recipient
    elif after < len(tokens) and not _determiner(lowered, after):
        if tokens[after].group(0)[:1].isupper() or lowered[after] in PARTY_ROLES:
            after += 1  # a recipient: "grants Consultant all right", "grants consultant ownership"
    return after


def _bare_object(tokens: list[re.Match[str]], lowered: list[str], verb: int) -> re.Match[str] | None:
    """The verb's object when it is a bare common noun ("grants Consultant ownership",
    "shall pay royalties"), which "no" negates as it stands: a word in lower case that the
    lexicon reads as a noun and not as a verb, an adjective or an adverb (never "grants
    Consultant exclusive …", a name or a preposition)."""
    after = _object_start(tokens, lowered, verb)
    if after >= len(tokens) or not tokens[after].group(0).islower() or lowered[after] in lexicon.FUNCTION_WORDS:
        return None  # a pronoun takes no "no": "bars no this"
    readings = lexicon.lemmas(lowered[after])
    if "NOUN" not in readings or {"VERB", "ADJ", "ADV", "AUX"} & set(readings):
        return None
    return tokens[after]


#: Adverbs of drafting that stand between a subject and its verb.
_ADVERBS = frozenset("hereby herein thereby also further hereafter".split())
#: The verb that agrees with the plural that ends a "neither … nor" list of subjects.
_PLURAL_OF = {"is": "are", "was": "were", "has": "have", "does": "do"}
#: Who a subject list names beside the party: a generic list of related parties, so that
#: the negation spans a list with commas, as drafting lists those bound with the party.
SUBJECT_LIST = "any of its affiliates, agents, or subcontractors"


def negated_subject(clause: str, match: tuple[int, int] | None = None) -> str | None:
    """`clause` with its subject negated in a list: "Neither <subject> nor <related
    parties, …> <predicate>" ("Neither Provider nor any of its affiliates, agents, or
    subcontractors may re-identify …"). None when the clause has no subject before its
    first finite verb, the subject is not a short noun phrase, or the clause is negative.
    The verb agrees with the plural nearest it."""
    if _NEGATED.search(clause):
        return None
    tokens = list(_WORD.finditer(clause))
    lowered = [t.group(0).lower() for t in tokens]
    if _match_clause_start(clause, tokens, lowered, match) > 0:
        return None  # the sin stands in a later clause: its subject is not the sentence's
    verb = next((i for i in range(1, len(tokens)) if finite_verb_at(lowered, i)), None)
    if verb is None or verb > 4 or any(w in _SUBORDINATORS or w in MODALS for w in lowered[:verb]):
        return None
    if any(w in PREPOSITIONS or w in _ADVERBS or w.endswith("ly") for w in lowered[:verb]):
        return None  # "In our view Provider may …", "Client hereby assigns …": not a bare subject
    if lowered[verb - 1] not in PARTY_ROLES and lexicon.known(lowered[verb - 1]):
        return None  # "Notice is due …": only a party has affiliates and agents
    subject = clause[: tokens[verb].start()].strip()
    if lowered[0] in ("the", "each", "its", "their"):
        subject = subject[0].lower() + subject[1:]  # "Neither the other party nor …"
    elif not subject[:1].isupper():
        return None
    word = lowered[verb]
    agreeing = _PLURAL_OF.get(word)
    if agreeing is None and word not in MODALS and word not in ("are", "were", "have", "do", "did"):
        found = verb_of(word)
        if found is None or found[1] not in ("3rd person", "past"):
            return None
        agreeing = found[0] if found[1] == "3rd person" else word
    predicate = clause[tokens[verb].start() :]
    if agreeing is not None:
        predicate = agreeing + predicate[len(word) :]
    return f"Neither {subject} nor {SUBJECT_LIST} {predicate}"


def negated_clauses(clause: str, match: tuple[int, int]) -> Iterator[tuple[str, str]]:
    """(kind, text) of each negation of the clause (`match`: the gate's span in it); none of
    a clause that states a limit with a negator ("Vendor shall notify Customer no later than
    96 hours after …"): negated again it reads as no drafter writes ("Vendor shall not notify
    Customer no later than …"), and it is no correct work a gate must stay silent on."""
    if _STATED_LIMIT.search(clause):
        return
    predicate = negated_predicate(clause, match)
    if predicate is not None:
        yield "negated predicate", predicate
    obj = negated_object(clause, match)
    if obj is not None:
        yield "negated object", obj
    subject = negated_subject(clause, match)
    if subject is not None:
        yield "negated subject list", subject


#: A subject's determiner and its negative: "either party" -> "neither party", "any fines" -> "no fines".
_NEGATED_DETERMINER = {"either": "neither", "any": "no"}


def _spliced(clause: str, token: re.Match[str], replacement: str) -> str:
    return f"{clause[: token.start()]}{replacement}{clause[token.end() :]}"
