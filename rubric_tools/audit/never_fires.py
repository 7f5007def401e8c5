"""Gates that can never fire (U001): an entry no text can trip, and the alternatives of a
gate that can fire which themselves never can. Also lint rule U001; the audit adds the
evidence (the texts tried, the dead alternative).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from rubric_tools.audit.findings import AuditFinding, Evidence
from rubric_tools.diagnostics import Severity
from rubric_tools.gate_analysis.alternatives import alternatives
from rubric_tools.gate_analysis.gate_firing import (
    GATE_NEVER_FIRES,
    AuditedEntry,
    alternatives_firing_in_context,
    fire_texts,
    fires_in_context,
    gate_lists,
    never_fires_message,
    never_fires_reason,
)
from rubric_tools.gate_analysis.plain_search import cut_from
from rubric_tools.loading.matter import MatterSource
from rubric_tools.scoring.text import show_pattern


def never_fires_findings(source: MatterSource) -> Iterator[AuditFinding]:
    """U001 for every entry that no text can trip (also lint rule U001)."""
    for gate_list in gate_lists(source.model):
        for entry in gate_list.entries:
            # A witness firing in a sentence shows the entry can fire (what `never_fires_reason`
            # asks first): the entry's witnesses are built for its alternatives anyway.
            in_context = any(not text.bare_only for text in fire_texts(entry.gate))
            reason = None if in_context else never_fires_reason(entry.gate)
            if reason is None:
                yield from _dead_alternatives(entry)
                continue
            message, tried = reason
            evidence = [
                Evidence(text, "synthesized from the pattern", "witness", "fire", "silent", entry.surface)
                for text in tried
            ]
            yield AuditFinding.on_entry(GATE_NEVER_FIRES.code, entry, never_fires_message(entry, message), evidence)


def _dead_alternatives(entry: AuditedEntry) -> Iterator[AuditFinding]:
    """U001 for the alternatives of a gate that can fire which themselves never can (an
    unescaped `$5`, YAML's backspace, a guard that defeats that branch): dead text in the
    rubric, and usually the very wording the author meant to catch."""
    dead: list[tuple[str, str, list[str]]] = []
    # The gate's own witnesses cover its alternatives one by one (`witness`): an alternative
    # that one of them trips in a sentence can fire, and needs no witnesses of its own.
    in_context = [text.text for text in fire_texts(entry.gate) if not text.bare_only]
    found = alternatives(entry.gate.pattern, skip_repeated=True)
    shown = alternatives_firing_in_context(entry.gate, found, in_context)  # one search of the gate per text
    for index, variant in enumerate(found):
        cut_from(variant.pattern, entry.gate.pattern)  # searched under the gate's own bound
        alternative = replace(entry.gate, pattern=variant.pattern)
        if index in shown or fires_in_context(alternative, in_context):
            continue
        reason = never_fires_reason(alternative)
        if reason is not None and not any(variant.branch in d[0] or d[0] in variant.branch for d in dead):
            dead.append((variant.branch, *reason))
    if not dead:
        return
    branch, why, _tried = dead[0]
    more = f" (and {len(dead) - 1} more)" if len(dead) > 1 else ""
    evidence = [
        Evidence(branch, "alternative of the pattern", "dead alternative", "fire", why, entry.surface)
        for branch, why, _tried in dead
    ]
    yield AuditFinding.on_entry(
        GATE_NEVER_FIRES.code,
        entry,
        f"gate {show_pattern(entry.gate.pattern)} on {entry.issue_id}/{entry.surface}: "
        f"its alternative {show_pattern(branch)} can never fire{more}: {why}",
        evidence,
        severity=Severity.WARNING,  # the rest of the gate still works
    )
