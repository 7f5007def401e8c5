"""Issue 22, item 3: proposals that generalise. Each widening step on a gate that is dodged
the way the step repairs, and on one that is not; the number and duration forms; the
thesaurus and its settings; the lexicon; a property test on rewrites."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rubric_tools.audit import lexicon, money, quantities, quantity_regexes
from rubric_tools.audit.clause_slots import BEFORE_VERB
from rubric_tools.audit.dodges import dodges
from rubric_tools.audit.guard_windows import bounded, longest_window, windows_without_negators, with_lead_in
from rubric_tools.audit.habitats import habitat_texts
from rubric_tools.audit.slack import NEGATOR_FREE_SLACK, SLACK, SLACK_WIDTH
from rubric_tools.audit.thesaurus import build, phrase_forms
from rubric_tools.audit.widening import (
    STEPS,
    widen_hyphens,
    widen_numbers,
    widen_possessive,
    widen_voice,
    widen_windows,
    widen_words,
    widen_words_and_slack,
)
from rubric_tools.config.audit import AuditSection
from rubric_tools.gate_analysis.witness import witnesses
from rubric_tools.scoring.gates import Gate
from rubric_tools.scoring.text import normalize

THESAURUS = build()


def _fires(pattern: str, text: str) -> bool:
    return Gate(pattern).fires(normalize(text))


# ------------------------------------------------------------------ each step: defect, no defect

STEP_CASES = [
    # (step, pattern with the defect, paraphrase it misses, pattern already general)
    (widen_numbers, "five percent", "a cap of 5.0% applies", r"(?:5(?:\.0+)?|five)\s*(?:%|percent)"),
    (widen_numbers, r"\beighteen months", "an eighteen (18) months tail", r"\b(?:18|eighteen)(?:\s*\(18\))?\s+months"),
    (widen_numbers, "twelve months", "until the first anniversary", None),
    (widen_numbers, "seven days", "within one week", None),
    # A figure after a word or a `\b`, and a figure in years as an anniversary.
    (widen_numbers, "within five days", "within 5 days", None),
    (widen_numbers, r"\bfive business days", "five (5) business days", None),
    (widen_numbers, "one year", "until the first anniversary of closing", None),
    (widen_numbers, "nine months", "a nine-month survival period", None),
    # An alternation of figures with an optional figure in brackets and an optional kind of day.
    (
        widen_numbers,
        r"within (three|five|seven|ten|3|5|7|10)\s*(\(\d+\)\s*)?(business\s+)?days",
        "repairs begin within one week of notice",
        None,
    ),
    # A participle before "to" is widened as a participle, in a group too ("is allowed to").
    (widen_words, "provider is permitted to re-identify", "provider is allowed to re-identify", None),
    (widen_words, "(?:permitted|entitled) to re-identify", "provider is authorized to re-identify", None),
    (widen_voice, "law prohibits model training", "model training of any kind is prohibited by law", None),
    (widen_voice, "customer may use provider data", "provider data may be used by customer", None),
    # Gates written with `\s+`, a word with an optional plural, an optional adverb, a modal
    # phrase in a group: "landlords? (?:may|is entitled to)\s+(?:promptly\s+)?retain\s+the deposit".
    (
        widen_voice,
        r"landlords?\s+(?:may|is entitled to|retains discretion to)\s+(?:promptly\s+)?retain\s+the deposit",
        "the deposit is entitled to be retained by the landlord",
        None,
    ),
    # The quantifier before the object is the passive subject's to leave out; the agent may
    # carry modifiers and read "under".
    (widen_voice, "statute forbids all subletting", "subletting is forbidden under the state statute", None),
    # A gate the words step already widened: every form of its words is read as the word.
    (
        widen_voice,
        "landlords? (?:may|can) (?:terminat(?:e|es|ed|ing)|end(?:s|ed|ing)?) the leases?",
        "the lease may be ended by the landlord",
        None,
    ),
    # No object: the agent is required ("may be terminated by the landlord").
    (widen_voice, "landlord (?:may|is entitled to) terminate", "this lease may be terminated by the landlord", None),
    # The object after a window is written before the verb; the rest after it too.
    (
        widen_voice,
        "the lease (?:requires|mandates)[^.]{0,30}written consent",
        "written consent is required by the lease",
        None,
    ),
    (widen_voice, "tenant (?:shall|must) repair[^.]{0,40}roof", "the roof must be repaired by the tenant", None),
    (
        widen_voice,
        "tenant (?:shall|must) store[^.]{0,40}in the basement",
        "bicycles must be stored in the basement",
        None,
    ),
    # A negator between the modal and the verb stays before "be"; a class of letters is read.
    (widen_voice, "courts (?:will|would) not enforce", "the forfeiture will not be enforced by the courts", None),
    (widen_voice, "landlord (?:may|can) penali[sz]e the tenant", "the tenant may be penalised by the landlord", None),
    # The slack the words step writes between two words reads as a space.
    (
        widen_voice,
        r"landlord may\b(?:[^.;]|\.\d){1,30}?\bretain the deposit",
        "the deposit may be retained by the landlord",
        None,
    ),
    # A phrasal verb takes its particle after the participle; a determiner alone is no object.
    (
        widen_voice,
        "tenant (?:waives|gives up) all[^.]{0,30}claims",
        "all such claims are given up by the tenant",
        None,
    ),
    # An optional word slot after the subject is no part of the agent: the sentence may end there.
    (widen_voice, "tenant (?:[a-z]+ )?waives all claims", "all claims are waived by the tenant.", None),
    # A branch with no subject, a verb and its object: the object is the passive's subject.
    (widen_voice, "sublet (?:the|any) premises", "the premises may be sublet to anyone", None),
    (widen_voice, "sell all tenant data", "tenant data is sold to brokers", None),
    # A subject of several words, a plural noun among them ("laws"), is no verb: the verb follows.
    (
        widen_voice,
        "(?:state|federal) (?:law|laws) (?:requires|require) (?:domestic|local) hosting",
        "domestic hosting is required by state law",
        None,
    ),
    # A subject, a window, then its verb alone: whatever the window held is the passive's subject.
    (
        widen_voice,
        r"(?:the rent act|rent control law)[^.]{0,80}(?:prohibits|forbids)",
        "any further increase is prohibited under the rent act",
        None,
    ),
    # A verb with two past participles takes both ("borne" beside "born").
    (widen_voice, "tenant bears (?:all )?repair costs", "all repair costs are borne by the tenant", None),
    # The agent may carry three modifiers.
    (
        widen_voice,
        "statute forbids all subletting",
        "subletting is forbidden under the applicable state housing statute",
        None,
    ),
    (widen_words, "licensee shall indemnify licensor", "licensee undertakes to hold harmless licensor", None),
    (widen_words, "uptime commitments are unenforceable", "uptime commitment is void", None),
    (widen_words, "provider owns the data", "provider owned the data", None),
    # A determiner before a noun takes the others that pick out the same thing.
    (widen_words, "landlord may terminate the lease", "the landlord may terminate this lease", None),
    (widen_words, "tenant waives any claim against landlord", "tenant waives its claims against landlord", None),
    # A passive with no agent is also written in the active, with any subject.
    (widen_voice, "tenant data (?:may|can) be sold to brokers", "the host may sell all tenant data to brokers", None),
    (widen_voice, "the deposit is retained", "the landlord retains the deposit", None),
    # A possessive is also an "of" phrase; its owner may be a group, what it owns a modifier and nouns.
    (widen_possessive, "landlord'?s records are conclusive", "the records of the landlord are conclusive", None),
    (
        widen_possessive,
        "tenant (?:shall|will) pay (?:landlord|lessor)['’]s (?:published )?standard rates?",
        "tenant shall pay the published standard rate of the lessor",
        None,
    ),
    (widen_hyphens, "non-exclusive license", "non exclusive license", r"non[- ]?exclusive license"),
    (widen_hyphens, "first dollar", "first-dollar", None),
    # A range in a character class is no hyphen of the words ("[a-z]" stays a range).
    (widen_hyphens, "tenant (?:[a-z]+ )?re-lets the premises", "tenant promptly relets the premises", None),
    (widen_windows, r"cap[^.]{0,20}applies", "cap under §6.2 applies", r"cap(?:[^.]|\.(?=\d)){0,20}applies"),
    # A window grows by a clause set off by commas, a citation with its document's name.
    (
        widen_windows,
        r"landlord[^.]{0,20}retain the deposit",
        "the landlord may, as described in Section 6.2 of the Lease and the Rules and Regulations, retain the deposit",
        None,
    ),
    (
        widen_words_and_slack,
        "customer may use provider data",
        "customer may, under section 6.2, use all such provider data",
        None,
    ),
    # Room for a citation with its commas.
    (
        widen_words_and_slack,
        "landlord may retain the deposit",
        "the landlord may, pursuant to Section 6.2 of the Lease, retain the deposit",
        None,
    ),
    # Room for a clause set off by commas, a citation with its document's name.
    (
        widen_words_and_slack,
        "landlord may retain the deposit",
        "the landlord may, as set out in Section 6.2 of the Lease and the Rules and Regulations, retain the deposit",
        None,
    ),
    # A group of words takes slack beside it as a word does.
    (
        widen_words_and_slack,
        "landlord (?:may|can) retain the deposit",
        "the landlord, under clause 14.3, may retain the deposit",
        None,
    ),
]


@pytest.mark.parametrize(("step", "pattern", "paraphrase", "general"), STEP_CASES)
def test_each_step_repairs_its_defect(step, pattern, paraphrase, general) -> None:  # type: ignore[no-untyped-def]
    assert not _fires(pattern, paraphrase)
    widened = step(pattern, THESAURUS)
    assert widened is not None and _fires(widened, paraphrase), widened
    assert bounded(widened) is None  # lint's bounds: compiles, not too costly (G016), no backtracking (G012)
    for witness in witnesses(pattern):  # widening never loses what the pattern matched
        assert _fires(widened, witness.text), witness.text
    if general is not None:
        assert _fires(general, paraphrase)
        assert step(general, THESAURUS) in (None, general) or _fires(step(general, THESAURUS), paraphrase)


def test_a_grown_window_takes_an_aside_but_never_the_next_clause() -> None:
    """A window grows by a clause set off by commas, never into a clause coordinated after
    a ", and" or a ";" beyond the author's own window: there the figure belongs to another
    duty ("notify … within ten days" is no sin when the ten days are the report's)."""
    pattern = r"notify[^.]{0,20}within ten days"
    widened = widen_windows(pattern, THESAURUS) or ""
    aside = "the landlord shall notify the tenant, as set out in Section 6.2 of the Lease, within ten days"
    assert _fires(widened, aside)
    assert _fires(widened, "the landlord shall notify, and in any event within ten days")  # the author's window
    assert not _fires(
        widened, "the landlord shall notify the tenant of any damage promptly, and shall repair it within ten days"
    )
    assert not _fires(widened, "the landlord shall notify the tenant of any damage; repairs follow within ten days")


def test_a_grown_windows_aside_keeps_negators_out_as_the_window_does() -> None:
    """Where the guard does not see inside the match, the room a window grew by is kept free
    of negators as the author's window is: a negator past the author's 20 characters does
    not pass through it."""
    widened = widen_windows(r"notify[^.]{0,20}within ten days", THESAURUS) or ""
    assert longest_window(widened) == SLACK_WIDTH
    tempered = windows_without_negators(widened) or ""
    assert _fires(tempered, "the landlord shall notify the tenant of the damage, in any event within ten days")
    assert not _fires(tempered, "the landlord shall notify the tenant of the damage, never within ten days")


def test_the_passives_room_for_an_adverb_keeps_negators_out_where_the_guard_does_not_see_them() -> None:
    """The passive's room for an adverb ("is expressly owned by") is a window of one word:
    the engine's guard (span) sees a negator in it; a gate without that guard, or one led in
    and scoped `before` the match, keeps it out of the window itself."""
    widened = widen_voice("vendor owns the work product", THESAURUS) or ""
    assert BEFORE_VERB in widened
    negated = "the work product is not owned by vendor"
    assert _fires(widened, "the work product is expressly owned by vendor") and _fires(widened, negated)
    assert not Gate(widened, negation_guard=True).fires(normalize(negated))
    tempered = windows_without_negators(widened) or ""
    assert _fires(tempered, "the work product is expressly owned by vendor")
    assert not _fires(tempered, negated)
    led = Gate(with_lead_in(widened), negation_guard=True, negation_scope="before")
    assert led.fires(normalize("No other term changes; the work product is expressly owned by vendor."))
    assert not led.fires(normalize(f"No other term changes; {negated}."))


def test_a_passive_after_a_window_never_reads_a_negated_participle() -> None:
    widened = widen_voice(r"the rent act[^.]{0,80}prohibits", THESAURUS) or ""
    assert _fires(widened, "the increase is expressly prohibited by the rent act")
    assert not _fires(widened, "the increase is not prohibited by the rent act")


def test_the_active_of_a_passive_keeps_its_negation_and_its_agent() -> None:
    widened = widen_voice("tenant data (?:may|will) be stored offsite", THESAURUS) or ""
    assert _fires(widened, "the host will also store tenant data offsite")
    assert not _fires(widened, "the host will not store tenant data offsite")  # the passive says no "not"
    # The agent the passive names is the active's subject, and no other party is.
    by_landlord = widen_voice("the lease may be terminated by the landlord", THESAURUS) or ""
    assert _fires(by_landlord, "the landlord may terminate this lease")
    assert not _fires(by_landlord, "the tenant may terminate the lease")
    assert widen_voice(r"the deposit may be retained by\s+[^.]{0,40}?landlord", THESAURUS) is None  # no words
    assert widen_voice("the fees are non-refundable", THESAURUS) is None  # no participle
    # A present passive's active is the verb's finite forms, never its gerund ("putting").
    put = widen_voice("the deposit is put in escrow", THESAURUS) or ""
    assert _fires(put, "the landlord puts the deposit in escrow")
    assert not _fires(put, "the landlord avoids putting the deposit in escrow")


def test_a_passive_that_opens_with_its_participle_and_names_its_agent_has_an_active() -> None:
    # "barred by statute from subletting": the statute bars someone from subletting.
    widened = widen_voice("(?:prohibited|barred) by statute from subletting", THESAURUS) or ""
    assert _fires(widened, "the statute bars the tenant from subletting")
    assert _fires(widened, "a statute expressly prohibits any tenant from subletting")
    assert not _fires(widened, "the statute does not bar the tenant from subletting")
    assert not _fires(widened, "the statute bars no tenant from subletting")
    assert widen_voice("prohibited from subletting", THESAURUS) is None  # no agent: no subject to give


def test_a_verb_of_ownership_is_also_read_in_its_converse() -> None:
    # "the landlord owns the fixtures" is "the fixtures vest in / belong to the landlord":
    # the same relation with the parties swapped, beside the passive "are owned by".
    widened = widen_voice("landlord owns the fixtures", THESAURUS) or ""
    assert _fires(widened, "title to the fixtures shall vest solely in the landlord")
    assert _fires(widened, "the fixtures belong to the landlord")
    assert _fires(widened, "the fixtures are owned by the landlord")
    assert not _fires(widened, "the fixtures do not vest in the landlord")  # no negator in its gap
    assert not _fires(widened, "the fixtures belong to the tenant")  # the other party
    # With no object the converse opens with its verb, as the passive opens with "is owned by".
    bare = widen_voice("landlord (?:owns|shall own)", THESAURUS) or ""
    assert _fires(bare, "all right in the improvements vests in landlord")
    # A verb with no converse gets none: "repairs" has its passive only.
    repairs = widen_voice("landlord repairs the roof", THESAURUS) or ""
    assert not _fires(repairs, "the roof belongs to the landlord")


def test_a_possessive_owns_nouns_and_modifiers_only() -> None:
    widened = widen_possessive("landlord's deposit may be retained", THESAURUS) or ""
    assert _fires(widened, "the deposit of the landlord may be retained")
    assert not _fires(widened, "the deposit may of landlord be retained")  # the modal ends what it owns
    assert widen_possessive("the tenant's", THESAURUS) is None  # owns nothing
    assert widen_possessive("in its sole discretion", THESAURUS) is None  # no "'s"
    assert widen_possessive(r"\w+'s records", THESAURUS) is None  # no word owns them


def test_a_passive_never_reads_another_agent_or_a_noun_as_the_verb() -> None:
    widened = widen_voice("landlord (?:may|shall) terminate the lease", THESAURUS) or ""
    assert _fires(widened, "the lease may be terminated by the landlord")
    assert _fires(widened, "the lease may be terminated on notice")  # the agent left out
    assert not _fires(widened, "the lease may be terminated by the tenant")  # another agent: the opposite claim
    bare = widen_voice("landlord (?:may|shall) terminate", THESAURUS) or ""
    assert not _fires(bare, "the lease may be terminated")  # no object and no agent: no claim of the gate's
    assert not _fires(bare, "the lease may be terminated by the tenant")
    # A group of mostly nouns is no verb, and no later word is guessed to be one.
    assert (
        widen_voice("the statute (?:caps?|ceilings?|maximums?|maxima) (?:rents?|charges?) increases", THESAURUS) is None
    )
    # After a determiner a word is a noun: "the leases? requires notice" has no passive of "lease".
    noun = widen_voice("the leases? (?:requires|mandates) notice", THESAURUS) or ""
    assert "leased" not in noun and _fires(noun, "notice is required by the lease")
    # And after a possessive: "landlord's records" are no records the landlord "recorded".
    assert widen_voice(r"landlord'?s records[^.]{0,40}?are final", THESAURUS) is None
    # A verb opens a branch only before its object's determiner: "license fees" is two nouns.
    assert widen_voice("license fees", THESAURUS) is None


def test_a_passive_reads_a_phrasal_verb_up_to_its_object() -> None:
    # "hold harmless landlord" spells the verb with its object: the participle is "held
    # harmless", never "held harmless landlord"; "hold landlord" is the verb alone and its
    # object, which gives no passive of its own.
    widened = widen_voice("tenant (?:shall|must) (?:indemnify|hold (?:harmless )?(?:landlord|owner))", THESAURUS) or ""
    assert "held harmless" in widened and "held harmless landlord" not in widened and "held landlord" not in widened
    assert _fires(widened, "the owner shall be held harmless by the tenant")
    assert _fires(widened, "the landlord shall be indemnified by the tenant")
    # A particle or an adjective is the verb's: "gives up" is "given up".
    waived = widen_voice("tenant (?:waives|gives up) all claims", THESAURUS) or ""
    assert _fires(waived, "all claims are given up by the tenant")


def test_a_passive_reads_its_subject_a_noun_phrase_and_its_verb_a_finite_one() -> None:
    # A word after an adjective or a preposition is a noun: "unrestricted access" and "after
    # the landlord confirms" are no clause with a subject and a verb.
    assert widen_voice("unrestricted access", THESAURUS) is None
    assert widen_voice(r"after\s+(?:\w+\s+)?confirm(?:s|ed|ing|ation)\b", THESAURUS) is None
    # A base form that ends in "s" is no third person: "the tenants access" has no passive.
    assert widen_voice("the tenants access", THESAURUS) is None


def test_a_word_before_a_figure_is_a_noun() -> None:
    # "section 4.2", "exhibit 3": the name of a heading takes a noun's number only, never a
    # verb's forms ("sectioned 4.2"), which would take room in the pattern's budget.
    widened = widen_words(r"the landlord cites section 4\.2 of the lease", THESAURUS)
    assert widened is not None and "section(?:s|ed|ing)" not in widened
    assert _fires(widened, "the landlord cites sections 4.2 of the lease")
    assert "exhibits?" in (widen_words(r"exhibit \d+ applies", THESAURUS) or "")
    # A word before a word keeps its reading: "the landlord cites" still reads "cited".
    assert _fires(widened, "the landlord cited section 4.2 of the lease")


def test_slack_is_a_short_plain_gap_and_a_negator_in_it_is_left_to_the_guard() -> None:
    widened = widen_words_and_slack("customer may use provider data", THESAURUS)
    assert widened is not None and SLACK in widened and len(SLACK) <= 30
    assert _fires(widened, "customer may also use the provider data")
    assert not _fires(widened, "customer may. use provider data")  # never across a sentence end
    negated = ("customer may not use provider data", "customer may never use provider data")
    # The engine's negation guard (span scope) sees a negator inside the match window ...
    guarded = Gate(widened, negation_guard=True)
    assert all(not guarded.fires(normalize(text)) for text in negated)
    # ... and a gate without it gets the slack that keeps negators out itself.
    tempered = widened.replace(SLACK, NEGATOR_FREE_SLACK)
    assert _fires(tempered, "customer may also use the provider data")
    assert all(not _fires(tempered, text) for text in negated)
    assert bounded(tempered) is None


def test_no_slack_or_inflection_inside_a_fixed_phrase() -> None:
    """Slack goes between the words of a clause, not inside a fixed phrase or a name of
    several words ("null and void", "as a matter of", "Pellham Ridge"); and a fixed phrase a
    group cuts ("(?:as a matter of|under) … law") keeps its words as they stand."""
    thesaurus = THESAURUS.with_matter(frozenset(), frozenset({"pellham ridge"}))
    widened = widen_words_and_slack("the lease is null and void as a matter of law", thesaurus)
    assert widened is not None and SLACK in widened
    assert "null and void" in widened and f"as a matter of{SLACK}law" in widened
    # A modifier may come between a preposition and the noun that ends the phrase.
    assert _fires(widened, "the lease is null and void as a matter of state law")
    named = widen_words_and_slack("pellham ridge may terminate the lease", thesaurus)
    assert named is not None and "pellham ridge" in named
    cut = widen_words("void (?:as a matter of|under)(?: [a-z]+){0,3} law", thesaurus)
    assert cut is not None and "(?:as a matter of|under)" in cut and "matters" not in cut


def test_a_word_a_possessive_or_a_determiner_group_determines_is_a_noun() -> None:
    """After "landlord'?s", "(?:its|the landlord's)\\s+" or before "(?:may|shall)" a word is
    a noun: it takes a noun's forms only ("records?", never "record(?:s|ed|ing)?")."""
    for pattern, noun in (
        ("landlord'?s records are conclusive", "records?"),
        ("landlord['’]?s records are conclusive", "records?"),
        ("repair\\s+(?:its|the landlord's)\\s+records", "records?"),
        ("tenant (?:may|shall) keep records", "tenants?"),
    ):
        widened = widen_words(pattern, THESAURUS)
        assert widened is not None and noun in widened, (pattern, widened)
        assert noun.rstrip("s?") + "(?:s|ed|ing)" not in widened, (pattern, widened)


def test_steps_are_ordered_and_named() -> None:
    kinds = [step.kind for step in STEPS]
    assert (
        kinds[0] == "numbers" and "words and slack" in kinds and kinds.index("words and slack") < kinds.index("words")
    )


# ------------------------------------------------------------------ numbers and durations


@pytest.mark.parametrize(
    ("value", "unit", "forms"),
    [
        (5, "percent", ["5%", "5.0%", "five percent", "five (5) percent", "5 per cent", "five (5%)"]),
        (18, "month", ["18 months", "eighteen months", "eighteen (18) months", "18-month", "eighteen-month"]),
        (12, "month", ["twelve months", "one year", "1-year", "first anniversary", "12-month"]),
        (7, "day", ["seven days", "one week", "7 days", "seven (7) days"]),
        (72, "hour", ["72 hours", "seventy-two hours", "seventy two hours", "three days"]),
        (18, "month", ["a year and a half", "one and a half years", "eighteen (18) months", "1.5 years"]),
        (30, "month", ["two and a half years", "30-month", "2.5 years", "a 2.5-year term"]),
    ],
)
def test_a_quantity_regex_accepts_every_form(value: int, unit: str, forms: list[str]) -> None:
    regex = quantity_regexes.quantity_regex(value, {u.name: u for u in quantities.UNITS}[unit])
    for form in forms:
        assert re.search(regex, form, re.IGNORECASE), form
    assert not re.search(regex, f"{value + 1} {unit}s", re.IGNORECASE)


def test_a_quantity_regex_reads_as_prose() -> None:
    """Gates read normalized text: one space between words, so the regex writes one, and its
    witnesses (the audit's evidence) read as prose: no decimal on a span of days, a single year in the singular."""
    units = {u.name: u for u in quantities.UNITS}
    days = quantity_regexes.quantity_regex(5, units["business day"])
    assert "\\s" not in days
    assert re.search(days, "five (5) business days") and re.search(days, "a 5-business-day window")
    assert not re.search(days, "5.0 business days") and not re.search(days, "six (5) business days")
    assert re.search(quantity_regexes.quantity_regex(5, units["percent"]), "5.0%")
    year = quantity_regexes.quantity_regex(12, units["month"])
    assert re.search(year, "one year") and not re.search(year, "one years")


def test_quantity_variants_of_a_text() -> None:
    texts = {text for _kind, text in quantities.variants("fees rise by five percent per year")}
    assert {"fees rise by 5% per year", "fees rise by five (5) percent per year"} <= texts
    adjectival = {text for _kind, text in quantities.variants("an 18-month tail")}
    assert "an eighteen-month tail" in adjectival and "an 18 months tail" not in adjectival


def test_widening_quantities_in_a_pattern_keeps_the_rest() -> None:
    widened = quantity_regexes.widen_quantities(r"(?<![\d.])5\s*(?:%|percent)|\b90 days\b")
    assert widened.startswith(r"(?<![\d.])") and widened.endswith(r"\b")
    for text in ("5.0 %", "five (5) percent", "ninety (90) days"):
        assert re.search(widened, text), text


def _matched(regex: str, texts: list[str]) -> list[bool]:
    return [bool(re.search(regex, text, re.IGNORECASE)) for text in texts]


def test_a_multiple_in_every_form() -> None:
    """ "two times the rent", "2x", "two (2) times", "twice": one multiple; "5 x 3" is a size."""
    widened = quantity_regexes.widen_quantities(r"capped at two times the monthly rent")
    forms = ("twice", "2x", "two (2) times", "12 times")
    assert _matched(widened, [f"capped at {form} the monthly rent" for form in forms]) == [True, True, True, False]
    texts = {text for _kind, text in quantities.variants("rent is capped at 3x the deposit")}
    assert {"rent is capped at three times the deposit", "rent is capped at three (3) times the deposit"} <= texts
    assert quantities.quantities("a 5 x 3 metre store room") == ()


def test_a_sum_of_money_in_every_form() -> None:
    widened = money.widen_amounts(r"a deposit above \$1\.5 million")
    forms = ("$1,500,000", "1.5 million dollars", "usd 1.5 million", "$11.5 million", "1.5 million square feet")
    assert _matched(widened, [f"a deposit above {form}" for form in forms]) == [True, True, True, False, False]
    texts = {text for _kind, text in money.variants("the deposit is two million dollars")}
    assert {"the deposit is $2,000,000", "the deposit is $2 million"} <= texts
    assert money.amounts("the 1.5 million tenants") == []  # no currency: no sum


# ------------------------------------------------------------------ thesaurus and lexicon


def test_a_noun_after_a_noun_its_determiner_settles_is_a_noun() -> None:
    """ "the fire escape": "fire" is a noun after "the", so "escape" is one too (never
    "escaped", "escaping"); after a plural subject a base form is still the verb."""
    widened = widen_words(r"tenant keeps the fire escape clear", THESAURUS)
    assert widened is not None and "escap(?:e|es|ed|ing)" not in widened and "escapes?" in widened
    verb = widen_words(r"the tenants use the garden", THESAURUS)
    assert verb is not None and "using" in verb


def test_a_noun_listed_or_joined_after_a_noun_is_a_noun() -> None:
    """ "all right, title and interest": "title" follows a noun after a comma and "interest"
    one after "and", so neither is widened as a verb ("titled", "interested")."""
    widened = widen_words(r"landlord keeps all right, title,? and interest in the fixtures", THESAURUS)
    assert widened is not None and "titles?,? and interests?" in widened


def test_an_authors_word_the_widened_group_already_matches_is_not_written_again() -> None:
    """ "(?:pays|remits)": "pays" takes in its group, which holds "remits" in every form; the
    author's "remits" is not written again beside it, and the gate matches what it did."""
    widened = widen_words(r"tenant (?:pays|remits|settles) the rent", THESAURUS)
    assert widened is not None
    assert "|remits" not in widened and "settles" in widened
    for text in ("tenant remits the rent", "tenant settles the rent", "tenant paid the rent"):
        assert re.search(widened, text)


def test_thesaurus_groups_and_their_inflections() -> None:
    assert "hold harmless" in THESAURUS.members("indemnifies")
    assert {"holds harmless", "held harmless"} <= set(phrase_forms("hold harmless"))
    assert "following" in phrase_forms("following") and "followinging" not in phrase_forms("following")
    assert phrase_forms("shall") == ("shall",)


def test_the_project_adds_synonym_groups_and_keeps_the_one_way_table() -> None:
    from rubric_tools.config.audit import parse_audit_section
    from rubric_tools.config.table import SettingsTable

    table = {"synonym-groups": [["Licence", "license"]], "thesaurus": {"terminate": ["end"]}}
    section = parse_audit_section(table, SettingsTable({"audit": table}, None, None, ()), None)  # type: ignore[arg-type]
    assert section.synonym_groups == (("licence", "license"),)
    thesaurus = build(section.synonym_groups, section.thesaurus)
    assert "license" in thesaurus.members("licence") and "end" in thesaurus.members("terminate")
    assert AuditSection().synonym_groups == ()
    from rubric_tools.config.errors import ConfigError

    with pytest.raises(ConfigError, match="two or more"):
        parse_audit_section({"synonym-groups": [["alone"]]}, SettingsTable({}, None, None, ()), None)  # type: ignore[arg-type]


def test_word_forms_from_the_lexicon() -> None:
    # tests/test_audit_word_forms.py has the word forms by kind of word
    assert {"use", "uses", "used", "using"} <= set(lexicon.word_forms("uses"))
    assert {"indemnify", "indemnifies", "indemnified"} <= set(lexicon.word_forms("indemnify"))
    assert {"obligation", "obligations"} <= set(lexicon.word_forms("obligations"))
    assert lexicon.past_participle("hold") == "held"
    assert "shalls" not in lexicon.word_forms("shall")


# ------------------------------------------------------------------ property: rewrites

_WORDS = [
    "customer",
    "provider",
    "may",
    "shall",
    "use",
    "data",
    "make",
    "of",
    "the",
    "indemnify",
    "licensor",
    "five",
    "percent",
    "after",
    "notice",
    "within",
    "hours",
    "48",
    "terminate",
    "agreement",
    "not",
]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), min_size=2, max_size=7))
def test_rewrites_never_double_a_word_and_always_change_the_text(words: list[str]) -> None:
    witness = " ".join(words)
    pattern = re.escape(witness).replace("\\ ", " ")
    for dodge in dodges(witness, pattern, THESAURUS):
        assert dodge.text != witness
        doubled = re.search(r"\b(\w+) \1\b", dodge.text)
        assert doubled is None or re.search(rf"\b{doubled.group(1)} {doubled.group(1)}\b", witness), dodge


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(_WORDS[:-1]), min_size=2, max_size=5))
def test_widening_keeps_every_match_and_lint_bounds(words: list[str]) -> None:
    """Every step, applied in turn as a proposal applies them (only while the pattern stays
    within the proposal's size budget), keeps the original's matches and lint's bounds."""
    from rubric_tools.audit.verification import pattern_budget

    pattern = " ".join(words)
    current = pattern
    for step in STEPS:
        widened = step.apply(current, THESAURUS)
        if widened is not None and len(widened) <= pattern_budget(pattern):
            assert bounded(widened) is None, (step.kind, widened)
            assert _fires(widened, pattern), (step.kind, widened)
            current = widened


