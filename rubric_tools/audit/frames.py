"""Frames of correct work: the ways careful drafting states a sin only to negate,
disclaim, prohibit or strike it. A gate must stay silent on every one of them.

The templates are generic legal drafting idioms written for this tool; `{w}` is a
must-fire witness of the gate.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from rubric_tools.audit.grammar import finite_verb_at, verb_of
from rubric_tools.audit.wording import fill
from rubric_tools.scoring.gates import NEGATOR

if TYPE_CHECKING:
    from rubric_tools.audit.quantities import Quantity


@dataclass(frozen=True)
class Frame:
    kind: str  # what the drafting does, shown as the evidence's kind
    template: str
    #: The frame negates what it wraps: around a witness that is itself negative it reads as
    #: a double negative, not as correct work, unless it `disowns` the statement.
    negates: bool = True
    surfaces: tuple[str, ...] = ("issue", "redline", "settlement")
    #: Only around the clause's own words: an analysis recommends striking what the clause says.
    clause_only: bool = False
    #: Only around a witness that is a quantity or opens with one ("five percent"): a contrast
    #: names the figure it prefers to.
    quantity_only: bool = False
    #: Only around a grant, what a party may do, has, gives or gives up ("may sublet", "is
    #: permitted to", "assigns", "waives"): a grant is confined "only to the extent …", an
    #: obligation or a state is not ("shall pay the rent only to the extent … permits").
    grants_only: bool = False
    #: Only around what a law could require of a party or a thing ("the tenant repairs the
    #: roof", "the data stays in the state"), never a statement of what the law itself does,
    #: allows or voids, nor of what was already done or what a party may do: "No law
    #: requires that subletting is unlawful", "… that the lease already gives us an exit",
    #: "… that the landlord may terminate" read as no lawyer writes.
    requirable_only: bool = False
    #: Its negator governs a verb of saying, agreeing or accepting, not the clause it wraps:
    #: it disowns a statement that is itself negative too ("we do not accept that courts
    #: will not enforce the clause"; the sin's own "not" is part of what is disowned).
    disowns: bool = False

    def applies(self, witness: str, surface: str, *, from_clause: bool = False) -> bool:
        """Whether the frame is correct work around `witness` on `surface` (`from_clause`: the
        witness is the clause under review's own wording, which only recitals quote)."""
        if surface not in self.surfaces or (self.clause_only and not from_clause):
            return False
        if self.quantity_only and not _opens_with_quantity(witness):
            return False
        if self.grants_only and not _GRANT.search(witness):
            return False
        if self.requirable_only and _LEGAL_STATE.search(witness):
            return False
        if from_clause:
            return not self.negates
        return not (self.negates and not self.disowns and NEGATOR.search(witness))

    @property
    def quoted(self) -> bool:
        """Whether the frame quotes its words ('the words "…" are deleted'): any words read
        well in quotes; every other frame takes a whole clause."""
        return '"{w}"' in self.template

    def wrap(self, witness: str) -> str:
        if self.requirable_only:
            witness = subjunctive(witness)
        template = self.template
        if self.quantity_only:
            from rubric_tools.audit.quantities import quantities

            figures = _figures(witness, quantities(witness))
            if len(figures) > 1:
                # Figures side by side ("five days three days", a regex's `.*` between them)
                # are listed, and the figure the frame names is several.
                witness = " and ".join(figures)
                template = _ONE_FIGURE.sub(r"\1figures", template)
        return fill(template, witness)


#: The modal of an obligation before its verb ("shall repair"): dropped under "requires that".
_REQUIRING_MODAL = re.compile(r"\b(?:shall|will|must) (?=[a-z])", re.IGNORECASE)
_WORD = re.compile(r"[\w'’-]+")
_SUBJUNCTIVE_OF = {"is": "be", "are": "be", "has": "have", "does": "do"}


def subjunctive(clause: str) -> str:
    """The clause as a requirement states it, in the subjunctive: "the tenant shall repair
    the roof" and "the tenant repairs the roof" -> "the tenant repair the roof", "the data
    is stored" -> "the data be stored". Its first finite verb decides: a modal of obligation
    is dropped, a verb in the third person takes its base form; any other (a past, a base
    form after a plural: "the exclusions apply") is left as it stands."""
    found = list(_WORD.finditer(clause))
    tokens = [m.group(0).lower() for m in found]
    verb = next((i for i in range(len(tokens)) if finite_verb_at(tokens, i)), None)
    if verb is None:
        return clause
    word, at = tokens[verb], found[verb]
    if word in ("shall", "will", "must"):
        return clause[: at.start()] + _REQUIRING_MODAL.sub("", clause[at.start() :], count=1)
    form = verb_of(word)
    base = _SUBJUNCTIVE_OF.get(word) or (form[0] if form is not None and form[1] == "3rd person" else None)
    return clause if base is None else clause[: at.start()] + base + clause[at.end() :]


def _opens_with_quantity(witness: str) -> bool:
    """Whether `witness` opens with a figure ("five percent of fees"), or is only figures
    side by side ("five days three days", which a frame lists: `_figures`)."""
    from rubric_tools.audit.quantities import quantities

    found = quantities(witness)
    return bool(found) and found[0].start == 0 and (len(found) == 1 or bool(_figures(witness, found)))


def _figures(witness: str, found: Sequence[Quantity]) -> list[str]:
    """The figures `found` in `witness` when it holds nothing else (spaces or an "and"
    between them), in order; else no figure."""
    ends = [0, *(q.end for q in found)]
    between = [witness[end : q.start] for end, q in zip(ends, found, strict=False)] + [witness[ends[-1] :]]
    if not found or any(gap.strip() not in ("", "and") for gap in between):
        return []
    return [witness[q.start : q.end] for q in found]


#: The figure a contrast names, with its article: "a different figure" -> "different figures".
_ONE_FIGURE = re.compile(r"\ban? ((?:\w+ )?)figure\b")


#: A grant: a permission or a right a party has, a transfer it makes or a right it gives up.
_GRANT = re.compile(
    r"\b(?:may|can|(?:is|are) (?:permitted|entitled|allowed|free|authori[sz]ed) to|(?:has|have|retains?|reserves?)"
    r" (?:[\w-]+ ){0,4}?rights?|grants?|assigns?|licen[cs]es?|transfers?|conveys?|waives?|releases?|relinquish(?:es)?"
    r"|surrenders?)\b",
    re.IGNORECASE,
)

_ANALYSIS = ("issue",)
_CONTRACT = ("redline", "settlement")
#: Where a negotiation's positions are reported, not only drafted: an analysis, and the
#: settlement text an issue closed on, which reports what was proposed, rejected or supposed
#: ("Vendor proposed X; we rejected it"). A redline is the contract's own wording, whose "if"
#: and "which" are drafting, not a supposition or a rejection. The frames of those kinds and
#: the guard scopes of their markers (`scoped_guards.SCOPES`) apply there only.
REPORTED_SURFACES = ("issue", "settlement")

#: A statement of the law's own effect, of what is already so, or of what a party may do (a
#: permission is granted, never required): nothing a law requires.
_LEGAL_STATE = re.compile(
    r"\b(?:laws?|statutes?|statutory|regulations?|legislation|courts?|legal(?:ly)?|illegal(?:ly)?|(?:un)?lawful(?:ly)?"
    r"|(?:un)?enforce(?:able|s|d)?|void|invalid|barred|banned|forbidden|outlawed|prohibited|permitted by|already"
    r"|may|can|might|could)\b",
    re.IGNORECASE,
)

FRAMES: tuple[Frame, ...] = (
    Frame("state-then-negate", "it is not the case that {w}."),
    Frame("no law requires", "no law requires that {w}.", requirable_only=True),
    Frame("belt-and-braces prohibition", "neither party shall agree that {w}.", disowns=True),
    Frame("savings clause", "nothing in this section means that {w}.", disowns=True),
    # Striking words is what a redline or a markup does; an analysis does not recite deletions.
    Frame("deletion recital", 'the words "{w}" are deleted.', False, _CONTRACT),
    Frame(
        "replacement recital",
        'the words "{w}" are struck and replaced with the agreed wording.',
        False,
        _CONTRACT,
    ),
    Frame("deletion and insertion", 'delete "{w}" and insert the agreed wording.', False, _CONTRACT),
    Frame("rejection", "we do not accept that {w}.", disowns=True),
    Frame("deletion recommendation", 'we recommend that the words "{w}" be deleted.', False, _ANALYSIS, True),
    Frame("quotation of the clause", 'the clause under review provides that "{w}".', False, _ANALYSIS, True),
    # Beyond the engine's closed negator list: how analyses and settlements disown a statement.
    Frame("negator outside the engine's list", "nobody has suggested that {w}.", True, REPORTED_SURFACES, disowns=True),
    Frame("rejection verb", "the client declines to accept that {w}.", True, REPORTED_SURFACES, disowns=True),
    Frame("rejected proposal", "we reject the proposal that {w}.", True, REPORTED_SURFACES, disowns=True),
    Frame("attribution to the counterparty", "the counterparty's draft says that {w}.", False, REPORTED_SURFACES),
    Frame("attribution then rejection", "their markup proposes that {w}; we reject that.", False, REPORTED_SURFACES),
    Frame(
        "hypothetical",
        "if we accepted that {w}, the client would carry that risk.",
        True,
        REPORTED_SURFACES,
        disowns=True,
    ),
    Frame("later rejection", "{w}, which the client rejects.", False, REPORTED_SURFACES),
    Frame("contrast", "the client proposes a lower figure rather than {w}.", False, _ANALYSIS, False, True),
    # A clause as amended may name the figure it does not adopt beside the one it does.
    Frame(
        "contrast in the clause", "the parties agree a different figure rather than {w}.", False, _CONTRACT, False, True
    ),
    # "as opposed to" contrasts as "rather than" does (`markers.TERMS`): shown by a frame of its
    # own, so that the evidence names it and an exclusion written from the terms found has it.
    Frame(
        "contrast as opposed",
        "the client prefers a lower figure as opposed to {w}.",
        False,
        _ANALYSIS,
        quantity_only=True,
    ),
    Frame(
        "contrast as opposed in the clause",
        "the parties adopt a different figure as opposed to {w}.",
        False,
        _CONTRACT,
        quantity_only=True,
    ),
    # A contrast names what is not agreed: a figure in lieu of another, a clause in place of one.
    Frame("figure in lieu", "in lieu of {w}, the parties agree a different figure.", False, quantity_only=True),
    Frame(
        "contrast with the clause",
        "the client asks for a narrower right rather than a term providing that {w}.",
        False,
        REPORTED_SURFACES,
    ),
    Frame("substitution", "Section 9.3 applies in place of any term providing that {w}.", False, _CONTRACT),
    # A figure the counterparty asked for is reported and rejected, or supposed accepted, in
    # an analysis or a settlement: "if we accepted 5 percent" names the figure, not a term.
    Frame(
        "figure proposed and rejected",
        "the counterparty proposed {w}, which the client rejected.",
        False,
        REPORTED_SURFACES,
        quantity_only=True,
    ),
    Frame(
        "hypothetical figure",
        "if we accepted {w}, the client would carry that risk.",
        False,
        REPORTED_SURFACES,
        quantity_only=True,
    ),
    # A revised figure in a contract names the one it replaces.
    Frame("revised figure", "the parties agree a shorter figure, reduced from {w}.", False, _CONTRACT, False, True),
    # A grant confined by the clause itself is the drafting a redline asks for, not the sin.
    Frame("restriction", "{w} only to the extent this Agreement expressly permits.", True, _CONTRACT, grants_only=True),
)


@lru_cache(maxsize=1024)  # the gate lists of an issue's surfaces share gates: each pattern is built once
def negated_inside(pattern: str) -> str | None:
    """The sin with a negator inside its own window ("client materials[^.]{0,60}owned by
    consultant" -> "client materials is not owned by consultant"): the negator governs it."""
    from rubric_tools.audit.pattern_tree import is_window, render, shared_items, walk_sequences
    from rubric_tools.gate_analysis.witness import iter_witnesses

    branches = shared_items(pattern)  # read only
    if branches is None:
        return None
    found = next(
        (
            (seq, i)
            for seq in walk_sequences(branches)
            for i, item in enumerate(seq)
            if is_window(item) and 0 < i < len(seq) - 1
        ),
        None,
    )
    if found is None:
        return None
    branch, window = found
    # The typical witness of each side (the first: the others are not built).
    left = next(iter_witnesses(render(branch[:window])), None)
    right = next(iter_witnesses(render(branch[window + 1 :])), None)
    if left is None or right is None:
        return None
    from rubric_tools.audit.markers import governing_negator

    governed = re.search(governing_negator(), f"{left.text} {right.text}", re.IGNORECASE)
    text = None if governed else negated_join(left.text.strip(), right.text.strip())
    return None if text is None else f"{text}."


_AUXILIARIES = frozenset("is are was were has have had does do did".split())


def negated_join(subject: str, predicate: str) -> str | None:
    """`subject` and `predicate` joined with "not" where English puts it: after a modal or
    an auxiliary ("tenant may not sublet", "rent is not due"), before a participle or an
    adjective with the subject's "is" or "are" ("the premises are not leased to tenant"),
    "does not" before a verb ("tenant does not own the fixtures"). None when the predicate
    is no predicate ("tenant … sole discretion" has no place for a "not")."""
    from rubric_tools.audit import lexicon
    from rubric_tools.audit.grammar import PREPOSITIONS, plural_form

    left, right = subject.split(), predicate.split()
    if not left or not right:
        return None
    last, first, rest = left[-1].lower(), right[0].lower(), right[1:]
    if last in lexicon.MODALS or last in _AUXILIARIES:
        return f"{subject} not {predicate}"
    if first in lexicon.MODALS or first in _AUXILIARIES:
        return " ".join([subject, right[0], "not", *rest])
    plural = plural_form(last)
    verbs = lexicon.lemmas(first).get("VERB", ())
    participle = any(lexicon.past_participle(verb) == first for verb in verbs)
    if (participle and (not rest or rest[0].lower() in PREPOSITIONS)) or (lexicon.is_modifier(first) and not verbs):
        return " ".join([subject, "are" if plural else "is", "not", predicate])
    third_person = [verb for verb in verbs if lexicon.verb_form(verb, "VBZ") == first]
    if third_person and not plural:
        return " ".join([subject, "does not", third_person[0], *rest])
    if first in verbs and plural:
        return " ".join([subject, "do not", predicate])
    return None
