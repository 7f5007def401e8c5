"""The matter loader: positions kept, hostile input reported, never raised."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rubric_tools
from rubric_tools.loading.yaml_source import MAX_EXPANDED_NODES, load_yaml

BASE = Path(__file__).parent / "rule_cases" / "_base"


@pytest.fixture
def matter_dir(tmp_path: Path) -> Path:
    root = tmp_path / "matter"
    shutil.copytree(BASE, root)
    return root


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def codes(source: rubric_tools.MatterSource) -> list[str]:
    return [d.code for d in source.diagnostics]


def test_base_matter_loads_into_typed_models() -> None:
    source = rubric_tools.load_matter(BASE)
    assert source.ok and source.diagnostics == []
    matter = source.matter
    assert matter.matter_id == "base_fixture"
    assert matter.constraints.maximum_steps == 20
    assert matter.rubric.issues[0].anchor == "hosting §3.1"
    assert matter.rubric.issues[0].base_points == 1.0  # engine default
    assert matter.rubric.final_submission.minimum_characters == 80
    assert set(matter.documents["hosting"].sections) == {"full", "3.1", "4"}
    assert matter.positions["uptime_credit"].accept_concepts == (("service credit",),)
    with pytest.raises(AttributeError):
        matter.matter_id = "changed"  # type: ignore[misc]


def test_positions_of_keys_and_values_are_kept() -> None:
    source = rubric_tools.load_matter(BASE).files["rubric.yaml"]
    value = source.span(("issues", 0, "anchor"))
    key = source.span(("issues", 0, "anchor"), key=True)
    assert value is not None and key is not None
    assert (key.line, key.column) == (value.line, 5)
    assert source.lines[value.line - 1][value.column - 1 :].startswith('"hosting §3.1"')


def test_syntax_error_is_a_positioned_diagnostic(tmp_path: Path) -> None:
    source = load_yaml(write(tmp_path / "x.yaml", "a: 1\nb: [unclosed\nc: 2\n"))
    assert source.data is None
    (problem,) = source.diagnostics
    assert problem.code == "L001" and problem.span is not None and problem.span.line >= 2


def test_duplicate_keys_are_all_reported_and_the_last_wins(tmp_path: Path) -> None:
    source = load_yaml(write(tmp_path / "x.yaml", "a: 1\nb: 2\na: 3\na: 4\n"))
    assert source.data == {"a": 4, "b": 2}
    assert [(d.code, d.span.line) for d in source.diagnostics] == [("L002", 3), ("L002", 4)]


def test_tags_never_construct_objects(tmp_path: Path) -> None:
    text = "a: !!python/object/apply:os.system ['echo hacked']\nb: !custom 5\n"
    source = load_yaml(write(tmp_path / "x.yaml", text))
    assert source.data == {"a": ["echo hacked"], "b": "5"}


def test_alias_bomb_is_bounded(tmp_path: Path) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]
    source = load_yaml(write(tmp_path / "bomb.yaml", "\n".join(lines) + "\n"))
    assert source.data is None
    assert [d.code for d in source.diagnostics] == ["L006"]
    assert str(MAX_EXPANDED_NODES // 1000) in source.diagnostics[0].message.replace(",", "")


def test_recursive_alias_is_reported(tmp_path: Path) -> None:
    source = load_yaml(write(tmp_path / "loop.yaml", "a: &x [1, *x]\n"))
    assert [d.code for d in source.diagnostics] == ["L006"]


def test_non_utf8_and_missing_files(matter_dir: Path) -> None:
    (matter_dir / "hidden_facts.yaml").write_bytes(b"client_answers:\n  q: caf\xe9\n")
    (matter_dir / "counterparty.yaml").unlink()
    (matter_dir / "rubric.yaml").unlink()
    source = rubric_tools.load_matter(matter_dir)
    assert sorted(codes(source)) == ["L004", "L005"]
    non_utf8 = next(d for d in source.diagnostics if d.code == "L004")
    assert (non_utf8.span.line, non_utf8.span.column) == (2, 9)
    assert source.matter.rubric.issues == ()  # still a usable (empty) model


def test_document_paths_outside_the_matter_are_refused(matter_dir: Path, tmp_path: Path) -> None:
    secret = write(tmp_path / "secret.md", "## 1 Secret\nkeys\n")
    (matter_dir / "documents" / "link.md").symlink_to(secret)
    text = (matter_dir / "matter.yaml").read_text(encoding="utf-8")
    text = text.replace("path: documents/guide.md", "path: documents/link.md")
    text = text.replace("path: documents/hosting.md", "path: ../secret.md")
    write(matter_dir / "matter.yaml", text)
    source = rubric_tools.load_matter(matter_dir)
    assert codes(source) == ["D002", "D002"]
    assert source.matter.documents == {}
    assert source.diagnostics[0].span.line == 17  # the path value of the first document


def test_missing_document_and_wrong_types_do_not_raise(matter_dir: Path) -> None:
    text = (matter_dir / "matter.yaml").read_text(encoding="utf-8").replace("documents/guide.md", "nope.md")
    write(matter_dir / "matter.yaml", text.replace("maximum_steps: 20", "maximum_steps: many"))
    write(matter_dir / "rubric.yaml", "issues:\n  - 5\n  - {id: x, base_points: lots, anchor: 3}\n")
    source = rubric_tools.load_matter(matter_dir)
    assert codes(source) == ["D001"]
    assert source.matter.constraints.maximum_steps == 30
    (issue,) = source.matter.rubric.issues
    assert issue.base_points == 1.0 and issue.anchor == "3"


def test_folded_scalars_fold_like_the_engine(tmp_path: Path) -> None:
    source = load_yaml(write(tmp_path / "f.yaml", "t: >-\n  one\n  two\n\n  three\n"))
    assert source.data == {"t": "one two\nthree"}
