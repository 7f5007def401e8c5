"""Proposals a reviewer reads in seconds: a size budget per proposal, exclusions scoped to the
gate's key words by the kinds of marker the evidence needed, and the engine's own negation
guard kept wherever it works (`negation_scope: before` when the sin's own words carry a
negator)."""

from __future__ import annotations

import re
from dataclasses import replace as replace_gate
from pathlib import Path
from typing import Any

import pytest

from rubric_tools.audit.active_voice import other_voice
from rubric_tools.audit.guard_evidence import negator_in_own_words
from rubric_tools.audit.guard_keys import keys
from rubric_tools.audit.guard_windows import without_lead_in, without_window_stops
from rubric_tools.audit.pattern_tree import top_level_branches
from rubric_tools.audit.proposals import propose_entry
from rubric_tools.audit.scoped_guards import (
    EXCLUSION_BUDGET,
    EXCLUSION_TOTAL_BUDGET,
    budget_length,
    scoped_exclusions,
    scopes_for,
)
from rubric_tools.audit.texts import entry_texts
from rubric_tools.audit.thesaurus import Thesaurus, build
from rubric_tools.audit.verification import (
    PATTERN_BUDGET_EXTRA,
    PATTERN_BUDGET_FACTOR,
    EntryTexts,
    over_budget,
    pattern_budget,
)
from rubric_tools.config.audit import AuditSection
from rubric_tools.scoring.gates import Gate
from rubric_tools.scoring.text import normalize
from tests.audit_support import audit, make_matter

SIN = "customer may use provider data"


