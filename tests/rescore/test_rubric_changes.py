"""A rubric edit moves exactly the trajectories it should, with the right causes."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import rubric_tools
from tests.rescore.support import actions_of, copy_matters, episodes_lines, run, trajectories

NEW_GATE = r"\bopt-in\b"


def _edit(rubric: Path, old: str, new: str) -> None:
    text = rubric.read_text(encoding="utf-8")
    assert old in text
    rubric.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def base_and_current(tmp_path: Path) -> tuple[Path, Path]:
    base = copy_matters(tmp_path / "base")
    current = tmp_path / "current" / "matters"
    shutil.copytree(base, current)
    return base, current


def _texts(actions: list[dict[str, object]]) -> str:
    return json.dumps(actions).lower()


def test_a_widened_gate_flips_the_trajectories_that_say_it_and_no_other(
    base_and_current: tuple[Path, Path], tmp_path: Path
) -> None:
    base, current = base_and_current
    _edit(
        current / "ai_saas_001" / "rubric.yaml",
        "    critical_failure_patterns:\n",
        f"    critical_failure_patterns:\n      - '{NEW_GATE}'\n",
    )
    archive = tmp_path / "episodes.jsonl"
    archive.write_text("\n".join(episodes_lines(base)) + "\n", encoding="utf-8")
    result, rows, problems = run([archive], matters=current, base=base, jobs=1)
    assert problems == []
    by_name = dict(zip((f"{m}/{path.stem}" for m, path in trajectories(base)), rows, strict=True))
    flipped = {name for name, row in by_name.items() if row["critical_flip"] is not None}
    assert "ai_saas_001/reference" in flipped
    for name in flipped:
        flip = by_name[name]["critical_flip"]
        assert flip["direction"] == "gained"
        assert {(c["kind"], c["criterion"], c["surface"], c["pattern"]) for c in flip["causes"]} == {
            ("gate", "data_training", "issue", NEW_GATE)
        }
        assert by_name[name]["current"]["normalized_score"] <= 0.25 < by_name[name]["base"]["normalized_score"]
    for name, row in by_name.items():
        if row["base"]["critical_failure"] or row["matter_id"] != "ai_saas_001":
            assert row["critical_flip"] is None
        matter_actions = actions_of(base / row["matter_id"] / "trajectories" / f"{name.split('/')[1]}.jsonl")
        if not re.search(NEW_GATE, _texts(matter_actions)):
            assert row["changed"] is False, name
    assert result.summary.matters["clean_saas_002"].changed == 0
    assert result.summary.total.gained_critical == len(flipped)


def test_a_removed_concept_pays_those_who_missed_it(base_and_current: tuple[Path, Path], tmp_path: Path) -> None:
    base, current = base_and_current
    _edit(current / "ai_saas_001" / "rubric.yaml", '"opt-in", "perpetual"]', '"opt-in"]')
    reference = actions_of(base / "ai_saas_001" / "trajectories" / "reference.jsonl")
    without_word = [
        {
            key: value.replace("perpetual", "lasting").replace("Perpetual", "Lasting")
            if key in ("title", "analysis") and isinstance(value, str)
            else value
            for key, value in action.items()
        }
        for action in reference
    ]
    archive = tmp_path / "episodes.jsonl"
    archive.write_text(
        "\n".join(json.dumps({"matter_id": "ai_saas_001", "actions": actions}) for actions in (reference, without_word))
        + "\n",
        encoding="utf-8",
    )
    _, rows, problems = run([archive], matters=current, base=base, jobs=1)
    assert problems == []
    concept_points = next(
        i.concept_points
        for i in rubric_tools.load_matter(base / "ai_saas_001").matter.rubric.issues
        if i.id == "data_training"
    )
    assert rows[0]["changed"] is False and rows[0]["issue_changes"] == []
    assert rows[1]["changed"] is True
    [change] = rows[1]["issue_changes"]
    assert (change["type"], change["criterion"]) == ("issue", "data_training")
    assert change["delta"] == pytest.approx(concept_points / 4)  # 3 of 3 concepts now, 3 of 4 before
    assert change["current_points"] - change["base_points"] == pytest.approx(change["delta"])
    assert rows[1]["event_changes"]["added_count"] == rows[1]["event_changes"]["removed_count"] == 1
    assert rows[1]["delta"] > 0


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@e", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def test_base_rev_reads_the_matters_at_a_revision_without_touching_the_work_tree(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    matters = copy_matters(repo)
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "matters")
    _edit(
        matters / "ai_saas_001" / "rubric.yaml",
        "    critical_failure_patterns:\n",
        f"    critical_failure_patterns:\n      - '{NEW_GATE}'\n",
    )
    (matters / "ai_saas_001" / "documents" / "untracked-note.md").write_text("# note\n", encoding="utf-8")
    status_before = _git(repo, "status", "--porcelain")
    archive = [matters / matter_id / "trajectories" for matter_id in ("ai_saas_001", "clean_saas_002")]

    result, rows, problems = run(archive, matters=matters, base_rev="HEAD", jobs=1)
    assert problems == []
    assert _git(repo, "status", "--porcelain") == status_before
    changed = [Path(row["source"]["file"]).stem for row in rows if row["changed"]]
    assert "reference" in changed and all(row["matter_id"] == "ai_saas_001" for row in rows if row["changed"])
    assert all(row["rubric_digest"]["base"] != row["rubric_digest"]["current"] for row in rows if row["changed"])

    _, same_rows, _ = run(archive, matters=matters, base_rev="HEAD", jobs=1)
    assert same_rows == rows
    episodes = tmp_path / "episodes.jsonl"  # parsed by the workers, which get the exported base folders
    episodes.write_text("\n".join(episodes_lines(matters)) + "\n", encoding="utf-8")
    _, pooled, _ = run([episodes], matters=matters, base_rev="HEAD", jobs=2)
    assert [(r["current"], r["base"], r["critical_flip"]) for r in pooled] == [
        (r["current"], r["base"], r["critical_flip"]) for r in rows
    ]
    _, unchanged, _ = run(archive, matters=matters, base=repo / "matters", jobs=1)
    assert not any(row["changed"] for row in unchanged)
    assert result.summary.total.gained_critical == len(changed)


def test_base_rev_that_does_not_exist_is_a_usage_error(tmp_path: Path) -> None:
    from rubric_tools.rescore.bases import BaseError

    repo = tmp_path / "repo"
    repo.mkdir()
    matters = copy_matters(repo)
    _git(repo, "init", "-q")
    for out in (None, tmp_path / "o.jsonl"):
        with pytest.raises(BaseError, match="not a commit"):
            run([matters / "ai_saas_001" / "trajectories"], matters=matters, base_rev="no-such-rev", out=out)


def test_a_matter_missing_from_the_base_is_warned_once_and_compared_with_nothing(
    base_and_current: tuple[Path, Path], tmp_path: Path
) -> None:
    base, current = base_and_current
    shutil.rmtree(base / "clean_saas_002")
    archive = tmp_path / "episodes.jsonl"
    archive.write_text("\n".join(episodes_lines(current)) + "\n", encoding="utf-8")
    for jobs in (1, 2):
        result, rows, problems = run([archive], matters=current, base=base, jobs=jobs)
        assert [(p.code, p.severity.value) for p in problems] == [("R005", "warning")]
        new = [row for row in rows if row["matter_id"] == "clean_saas_002"]
        assert new and all(row["base"] is None and row["base_missing"] for row in new)
        assert all(row["reference"] == "recorded" and row["reproduced"] for row in new)
        assert result.exit_code == 0


def test_a_matter_edited_between_two_runs_in_one_process_is_read_again(
    base_and_current: tuple[Path, Path], tmp_path: Path
) -> None:
    _, current = base_and_current
    archive = tmp_path / "episodes.jsonl"
    archive.write_text("\n".join(episodes_lines(current)) + "\n", encoding="utf-8")
    _, before, _ = run([archive], matters=current, jobs=1)
    _edit(
        current / "ai_saas_001" / "rubric.yaml",
        "    critical_failure_patterns:\n",
        f"    critical_failure_patterns:\n      - '{NEW_GATE}'\n",
    )
    _, after, _ = run([archive], matters=current, jobs=1)
    assert not any(row["changed"] for row in before)
    assert any(row["critical_flip"] for row in after)
    assert before[0]["rubric_digest"]["current"] != after[0]["rubric_digest"]["current"]
