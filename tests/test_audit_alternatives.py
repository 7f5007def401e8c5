"""The audit's check of each alternative of a gate (U001, "its alternative … can never
fire"): an alternative that one of the gate's own witnesses trips in a sentence is alive
without witnesses of its own, and the dead alternatives reported are those that checking
every alternative's own witnesses finds."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rubric_tools.audit.never_fires import _dead_alternatives
from rubric_tools.gate_analysis.alternatives import alternative_patterns, alternatives
from rubric_tools.gate_analysis.gate_firing import (
    AuditedEntry,
    alternatives_firing_in_context,
    fire_texts,
    fires_in_context,
    gate_lists,
    never_fires_reason,
)
from rubric_tools.gate_analysis.plain_search import cut_from
from rubric_tools.gate_analysis.regex_shape import parse
from rubric_tools.loading.matter import load_matter_source
from rubric_tools.scoring.dialect import expanded_size
from rubric_tools.scoring.gates import Gate
from tests.audit_support import make_matter
from tests.conftest import MATTERS_DIR, require_conformance


def _every_alternative_checked(gate: Gate) -> list[str]:
    """The dead alternatives found by building every alternative's own witnesses."""
    dead: list[str] = []
    for branch, variant in alternative_patterns(gate.pattern, skip_repeated=True):
        reason = never_fires_reason(replace(gate, pattern=variant))
        if reason is not None and not any(branch in d or d in branch for d in dead):
            dead.append(branch)
    return dead


def _reported(entry: AuditedEntry) -> list[str]:
    return [e.sentence for finding in _dead_alternatives(entry) for e in finding.evidence]


def _entries(roots: list[Path]) -> list[AuditedEntry]:
    entries = []
    for root in roots:
        source = load_matter_source(root)
        if source.ok:
            entries += [entry for gate_list in gate_lists(source.model) for entry in gate_list.entries]
    return entries


def _corpus_entries() -> list[AuditedEntry]:
    corpus = require_conformance()
    found = [
        *corpus.glob("matters/*/matter.yaml"),
        *(corpus.parent / "conformance-edge").glob("*/matter/matter.yaml"),
        *MATTERS_DIR.glob("*/matter.yaml"),
    ]
    return _entries(sorted({path.parent for path in found}))


def test_every_matters_gates_report_the_dead_alternatives_of_the_full_check() -> None:
    entries = _corpus_entries()
    assert len(entries) > 100
    for entry in entries:
        assert _reported(entry) == _every_alternative_checked(entry.gate), entry.gate


_EXCLUDE = "\n        exclude_context: 'unlimited'"


@pytest.mark.parametrize(
    ("gate", "dead"),
    [
        ("- 'fees of (?:$5 million|five million dollars)'", ["$5 million"]),
        ('- "(?:\\buncapped|unlimited) liability"', ["\buncapped"]),
        ("- pattern: '(?:no cap on|uncapped) liability'\n        negation_guard: true", ["no cap on"]),
        (f"- pattern: 'uncapped liability|unlimited liability'{_EXCLUDE}", ["unlimited liability"]),
        (f"- pattern: '(?:uncapped|unlimited) liability'{_EXCLUDE}", ["unlimited"]),
        ("- '(?:uncapped|unlimited) liability'", []),
    ],
)
def test_dead_alternatives_of_written_gates(tmp_path: Path, gate: str, dead: list[str]) -> None:
    root = make_matter(tmp_path / "m", f"    critical_failure_patterns:\n      {gate}\n")
    [entry] = _entries([root])
    assert _every_alternative_checked(entry.gate) == dead
    assert _reported(entry) == dead


def test_an_alternative_repeats_no_more_than_its_gate() -> None:
    """What lets an alternative skip the scorer's cap on counted repeats once its gate passed
    it (`plain_search.cut_from`)."""
    for entry in _corpus_entries():
        whole = parse(entry.gate.pattern)
        for _, variant in alternative_patterns(entry.gate.pattern, skip_repeated=True):
            tree = parse(variant)
            assert whole is not None and tree is not None
            assert expanded_size(tree) <= expanded_size(whole), variant


def test_the_alternatives_of_a_window_the_audit_writes_are_not_wording() -> None:
    # `(?:[^.;]|\.\d)` inside a repeated, tempered window: its branches only work together.
    slack = r"(?:(?!\bn(?:o|ot|ever)\b|n['’]t\b)(?:[^.;]|\.\d)){1,30}?"
    pattern = rf"customer (?:may|can)\b{slack}\buse (?:data|content)"
    branches = [branch for branch, _variant in alternative_patterns(pattern, skip_repeated=True)]
    assert branches == ["may", "can", "data", "content"]


def test_one_search_of_the_gate_shows_most_alternatives_firing_and_never_a_dead_one() -> None:
    """`alternatives_firing_in_context`: the alternatives whose branches the gate's first match
    on a witness went through fire on that witness when each is searched on its own, and
    they are most of those that fire (each of the others compiles a pattern of its own)."""
    shown_total = firing_total = 0
    for entry in _corpus_entries():
        in_context = [text.text for text in fire_texts(entry.gate) if not text.bare_only]
        found = alternatives(entry.gate.pattern, skip_repeated=True)
        for variant in found:
            cut_from(variant.pattern, entry.gate.pattern)
        shown = alternatives_firing_in_context(entry.gate, found, in_context)
        firing = {
            index
            for index, variant in enumerate(found)
            if fires_in_context(replace(entry.gate, pattern=variant.pattern), in_context)
        }
        assert shown <= firing, entry.gate
        shown_total, firing_total = shown_total + len(shown), firing_total + len(firing)
    assert shown_total >= 0.8 * firing_total > 0


@pytest.mark.parametrize(
    ("pattern", "text", "shown"),
    [
        ("uncapped|unlimited", "unlimited", ["unlimited"]),
        ("(?:uncapped|unlimited) liability", "uncapped liability", ["uncapped"]),
        ("x|(?:a|b)c", "bc", ["(?:a|b)c", "b"]),
        ("(a|b)\\1", "aa", []),  # a group reference: each alternative is searched on its own
        ("(?!(?:no|not) )(?:uses|sells)", "sells", ["sells"]),  # a lookahead's branches: not shown
    ],
)
def test_the_branches_a_match_went_through(pattern: str, text: str, shown: list[str]) -> None:
    found = alternatives(pattern, skip_repeated=True)
    indices = alternatives_firing_in_context(Gate(pattern), found, [text])
    assert [found[index].branch for index in sorted(indices)] == shown


def test_a_witness_that_holds_the_required_context_is_not_given_it_twice() -> None:
    """ "the lease cannot lawfully bar subletting" needs no "lawfully" added; a witness
    without it takes the require_context witness beside it."""
    gate = Gate(
        "(?:the )?lease cannot (?:lawfully )?bar subletting",
        require_context=r"\b(?:lawfully|validly)\b",
    )
    texts = [text.text for text in fire_texts(gate)]
    assert "the lease cannot lawfully bar subletting" in texts
    assert not any(text.count("lawfully") > 1 for text in texts)
    assert "lease cannot bar subletting lawfully" in texts
