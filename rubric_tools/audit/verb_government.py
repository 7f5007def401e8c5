"""What a verb governs after its object, checked on a finished text (`naturalness`): a
preposition it does not take ("reimburse the landlord against any claim": one is
reimbursed *for* a loss) and a recipient a verb of giving up does not take ("waived to
anyone who asks"). The data is the thesaurus's (`NOT_BEFORE_PREPOSITION`,
`NO_RECIPIENT_VERBS`), which the synonym swaps read too: a swap made on a witness cut short
meets the words after it only once completed into the matter's clause.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rubric_tools.audit import lexicon
from rubric_tools.audit.grammar import PREPOSITIONS, gives_to_someone
from rubric_tools.audit.thesaurus import NO_RECIPIENT_VERBS, NOT_BEFORE_PREPOSITION


def government_problems(tokens: Sequence[str]) -> list[str]:
    """The problems of what the verbs of `tokens` (a text's lowercase words) govern."""
    found = []
    giving_up = _giving_up_forms()  # looked up once, not for every word
    for index, word in enumerate(tokens):
        if word in giving_up and gives_to_someone(tokens[index + 1 : index + 10]):
            found.append(f"a verb of giving up with a recipient: {word} … to")  # "forgo the code to anyone"
    return found + _prepositions_not_taken(tokens)


@lru_cache(maxsize=1)
def _giving_up_forms() -> frozenset[str]:
    """Every form of the verbs of giving up that take no recipient ("waives", "forgone")."""
    return frozenset(form for verb in NO_RECIPIENT_VERBS for form in lexicon.verb_forms(verb))


@lru_cache(maxsize=1)
def _not_before_preposition() -> dict[tuple[str, ...], frozenset[str]]:
    """Each form of the members of `NOT_BEFORE_PREPOSITION` ("reimburses", "made whole") as
    its words, with the prepositions it does not take after its object."""
    table = {}
    for member, prepositions in NOT_BEFORE_PREPOSITION.items():
        head, *rest = member.split(" ")
        for form in lexicon.verb_forms(head):
            table[(form, *rest)] = prepositions
    return table


def _prepositions_not_taken(tokens: Sequence[str]) -> list[str]:
    """A verb before a preposition it does not take after its object: "reimburse the landlord
    against any claim"."""
    found = []
    present = set(tokens)  # each verb's first word looked up in it, not sought word by word
    for forms, prepositions in _not_before_preposition().items():
        if forms[0] not in present:
            continue
        for index in (i for i, token in enumerate(tokens) if token == forms[0]):
            end = index + len(forms)
            if tuple(tokens[index:end]) != forms:
                continue
            following = next((w for w in tokens[end : end + 6] if w in PREPOSITIONS), None)
            if following in prepositions:
                found.append(f"a verb with a preposition it does not take: {' '.join(forms)} … {following}")
    return found
