"""A gate's windows: kept free of negators ("Client Materials are not owned by Consultant"
against `client materials[^.]{0,60}owned by consultant`), measured, and the lint bounds a
proposed regex must keep (`bounded`)."""

from __future__ import annotations

from functools import lru_cache

from rubric_tools.audit.clause_slots import NEGATOR_STOP, adverb_slots_without_negators
from rubric_tools.audit.markers import NOT_A_LIMIT, NOT_A_LIMIT_IN_A_WINDOW
from rubric_tools.audit.pattern_tree import Item, is_window, parse_items, render, walk_sequences
from rubric_tools.audit.slack import SLACK_BODY
from rubric_tools.gate_analysis.regex_problem import regex_problem
from rubric_tools.gate_analysis.regex_risk import backtracking_risk

#: A window this short (characters) holds one clause: a negator in it governs the match, and
#: guards that no evidence asked for may assume so.
SHORT_WINDOW = 60


#: What a window of the pattern may not hold: a negator (not one stating a limit, "no later
#: than", "not to exceed"). Short, because it is repeated at every character of the window.
_WINDOW_STOPS = rf"\bnot?\b{NOT_A_LIMIT}|\bnever\b|n['’]t\b"


def _engine_stops(not_a_limit: str) -> str:
    return rf"\b(?:not?|without)\b{not_a_limit}|\b(?:never|nothing|none|neither|nor|cannot)\b|n['’]t\b"


#: Every negator of the engine's guard (engine.md §4), but those stating a limit: what the
#: windows of a pattern led in (`with_lead_in`) keep out, so that its guard, now scoped
#: `before` the match, still silences a sin negated inside the match as the `span` scope did.
_ENGINE_STOPS = _engine_stops(NOT_A_LIMIT_IN_A_WINDOW)
#: The stops earlier versions wrote (the limit's gap bounded: `NOT_A_LIMIT`), still read as
#: stops in a rubric they fixed.
_EARLIER_ENGINE_STOPS = (_engine_stops(NOT_A_LIMIT),)


def windows_without_negators(pattern: str, stops: str = _WINDOW_STOPS) -> str | None:
    """`pattern` with no negator in its windows: "Client Materials are not owned by
    Consultant" no longer matches `client materials[^.]{0,60}owned by consultant`. For a gate
    whose negation guard does not see inside the match (none, or `negation_scope: before`).
    None when the pattern has no window."""
    # The other voice's room for an adverb ("is expressly prohibited") is a window of one word.
    adverb_free = adverb_slots_without_negators(pattern)
    tree = parse_items(adverb_free)
    if tree is None:
        return None
    changed = adverb_free != pattern
    for sequence in walk_sequences(tree):
        for index, item in enumerate(sequence):
            slack = _is_slack(item)
            if not (is_window(item) or slack):
                continue
            allowed = (
                "." if item.kind == "dot" else item.text if item.kind == "class" else item.render()[: -len(item.quant)]
            )
            high = _upper_bound(item.quant)
            lazy = "?" if item.quant.endswith("?") else ""
            # Slack keeps its one character at least: it stands between two words' `\b`s.
            count = f"{{{1 if slack else 0},{high}}}" if high is not None else "*"
            sequence[index] = Item("raw", f"(?:(?!{stops}){allowed}){count}{lazy}")
            changed = True
    return "|".join(render(branch) for branch in tree) if changed else None


def _is_slack(item: Item) -> bool:
    """Whether `item` is the widening's slack between two words (`slack.SLACK`, "may,
    under Section 6.2, use"): a window too, though not one an author writes. Written while
    the guard read the whole match (`span`), it must keep negators out once the guard is
    scoped `before` it: "Tenant may not, under Section 6.2, sublet" is no sin."""
    return (
        item.kind == "group"
        and item.quant.startswith("{1,")
        and "|".join(render(b) for b in item.branches) == SLACK_BODY
    )


def _lead_in(another_clause: str, stops: str) -> str:
    """The lead-in taking in `another_clause` (optional), then a limit or saving idiom, then
    the words of the sin's own clause, which hold none of `stops`."""
    return (
        rf"(?:(?:^|(?<=[.!?] ))(?:{another_clause})?"
        rf"(?:(?:{NEGATOR_STOP}(?:[^.;]|\.\d)){{0,60}}?"
        r"\b(?:without (?:limiting|undue delay)|(?:in no event|not?) (?:\w+er|more|less) than)\b"
        r"(?:[^.;]|\.\d){0,80}?, ?)?"
        rf"(?:(?!{stops})(?:[^.;]|\.\d)){{0,120}}?)?"
    )