def test_a_participle_before_to_keeps_to_participles() -> None:
    # "permits to re-identify" is no English: a passive widens to its synonyms' participles.
    for pattern in ("(?:permitted) to re-identify", "(?:permitted|authorized) to re-identify"):
        widened = widen_words(pattern, THESAURUS) or ""
        assert _fires(widened, "Provider is allowed to re-identify the data."), widened
        assert not _fires(widened, "Provider permits to re-identify the data."), widened
        # "let" takes a bare infinitive: "is let to" is no English either.
        assert not _fires(widened, "Provider is let to re-identify the data."), widened


def test_a_participle_before_its_agent_keeps_to_participles() -> None:
    # "prohibited by statute": a passive before its agent widens to its synonyms'
    # participles, not to every form of each verb ("prohibits by statute" is no English, and
    # the forms would spend the size budget the other steps need).
    for pattern in (
        "(?:prohibited) by (?:law|statute) from subletting",
        "tenant is (?:prohibited) by law from subletting",
    ):
        widened = widen_words(pattern, THESAURUS) or ""
        assert _fires(widened, "Tenant is barred by law from subletting."), widened
        assert _fires(widened, "Tenant is forbidden by law from subletting."), widened
        assert not _fires(widened, "Tenant is prohibits by law from subletting."), widened
        assert "prohibit(?:" not in widened, widened
    # Where the group has no participle to give, its own forms stand: the phrase group.
    assert _fires(widen_words("prohibited by law from subletting", THESAURUS) or "", "contrary to law from subletting")
    # After a noun, "by" may follow an active verb: every form of each verb, as before.
    assert "prohibit(?:s|ed|ing)?" in (widen_words("landlord prohibited by notice any subletting", THESAURUS) or "")


