"""Fixes over real matters: applying every fix twice is applying it once (our matters and
the conformance matters, on temporary copies), and a conformance matter with seeded
defects, once fixed, is byte-for-byte the original, lints as before and scores the same."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rubric_tools import load_matter, replay
from rubric_tools.config.lint import LintSection
from rubric_tools.lint.engine import lint_paths
from rubric_tools.lint.fix_run import fix_paths
from rubric_tools.loading.layout import trajectory_paths as trajectory_files
from rubric_tools.loading.trajectory import load_trajectory
from tests.conftest import MATTERS_DIR, require_conformance


def _copy_repo(corpus: Path, tmp_path: Path, matter_id: str) -> Path:
    """A matter with its trajectories and probes, in the repository layout."""
    root = tmp_path / "matters" / matter_id
    shutil.copytree(corpus / "matters" / matter_id, root)
    trajectories = corpus / "trajectories" / matter_id
    if trajectories.is_dir():
        shutil.copytree(trajectories, tmp_path / "trajectories" / matter_id)
    probes = corpus / "probes" / f"{matter_id}.yaml"
    if probes.is_file():
        (tmp_path / "probes").mkdir(exist_ok=True)
        shutil.copy(probes, tmp_path / "probes" / probes.name)
    return root


def test_fixing_twice_is_fixing_once_on_every_matter(tmp_path: Path) -> None:
    corpus = require_conformance()
    matters = [p.parent for p in sorted(MATTERS_DIR.glob("*/matter.yaml"))]
    matters += [p.parent for p in sorted((corpus / "matters").glob("*/matter.yaml"))]
    assert len(matters) >= 14
    copies = []
    for index, matter in enumerate(matters):
        copy = tmp_path / str(index) / "matters" / matter.name
        shutil.copytree(matter, copy)
        copies.append(copy)
    config = LintSection(prove_fixes=False)  # no witnesses in the copies: nothing to prove
    first = fix_paths(copies, config, unsafe=True)
    snapshot = {p: p.read_bytes() for c in copies for p in c.rglob("*") if p.is_file()}
    second = fix_paths(copies, config, unsafe=True)
    assert second.changes == [] and second.applied == 0
    assert snapshot == {p: p.read_bytes() for c in copies for p in c.rglob("*") if p.is_file()}
    # Whatever the first pass changed, no fixable finding is left behind.
    assert not [d for d in lint_paths(copies, config).diagnostics if d.fix is not None]
    assert first.rejected == []


def _scores(root: Path, trajectories: list[Path]) -> list[object]:
    matter = load_matter(root)
    return [replay(matter, load_trajectory(path).actions).result for path in trajectories]


@pytest.mark.parametrize("matter_id", ["ai_saas_001", "nego_saas_010"])
def test_a_seeded_conformance_matter_once_fixed_is_the_original(tmp_path: Path, matter_id: str) -> None:
    corpus = require_conformance()
    original = corpus / "matters" / matter_id
    root = _copy_repo(corpus, tmp_path, matter_id)
    rubric = root / "rubric.yaml"
    text = rubric.read_text(encoding="utf-8")
    anchors = [line for line in text.splitlines() if line.strip().startswith("anchor: ")]
    assert anchors, "the matter has anchors"
    # Seed: a non-canonical anchor and a re-spelt required citation.
    first = anchors[0]
    seeded_anchor = first.replace(" §", " § ", 1)
    document, _, token = first.split('"')[1].partition(" §")
    respelt = f"{document.upper()} §{token}."
    seeded = text.replace(first, seeded_anchor, 1)
    citation_at = seeded.index(f'"{document} §{token}"', seeded.index(seeded_anchor) + len(seeded_anchor))
    seeded = seeded[:citation_at] + f'"{respelt}"' + seeded[citation_at + len(f'"{document} §{token}"') :]
    rubric.write_text(seeded, encoding="utf-8")

    config = LintSection()
    baseline_codes = sorted(d.code for d in lint_paths([original], config).diagnostics)
    seeded_findings = lint_paths([root], config).diagnostics
    assert {"A005", "A002"} <= {d.code for d in seeded_findings}
    # The matter's own trajectories cite the canonical anchor: fixing it moves their
    # scores, so the proof downgrades it and --fix alone leaves the anchor as it is.
    # (The citation alone moves nothing while the anchor is broken: it is fixed.)
    anchor_fix = next(d.fix for d in seeded_findings if d.code == "A005")
    assert anchor_fix is not None and not anchor_fix.safe and anchor_fix.downgraded
    fix_paths([root], config)
    assert seeded_anchor in rubric.read_text(encoding="utf-8")

    fix_paths([root], config, unsafe=True)
    assert rubric.read_bytes() == (original / "rubric.yaml").read_bytes()
    assert sorted(d.code for d in lint_paths([root], config).diagnostics) == baseline_codes
    trajectories = trajectory_files(root)
    assert trajectories
    assert _scores(root, trajectories) == _scores(
        original, [corpus / "trajectories" / matter_id / p.name for p in trajectories]
    )