#: What may come before the sin in its own sentence without governing it, taken into the match
#: so that a guard scoped `before` the match does not read it: another clause, closed by ";"
#: or ":", or opened by "but", "provided that" or a comma and a conjunction ("Section 9.3
#: does not apply to fees, but <sin>", "…, and <sin>", "…, because <sin>"; not ", as", which
#: opens an aside as often: ", as amended,"), or a concessive clause set off by a comma
#: ("Although Section 9.3 does not apply, <sin>") — a negator governs its own clause, not the
#: next, and a comma alone ends none ("Tenant shall not, without consent, sublet"); and a
#: limit or saving idiom set off by a comma, after words with no negator ("No later than
#: thirty (30) days after notice, <sin>", "Without limiting Section 9.2, <sin>", "Vendor
#: shall, in no event later than ten days after notice, <sin>"); then the words of the sin's
#: own clause ahead of the gate's words, which hold no negator of the engine ("…; Vendor may
#: use the data to <sin>"). A negator in the clause or idiom negates another clause or
#: nothing; a negator in the sin's own clause is still ahead of the match, or inside it
#: where the windows keep it out (`with_lead_in`). A full stop before a digit ("Section
#: 9.2") ends no sentence (engine.md §4), nor any part of a lead-in. It opens only where a
#: sentence does (normalized text has one space after a full stop), so that a search tries
#: it at a few places of a long text, not at every character (lint rule G017).
_LEAD_IN = _lead_in(
    r"(?:[^.]|\.\d){0,150}?(?:[;:]|\bbut\b|\bprovided that\b|"
    r", (?:and|yet|so|since|because|while|whereas|although|though)\b) ?"
    r"|(?:although|though|even though|even if|while|whereas)\b(?:[^.;]|\.\d){0,150}?, ?",
    _ENGINE_STOPS,
)
#: The lead-ins earlier versions wrote, still read as lead-ins in a rubric they fixed: the
#: last before this one took another clause only after ";" or "but", and its stops bounded
#: the limit's gap (`_EARLIER_ENGINE_STOPS`).
_EARLIER_LEAD_INS = (
    _lead_in(r"(?:[^.]|\.\d){0,150}?(?:;|\bbut\b) ?", _EARLIER_ENGINE_STOPS[0]),
    r"(?:(?:^|(?<=[.!?] ))(?:[^.]{0,150}?(?:;|\bbut\b) ?)?(?:(?:(?!\bn(?:o|ot|ever)\b|n['’]t\b)[^.;]){0,60}?"
    r"\b(?:without (?:limiting|undue delay)|(?:in no event|not?) (?:\w+er|more|less) than)\b[^.;]{0,80}?, ?)?)?",
)


def with_lead_in(pattern: str) -> str:
    """`pattern` led by an optional `_LEAD_IN`, its windows kept free of negators: for a gate
    whose engine guard is scoped `before` the match. A search finds the leftmost match, so a
    sentence with such a lead-in is matched from its start, and the negators of the lead-in
    fall inside the match, where the guard does not look."""
    return led(windows_without_negators(pattern, _ENGINE_STOPS) or pattern)


def led(pattern: str) -> str:
    """`pattern` behind `_LEAD_IN`, as it stands."""
    return f"{_LEAD_IN}(?:{pattern})"


def has_lead_in(pattern: str) -> bool:
    """Whether `pattern` is led in (`led`): an earlier round of the fix wrote it so."""
    return _lead_in_of(pattern) is not None


def without_lead_in(pattern: str) -> str:
    """`pattern` as written before `with_lead_in` (its windows still kept free of negators):
    what a proposal's length budget counts, the lead-in being one fixed construct."""
    lead_in = _lead_in_of(pattern)
    return pattern[len(lead_in) + 3 : -1] if lead_in is not None else pattern


def _lead_in_of(pattern: str) -> str | None:
    return next((lead_in for lead_in in (_LEAD_IN, *_EARLIER_LEAD_INS) if pattern.startswith(lead_in)), None)


def without_window_stops(pattern: str) -> str:
    """`pattern` with each window a lead-in keeps free of the engine's negators
    (`with_lead_in`) read as the window it was: what a reviewer reads of it, the stop being,
    like the lead-in, one fixed construct that keeps the guard's meaning (the scope `span`
    saw inside the match). A window kept free of negators to silence more correct work
    (`windows_without_negators` alone) is the proposal's own change, and counts in full."""
    for stops in (_ENGINE_STOPS, *_EARLIER_ENGINE_STOPS):
        pattern = pattern.replace(f"(?:(?!{stops})", "(?:")
    return pattern


def longest_window(pattern: str) -> int | None:
    """The most characters a window of `pattern` spans (0 with none), or None when one is
    unbounded (`.*`, `[^.]+`)."""
    tree = parse_items(pattern)
    longest = 0
    for sequence in walk_sequences(tree or []):
        for item in sequence:
            if is_window(item):
                high = _upper_bound(item.quant)
                if high is None:
                    return None
                longest = max(longest, high)
    return longest


def _upper_bound(quant: str) -> int | None:
    digits = quant.strip("?+").strip("{}").split(",")
    return int(digits[-1]) if quant.startswith("{") and digits[-1].isdigit() else None


@lru_cache(maxsize=4096)
def bounded(regex: str) -> str | None:
    """Why `regex` may not stand in a gate (lint rules G003, G012, G016), or None. Cached:
    the candidates of one entry share their pattern, and of one gate list their guards."""
    problem = regex_problem(regex)
    if problem is not None:
        return problem.message
    return backtracking_risk(regex)
