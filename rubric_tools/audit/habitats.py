"""Sins in their natural habitats: where contract drafting states a sin with words around it
that a careless guard mistakes for a disclaimer. A gate must still fire on every one.

- recitals that put the sin *in*: "Section 2.1 is deleted and replaced with: <sin>", "is
  amended to read:", "insert the following:", citing the clause under review (the section
  of the issue's anchor, "amendment §2.1"; "Section 9.2" where the anchor names none);
- negators that negate nothing: "without limiting …", "no later than thirty (30) days
  after …" before the sin (before an act a party must or may do: a deadline times no
  state), a negation in another clause ("…; <sin>", "… but <sin>", "Although … does not
  …, <sin>"), and
  limit idioms around a quantity of the sin ("shall not exceed five percent", "in no event
  later than 72 hours after …", "in no event shall the period be less than five days", a
  time bar "no claim may be made more than nine months after …"), a
  deadline after the sin ("<sin> no later than thirty (30) days after the Effective Date"),
  and a negator after the sin that states it without condition ("<sin> with no limitation");
- a citation before the sin and a proviso after it ("Subject to Section 9.2, <sin>",
  "<sin>; provided that …");
- a negation of the sin's last noun in a clause after it ("<sin> … all notices, and no
  further notices will be required"), or in a relative clause on it ("<sin> … any claim that
  Schedule A does not already cover"): a guard keyed to that noun must not reach there.

The templates are generic drafting idioms written for this tool; `{w}` is a must-fire
witness of the gate (see `gate_analysis.gate_firing.fire_texts`). Which of them fire today is
the caller's business: those are protected (a proposal that silences one is refused),
the others are dodges.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rubric_tools.audit import lexicon
from rubric_tools.audit.grammar import MODALS, is_clause
from rubric_tools.audit.quantities import is_number_word, quantities
from rubric_tools.audit.wording import as_sentence, fill, words
from rubric_tools.scoring.gates import NEGATOR

#: The section a recital cites when the issue's anchor names none.
DEFAULT_SECTION = "9.2"
#: A section number as an anchor writes it and a recital can cite it ("2.1", "10.4", "7.3(b)").
_SECTION_NUMBER = re.compile(r"\d+(?:\.\d+)*(?:\([a-z0-9]{1,4}\))*")


def recital_section(anchor_section: str | None) -> str:
    """The section a recital cites: the anchor's ("2.1" of "amendment §2.1"), where it is a
    section number, else `DEFAULT_SECTION`."""
    if anchor_section and _SECTION_NUMBER.fullmatch(anchor_section):
        return anchor_section
    return DEFAULT_SECTION


@dataclass(frozen=True)
class Habitat:
    kind: str
    template: str
    surfaces: tuple[str, ...] = ("issue", "redline", "settlement")
    #: Wraps only an act a party must or may do (`_ACTION`): a deadline times "shall
    #: notify", never "knowledge means …" or "the cap is …".
    acts_only: bool = False

    def wrap(self, witness: str, section: str = DEFAULT_SECTION) -> str:
        """The habitat around `witness`; a recital cites `section`, the clause it replaces."""
        return fill(self.template.replace("{s}", section), witness)


_CONTRACT = ("redline", "settlement")

HABITATS: tuple[Habitat, ...] = (
    Habitat("replacement recital", "Section {s} is deleted and replaced with: {w}."),
    Habitat("amendment recital", "Section {s} is amended to read: {w}.", _CONTRACT),
    Habitat("insertion recital", "Insert the following at the end of Section {s}: {w}.", _CONTRACT),
    Habitat("limiting idiom before", "Without limiting Section 9.2, {w}."),
    Habitat("deadline idiom before", "No later than thirty (30) days after the Effective Date, {w}.", _CONTRACT, True),
    Habitat("negation in another clause", "No other term of Section 9 changes; {w}."),
    Habitat("negation before a contrasting clause", "Section 9.3 does not apply to fees, but {w}."),
    Habitat("negation in a concessive clause before", "Although Section 9.3 does not apply, {w}."),
    Habitat("citation before", "Subject to Section 9.2, {w}."),
    Habitat("proviso after", "{w}; provided that notice is given in writing."),
)

#: Limit idioms written before a quantity: they state the sin's figure, never deny it.
LIMIT_IDIOMS = ("not more than", "no more than", "no less than", "not less than", "in no event later than")
#: A noun phrase capped by a limit idiom after it ("Customer's indemnification obligations
#: shall not exceed …").
_CAPPED = "{w} shall not exceed the amount stated in Section 9.2."
#: A negator after the sin's clause that negates nothing: "Provider may use the data for
#: training with no limitation" states the sin without condition.
_UNCONDITIONAL = "with no limitation"
#: Temporal openings after which a deadline idiom reads naturally ("in no event later than
#: ten (10) days after …").
_TEMPORAL = re.compile(r"^(?:after|following|upon|within|before|prior to|from)\b")
#: A modal and the act it governs ("shall notify", "may not sublet"), not "be" ("shall be
#: responsible"): what a deadline can time.
_ACTION = re.compile(r"\b(?:shall|will|must|may)\s+(?:not\s+)?(?:\w+ly\s+)?(?!(?:be|not)\b)[a-z]+", re.IGNORECASE)
#: A speaker's own words ("we", "our"; not "us", which a lowercase witness writes for the country).
_FIRST_PERSON = re.compile(r"\b(?:we|our)\b", re.IGNORECASE)
#: Words after which a figure is already a limit ("no later than", "within", "up to").
_LIMITED = re.compile(r"\b(?:than|within|exceed\w*|least|most|to|of)\s*$")


def habitat_texts(
    witness: str,
    surface: str,
    before: str = "",
    after: str = "",
    noun_phrase: str | None = None,
    section: str = DEFAULT_SECTION,
) -> Iterator[tuple[str, str]]:
    """(kind, text) of each habitat of one witness on `surface`; `before` and `after` are the
    words that complete the witness into a clause (`clauses.Completion`), `noun_phrase` the
    witness with its determiner when it is a noun phrase (`completion.Completion.noun_phrase`),
    wherever the clause around it comes from; `section` is the clause under review's, which
    the recitals cite (`recital_section`)."""
    clause = f"{before}{witness}{after}"
    noun = _last_noun(witness)
    if noun_phrase is not None and noun is not None and not quantities(witness):
        # Drafting caps an amount, a liability or an obligation with a limit idiom after it:
        # its "not" limits the noun phrase and denies nothing.
        yield "limit idiom after", fill(_CAPPED, noun_phrase)
    an_act = _ACTION.search(clause) is not None
    # A contract's wording never speaks in the first person: "what we can do is move to 48
    # hours" is said in a negotiation, and no recital or proviso wraps it.
    drafted = _FIRST_PERSON.search(clause) is None
    for habitat in HABITATS if drafted else ():
        if surface in habitat.surfaces and (an_act or not habitat.acts_only):
            yield habitat.kind, habitat.wrap(clause, section)
    if noun is not None and is_clause(clause):
        if surface in _CONTRACT and drafted:  # drafting joins obligations so
            yield "noun negated in a clause after", as_sentence(f"{clause}, and no further {noun} will be required")
        if not after:
            # A relative clause on the sin's last noun negates what it names, not the sin: "…
            # confirms a Security Incident that Customer has not already discovered".
            yield "negated relative clause after", as_sentence(f"{clause} that Schedule A does not already cover")
    if is_clause(clause) and not NEGATOR.search(after):
        # A negator after the sin that negates nothing: it states the sin without condition
        # (not where the completion after the witness holds one already: it would be a second).
        yield "negator after that negates nothing", as_sentence(f"{clause} {_UNCONDITIONAL}")
    found = quantities(witness)
    if found:
        quantity = found[0]
        head, rest = witness[: quantity.start], witness[quantity.start :]
        if quantity.start == 0 and not quantity.adjectival and not is_clause(witness):
            measured = _MEASURED.get(quantity.unit.name, "amount")
            yield "limit idiom: shall not exceed", fill(f"the {measured} shall not exceed {{w}}.", witness)
            if quantity.unit.is_duration:
                # A negator that denies an act until the period has run, not the period.
                yield "limit idiom: not until", fill("no party may terminate until {w} after the notice.", witness)
                # A time bar: its negator bars what comes after the period, and states the period.
                yield (
                    "limit idiom: time bar",
                    fill("no claim may be made more than {w} after the Effective Date.", witness),
                )
            # Inverted, its negator words away from the figure: a floor and a ceiling.
            for limit in ("be less than", "exceed"):
                yield (
                    f"limit idiom inverted: in no event shall {limit}",
                    fill(f"in no event shall the {measured} {limit} {{w}}.", witness),
                )
        # Not before a figure already limited ("no later than two days") or a compound
        # modifier ("a 72-hour rule"): the idiom would be said twice or mean nothing.
        if not _LIMITED.search(head) and not quantity.adjectival:
            for idiom in LIMIT_IDIOMS[:3]:
                yield f"limit idiom: {idiom}", as_sentence(f"{before}{head}{idiom} {rest}{after}")
    if not found and not _TEMPORAL.match(witness) and is_clause(clause) and an_act:
        # A deadline after the sin: a guard that reads any "no" after the key word silences it.
        # Only after an act a party must or may do: "the cap is fixed no later than …" times nothing.
        yield "deadline idiom after", as_sentence(f"{clause} no later than thirty (30) days after the Effective Date")
    timed = quantities(before)
    # Not where a figure already times the witness ("within 48 hours after …").
    if _TEMPORAL.match(witness) and not found and not (timed and timed[-1].end >= len(before.rstrip())):
        yield (
            "limit idiom: in no event later than",
            as_sentence(f"{before}in no event later than ten (10) days {witness}{after}"),
        )


#: What a figure in each unit measures: "the period shall not exceed 90 days", "the rate
#: shall not exceed five percent"; a sum of money or a multiple is an amount.
_MEASURED = {
    "percent": "rate",
    "business day": "period",
    "calendar day": "period",
    "hour": "period",
    "day": "period",
    "week": "period",
    "month": "period",
    "year": "period",
}

_LAST_WORDS = re.compile(r"(?:(?<!\S)(\S+)\s+)?\b([a-z]{3,})\W*$", re.IGNORECASE)
#: Words after which the last word is a verb ("may terminate", "to notify").
_BEFORE_A_VERB = MODALS | {"to", "not"}


def _last_noun(witness: str) -> str | None:
    """The witness's last word when it reads as a noun there: the lexicon knows it as one,
    no modal or "to" stands before it, it is not the unit of a figure, and not a name (written
    with a capital)."""
    found = _LAST_WORDS.search(witness)
    if found is None:
        return None
    if found.group(2)[0].isupper():
        return None  # a name ("Kestrel"): "no further Kestrel" is no clause
    previous, word = (found.group(1) or "").lower(), found.group(2).lower()
    if previous in _BEFORE_A_VERB or "NOUN" not in lexicon.lemmas(word):
        return None
    if any(character.isdigit() for character in previous) or is_number_word(previous):
        return None  # the unit of a figure ("9 months", "five percent"): "no further months" says nothing
    if previous in ("and", "or") and _joined_to_a_verb(words(witness)):
        return None  # "improve and train", "may repair and paint": a verb joined to a verb
    return word


def _joined_to_a_verb(tokens: Sequence[str]) -> bool:
    """Whether the last word is the last of words joined by "and"/"or" whose first is a
    verb: one only ever a verb ("improve"), or one after a modal or "to" ("may repair")."""
    index = len(tokens) - 1
    while index >= 2 and tokens[index - 1] in ("and", "or"):
        index -= 2
        if lexicon.only_as(tokens[index], "VERB"):
            return True
    return index >= 1 and tokens[index - 1] in _BEFORE_A_VERB
