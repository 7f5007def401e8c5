"""Which key words an exclusion's markers are scoped to, from the evidence (see
`scoped_guards`): per candidate key, the markers that govern it in each correct-work text
and how far into the match it stands; the keys to try, best first; and the markers that are
the sin's own words on a key's side, which an exclusion must not hold."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from rubric_tools.audit import markers
from rubric_tools.audit.guard_evidence import Governed, compile_or_none, key_in_match
from rubric_tools.audit.markers import Term

#: A key up to this long is preferred: it leaves room in the budget for more markers.
SHORT_KEY = 20


@dataclass(frozen=True)
class Keys:
    """The key words an exclusion's markers are scoped to: those before the key (a negator,
    a rejection) to the *latest* key of the match that the evidence supports — a marker
    anywhere in the clause before the predicate governs it ("Provider may store Customer
    Data in the United States only, and in no other region"), not only one before the
    subject —; those after it (a restriction, a later rejection) to the key that explains
    the most of them, a short one first."""

    before: str
    after: str
    #: The key that opens the match (the least far into it): what a supposition is scoped
    #: to. "If" governs a clause from before its start; one after the match's first words
    #: is the sin's own condition ("Regulators will fine LedgerSync if LedgerSync fails to
    #: report"), however near a later mention of the key. Empty: `before`.
    opening: str = ""
    #: The key that closes the match (the farthest into it) among those with markers after
    #: them: what a restriction is scoped to. "Only", "solely" confine what the clause grants
    #: once it is stated; one before the match's last words confines the grant to the sin
    #: itself ("Consultant may use the data solely to serve other clients"). Empty: `after`.
    closing: str = ""
    #: The keys that open every sin they stand in (the pattern's witnesses): the sin's
    #: subject, which an "and" may join to others ("Provider and its affiliates shall not
    #: …"). After any other key an "and" opens another conjunct ("… available to the public
    #: and Copperline can no longer …").
    subjects: frozenset[str] = frozenset()


def where(term: Term) -> str:
    """Where a term stands from the key: "before" or "after" it in its clause, or "later"
    (a later clause disowning it, past a ";")."""
    return "later" if term.kind == "disowned" else term.side


#: A negation of a verb ("shall not", "cannot", "never", "can't"), not "no" nor "without".
_VERBAL_NEGATION = re.compile(r"not|cannot|never|\w*n['’]t", re.IGNORECASE)


def own_terms(sins: Sequence[str], keyed: Keys) -> frozenset[Term]:
    """The markers among the sin's own words on their side of the key, as the sins (the
    gate's witnesses, normalized) write them: "without" before `limitation` in `without
    (?:any )?limitation`. An exclusion holding one there would silence the sin itself; the
    same marker on the other side of the key, or keyed elsewhere, still governs. Found by
    their strict spelling: "no" in "in no event later than" is not a negator, and a looser
    spelling that would silence the sin is refused by verification. Where the key before is
    the sin's subject, a marker anywhere in the sin's own words is its own: a subject is
    named again after the predicate ("Provider bears no liability for subcontractors engaged
    by Provider"), and the sin's "no" then stands before it. The negators are settled for the
    sin as a whole: a sin that negates its verb owns every one (below), any other sin the one
    term written for a negated clause (`markers.DISOWNING_NEGATOR`)."""
    before, after = compile_or_none(keyed.before), compile_or_none(keyed.after)
    subject_keyed = keyed.before in keyed.subjects
    closing = compile_or_none(keyed.closing) if keyed.closing else after  # a restriction's key
    own = set()
    negated = [term for term in markers.TERMS if term.kind == "negated"]
    # A sin that negates its verb, as its typical witness writes it: an alternative a
    # widening added ("unenforceable|not enforceable") does not make a positive sin negative.
    negative = bool(sins) and any(
        _VERBAL_NEGATION.fullmatch(hit.group(0)) for term in negated for hit in re.finditer(term.regex, sins[0])
    )
    for text in sins:
        key_before = before.search(text) if before else None
        key_after = after.search(text) if after else None
        key_closing = closing.search(text) if closing else None
        for term in markers.TERMS:
            key = key_closing if term.kind == "restricted" else key_after
            for hit in re.finditer(term.regex, text):
                if (
                    term.side == "before"
                    and key_before is not None
                    and (subject_keyed or hit.end() <= key_before.start())
                ):
                    own.add(term)
                elif term.side == "after" and key is not None and hit.start() >= key.end():
                    own.add(term)
    if negative:
        # A sin that negates its verb writes its negator in any form and on either side of
        # its subject ("Provider shall not be liable", "Provider can't be liable", "in no
        # event shall Provider be liable"): every negator is its own but one that governs a
        # clause stating the sin ("we do not accept that …"), and that one too where the key
        # is the sin's subject, which the sin may name again in a clause of its own after its
        # negator ("… is not liable for contractors that the Landlord engaged"). Not a
        # privative word ("without inquiry", "no duty to inquire"), which names the sin's thing.
        own.update(term for term in negated if subject_keyed or term.regex != markers.DISOWNING_NEGATOR)
    else:
        # Any other sin's negators are scoped as single words: that term says it twice.
        own.update(term for term in negated if term.regex == markers.DISOWNING_NEGATOR)
    return frozenset(own)


@dataclass
class Explained:
    """What one key explains: per evidence text, the markers governing it, and how far into
    the match the key stands."""

    key: str
    rank: int
    shown: dict[str, list[Governed]] = field(default_factory=dict)
    offsets: list[int] = field(default_factory=list)

    def add(self, text: str, shown: list[Governed], offset: int) -> None:
        self.shown[text] = shown
        self.offsets.append(offset)

    def sides(self, text: str, *, before: bool) -> list[Governed]:
        return [g for g in self.shown.get(text, []) if (where(g.term) == "before") == before]

    def count(self, *, before: bool) -> int:
        return sum(1 for text in self.shown if self.sides(text, before=before))

    @property
    def offset(self) -> float:
        return sum(self.offsets) / len(self.offsets) if self.offsets else 0.0


def key_choices(explained: list[Explained], whole: str | None = None) -> list[Keys]:
    """The keys to scope to, best first: for the markers before a key, the one that explains
    the most evidence and, on a tie, stands latest in the match; for those after it, the one
    that explains the most, a short one first (room for more markers), the most specific on
    a tie. Then the single key on both sides that explains the most, and the next one."""

    def after_rank(e: Explained) -> tuple[int, bool, int]:
        return (-e.count(before=False), len(e.key) > SHORT_KEY, e.rank)

    by_after = sorted(explained, key=after_rank)
    by_before = sorted(explained, key=lambda e: (-e.count(before=True), -e.offset, len(e.key) > SHORT_KEY, e.rank))
    together = sorted(explained, key=lambda e: (-len(e.shown), len(e.key) > SHORT_KEY, e.rank))
    # Short keys only: a long one is most of the pattern, which an exclusion never copies.
    short = [e for e in explained if len(e.key) <= SHORT_KEY]
    opening = min(short, key=lambda e: (e.offset, e.rank)).key if short else ""
    # Up to twice a short key (a group of alternative nouns, "(?:other client|other
    # customer)"): a longer one would leave no room in the budget for the markers.
    marked_after = [e for e in explained if e.count(before=False) and len(e.key) <= 2 * SHORT_KEY]
    closing = max(marked_after, key=lambda e: (e.offset, -e.rank)).key if marked_after else ""
    choices = [
        Keys(by_before[0].key, by_after[0].key, opening, closing),
        *(Keys(e.key, e.key, opening, closing) for e in together[:2]),
    ]
    # The whole match as the key of the markers before it (`whole`, a short pattern): a
    # negator scoped to where the match stands, not to any mention of its words.
    matched = next((e for e in explained if e.key == whole), None)
    if matched is not None and matched.count(before=True):
        choices.append(Keys(matched.key, by_after[0].key, opening, closing))
    return list(dict.fromkeys(choices))


def key_offset(pattern: str, key: str, text: str) -> int:
    """How many characters into the gate's match in `text` the key words stand."""
    located = key_in_match(pattern, key, text)
    return located.offset if located is not None else 0