def test_a_figure_spelled_several_ways_is_widened_once() -> None:
    from rubric_tools.audit.widening import widen_numbers

    spelled = r"(?<![\d.])(?:9|12) months?|(?:nine|twelve)-month|(?:nine|twelve) \(\d+\) months?"
    widened = widen_numbers(spelled, build()) or ""
    assert widened.count("nine") == 1 and len(widened) < 3 * len(spelled)
    for text in ("9 months", "nine-month", "twelve (12) months", "one year", "the first anniversary", "a 12-month"):
        assert re.search(widened, text), text


def test_a_span_named_as_an_anniversary_is_spelled_as_a_span() -> None:
    spelled = set(quantities.spellings("Representations expire on the first anniversary of Closing."))
    assert "Representations expire on twelve months of Closing." in spelled
    assert "Fees rise by 5% per year." in set(quantities.spellings("Fees rise by five percent per year."))


def test_a_noun_that_modifies_the_next_keeps_its_number() -> None:
    """ "indemnification obligations": the head noun takes both numbers and its synonyms,
    the noun before it neither a plural nor a verb's forms ("indemnifications obligations")."""
    widened = widen_words("the tenant pays the indemnification obligations", THESAURUS)
    assert widened is not None
    assert _fires(widened, "the tenant pays the indemnification duties")
    assert not _fires(widened, "the tenant pays the indemnifications obligations")
    assert _fires(
        widen_words("the tenant pays the indemnifications", THESAURUS) or "", "the tenant pays the indemnification"
    )
    # The same before a group a widening already wrote (a second round of --fix).
    again = widen_words("the tenant pays the indemnification (?:obligations?|dut(?:y|ies))", THESAURUS)
    assert again is not None and not _fires(again, "the tenant pays the indemnifications duties")


