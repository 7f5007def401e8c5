"""A gate's windows: kept free of negators ("Client Materials are not owned by Consultant"
against `client materials[^.]{0,60}owned by consultant`), measured, and the lint bounds a
proposed regex must keep (`bounded`)."""

from __future__ import annotations

from functools import lru_cache

from rubric_tools.audit.markers import LIMIT_IDIOM
from rubric_tools.audit.pattern_tree import Item, is_window, parse_items, render, walk_sequences
from rubric_tools.gate_analysis.regex_problem import regex_problem
from rubric_tools.gate_analysis.regex_shape import backtracking_risk

#: A window this short (characters) holds one clause: a negator in it governs the match, and
#: guards that no evidence asked for may assume so.
SHORT_WINDOW = 60


#: What a window of the pattern may not hold: a negator (not one stating a limit, "no later
#: than", "not to exceed"). Short, because it is repeated at every character of the window.
_WINDOW_STOPS = rf"\bnot?\b{LIMIT_IDIOM}|\bnever\b|n['’]t\b"


def windows_without_negators(pattern: str) -> str | None:
    """`pattern` with no negator in its windows: "Client Materials are not owned by
    Consultant" no longer matches `client materials[^.]{0,60}owned by consultant`. For a gate
    whose negation guard does not see inside the match (none, or `negation_scope: before`).
    None when the pattern has no window."""
    tree = parse_items(pattern)
    if tree is None:
        return None
    changed = False
    for sequence in walk_sequences(tree):
        for index, item in enumerate(sequence):
            if not is_window(item):
                continue
            allowed = (
                "." if item.kind == "dot" else item.text if item.kind == "class" else item.render()[: -len(item.quant)]
            )
            high = _upper_bound(item.quant)
            lazy = "?" if item.quant.endswith("?") else ""
            count = f"{{0,{high}}}" if high is not None else "*"
            sequence[index] = Item("raw", f"(?:(?!{_WINDOW_STOPS}){allowed}){count}{lazy}")
            changed = True
    return "|".join(render(branch) for branch in tree) if changed else None


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
