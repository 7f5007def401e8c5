"""What follows a phrase of a witness, as the thesaurus member that would replace it must
take it (`synonym_swaps`): "obliges the landlord to repair" but never "obliges notice", a
waiver only of a right, a clause opener only before a clause. The data of which verbs take
what is in `thesaurus`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

from rubric_tools.audit import lexicon
from rubric_tools.audit.grammar import (
    DETERMINERS,
    PREPOSITIONS,
    base_verb,
    determines,
    gives_to_someone,
    has_finite_verb,
    is_party,
)
from rubric_tools.audit.thesaurus import (
    FROM_GERUND_VERBS,
    GIVEN_UP_OBJECTS,
    NO_RECIPIENT_VERBS,
    NOT_BEFORE_PREPOSITION,
    OBJECT_AND_INFINITIVE_VERBS,
    THING_ONLY_VERBS,
)

#: Members that only open a clause, never a noun phrase: one stands for a phrase only before
#: a clause ("once the landlord invoices", never "once invoicing" or "whenever and …").
CLAUSE_OPENERS = frozenset("once whenever if unless although because while where when should".split())
_NOT_SUBJECTS = PREPOSITIONS | frozenset("and or but as".split())


class WhatFollows:
    """The words after a phrase, as its members must take them; each test is made once per
    phrase, and only when a member asks it (most members ask none). A verb that takes a
    person and an infinitive stands only before "… to do" ("compels the landlord to
    repair", never "compels repairs"), and one that takes a thing only elsewhere ("insists
    on the landlord to repair"); before "from" and a gerund, only the participle of a verb
    that takes it ("barred by law from subletting", never "illegal from subletting" or
    "outlawed from subletting"); a member that opens a clause ("whenever", "once") only
    before a clause."""

    def __init__(self, phrase: str, after: Sequence[str], names: frozenset[str] | None) -> None:
        self.phrase = phrase
        self.after = after
        self.names = names  # the matter's names: the parties a role does not name

    @cached_property
    def clause(self) -> bool:
        # A clause right after it: "whenever and as often as needed" opens none.
        after = self.after
        return bool(after) and after[0] not in _NOT_SUBJECTS and has_finite_verb(" ".join(after[:6]))

    @cached_property
    def person_to_do(self) -> bool:
        after = self.after
        return any(
            word == "to" and following in lexicon.lemmas(following).get("VERB", ())
            for word, following in zip(after[1:5], after[2:6], strict=False)
        )

    @cached_property
    def party_to_do(self) -> bool:
        # "… the landlord to repair": a party before that "to" (never "the commitment to survive").
        after = self.after
        to = next((at for at in range(1, min(len(after) - 1, 5)) if after[at] == "to"), None)
        return self.person_to_do and to is not None and any(is_party(w, self.names) for w in after[:to])

    @cached_property
    def infinitive(self) -> bool:
        # "to" and a verb right after it: "is required to pay", "is permitted to re-let".
        after = self.after
        return len(after) > 1 and after[0] == "to" and base_verb(after[1])

    @cached_property
    def first_preposition(self) -> str | None:
        # The first preposition after the phrase's object ("indemnify the landlord against").
        return next((w for w in self.after[1:6] if w in PREPOSITIONS), None)

    @cached_property
    def recipient(self) -> bool:
        return gives_to_someone(self.after, self.names)

    @cached_property
    def gerund_after_predicate(self) -> bool:
        after = self.after
        # A word in "-ing" after "from" the lexicon does not know is a gerund too ("from
        # onboarding"); one it knows only as another part of speech is not ("from nothing").
        from_gerund = any(
            word == "from"
            and following.endswith("ing")
            and (lexicon.is_verb(following) or not lexicon.known(following))
            for word, following in zip(after[:3], after[1:4], strict=False)
        )
        return from_gerund and _is_predicate(self.phrase.split(" ")[0])

    def taken_by(self, member: str, written: str) -> bool:
        """Whether `member` (its head `written` as the rewrite writes it) takes these words."""
        if member in CLAUSE_OPENERS:
            return self.clause
        if member in OBJECT_AND_INFINITIVE_VERBS:
            return self.party_to_do
        if self.infinitive and lexicon.is_past_participle(written) and member.split(" ")[-1] in PREPOSITIONS:
            return False  # a passive before its infinitive: "is required to pay", never "is called for to pay"
        if member in THING_ONLY_VERBS:
            return not self.person_to_do
        if member in NO_RECIPIENT_VERBS:  # "releases its firmware" publishes it: it is no waiver
            return not self.recipient and self.gives_up_a_right
        if member in NOT_BEFORE_PREPOSITION:
            return self.first_preposition not in NOT_BEFORE_PREPOSITION[member]
        if self.gerund_after_predicate:
            return member.split(" ")[0] in FROM_GERUND_VERBS and lexicon.is_past_participle(written)
        if self.bare_object and _verb_and_complement(member) and not lexicon.is_past_participle(written):
            return False  # "makes unlawful subletting": the object goes between ("makes subletting unlawful")
        return True

    @cached_property
    def gives_up_a_right(self) -> bool:
        """Whether the object is something waived (`GIVEN_UP_OBJECTS`): "all claims", "any
        right to", "its defenses"; also when no object is written (the witness ends there)."""
        head = next((w for w in self.after if not _before_a_head(w)), None)
        if head is None or head in PREPOSITIONS:
            return True
        return head in GIVEN_UP_OBJECTS or any(n in GIVEN_UP_OBJECTS for n in lexicon.lemmas(head).get("NOUN", ()))

    @cached_property
    def bare_object(self) -> bool:
        """An object with no determiner right after the phrase ("subletting", "rent
        increases"): a verb and its adjective ("make unlawful") stand before an object only
        when a determiner opens it ("renders void any transfer")."""
        after = self.after
        return bool(after) and after[0] not in PREPOSITIONS and after[0] not in DETERMINERS


def _before_a_head(word: str) -> bool:
    """A word that stands before a noun phrase's head: a determiner, a possessive, "and"/"or"
    ("any and all claims")."""
    return determines(word) or word in ("and", "or", "of")


def _verb_and_complement(member: str) -> bool:
    """A verb and the adjective it makes its object ("make unlawful", "render void")."""
    words = member.split(" ")
    return len(words) == 2 and lexicon.is_verb(words[0]) and lexicon.only_as(words[1], "ADJ")


def _is_predicate(word: str) -> bool:
    """An adjective or a past participle: what "is" goes on with ("is barred", "is void")."""
    return lexicon.is_modifier(word) or lexicon.is_past_participle(word)