def test_a_verb_before_its_object_takes_no_noun_synonyms() -> None:
    """ "breaches the lease" is the verb: the thesaurus's nouns for a breach ("incident")
    do not stand there; the noun in "the security breach is reported" keeps them."""
    as_verb = widen_words("landlord breaches the lease", THESAURUS)
    assert as_verb is not None and "incident" not in as_verb
    assert _fires(as_verb, "landlord violates the lease")
    as_noun = widen_words("the security breach is reported", THESAURUS)
    assert as_noun is not None and "incident" in as_noun


def test_a_widened_word_before_a_window_stays_a_whole_word() -> None:
    """The window after "notify" may hold letters: its synonym "inform" must not match the
    start of "informally" through it (a word boundary is written after the group)."""
    widened = widen_words("landlord shall (notify)[^.]{0,60}tenant", THESAURUS)
    assert widened is not None
    assert _fires(widened, "landlord shall inform the tenant")
    assert not _fires(widened, "landlord shall informally ask the tenant")
    # No boundary where nothing after the word can add letters.
    plain = widen_words("landlord shall notify tenant", THESAURUS)
    assert plain is not None and "\\b" not in plain


def test_a_number_in_words_is_read_as_num2words_writes_it() -> None:
    """Every number below a thousand in each of its three written forms ("one hundred and
    seventy-two", "one hundred and seventy two", "one hundred seventy-two") reads as its
    value, "a"/"an" as one, and nothing else as a number; the words of numbers are those
    `num2words` writes for them, though only the words below a hundred are built at start."""
    from num2words import num2words

    written: dict[str, int] = {"a": 1, "an": 1}
    for number in range(quantities.MAX_WORDED + 1):
        words = num2words(number)
        for form in (words, words.replace("-", " "), words.replace(" and ", " ")):
            written[form] = number
    assert {text: quantities.number_value(text) for text in written} == {t: float(n) for t, n in written.items()}
    tokens = {token for text in written for token in re.split(r"[- ]", text)} - {"a", "an", "and"}
    assert all(quantities.is_number_word(token) for token in tokens)
    assert not any(quantities.is_number_word(word) for word in ("and", "a", "thousand", "hundreds", "fee"))
    mixed = [f"{a} {b}" for a in sorted(tokens) for b in sorted(tokens)]
    mixed += [f"{a} hundred and {b}" for a in sorted(tokens) for b in ("one", "twenty-one", "twenty one", "hundred")]
    mixed += ["one hundred twenty one", "zero hundred", "hundred", "one  hundred", "one hundred and", "and five"]
    assert all(quantities.number_value(text) is None for text in mixed if text not in written)