def test_the_budgets_are_named_and_what_they_say() -> None:
    assert EXCLUSION_BUDGET == 280
    # Three pieces over every round: a later round has room for the kinds the first left out.
    assert EXCLUSION_TOTAL_BUDGET == 3 * EXCLUSION_BUDGET
    assert pattern_budget("x" * 50) == PATTERN_BUDGET_FACTOR * 50 + PATTERN_BUDGET_EXTRA == 250
    before = Gate(SIN, exclude_context=r"\bfor the avoidance of doubt\b")
    # The entry's own exclusion does not count against the budget; what the proposal adds does.
    fits = Gate(SIN, exclude_context=before.exclude_context + "|" + "a" * EXCLUSION_BUDGET)
    assert over_budget(before, fits) is None
    assert over_budget(before, Gate(SIN, exclude_context=fits.exclude_context + "bb")) is not None
    # Over the rounds of --fix, the parts this tool wrote stay within the total budget.
    part = r"\bnobody\b[^.;]{0,40}?\bprovider data"
    grown = "|".join([part] * (EXCLUSION_TOTAL_BUDGET // len(part)))
    assert over_budget(Gate(SIN, exclude_context=grown), Gate(SIN, exclude_context=grown + "|" + part)) is not None
    assert over_budget(before, Gate("y" * pattern_budget(SIN))) is None
    assert over_budget(before, Gate("y" * (pattern_budget(SIN) + 1))) is not None


def _proposals(root: Path) -> list[dict[str, Any]]:
    found = []
    for diagnostic in audit(root, AuditSection(max_evidence=100)):
        proposal = diagnostic.extra.get("proposal") if diagnostic.extra else None
        if isinstance(proposal, dict) and proposal.get("change"):
            found.append(proposal)
    return found


@pytest.mark.parametrize(
    "gates",
    [
        "    redline_critical_failure_patterns:\n      - 'customer may use provider data'\n",
        "    critical_failure_patterns:\n      - pattern: 'uptime commitments are unenforceable'\n"
        "        negation_guard: true\n",
        "    critical_failure_patterns:\n      - 'uptime commitments are unenforceable'\n",
    ],
)
def test_every_proposal_is_within_its_size_budget(tmp_path: Path, gates: str) -> None:
    proposals = _proposals(make_matter(tmp_path / "m", gates))
    assert proposals
    for proposal in proposals:
        before, after = proposal["before"], proposal["after"]
        # The limit-idiom lookahead, one fixed construct, is not counted (`scoped_guards.budget_length`).
        added = budget_length(after.get("exclude_context") or "") - budget_length(before.get("exclude_context") or "")
        assert added <= EXCLUSION_BUDGET + 1, after.get("exclude_context")
        # The lead-in and the negator stops it puts in windows and slack, fixed constructs, are
        # not counted (`verification.over_budget`); the author's clause in the other voice is
        # reviewed as the author's own (`widening_proposal._compact_other_voice`).
        own = before["pattern"]
        if "passive" in proposal["steps"]:
            own = "|".join([own, *other_voice(own)])
        assert len(without_window_stops(without_lead_in(after["pattern"]))) <= pattern_budget(own), after["pattern"]
        # Scoped to key words, not a copy of the pattern with a governing-negator table.
        assert before["pattern"] not in (after.get("exclude_context") or "")


def test_the_exclusion_takes_only_the_kinds_the_evidence_needed() -> None:
    [*found] = scoped_exclusions(
        SIN, ["We reject the proposal that customer may use provider data."], scopes_for("issue")
    )
    assert found and all(e.kinds == ("rejected",) for e in found)
    first = found[0].regex
    assert "reject" in first and "rather than" not in first and "delet" not in first and "draft" not in first
    gate = Gate(SIN, exclude_context=first)
    assert not gate.fires(normalize("The client rejects any suggestion that customer may use provider data."))
    # Loosest first; the stricter ones keep to the clause when a must-fire text needs it.
    other_clause = normalize("We reject the cap, but customer may use provider data.")
    strict = [e for e in found if "but|provided" in e.regex]
    assert strict and all(Gate(SIN, exclude_context=e.regex).fires(other_clause) for e in strict)
    assert scoped_exclusions(SIN, [f"Yesterday {SIN}."], scopes_for("issue")) == []  # no marker: nothing


def test_keys_are_the_most_specific_required_literals() -> None:
    assert keys(r"\b(?:provider|vendor)\b[^.]{0,40}\bmay train\b")[0] == "may train"
    assert keys(r"\bnotify[^.]{0,80}\b72 hours\b")[0] == "72 hours"
    assert keys(r"[^.]*") == ()
    # Branches: their keys grouped, then each alone (the group may be too long to be a key).
    assert keys(r"\bmay train|\bshall license") == (r"(?:may train|shall license)", "may train", "shall license")
    two = r"\b(?:eighteen|18) months|\b(?:preliminary|substantive) discussions"
    assert keys(two) == (r"(?:eighteen|18) months", r"(?:preliminary|substantive) discussions")
    contrast = "The fee applies within twelve months, reduced from eighteen months, after termination."
    [first, *_rest] = scoped_exclusions(two, [contrast], scopes_for("redline"))
    assert not Gate(two, exclude_context=first.regex).fires(normalize(contrast))
    assert Gate(two, exclude_context=first.regex).fires(normalize("The fee applies within eighteen months."))


def _texts(gate: Gate, missed: list[str], false_positives: list[str] = (), silent: list[str] = ()) -> EntryTexts:  # type: ignore[assignment]
    return EntryTexts((gate,), 0, "settlement", [], list(silent), list(false_positives), missed)


DEADLINE = r"\b(?:without undue delay|in no event later than)\b[^.]{0,60}\bafter provider confirms\b"


def test_the_guard_stays_on_and_looks_before_the_match_when_the_sins_words_carry_a_negator() -> None:
    gate = Gate(DEADLINE, negation_guard=True)
    sin = "Provider shall notify Customer in no event later than 72 hours after Provider confirms the incident."
    disclaimer = "It is not sufficient to notify in no event later than 72 hours after provider confirms."
    assert not gate.fires(normalize(sin)) and not gate.fires(normalize(disclaimer))
    proposal = propose_entry(_texts(gate, [sin], silent=[disclaimer]))
    assert proposal is not None and proposal.verified
    assert proposal.after.negation_guard is True and proposal.after.negation_scope == "before"
    # The guard is scoped; the pattern may be widened by principle beside it (a dotted
    # section reference through its window), never narrowed.
    assert proposal.change["negation_scope"] == "before" and set(proposal.change) <= {"negation_scope", "pattern"}
    assert proposal.after.fires(normalize(sin.replace("72 hours", "72 hours under Section 4.2")))
    assert not proposal.after.fires(normalize(disclaimer))


def test_the_guard_is_not_dropped_for_a_negator_outside_the_sins_own_words() -> None:
    gate = Gate(SIN, negation_guard=True)
    sin = f"Without limiting Section 9.2, {SIN}."
    assert not gate.fires(normalize(sin)) and not negator_in_own_words(SIN, sin)
    proposal = propose_entry(_texts(gate, [sin], silent=[f"It is not the case that {SIN}."]))
    assert proposal is None or proposal.after.negation_guard is True


def test_the_guard_is_dropped_only_for_a_limit_idiom_before_the_match_with_a_compact_exclusion() -> None:
    pattern = r"\b72 hours after provider confirms\b"
    gate = Gate(pattern, negation_guard=True)
    sin = "Provider shall notify Customer in no event later than 72 hours after Provider confirms the incident."
    negated = "It is not the case that notice is due 72 hours after provider confirms."
    assert negator_in_own_words(pattern, sin) and not gate.fires(normalize(sin))
    proposal = propose_entry(_texts(gate, [sin], silent=[negated]))
    assert proposal is not None and proposal.verified and proposal.after.negation_guard is False
    exclusion = proposal.after.exclude_context or ""
    assert 0 < budget_length(exclusion) <= EXCLUSION_BUDGET and any(key in exclusion for key in keys(pattern))
    assert proposal.after.fires(normalize(sin)) and not proposal.after.fires(normalize(negated))
    assert any("which silences" in step for step in proposal.steps)


def test_the_widening_slack_is_a_short_plain_gap(tmp_path: Path) -> None:
    from rubric_tools.audit.slack import SLACK, SLACK_WIDTH

    gates = "    redline_critical_failure_patterns:\n      - pattern: 'customer may use provider data'\n"
    for proposal in _proposals(make_matter(tmp_path / "m", gates)):
        pattern = proposal["after"]["pattern"]
        assert "(?!\\bn(?:o|ot|or|one" not in pattern  # no negator table between words
        assert pattern.count(f"{{1,{SLACK_WIDTH}}}") == pattern.count(SLACK) + pattern.count("(?!\\bn(?:o|ot|ever)")


def test_a_figure_is_widened_to_its_plural_first_so_its_evidence_reads_well() -> None:
    from rubric_tools.audit.thesaurus import Thesaurus
    from rubric_tools.audit.widening import widen_numbers
    from rubric_tools.gate_analysis.witness import witnesses

    widened = widen_numbers(r"\bfive business days", Thesaurus()) or ""
    assert witnesses(widened)[0].text == "5 business days"
    for text in ("five business days", "5 business days", "a five-business-day period", "five (5) business days"):
        assert re.search(widened, text), text


def test_a_widening_that_gives_back_as_much_correct_work_as_it_catches_is_not_kept() -> None:
    from rubric_tools.audit.verification import Outcome
    from rubric_tools.audit.widening_proposal import _better

    chosen = Outcome(lost=(), new_hits=(), silenced=("a", "b"), caught=())
    assert _better(Outcome((), (), ("a", "b"), ("sin",)), chosen)
    assert not _better(Outcome((), (), ("a",), ("sin",)), chosen)  # "b" flagged again for one sin
    assert _better(Outcome((), (), ("a",), ("sin", "other sin")), chosen)  # more fixed in all
    assert not _better(Outcome((), (), ("a", "b"), ()), chosen)  # catches nothing more


def test_a_figure_in_every_form_is_keyed_by_its_units() -> None:
    from rubric_tools.audit.widening import widen_numbers

    widened = widen_numbers(r"\b12 months", Thesaurus()) or ""
    [first, *_rest] = keys(widened)
    assert re.fullmatch(first, "months") and re.fullmatch(first, "year") and re.fullmatch(first, "first anniversary")
    assert keys(r"\b12 months") and "month" in keys(r"\b12 months")[0]


def test_a_units_key_carries_the_gates_own_figure() -> None:
    """A unit recurs with every figure: a negator before another one ("ten business days, not
    the five business days proposed") does not govern the sin's. A key of a unit's words alone
    carries the figures the gate names, as written in its widened form too; a gate that names
    no figure of its own ("\\d+ hours") has no unit key."""
    from rubric_tools.audit.widening import widen_numbers

    assert r"\b(?:10|ten)[ -]business days" in keys(r"\b(?:ten|10) business days")
    widened = widen_numbers(r"\bten business days", Thesaurus()) or ""
    assert keys(widened) and all("ten" in key for key in keys(widened)), keys(widened)
    assert "hours" not in keys(r"\bnotify within \d+ hours")
    contrast = "The cure period is ten business days, not the five business days proposed."
    for pattern in (r"\b(?:ten|10) business days", widened):
        negated = "The cure period is not ten business days."
        exclusions = scoped_exclusions(pattern, [negated], scopes_for("settlement"))
        assert exclusions, pattern
        for exclusion in exclusions:
            guarded = Gate(pattern, exclude_context=exclusion.regex)
            assert not guarded.fires(normalize(negated)), exclusion.regex
            assert guarded.fires(normalize(contrast))


def test_a_strike_before_a_quotation_crosses_its_commas_and_no_other() -> None:
    pattern = r"\bnine months\b"
    struck = 'Delete "all representations, including billing, expire nine months after closing" and insert new text.'
    other = "Delete the old heading, and the representations expire nine months after closing."
    exclusions = scoped_exclusions(pattern, [struck], scopes_for("redline"))
    found = [Gate(pattern, exclude_context=e.regex) for e in exclusions]
    assert found and all(not gate.fires(normalize(struck)) for gate in found)
    # The strict spellings stop at a comma, but not at the quotation's: a strike of other
    # words, a comma away, is not this sin's.
    assert any(gate.fires(normalize(other)) for gate in found)


def test_alternative_clauses_with_no_key_in_common_are_keyed_by_a_shorter_key_of_each() -> None:
    """Two long clauses as alternatives in one group have no key in common, and the group
    of each one's best key is too long to be one: as a last resort, a shorter key of each
    that fits one group. An exclusion scoped to it silences a negated clause of either."""
    clauses = (
        r"(?:at the sole and absolute election of the lessor"
        r"|whenever the landlord in its discretion (?:so )?(?:elects|chooses))"
    )
    [key] = keys(clauses)
    assert key.startswith("(?:") and len(key) <= 60
    assert re.search(key, "at the sole and absolute election of the lessor")
    assert re.search(key, "whenever the landlord in its discretion elects")
    refused = "The tenant does not accept that rent may be reviewed at the sole and absolute election of the lessor."
    [first, *_rest] = scoped_exclusions(clauses, [refused], scopes_for("redline"))
    assert not Gate(clauses, exclude_context=first.regex).fires(normalize(refused))
    sin = "Rent may be reviewed whenever the landlord in its discretion elects."
    assert Gate(clauses, exclude_context=first.regex).fires(normalize(sin))
    # Not where the pattern has keys of its own: each branch's best, as before.
    branches = clauses.removeprefix("(?:").removesuffix(")")
    assert keys(branches) == (
        "at the sole and absolute election of the lessor",
        "whenever the landlord in its discretion",
    )


def test_a_widened_group_is_keyed_by_the_word_every_branch_holds() -> None:
    # Once the words step has widened "sole discretion", its branches share "discretion":
    # that is the key a human scopes an exclusion to, not the party name before it.
    widened = (
        r"landlord.*(?:(?:exclusive|sole|absolute|unrestricted|unfettered|unconditional|unqualified|full|entire)"
        r" discretion|(?:sole|absolute|complete) discretion|sole and absolute discretion)"
    )
    assert keys(widened)[0] == "discretion"


def test_a_function_word_is_no_key() -> None:
    found = keys("the (?:deletion|supersession) is of no effect")
    assert "the" not in found and found
    # With "the" as its key, "no" before a later "the" passed for a negator of the sin.
    assert "the" not in keys("the (?:deletions?|supersession) (?:is|are) (?:void|invalid)")


def test_a_gate_whose_guard_drops_negators_is_not_widened_with_them() -> None:
    # "of no effect" beside "void" under `negation_guard` (span) would never fire (U001).
    gate = Gate("the supersession is void", negation_guard=True)
    proposal = propose_entry(_texts(gate, ["The supersession is invalid."]))
    assert proposal is not None and proposal.after.fires(normalize("The supersession is invalid."))
    assert "no effect" not in proposal.after.pattern and "not enforceable" not in proposal.after.pattern
    unguarded = propose_entry(_texts(Gate("the supersession is void"), ["The supersession is invalid."]))
    assert unguarded is not None and "of no effect" in unguarded.after.pattern


def test_a_gate_without_the_guard_is_widened_to_a_passive_no_negator_reverses() -> None:
    # The passive's room for an adverb would take "not" too ("is not owned by"): a gate
    # whose guard does not see inside the match gets it without negators, the passive branch
    # is written once, and the passive step is taken once.
    gate = Gate(r"vendor owns the work product")
    sin = "The work product is owned by Vendor."
    proposal = propose_entry(EntryTexts((gate,), 0, "redline", [], [], [], [sin]))
    assert proposal is not None and proposal.verified
    assert proposal.steps.count("passive") == 1
    branches = top_level_branches(proposal.after.pattern) or []
    assert len(branches) == len(set(branches))
    for text in (sin, "The work product will also be owned by Vendor.", "The work product is solely owned by Vendor."):
        assert proposal.after.fires(normalize(text)), text
    assert not proposal.after.fires(normalize("The work product is not owned by Vendor."))


def test_a_guarded_figure_is_widened_to_its_other_forms() -> None:
    # A hardened gate: its figure already in words and digits, an exclusion beside it. The
    # widened figure's own evidence reads as prose ("5 business days", never "5 business
    # day 3 business day"), so its frames are correct work the remade guard can silence.
    gate = Gate(
        r"\b(?:five|5) business days",
        exclude_context=r"(?:reduced from|rather than|instead of)(?: an?| the)? \b(?:five|5) business days",
    )
    sin = "Northline shall have a matching period of five (5) Business Days."
    assert not gate.fires(normalize(sin))
    proposal = propose_entry(_texts(gate, [sin, "Northline will have a full five-business-day window."]))
    assert proposal is not None and proposal.verified
    assert proposal.after.fires(normalize(sin))
    assert proposal.after.fires(normalize("Northline will have a full five-business-day window."))
    assert not proposal.after.fires(normalize("The period is three business days rather than five business days."))


def test_a_widened_figure_takes_the_entrys_own_guard_with_it() -> None:
    """Once the pattern reads "an eighteen-month term", the entry's own guard against
    "rather than eighteen months" reads it too, though no generated text needed it: the
    author's correct work is the same in every spelling of the figure."""
    gate = Gate(
        r"\b(?:eighteen|18) months",
        exclude_context=r"(?:rather than|instead of)(?: an?| the)? \b(?:eighteen|18) months",
    )
    sin = "The lease renews for an eighteen-month term."
    assert not gate.fires(normalize(sin))
    proposal = propose_entry(_texts(gate, [sin]))
    assert proposal is not None and proposal.verified
    assert proposal.after.fires(normalize(sin))
    assert proposal.after.fires(normalize("The lease renews for 18 months."))
    assert not proposal.after.fires(
        normalize("The lease renews for a twelve-month term rather than an eighteen-month term.")
    )
    # In its own unit only: the guard names eighteen months, not "a year and a half".
    assert "and a half" not in (proposal.after.exclude_context or "")


def test_a_widened_figure_takes_the_tools_own_guard_with_it_as_a_compound_modifier() -> None:
    """A part an earlier round wrote ("nobody … eighteen months") is keyed to the figure as
    the pattern wrote it then; once the pattern reads "an eighteen-month term", the part reads
    the compound modifier too, and only that (every form would take the room later rounds
    need); the author's own part is spelled in every form of its unit."""
    from rubric_tools.audit.widening import widen_numbers
    from rubric_tools.audit.widening_proposal import _guard_spelled_as_pattern

    written = r"\bnobody\b(?:(?! but\b)[^.;]){0,80}?\b(?:eighteen|18) months"
    authors = r"rather than (?:eighteen|18) months"
    gate = Gate(r"\b(?:eighteen|18) months", exclude_context=f"{authors}|{written}")
    widened = replace_gate(gate, pattern=widen_numbers(gate.pattern, Thesaurus()) or "")
    spelled = _guard_spelled_as_pattern(widened, gate, _texts(gate, []))
    assert spelled is not None
    for disowned in (
        "Nobody proposes an eighteen-month term.",
        "Nobody proposes an 18-month term.",
        "Rather than 18-month terms.",
    ):
        assert widened.fires(normalize(disowned)) and not spelled.fires(normalize(disowned)), disowned
    assert spelled.fires(normalize("The lease renews for an eighteen-month term."))
    # The tool's part: the compound modifier only, no other form of the figure.
    assert (spelled.exclude_context or "").endswith(r"\b(?:eighteen|18)[ -]months?\b")


def test_a_frame_flagged_already_in_the_gate_own_spelling_is_not_new_correct_work() -> None:
    from rubric_tools.audit.verification import flagged_in_another_spelling

    gate = Gate(r"\b12 months")
    assert flagged_in_another_spelling(gate, "It is not the case that the period is a year.")
    guarded = Gate(r"\b12 months", exclude_context=r"\bnot\b[^.;]{0,60}\b(?:12 months|year)")
    assert not flagged_in_another_spelling(guarded, "It is not the case that the period is a year.")


def test_a_guard_keyed_on_a_figure_is_widened_with_it() -> None:
    # The guard names the figure as the pattern did; once the pattern accepts "5%", the
    # guard must read "5%" too, or the negated frames of the new spelling fire.
    exclusion = r"\bnot\b(?:(?! but\b)[^.;]){0,80}?\bfive percent"
    gate = Gate("five percent", exclude_context=exclusion)
    missed = ["The cap shall equal 5.0% of enterprise value.", "The cap is five (5) percent of the price."]
    proposal = propose_entry(_texts(gate, missed, silent=["It is not the case that the cap is five percent."]))
    assert proposal is not None and proposal.verified
    assert all(proposal.after.fires(normalize(text)) for text in missed)
    for negated in ("It is not the case that the cap is 5%.", "It is not the case that the cap is five (5) percent."):
        assert not proposal.after.fires(normalize(negated)), negated


TWO_FIGURE_GATES = "    settlement_critical_failure_patterns:\n      - 'five percent'\n      - '(?<![\\d.])5%'\n"
TWO_FIGURE_PROBES = """\
probes:
  - surface: settlement
    criterion: uptime_credit
    text: "The credit is capped at 7.5% of the monthly fees, not five percent."
    expect_fire: false
  - surface: settlement
    criterion: uptime_credit
    text: "The credit is capped at five percent of the monthly fees."
    expect_fire: true
  - surface: settlement
    criterion: uptime_credit
    text: "The credit is capped at 5.0% of the monthly fees."
    expect_fire: true
"""


def _fixed_settlement_gates(root: Path, gates: str, probes: str) -> list[Gate]:
    """The matter's settlement gates after one `rubric audit --fix --unsafe-fixes`."""
    import yaml

    from rubric_tools.audit.fix_loop import fix_matter
    from rubric_tools.checking.audit_inputs import audit_inputs

    make_matter(root, gates, files={"probes.yaml": probes})
    fixed = fix_matter(root, AuditSection(), audit_inputs(root), unsafe=True)
    [change] = [c for c in fixed.changes if c.path.name == "rubric.yaml"]
    entries = yaml.safe_load(change.after)["issues"][0]["settlement_critical_failure_patterns"]
    return [Gate(e) if isinstance(e, str) else Gate(**e) for e in entries]


def test_an_entry_does_not_flag_again_what_another_entry_proposal_silences(tmp_path: Path) -> None:
    # The first entry's guard silences the correct work; the second, widened to every form
    # of its figure ("five percent" too), must not flag it again in the merged edit.
    gates = _fixed_settlement_gates(tmp_path / "m", TWO_FIGURE_GATES, TWO_FIGURE_PROBES)
    fires = lambda text: any(g.fires(normalize(text)) for g in gates)  # noqa: E731
    assert not fires("The credit is capped at 7.5% of the monthly fees, not five percent.")
    assert fires("The credit is capped at five percent of the monthly fees.")


TRIGGER_GATES = (
    "    settlement_critical_failure_patterns:\n"
    "      - pattern: '(?:notify|notice)[^.]{0,40}\\bwithin 48 hours\\b'\n"
    "        negation_guard: true\n"
    "      - 'after (?:\\w+ )?confirms'\n"
)
TRIGGER_PROBES = """\
probes:
  - surface: settlement
    criterion: uptime_credit
    text: "Provider shall notify Customer within 48 hours after Provider confirms the outage."
    expect_fire: true
"""


def test_an_entry_is_widened_for_its_own_rewrites_another_entry_happens_to_catch(tmp_path: Path) -> None:
    # "within forty-eight hours after Provider confirms" is caught by the trigger entry;
    # the same figure after another trigger must still be caught by the figure's entry.
    gates = _fixed_settlement_gates(tmp_path / "m", TRIGGER_GATES, TRIGGER_PROBES)
    sin = "Provider shall give notice within forty-eight (48) hours after it discovers the outage."
    assert any(g.fires(normalize(sin)) for g in gates)


def test_a_kind_is_widened_to_its_family_where_the_budget_allows_after_the_terms_found() -> None:
    """Three kinds' families do not fit the budget together; their terms found do. Each kind
    is then widened to its whole family while the budget allows (the cheapest first), so
    that a contrast the evidence wrote as "in lieu of" also covers "rather than", or a
    supposition written with "if" also covers "assuming", as an auditor writes the family,
    without leaving a kind out."""
    two = r"\b(?:eighteen|18) months|\b(?:preliminary|substantive) discussions"
    evidence = [
        "In lieu of eighteen months, the lessee proposes a shorter tail.",
        "The warranty runs for eighteen months after delivery only to the extent the goods are unmodified.",
        "If we accepted that the warranty runs for eighteen months, the seller would carry the risk.",
    ]
    found = scoped_exclusions(two, evidence, scopes_for("issue"))
    assert all(budget_length(e.added) <= EXCLUSION_BUDGET for e in found)
    assert "supposed" not in found[0].kinds, "the three families do not fit together"
    families = {
        "rather than": "The warranty runs for twelve months, rather than eighteen months.",
        "assuming": "Assuming the warranty runs for eighteen months, the seller carries the risk.",
    }
    widened = [
        (e, only_in_family)
        for e in found
        for member, only_in_family in families.items()
        if len(e.kinds) == 3 and member in e.added and "in lieu of" in e.added and "\\bif\\b" in e.added
    ]
    assert widened, "the terms found, a kind widened to its family"
    exclusion, only_in_family = widened[0]
    gate = Gate(two, exclude_context=exclusion.regex)
    assert not gate.fires(normalize(only_in_family))
    assert not gate.fires(normalize(evidence[2]))
    assert gate.fires(normalize("The warranty runs for eighteen months after delivery."))


def test_a_widening_step_is_kept_by_principle_when_safe_though_no_generated_text_shows_it() -> None:
    # The missed sin needs the slack between the modal and the verb; the inflections of the
    # gate's nouns catch no generated text, yet a gate that accepts "landlords" and
    # "deposits" is what a human writes. Each step (or phrase of the words step) that is
    # safe as it stands and within the size budget is kept.
    gate = Gate("landlord may keep the deposit", negation_guard=True, exclude_context=r"\b(?:deleted|struck|delete)\b")
    sin = "The landlord may, under section 4.1, keep the deposit."
    silent = ["The tenant may keep the keys until the deposit is returned."]
    proposal = propose_entry(_texts(gate, [sin], silent=silent))
    assert proposal is not None and proposal.verified and proposal.after.fires(normalize(sin))
    for paraphrase in ("Landlords may keep the deposit.", "The landlord may keep the deposits."):
        assert proposal.after.fires(normalize(paraphrase)), (paraphrase, proposal.after.pattern)
    assert not any(proposal.after.fires(normalize(text)) for text in silent)


def test_a_new_frame_of_a_kind_the_gate_already_fires_on_is_its_defect_not_the_widenings() -> None:
    from rubric_tools.audit.verification import Verifier

    # A guarded gate stays silent on "It is not the case that landlord may keep the deposit."
    # but fires on its restriction frame ("… only to the extent …"): the restriction frame
    # around "landlords" is that defect again (the guard proposals' to handle), not correct
    # work the widening adds; the negated frame around "landlords" is new correct work.
    gate = Gate("landlord may keep the deposit", negation_guard=True)
    widened = replace_gate(gate, pattern="landlords? may keep the deposit")
    assert gate.fires(normalize("Landlord may keep the deposit only to the extent this Agreement expressly permits."))
    frames = Verifier(_texts(gate, [])).new_frames(gate, widened)
    assert "It is not the case that landlords may keep the deposit." in frames
    assert not any("only to the extent" in frame for frame in frames)
    assert not any(widened.fires(normalize(frame)) for frame in frames)


def _assert_silenced(gate: Gate, disowned: tuple[str, ...], sins: tuple[str, ...]) -> None:
    for text in disowned:
        assert not gate.fires(normalize(text)), text
    for text in sins:
        assert gate.fires(normalize(text)), text


def _later_rejection_family_gate() -> Gate:
    """A gate guarded by the whole family of a later rejection, as the evidence of one way of
    disowning the sin brings it, within the budget."""
    pattern = r"\btenant may sublet\b"
    evidence = ["Tenant may sublet the premises, which the landlord cannot accept."]
    found = scoped_exclusions(pattern, evidence, scopes_for("settlement"))
    family = [e for e in found if "non-starter" in e.added and "reject" in e.added]
    assert family and all(budget_length(e.added) <= EXCLUSION_BUDGET for e in family)
    return Gate(pattern, exclude_context=family[0].regex)


def test_a_later_clause_disowning_the_sin_is_widened_to_its_whole_family_within_the_budget() -> None:
    """The family of a later rejection (a rejection verb pointing back, an acceptance denied,
    a verdict) is written short enough to fit the budget beside its key: the evidence shows
    one way of disowning the sin, the exclusion scopes them all."""
    _assert_silenced(
        _later_rejection_family_gate(),
        disowned=(
            "Under their markup tenant may sublet the premises; this remains a non-starter.",
            "Their draft says tenant may sublet the premises; we reject their sublease-consent change.",
            "Tenant may sublet the premises; the landlord won't agree to it.",
        ),
        sins=(
            "Tenant may sublet the premises; the landlord rejected an earlier version of clause 9.",
            "Tenant may sublet the premises and need not give notice.",
        ),
    )


def test_a_later_rejection_with_its_object_left_out_or_a_possessive_disowns_the_sin() -> None:
    """A rejection verb closing its clause rejects what came before ("…, which the landlord
    declined."), as one pointing back at it does, a possessive among the ways to point back
    ("we reject Tenant's proposal"); a rejection of something else, or one that takes an
    infinitive, does not disown the sin."""
    _assert_silenced(
        _later_rejection_family_gate(),
        disowned=(
            "Their draft says tenant may sublet the premises, which the landlord declined.",
            "Under their markup tenant may sublet the premises, and the landlord refused.",
            "Tenant may sublet the premises, a change the landlord rejects.",
            "Tenant may sublet the premises; the landlord opposes Tenant's proposal.",
        ),
        sins=(
            "Tenant may sublet the premises; the landlord rejected an earlier version of clause 9.",
            "Tenant may sublet the premises even where the landlord declines to consent.",
            "Tenant may sublet the premises, and the landlord may not refuse consent.",
        ),
    )


def test_the_generated_later_rejection_shows_a_rejection_verb_and_its_terms_alone_scope_the_others() -> None:
    """The audit's own later rejection ("…, which the client rejects.") is evidence for the
    commonest way a report disowns a proposal, a verb of rejection; where the budget leaves
    room for the terms it shows but not their family, those alone still silence the other
    rejections ("declined", "refused", "we reject Landlord's …")."""
    pattern = r"\btenant may sublet\b"
    _fire, silent = entry_texts(Gate(pattern), 0, "settlement", Thesaurus())
    [later] = [t.text for t in silent if t.kind == "frame: later rejection"]
    found = scoped_exclusions(pattern, [later], scopes_for("settlement"))
    shown_alone = [e for e in found if "non-starter" not in e.added]
    assert shown_alone
    for exclusion in shown_alone:
        _assert_silenced(
            Gate(pattern, exclude_context=exclusion.regex),
            disowned=(
                "Their draft says tenant may sublet the premises, which the landlord declined.",
                "Under their markup tenant may sublet the premises, and the landlord refused.",
                "Tenant may sublet the premises; we reject Landlord's counter-proposal.",
            ),
            sins=("Tenant may sublet the premises; the landlord rejected an earlier draft.",),
        )


def test_the_authors_clause_in_the_passive_is_not_crowded_out_by_its_synonyms() -> None:
    # A round of the fix loop starts from the author's clause; the words step has grown its
    # verbs to a thesaurus group, and the passive of that widened clause would write each of
    # them again, over the size budget. The passive of the author's own clause still goes
    # in, reviewed as the author's clause read in the other voice: "all subletting is
    # prohibited by law" is the paraphrase a reader writes first.
    from rubric_tools.audit.verification import Verifier
    from rubric_tools.audit.widening_proposal import widen_entry

    authored = Gate("law (?:prohibits|bars|forbids) (?:(?:any and )?all subletting|subletting of every kind)", True)
    verbs = (
        "prohibit(?:s|ed|ing)?|forbid(?:s|den|ding)?|forbade?|bar(?:s|red|ring)?|preclud(?:e|es|ed|ing)"
        "|ban(?:s|ned|ning)?|proscrib(?:e|es|ed|ing)|outlaw(?:s|ed|ing)?|(?:mak(?:e|es|ing)|made) unlawful"
    )
    objects = "(?:(?:any and )?all sublet(?:s|ting)?|subletting of every kind)"
    widened = replace_gate(authored, pattern=f"laws? (?:{verbs}) {objects}")
    passive = "All subletting is prohibited by law."
    assert over_budget(authored, widened) is None and not widened.fires(normalize(passive))
    texts = replace_gate(_texts(widened, [passive]), surface="issue", thesaurus=build())
    verifier = Verifier(texts)
    after, _outcome, steps, _refused = widen_entry(verifier, texts, authored, widened, verifier.outcome(widened))
    assert after.fires(normalize(passive)), (steps, after.pattern)
    assert after.fires(normalize("The law outlaws all subletting."))  # the synonyms stay
    assert not after.fires(normalize("No subletting is prohibited by law."))


def test_no_other_voice_is_guessed_for_a_clause_whose_object_is_a_window() -> None:
    from rubric_tools.audit.widening_proposal import _compact_other_voice

    clause = Gate("landlord (?:hereby )?assigns[^.]{0,80}tenant")
    assert _compact_other_voice(clause, replace_gate(clause, pattern="landlords? assigns?[^.]{0,80}tenants?")) == (
        None,
        clause,
    )
    # A window that holds the object before a verb that ends the clause guesses nothing: the
    # statute is said to forbid what it holds ("… is prohibited under the rent act").
    statute = Gate("(?:the rent act|rent control law)[^.]{0,80}(?:prohibits|forbids)")
    widened, reviewed = _compact_other_voice(statute, replace_gate(statute, pattern=statute.pattern + "|x"))
    assert widened is not None and reviewed.pattern != statute.pattern
    fires = Gate(widened).fires
    assert fires(normalize("Any further increase is prohibited under the rent act."))
    assert not fires(normalize("Any further increase is not prohibited under the rent act."))


def test_a_negative_sins_own_negator_never_governs_its_subject_named_again() -> None:
    """The sin is negative ("Landlord is not liable for …") and names its subject again after
    the predicate ("… that the Landlord engaged"): its own "not" then stands before that
    subject, and an exclusion scoping a negator before the subject would silence the sin
    itself. The sin's own markers are left out of every exclusion keyed on its subject; a
    marker it never writes still silences the correct work."""
    pattern = r"landlord (?:is not|shall not be|bears no) (?:liable|responsible) for"
    correct = [
        "It is not the case that Landlord is not liable for repairs.",
        "Nobody has suggested that Landlord is not responsible for repairs.",
    ]
    sin = "Landlord is not liable for damage caused by contractors that the Landlord engaged."
    found = scoped_exclusions(pattern, correct, scopes_for("issue"))
    assert found
    for exclusion in found:
        assert Gate(pattern, exclude_context=exclusion.regex).fires(normalize(sin)), exclusion.added
    assert any(not Gate(pattern, exclude_context=e.regex).fires(normalize(correct[1])) for e in found)


def test_the_not_of_whether_or_not_is_no_negator_of_the_sin() -> None:
    """ "whether or not" concedes and negates nothing: in a sin written with it, its "not" is
    not the sin's own negator, and an exclusion may still hold the "not" that does negate
    the key in correct work ("… where they do not materially interfere …")."""
    pattern = r"whether or not.*materially interfer"
    sin = "The abatement is denied whether or not the repairs materially interfere with Tenant's use."
    correct = [
        "The abatement is denied, whether or not the repairs are scheduled, where they do not materially interfere "
        "with Tenant's use.",
        "Whether or not the repairs are urgent, Landlord does not materially interfere with Tenant's use.",
    ]
    found = scoped_exclusions(pattern, correct, scopes_for("issue"))
    # Verification takes the first candidate that keeps the sin: the loose "not" silences it.
    kept = [e for e in found if Gate(pattern, exclude_context=e.regex).fires(normalize(sin))]
    assert kept
    silent = [e for e in kept if not any(Gate(pattern, exclude_context=e.regex).fires(normalize(c)) for c in correct)]
    assert silent, [e.regex for e in found]


def test_a_negator_governing_a_long_clause_is_evidence_of_its_kind() -> None:
    """A frame negates the whole clause the gate's words close, and a long clause puts its
    negator further from the key words than an exclusion's gap reaches. It still shows that
    correct work negates the sin: the exclusion is written, its gap as long as allowed, and
    silences the correct work that negates the clause nearer."""
    pattern = r"without inspection"
    far = (
        "It is not the case that each condition report the Landlord delivers under the lease is prepared by its "
        "property manager, its leasing director and its facilities contractor without inspection."
    )
    found = scoped_exclusions(pattern, [far], scopes_for("issue"))
    sin = "Condition reports are prepared without inspection."
    near = "No condition report is prepared without inspection."
    assert any(
        Gate(pattern, exclude_context=e.regex).fires(normalize(sin))
        and not Gate(pattern, exclude_context=e.regex).fires(normalize(near))
        for e in found
    ), [e.regex for e in found]


def test_a_word_widened_to_a_thesaurus_group_is_keyed_by_few_words_every_member_holds() -> None:
    """Once a widening put a group of legal-status members for "unlawful", some of them
    phrases ("prohibited by law"), the group written out is too long a key; a few words that
    every member holds one of are one key, and a search for it finds every member."""
    from rubric_tools.audit.guard_keys import widened_key

    members = ["unlawful", "illegal", "prohibited by law", "forbidden by law", "contrary to law", "per se illegal"]
    pattern = r"(?:unlawful|illegal|(?:prohibited|forbidden) by law|contrary to law|per se illegal) to sublet"
    key = widened_key("(?:unlawful)", pattern)
    assert key is not None and len(key) <= 60
    assert all(re.search(key, member) for member in members)
    # A short group is its own key; a pattern that did not widen the word gives none.
    assert widened_key("(?:void)", "the term is (?:void|invalid)") == "(?:void|invalid)"
    assert widened_key("(?:void)", "the term is void") is None


def test_a_word_widened_by_the_thesaurus_takes_the_guard_keyed_on_it() -> None:
    """A part of the guard this tool wrote against "not … unlawful" was verified for the word
    as the pattern had it; once the widening puts the thesaurus group for "unlawful", the
    same part keyed on the group's key silences the same correct work in every member,
    and the sin in a member still fires. The author's own parts are left as written."""
    from rubric_tools.audit.widening_proposal import _guard_keyed_as_pattern

    written = r"\b(?:not|nobody|nothing)\b[^.;]{0,80}?(?:unlawful)"
    authors = r"\bfor the avoidance of doubt\b"
    gate = Gate(r"(unlawful) for (?:the )?tenant to sublet", exclude_context=f"{authors}|{written}")
    group = r"(?:unlawful|illegal|(?:prohibited|forbidden) by law|contrary to law|per se illegal)"
    widened = replace_gate(gate, pattern=f"({group}) for (?:the )?tenant to sublet")
    rekeyed = _guard_keyed_as_pattern(widened, gate)
    assert rekeyed is not None and rekeyed.startswith(authors + "|")
    guarded = replace_gate(widened, exclude_context=rekeyed)
    for word in ("unlawful", "illegal", "prohibited by law"):
        sin = f"It is {word} for the tenant to sublet the premises."
        assert guarded.fires(normalize(sin)), sin
        negated = f"Nothing in this lease means that it is {word} for the tenant to sublet the premises."
        assert not guarded.fires(normalize(negated)), negated
        # The guard as it was reads the word it was written for only.
        assert widened.fires(normalize(negated)) == (word != "unlawful"), negated
    # A widening that put no group for the key changes no part.
    assert _guard_keyed_as_pattern(replace_gate(gate, pattern=gate.pattern + r"\b"), gate) is None
