"""A time bar states its period with a negator; a scoped exclusion whose every candidate
silences a sin leaves one kind of marker out, so that the other kinds the correct work
showed still silence what they govern; and "solely" is no part of the family of an "only"."""

from __future__ import annotations

from rubric_tools.audit.habitats import habitat_texts
from rubric_tools.audit.markers import LIMIT_IDIOM
from rubric_tools.audit.proposals import propose_entry
from rubric_tools.audit.scoped_guards import scoped_exclusions, scopes_for
from rubric_tools.audit.verification import EntryTexts
from rubric_tools.scoring.gates import Gate
from rubric_tools.scoring.text import normalize

GATE = Gate("six months")
CONTRASTED = "Landlord offers a rent-free period of nine months rather than six months."
NEGATED = "It is not the case that the rent-free period is six months."
#: A sin behind a negator of another clause joined by "and": no gap a negator part can
#: have keeps it out (the clause is not closed by a comma, a ";" or "but").
JOINED = "No other term of the lease changes and Tenant gets six months rent-free."


def _fires(gate: Gate, text: str) -> bool:
    return gate.fires(normalize(text))


def test_a_time_bar_is_a_habitat_of_a_duration_and_its_negator_states_a_limit() -> None:
    [text] = [t for kind, t in habitat_texts("six months", "settlement") if kind == "limit idiom: time bar"]
    assert text == "No claim may be made more than six months after the Effective Date."
    assert _fires(GATE, text) and not _fires(Gate("six months", negation_guard=True), text)
    strict = Gate("six months", exclude_context=rf"\bno\b{LIMIT_IDIOM}[^.;,]{{0,80}}?six months")
    assert _fires(strict, text)
    assert not _fires(strict, "No rent-free period of six months was agreed.")


def test_every_kind_but_one_in_turn() -> None:
    kinds = scopes_for("settlement")
    full = scoped_exclusions(GATE.pattern, [CONTRASTED, NEGATED], kinds)
    assert any({"negated", "contrasted"} <= set(e.kinds) for e in full)
    fewer = scoped_exclusions(GATE.pattern, [CONTRASTED, NEGATED], kinds, leave_one_kind_out=True)
    assert {e.kinds for e in fewer} == {("negated",), ("contrasted",)}
    # One kind shown: nothing is left to leave out.
    assert scoped_exclusions(GATE.pattern, [CONTRASTED], kinds, leave_one_kind_out=True) == []


def test_the_kind_that_silences_a_sin_is_left_out_and_the_others_kept() -> None:
    texts = EntryTexts((GATE,), 0, "settlement", [JOINED], [], [CONTRASTED, NEGATED], [])
    proposal = propose_entry(texts)
    assert proposal is not None and proposal.verified
    assert proposal.outcome.silenced == (CONTRASTED,) and not proposal.outcome.lost
    guarded = proposal.after
    assert _fires(guarded, JOINED) and not _fires(guarded, CONTRASTED) and _fires(guarded, NEGATED)
    assert not _fires(guarded, "Tenant prefers twelve months in lieu of six months.")  # the contrast's family


def test_a_restriction_to_a_named_purpose_is_written_only_where_correct_work_shows_it() -> None:
    """ "Only to the extent this Lease permits" confines a grant; "solely for …" names what the
    grant is confined to, which may be the sin itself: the family of the one is not the other."""
    sin = "tenant may sublet the premises"
    deferring = "Tenant may sublet the premises only to the extent this Lease expressly permits."
    confined = "Tenant may sublet the premises solely for its own business purposes."
    [written, *_] = scoped_exclusions(sin, [deferring], ("restricted",))
    guarded = Gate(sin, exclude_context=written.regex)
    assert not _fires(guarded, deferring) and _fires(guarded, confined)
    assert not _fires(guarded, "Tenant may sublet the premises to the extent Landlord consents.")  # the family
    # Shown by correct work, it is written.
    shown = [e.regex for e in scoped_exclusions(sin, [deferring, confined], ("restricted",))]
    assert any(not _fires(Gate(sin, exclude_context=regex), confined) for regex in shown)