def test_a_determiner_the_words_step_swaps_may_also_be_left_out() -> None:
    """ "any rent increase over 5% is void" is as often written "rent increases over 5% are
    void": a swapped determiner before a noun is optional; a negator is never what stands
    in its place."""
    widened = widen_words("any rent increase over 5% is void", THESAURUS) or ""
    assert _fires(widened, "Rent increases over 5% are void.")
    assert _fires(widened, "Any rent increase over 5% is void.")
    assert _fires(widened, "Each rent increase over 5% is void.")
    assert not _fires(widened, "Rent increase over 5 percent cannot be contested.")
    kept = widen_words("landlord may keep the deposit", THESAURUS) or ""
    assert _fires(kept, "Landlord may keep deposits.") and not _fires(kept, "Landlord may keep no deposit.")
    # Where the noun phrase opens the match, "no" before it is not the determiner left out.
    assert not _fires(widened, "No rent increase over 5% is void.")
    assert not _fires(widened, "It is not rent increases over 5% that are void.")


def test_a_status_stated_with_is_is_also_read_with_shall_be_or_will_be() -> None:
    # A contract states a status in the future as often as in the present: "Tenant shall be
    # the sole owner of the fixtures" is the sin "tenant is the owner of the fixtures".
    widened = widen_words(r"tenant (is) the (sole )?owner of (the )?fixtures", THESAURUS)
    assert widened is not None
    for sin in ("Tenant shall be the sole owner of the fixtures.", "Tenant will be the owner of fixtures."):
        assert _fires(widened, sin)
    assert not _fires(widened, "Tenant shall not be the owner of the fixtures.")
    # Before a negator or an infinitive the modal's "be" would read "shall be not refundable",
    # "shall be to be removed": the copula keeps its own forms there.
    for pattern in (r"the deposit is not refundable", r"fixtures are to be removed"):
        widened = widen_words(pattern, THESAURUS)
        assert widened is not None
        assert "shall" not in widened


