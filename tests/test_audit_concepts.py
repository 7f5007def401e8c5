"""The concept verdicts of `rubric audit`, each on a fixture with the defect and one without."""

from __future__ import annotations

import re
from pathlib import Path

from tests.audit_support import audit, codes, make_matter


def _concepts(required: str, redline: str = '["service credit"]', settlement: str = '["service credit"]') -> str:
    return (
        f"    required_concepts: {required}\n    redline_concepts: {redline}\n    settlement_concepts: {settlement}\n"
    )


def test_concept_written_as_a_regex_can_never_be_earned(tmp_path: Path) -> None:
    root = make_matter(tmp_path / "m", concepts=_concepts(r'["service\\s+credit", "99.9"]'))
    [finding] = codes(audit(root), "U005")
    assert (finding.line, finding.column) == (13, 25) and "written as a regex" in finding.message
    assert codes(audit(make_matter(tmp_path / "ok", concepts=_concepts('["service credit", "99.9"]'))), "U005") == []


def test_short_or_embedded_concepts_are_earned_by_unrelated_text(tmp_path: Path) -> None:
    root = make_matter(tmp_path / "m", concepts=_concepts('["ai", "train"]'))
    found = {d.extra["subject"]["concept"]: d for d in codes(audit(root), "U006")}  # type: ignore[index]
    assert set(found) == {"ai", "train"}
    assert "again" in found["ai"].message and "constraint" in found["train"].message
    # A prefix of a longer word is an inflection, not unrelated text ("credit" in "credits").
    assert codes(audit(make_matter(tmp_path / "ok", concepts=_concepts('["service credit", "credit"]'))), "U006") == []


def test_unrelated_text_is_shown_in_the_matters_own_sentences(tmp_path: Path) -> None:
    """The evidence of a U006 is first the matter's own sentences that earn the concept
    through another word, not one about the concept, and no heading; then the common words."""
    guide = (
        "Training the tenant's staff is the landlord's cost. "
        "The landlord may not constrain the tenant's use of the premises. "
        "The strain on the lift is the landlord's risk."
    )
    root = make_matter(tmp_path / "m", concepts=_concepts('["train"]'), guide=guide)
    [finding] = codes(audit(root), "U006")
    shown = [e["sentence"] for e in finding.extra["evidence"]]  # type: ignore[index]
    assert shown[:2] == [
        "The landlord may not constrain the tenant's use of the premises.",
        "The strain on the lift is the landlord's risk.",
    ]
    assert 'Any text with the word "constrain" earns it.' in shown and not any(s.startswith("Training") for s in shown)
    # Where no sentence of the matter holds such a word, the common words alone, each in a
    # sentence that names it (a bare word is no evidence a reader can take in).
    [finding] = codes(audit(make_matter(tmp_path / "plain", concepts=_concepts('["train"]'))), "U006")
    shown = [e["sentence"] for e in finding.extra["evidence"]]  # type: ignore[index]
    assert shown and all(re.fullmatch(r'Any text with the word "[a-z]+" earns it\.', s) for s in shown), shown
    assert all("train" in s for s in shown)  # each still earns the concept


def test_redline_concept_already_in_the_clause_is_earned_without_work(tmp_path: Path) -> None:
    root = make_matter(tmp_path / "m", concepts=_concepts('["service credit"]', redline='["reasonable efforts"]'))
    [finding] = codes(audit(root), "U007")
    assert finding.severity.value == "error"  # every redline concept is already there
    assert finding.line == 14 and "hosting §3.1" in finding.message
    # The evidence is the clause's own sentence that holds the concept, not the concept alone.
    [evidence] = finding.extra["evidence"]  # type: ignore[index]
    assert (
        evidence["sentence"]
        == "Host will use reasonable efforts to keep the platform available 99.9 percent of each month."
    )
    partial = make_matter(
        tmp_path / "partial",
        concepts=_concepts('["service credit"]', redline='["reasonable efforts", "service credit"]'),
    )
    [partly] = codes(audit(partial), "U007")  # only the concept the clause holds, an error too (lint rule U007)
    assert partly.severity.value == "error" and "1 of 2 redline concepts" in partly.message
    assert codes(audit(make_matter(tmp_path / "ok")), "U007") == []


def test_concept_in_no_readable_text(tmp_path: Path) -> None:
    root = make_matter(tmp_path / "m", concepts=_concepts('["service credit", "zebra clause"]'))
    [finding] = codes(audit(root), "U008")
    assert finding.extra["subject"]["concepts"] == ["zebra clause"]  # type: ignore[index]
    assert (finding.line, finding.column) == (13, 43)
    assert codes(audit(make_matter(tmp_path / "ok")), "U008") == []


def test_concept_rewarded_on_one_surface_and_punished_on_another(tmp_path: Path) -> None:
    gates = "    critical_failure_patterns:\n      - 'five percent'\n"
    concepts = _concepts('["service credit"]', redline='["service credit", "five percent"]')
    [finding] = codes(audit(make_matter(tmp_path / "m", gates, concepts=concepts)), "U009")
    assert finding.severity.value == "error" and finding.line == 17
    assert "redline_concepts" in finding.message
    assert codes(audit(make_matter(tmp_path / "ok", gates)), "U009") == []
    # The analysis names the problem; a redline gate punishing that wording is by design.
    redline_gate = "    redline_critical_failure_patterns:\n      - 'five percent'\n"
    problem = _concepts('["service credit", "five percent"]', redline='["ten percent"]')
    assert codes(audit(make_matter(tmp_path / "by_design", redline_gate, concepts=problem)), "U009") == []


def test_the_concept_verdicts_read_no_lexicon(tmp_path: Path) -> None:
    """`rubric check` runs the concept verdicts without generated texts: the U007 evidence
    (the clause's own sentence) must not make it read the lexicon's tables (a second of CPU)."""
    import subprocess
    import sys

    root = make_matter(tmp_path / "m", concepts=_concepts('["service credit"]', redline='["reasonable efforts"]'))
    program = (
        "import sys\n"
        "from pathlib import Path\n"
        "from rubric_tools.audit.concepts import concept_findings\n"
        "from rubric_tools.loading.matter import load_matter_source\n"
        f"found = list(concept_findings(load_matter_source(Path({str(root)!r}))))\n"
        "assert any(f.code == 'U007' for f in found), found\n"
        "print('lemminflect' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
