"""`rubric lint --fix`: each fix rewrites exactly its node, keeps everything else
byte-for-byte, is idempotent, and is safe only when replaying the matter's
trajectories and probes proves that no score moves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rubric_tools.fixing.fixes import Applicability
from rubric_tools.lint.engine import lint_paths
from rubric_tools.lint.fix_run import fix_paths
from tests.fix_support import BASE, CONFIG, base_copy, codes, run, seed

# One case per fix: (file, clean text, seeded text, code, applicability).
CASES = [
    ("rubric.yaml", 'anchor: "hosting §3.1"', 'anchor: "hosting § 3.1"   # keep: reviewed 2024', "A005", "safe"),
    ("rubric.yaml", 'anchor: "hosting §3.1"', "anchor: 'hosting§3.1'", "A005", "safe"),
    ("rubric.yaml", '["hosting §3.1", "guide §2"]', '["hosting §3.1", "guide  § 2"]', "A007", "safe"),
    ("rubric.yaml", '["hosting §3.1", "guide §2"]', '["hosting §3.1", "GUIDE §2."]', "A002", "safe"),
    ("rubric.yaml", '["hosting §3.1", "guide §2"]', '["hosting §3.1", "guide §2.1"]', "A002", "unsafe"),
    ("rubric.yaml", '["hosting §3.1", "guide §2"]', '["hosting §3.1", "guid §2"]', "A002", "unsafe"),
    (
        "matter.yaml",
        "maximum_negotiation_rounds: 4",
        "negotiation_rounds: 4  # the playbook says four",
        "S005",
        "unsafe",
    ),
    (
        "rubric.yaml",
        '- "uptime commitments are unenforceable"',
        '- "\\buptime commitments are unenforceable"',
        "X110",
        "safe",
    ),
]


def _trajectory(tmp_path: Path, actions: list[dict[str, object]]) -> None:
    folder = tmp_path / "trajectories" / "base_fixture"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "agent.jsonl").write_text("".join(json.dumps(a) + "\n" for a in actions), encoding="utf-8")


def _replayed(tmp_path: Path, root: Path) -> object:
    from rubric_tools import load_matter, replay
    from rubric_tools.loading.trajectory import load_trajectory

    actions = load_trajectory(tmp_path / "trajectories" / "base_fixture" / "agent.jsonl").actions
    return replay(load_matter(root), actions).result


NEUTRAL_AGENT: list[dict[str, object]] = [
    {"type": "read_document", "document_id": "guide", "section": "2"},
    {"type": "submit_final", "summary": "The hosting agreement needs a service credit for missed uptime."},
]


@pytest.mark.parametrize(
    ("file", "clean", "seeded", "code", "applicability"), CASES, ids=[f"{c[3]}-{i}" for i, c in enumerate(CASES)]
)
def test_each_fix_rewrites_only_its_node(
    tmp_path: Path, file: str, clean: str, seeded: str, code: str, applicability: str
) -> None:
    root = base_copy(tmp_path)
    seed(root / file, clean, seeded)
    _trajectory(tmp_path, NEUTRAL_AGENT)  # a witness for the proof, which no fix here moves
    before = (root / file).read_text(encoding="utf-8")
    scores_before = _replayed(tmp_path, root)
    [finding] = [d for d in lint_paths([root], CONFIG).diagnostics if d.code == code]
    assert finding.fix is not None and finding.fix.applicability is Applicability(applicability)
    assert finding.fix.downgraded is None

    if applicability == "unsafe":
        assert fix_paths([root], CONFIG, unsafe=False).changes == []  # --fix alone leaves it
    fix_paths([root], CONFIG, unsafe=True)
    after = (root / file).read_text(encoding="utf-8")
    # Exactly the node changed: the lines around it, its comment and its quoting stay.
    edit = finding.fix.edits[0]
    assert after == before.replace(edit.old, edit.new, 1)
    assert code not in codes(root)
    if applicability == "safe":
        assert _replayed(tmp_path, root) == scores_before  # what the proof promised
    if "#" in seeded:
        assert seeded[seeded.index("#") - 2 :] in after  # the trailing comment survived
    # Idempotent: a second run changes nothing.
    assert fix_paths([root], CONFIG, unsafe=True).changes == []


def test_fixed_file_is_the_clean_file_when_only_the_node_was_wrong(tmp_path: Path) -> None:
    root = base_copy(tmp_path)
    seed(root / "rubric.yaml", 'anchor: "hosting §3.1"', 'anchor: "hosting § 3.1"')
    seed(root / "rubric.yaml", '["hosting §3.1", "guide §2"]', '["HOSTING §3.1.", "guide § 2"]')
    fix_paths([root], CONFIG, unsafe=False)
    assert (root / "rubric.yaml").read_bytes() == (BASE / "rubric.yaml").read_bytes()
    assert codes(root) == []


def test_max_score_fix_is_unsafe_and_writes_the_derived_value(tmp_path: Path) -> None:
    root = base_copy(tmp_path)
    rubric = root / "rubric.yaml"
    rubric.write_text(
        "# Points reviewed by the partner.\nmax_score: 9.0  # drifted\n\n" + rubric.read_text("utf-8"), encoding="utf-8"
    )
    [finding] = [d for d in lint_paths([root], CONFIG).diagnostics if d.code == "P001"]
    assert finding.fix is not None and not finding.fix.safe
    assert fix_paths([root], CONFIG).changes == []
    fix_paths([root], CONFIG, unsafe=True)
    assert rubric.read_text("utf-8").startswith("# Points reviewed by the partner.\nmax_score: 5.75  # drifted\n\n")
    assert codes(root) == []


def test_crlf_line_endings_and_a_byte_order_mark_survive(tmp_path: Path) -> None:
    root = base_copy(tmp_path)
    rubric = root / "rubric.yaml"
    text = rubric.read_text("utf-8").replace('anchor: "hosting §3.1"', 'anchor: "hosting § 3.1"')
    rubric.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    fix_paths([root], CONFIG)
    expected = (BASE / "rubric.yaml").read_text("utf-8").replace("\n", "\r\n").encode()
    assert rubric.read_bytes() == b"\xef\xbb\xbf" + expected


def test_a_unused_suppression_is_removed_by_fix(tmp_path: Path) -> None:
    root = base_copy(tmp_path)
    seed(
        root / "rubric.yaml",
        '    anchor: "hosting §3.1"\n',
        "    # rubric: ignore[A006] -- was the preamble once\n"
        '    anchor: "hosting §3.1"  # rubric: ignore[A005, A006] -- odd\n',
    )
    seed(
        root / "documents" / "hosting.md",
        "## 4 Term\n",
        "<!-- rubric: ignore[D006] -- no duplicate any more -->\n## 4 Term\n",
    )
    assert sorted(codes(root)) == ["X103", "X103", "X103"]
    fix_paths([root], CONFIG)
    assert (root / "rubric.yaml").read_bytes() == (BASE / "rubric.yaml").read_bytes()
    assert (root / "documents" / "hosting.md").read_bytes() == (BASE / "documents" / "hosting.md").read_bytes()


# --------------------------------------------------------------------------- replay proof
CITING_AGENT: list[dict[str, object]] = [
    {"type": "read_document", "document_id": "hosting", "section": "3.1"},
    {
        "type": "submit_issue",
        "issue_id": "credit",
        "title": "uptime credit",
        "severity": "medium",
        "citations": ["hosting §3.1"],
        "analysis": "No service credit below 99.9.",
        "recommendation": "Add one.",
    },
]


def test_a_fix_that_looked_safe_but_moves_a_score_is_downgraded(tmp_path: Path) -> None:
    root = base_copy(tmp_path)
    seed(root / "rubric.yaml", 'anchor: "hosting §3.1"', 'anchor: "hosting § 3.1"')
    _trajectory(tmp_path, CITING_AGENT)  # cites the canonical form: the fix makes it match
    [finding] = [d for d in lint_paths([root], CONFIG).diagnostics if d.code == "A005"]
    assert finding.fix is not None and finding.fix.applicability is Applicability.UNSAFE
    assert finding.fix.downgraded is not None and "agent.jsonl" in finding.fix.downgraded
    assert fix_paths([root], CONFIG).changes == []  # --fix refuses it
    assert len(fix_paths([root], CONFIG, unsafe=True).changes) == 1


def test_a_fix_that_moves_no_score_stays_safe(tmp_path: Path) -> None:
    root = base_copy(tmp_path)
    seed(root / "rubric.yaml", 'anchor: "hosting §3.1"', 'anchor: "hosting § 3.1"')
    _trajectory(tmp_path, [{"type": "read_document", "document_id": "guide"}])
    probes = tmp_path / "probes"
    probes.mkdir()
    (probes / "base_fixture.yaml").write_text(
        "probes:\n  - surface: issue\n    criterion: uptime_credit\n"
        "    text: uptime commitments are unenforceable\n    expect_fire: true\n",
        encoding="utf-8",
    )
    [finding] = [d for d in lint_paths([root], CONFIG).diagnostics if d.code == "A005"]
    assert finding.fix is not None and finding.fix.safe


def test_a_gate_fix_that_changes_a_probe_verdict_is_downgraded(tmp_path: Path) -> None:
    root = base_copy(tmp_path)
    seed(root / "rubric.yaml", '- "uptime commitments are unenforceable"', '- "\\bunenforceable"')
    probes = tmp_path / "probes"
    probes.mkdir()
    (probes / "base_fixture.yaml").write_text(
        "probes:\n  - surface: issue\n    criterion: uptime_credit\n"
        "    text: these terms are unenforceable\n    expect_fire: true\n",
        encoding="utf-8",
    )
    [finding] = [d for d in lint_paths([root], CONFIG).diagnostics if d.code == "X110"]
    assert finding.fix is not None and not finding.fix.safe
    assert "base_fixture.yaml" in (finding.fix.downgraded or "")


# --------------------------------------------------------------------------- command line
def test_diff_prints_a_unified_diff_writes_nothing_and_exits_1(tmp_path: Path) -> None:
    root = base_copy(tmp_path)
    seed(root / "rubric.yaml", 'anchor: "hosting §3.1"', 'anchor: "hosting § 3.1"')
    before = (root / "rubric.yaml").read_bytes()
    code, out, err = run(tmp_path, root, diff=True)
    assert code == 1 and (root / "rubric.yaml").read_bytes() == before
    assert '-    anchor: "hosting § 3.1"\n+    anchor: "hosting §3.1"\n' in out
    assert out.startswith("--- a/matters/base_fixture/rubric.yaml\n+++ b/matters/base_fixture/rubric.yaml\n")
    assert "Would apply 1 fix to 1 file." in err
    assert run(tmp_path, base_copy(tmp_path, "clean"), diff=True)[:2] == (0, "")


def test_fix_writes_then_reports_what_remains(tmp_path: Path) -> None:
    root = base_copy(tmp_path)
    seed(root / "rubric.yaml", 'anchor: "hosting §3.1"', 'anchor: "hosting § 3.1"')
    seed(root / "matter.yaml", "maximum_negotiation_rounds: 4", "negotiation_rounds: 4")
    code, out, err = run(tmp_path, root, fix=True)
    assert code == 1 and "S005" in out and "A005" not in out
    assert "Fixed 1 finding." in out and "1 more fix available with `--fix --unsafe-fixes`." in out
    assert "Applied 1 fix to 1 file" in err
    code, out, _ = run(tmp_path, root, fix=True, unsafe_fixes=True)
    assert code == 0 and "All checks passed" in out


@pytest.mark.parametrize("format_", ["full", "json", "sarif", "github", "concise"])
def test_every_format_shows_the_fix(tmp_path: Path, format_: str) -> None:
    from rubric_tools.reporting.formats import OutputFormat

    root = base_copy(tmp_path)
    seed(root / "rubric.yaml", 'anchor: "hosting §3.1"', 'anchor: "hosting § 3.1"')
    _, out, _ = run(tmp_path, root, output_format=OutputFormat(format_))
    if format_ == "json":
        fix = next(d for d in json.loads(out)["diagnostics"] if d["code"] == "A005")["fix"]
        assert fix["applicability"] == "safe" and fix["edits"][0]["new"] == '"hosting §3.1"'
    elif format_ == "sarif":
        result = next(r for r in json.loads(out)["runs"][0]["results"] if r["ruleId"] == "A005")
        replacement = result["fixes"][0]["artifactChanges"][0]["replacements"][0]
        assert replacement["insertedContent"]["text"] == '"hosting §3.1"'
        assert (
            replacement["deletedRegion"]["startLine"]
            == result["locations"][0]["physicalLocation"]["region"]["startLine"]
        )
    elif format_ == "github":
        assert "fixable with `rubric lint --fix`" in out
    else:
        assert "A005 [*]" in out and "[*] 1 fixable with `rubric lint --fix`." in out
        if format_ == "full":
            assert "= fix: write 'hosting §3.1' (safe fix available: --fix)" in out


def test_a_file_that_cannot_be_written_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = base_copy(tmp_path)
    rubric = root / "rubric.yaml"
    seed(rubric, 'anchor: "hosting §3.1"', 'anchor: "hosting § 3.1"')
    real = Path.write_bytes

    def read_only(self: Path, data: bytes) -> int:
        if self == rubric:
            raise PermissionError(13, "Permission denied")
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", read_only)
    code, _, err = run(tmp_path, root, fix=True)
    assert code == 2 and "cannot write" in err and "Permission denied" in err and "Traceback" not in err


def test_a_symlinked_matter_file_is_never_written_through(tmp_path: Path) -> None:
    root = base_copy(tmp_path)
    shared = tmp_path / "shared-rubric.yaml"
    shared.write_text((root / "rubric.yaml").read_text("utf-8").replace('§3.1"', '§ 3.1"', 1), encoding="utf-8")
    (root / "rubric.yaml").unlink()
    (root / "rubric.yaml").symlink_to(shared)
    before = shared.read_bytes()
    run(tmp_path, root, diff=True)
    run(tmp_path, root, fix=True)
    assert shared.read_bytes() == before


def test_rules_lists_which_rules_can_fix(capsys: pytest.CaptureFixture[str]) -> None:
    from rubric_tools.cli import main

    assert main(["rules", "--output-format", "json"]) == 0
    fixable = {rule["code"] for rule in json.loads(capsys.readouterr().out) if rule["fixable"]}
    assert {"A002", "A005", "A007", "P001", "S005", "X103", "X110"} <= fixable


def test_a_fix_that_cannot_be_proven_is_unsafe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rubric_tools.lint import fix_proof

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("replay exploded")

    monkeypatch.setattr(fix_proof, "prove_safe_fixes", broken)
    monkeypatch.setenv("RUBRIC_NO_CACHE", "1")  # an identical matter linted earlier must not be restored
    root = base_copy(tmp_path)
    seed(root / "rubric.yaml", 'anchor: "hosting §3.1"', 'anchor: "hosting § 3.1"')
    [finding] = [d for d in lint_paths([root], CONFIG).diagnostics if d.code == "A005"]
    assert finding.fix is not None and not finding.fix.safe and "replay exploded" in (finding.fix.downgraded or "")


def test_an_ambiguous_citation_gets_no_fix(tmp_path: Path) -> None:
    root = base_copy(tmp_path)
    # hosting §3.2 is as near hosting §3.1 as hosting §4: no single section was meant.
    seed(root / "rubric.yaml", '["hosting §3.1", "guide §2"]', '["hosting §3.1", "guide §2", "hosting §3.2"]')
    [finding] = [d for d in lint_paths([root], CONFIG).diagnostics if d.code == "A002"]
    assert finding.fix is None


def test_unsafe_fixes_alone_counts_them_as_available(tmp_path: Path) -> None:
    root = base_copy(tmp_path)
    seed(root / "matter.yaml", "maximum_negotiation_rounds: 4", "negotiation_rounds: 4")
    _, out, _ = run(tmp_path, root)
    assert "S005 [*]" not in out and "1 more fix available with `--fix --unsafe-fixes`." in out
    _, out, _ = run(tmp_path, root, unsafe_fixes=True)
    assert "S005 [*]" in out and "[*] 1 fixable with `rubric lint --fix --unsafe-fixes`." in out
    assert (root / "matter.yaml").read_text("utf-8").count("negotiation_rounds: 4") == 1  # nothing written


def test_the_json_fix_object_matches_the_output_schema(tmp_path: Path) -> None:
    import jsonschema

    from rubric_tools.reporting.formats import OutputFormat
    from tests.conftest import REPO_ROOT

    schema = json.loads((REPO_ROOT / "schemas" / "lint-output.schema.json").read_text(encoding="utf-8"))
    root = base_copy(tmp_path)
    seed(root / "rubric.yaml", 'anchor: "hosting §3.1"', 'anchor: "hosting § 3.1"')
    seed(root / "matter.yaml", "maximum_negotiation_rounds: 4", "negotiation_rounds: 4")
    document = json.loads(run(tmp_path, root, output_format=OutputFormat.JSON)[1])
    jsonschema.Draft202012Validator(schema).validate(document)
    assert document["summary"]["fixable"] == 1 and document["summary"]["unsafe_fixable"] == 1
    bad = {**document, "diagnostics": [{**document["diagnostics"][0], "fix": {"message": "x"}}]}
    assert not jsonschema.Draft202012Validator(schema).is_valid(bad)


def test_fixing_a_matter_with_a_fifo_does_not_hang(tmp_path: Path) -> None:
    import os

    root = base_copy(tmp_path)
    seed(root / "rubric.yaml", 'anchor: "hosting §3.1"', 'anchor: "hosting § 3.1"')
    os.mkfifo(root / "documents" / "pipe.md")  # opening it for reading would block forever
    (root / "loop").symlink_to(root)  # a folder link back into itself
    _trajectory(tmp_path, NEUTRAL_AGENT)
    assert len(fix_paths([root], CONFIG).changes) == 1
    assert (root / "rubric.yaml").read_bytes() == (BASE / "rubric.yaml").read_bytes()


def test_diff_says_when_only_unsafe_fixes_are_left(tmp_path: Path) -> None:
    root = base_copy(tmp_path)
    seed(root / "matter.yaml", "maximum_negotiation_rounds: 4", "negotiation_rounds: 4")
    code, out, err = run(tmp_path, root, diff=True)
    assert code == 0 and out == "" and "1 unsafe fix not shown: add --unsafe-fixes." in err