def test_a_legal_conclusion_stated_with_is_is_also_read_in_the_conditional() -> None:
    # An analysis states a legal conclusion in the conditional as often as in the present:
    # "Subletting would be unlawful under the lease" is the sin "subletting is unlawful under
    # the lease"; never before a negator ("would be not").
    widened = widen_words(r"subletting (is) unlawful under the lease", THESAURUS)
    assert widened is not None
    assert _fires(widened, "Subletting would be unlawful under the lease.")
    assert not _fires(widened, "Subletting would not be unlawful under the lease.")
    widened = widen_words(r"the deposit is not refundable", THESAURUS)
    assert widened is None or "would" not in widened


def test_an_alternative_that_is_a_group_of_its_own_is_written_without_it() -> None:
    widened = widen_words(r"tenant (is) the owner of the fixtures", THESAURUS)
    assert widened is not None
    assert "(?:(?:is|are)|" not in widened
    assert re.search(r"\(\?:is\|are\|\(\?:shall\|will\|would\) be\)", widened)


def test_a_modal_after_its_subject_takes_its_groups_members_even_where_it_is_also_a_noun() -> None:
    # "will" and "can" are nouns too ("the will", "a can"); after a subject they are modals.
    widened = widen_words(r"tenant will pay the rent", THESAURUS)
    assert widened is not None
    for sin in ("Tenant shall pay the rent.", "Tenant is going to pay the rent.", "Tenant must pay the rent."):
        assert _fires(widened, sin)
    widened = widen_words(r"tenant can sublet", THESAURUS)
    assert widened is not None and _fires(widened, "Tenant may sublet.")
    # After a determiner it is the noun, and is left as it stands.
    widened = widen_words(r"the will names the tenant", THESAURUS)
    assert widened is None or not _fires(widened, "The shall names the tenant.")


