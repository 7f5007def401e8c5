"""The code registry (`rubric_tools.code_registry`): one look-up of every code, statuses
(preview, deprecated), redirects of renamed codes, and what the language server reads."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest

from rubric_tools import code_registry, docs
from rubric_tools.code_registry import REDIRECTS, entries, lookup, redirect
from rubric_tools.commands.explain import run_explain, run_rules
from rubric_tools.diagnostics import CodeStatus, Severity
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import RULES, rule
from rubric_tools.reporting.formats import RulesFormat


def test_codes_and_names_are_unique_across_every_kind() -> None:
    found = entries()
    assert len({entry.code for entry in found}) == len(found)
    assert len({entry.name for entry in found}) == len(found)
    assert all(re.fullmatch(r"[A-Z]\d{3}", entry.code) for entry in found)


def test_every_family_of_codes_is_found() -> None:
    families = {entry.code[0] for entry in entries()}
    assert {"T", "E", "U", "C", "R", "M", "X", "I", "G", "A"} <= families


def test_redirects_point_from_a_retired_code_to_a_live_one() -> None:
    live = {entry.code for entry in entries()}
    for old in REDIRECTS:
        assert old not in live, f"{old} is redirected but still declared"
        target = redirect(old)
        assert target in live, f"{old} redirects to {target}, which is not a code"


@pytest.fixture
def renamed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """G099 was renamed G003 (an invented redirect: the table holds none today)."""
    monkeypatch.setitem(REDIRECTS, "G099", "G003")
    yield


def test_a_redirect_is_followed(renamed: None) -> None:
    assert redirect("g099") == "G003"
    assert lookup("G099") == lookup("G003")
    stub = lookup(" g099 ", follow=False)
    assert stub is not None and (stub.code, stub.redirect, stub.name) == ("G099", "G003", "invalid-regex")
    assert redirect("G003") is None


def test_explain_follows_a_redirect_and_says_so(renamed: None) -> None:
    page, old = io.StringIO(), io.StringIO()
    assert run_explain("G003", page, io.StringIO()) == 0
    err = io.StringIO()
    assert run_explain("G099", old, err) == 0
    assert old.getvalue() == page.getvalue()
    assert err.getvalue() == "warning: G099 has been remapped to G003.\n"


def _preview(ctx: LintContext) -> Iterator[Finding]:
    """Test-only: a rule in preview."""
    yield from ()


@pytest.fixture
def preview_rule() -> Iterator[None]:
    rule("Z950", "stage-preview", Severity.WARNING, status=CodeStatus.PREVIEW)(_preview)
    try:
        yield
    finally:
        RULES.pop("Z950")


def test_a_preview_rule_says_so_and_a_stable_one_does_not(preview_rule: None) -> None:
    entry = lookup("Z950")
    assert entry is not None and entry.status is CodeStatus.PREVIEW
    assert entry.heading == "Z950 `stage-preview` (warning, preview)"
    page = io.StringIO()
    assert run_explain("Z950", page, io.StringIO()) == 0
    assert "Status: preview" in page.getvalue()
    stable = io.StringIO()
    assert run_explain("G003", stable, io.StringIO()) == 0
    assert "Status" not in stable.getvalue()
    table, listing = io.StringIO(), io.StringIO()
    assert run_rules(RulesFormat.TABLE, table, io.StringIO()) == 0
    assert "stage-preview (preview)" in table.getvalue()
    assert run_rules(RulesFormat.JSON, listing, io.StringIO()) == 0
    assert '"status": "preview"' in listing.getvalue() and listing.getvalue().count('"status"') == 1


def test_what_the_language_server_reads() -> None:
    """Hover text and `codeDescription.href` for any code, from one look-up."""
    authoring = docs.AUTHORING.read_text(encoding="utf-8")
    for entry in entries():
        assert entry.title == f"{entry.code} {entry.name}"
        assert entry.summary and entry.doc.startswith(entry.summary)
        assert f"#### {entry.heading}\n" in authoring, entry.code
        assert entry.url.endswith(f"#{entry.anchor}") and re.fullmatch(r"[a-z0-9_-]+", entry.anchor)
    anchors = {entry.code: entry.anchor for entry in entries()}
    assert anchors["P001"] == "p001-max-score-mismatch-error-fixable"
    assert anchors["T001"] == "t001-invalid-json-line-error-replay"


def test_the_table_is_what_the_declarations_give() -> None:
    """What `python -m rubric_tools.docs --check` checks, entry by entry."""
    declared = docs.declared_entries()
    assert [(e.code, e.name, e.severity, e.family, e.kind, e.fixable, e.status, e.doc) for e in entries()] == [
        (e.code, e.name, e.severity, e.family, e.kind, e.fixable, e.status, e.doc) for e in declared
    ]
    assert code_registry.added_rules() == []