def test_a_word_after_an_optional_determiner_is_a_noun() -> None:
    widened = widen_words(r"the will names (the )?tenant", THESAURUS)
    assert widened is not None
    assert "tenants?" in widened and "tenant(?:s|ed|ing)" not in widened


def test_a_unit_glued_to_a_word_is_no_quantity() -> None:
    # "an ax" is no "an" (one) and an "x" (times); "today" no "to" and a "day".
    assert quantities.quantities("Tenant may use an ax on the fence today.") == ()
    assert [(q.value, q.unit.name) for q in quantities.quantities("within five business days")] == [
        (5.0, "business day")
    ]


def test_a_liability_is_an_exposure_but_a_responsibility_is_not() -> None:
    # "exposure" names a liability's amount: "Provider's exposure for data breaches is
    # uncapped" says what "Provider's liability …" says; "Exposure for subcontractor
    # performance rests with Customer" is no duty of Customer's.
    assert "exposure" in THESAURUS.members("liability", None)
    assert "responsibility" in THESAURUS.members("liability", None)
    assert "exposure" not in THESAURUS.members("responsibility", None)


def test_no_contract_habitat_wraps_a_clause_spoken_in_the_first_person() -> None:
    spoken = dict(habitat_texts("what we can do is move the notice from 30 days to 60 days", "settlement"))
    assert not any(kind.endswith("recital") or kind.startswith("limiting idiom") for kind in spoken)
    assert "noun negated in a clause after" not in spoken
    drafted = dict(habitat_texts("tenant shall repair the roof within 30 days", "redline"))
    assert "replacement recital" in drafted and "limiting idiom before" in drafted
    # "us" is the country as often as the pronoun in a lowercase witness: it takes its habitats.
    assert "replacement recital" in dict(habitat_texts("provider may store data in us facilities", "redline"))
