"""The file-system policy: hostile matter folders are diagnosed, never read, hung on or crashed on."""

from __future__ import annotations

import os
import shutil
import threading
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import rubric_tools
from rubric_tools.config.lint import LintSection
from rubric_tools.lint import find_rule, lint_paths, lint_source, result_cache
from rubric_tools.loading import files, load_matter_source
from rubric_tools.loading import matter as matter_module

BASE = Path(__file__).parent / "rule_cases" / "_base"
#: Generous: each call below takes milliseconds; only a hang would reach it.
HANG_SECONDS = 20


@pytest.fixture
def matter_dir(tmp_path: Path) -> Path:
    root = tmp_path / "matter"
    shutil.copytree(BASE, root)
    return root


def finishes(call: Callable[[], Any]) -> Any:
    """The result of `call`, failing (instead of hanging the suite) if it blocks."""
    result: list[Any] = []
    worker = threading.Thread(target=lambda: result.append(call()), daemon=True)
    worker.start()
    worker.join(HANG_SECONDS)
    assert not worker.is_alive(), "blocked: a FIFO or device was opened"
    return result[0]


def set_document_path(root: Path, path: str) -> None:
    text = (root / "matter.yaml").read_text(encoding="utf-8")
    (root / "matter.yaml").write_text(text.replace("path: documents/guide.md", f"path: {path}"), encoding="utf-8")


def codes(source: rubric_tools.MatterSource) -> list[str]:
    return sorted(d.code for d in source.diagnostics)


@pytest.mark.parametrize("name", ["matter.yaml", "rubric.yaml", "hidden_facts.yaml", "counterparty.yaml"])
def test_a_fifo_matter_file_is_never_opened(matter_dir: Path, name: str, opened: list[str]) -> None:
    (matter_dir / name).unlink()
    os.mkfifo(matter_dir / name)
    source = finishes(lambda: load_matter_source(matter_dir))
    assert "L008" in codes(source)
    assert str(matter_dir / name) not in opened


def test_a_fifo_document_and_a_link_to_one_are_never_opened(matter_dir: Path, opened: list[str]) -> None:
    os.mkfifo(matter_dir / "documents" / "pipe.md")
    set_document_path(matter_dir, "documents/pipe.md")
    source = finishes(lambda: load_matter_source(matter_dir))
    assert codes(source) == ["D007"]
    assert not any(path.endswith("pipe.md") for path in opened)


@pytest.mark.parametrize("target", ["/dev/zero", "/etc/passwd"])
def test_yaml_files_linked_out_of_the_matter_are_refused_unread(
    matter_dir: Path, target: str, opened: list[str]
) -> None:
    (matter_dir / "hidden_facts.yaml").unlink()
    (matter_dir / "hidden_facts.yaml").symlink_to(target)
    source = finishes(lambda: load_matter_source(matter_dir))
    assert codes(source) == ["L007"]
    assert source.files["hidden_facts.yaml"].data is None
    assert target not in opened


@pytest.mark.parametrize("target", ["/dev/zero", "/etc/passwd"])
def test_documents_linked_out_of_the_matter_are_refused_unread(
    matter_dir: Path, target: str, opened: list[str]
) -> None:
    (matter_dir / "documents" / "guide.md").unlink()
    (matter_dir / "documents" / "guide.md").symlink_to(target)
    source = finishes(lambda: load_matter_source(matter_dir))
    assert codes(source) == ["D002"]
    assert "guide" not in source.matter.documents
    assert target not in opened


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("documents/" + "g" * 300 + ".md", "D008"),  # ENAMETOOLONG
        ('"documents/guide\\0.md"', "D008"),  # ValueError: embedded null byte
        ('"documents/guide\\ud800.md"', "D008"),  # UnicodeEncodeError: surrogates not allowed
        ("documents", "D007"),  # a directory
        ("/etc/passwd", "D002"),  # absolute
    ],
)
def test_document_paths_the_os_refuses_are_diagnosed(matter_dir: Path, path: str, code: str) -> None:
    set_document_path(matter_dir, path)
    source = load_matter_source(matter_dir)
    assert codes(source) == [code]
    (diagnostic,) = source.diagnostics
    assert diagnostic.span is not None and diagnostic.span.line == 20  # the path value in matter.yaml
    diagnostic.message.encode("utf-8")  # printable whatever the path holds


def test_the_lint_cli_reports_a_surrogate_path_without_a_traceback(matter_dir: Path) -> None:
    from typer.testing import CliRunner

    from rubric_tools.cli import app

    set_document_path(matter_dir, '"documents/guide\\ud800.md"')
    result = CliRunner().invoke(app, ["lint", str(matter_dir), "--output-format", "concise"])
    assert result.exit_code == 1, result.output
    assert "D008" in result.output and "Traceback" not in result.output


def test_oversized_files_are_refused_by_their_size_alone(matter_dir: Path, opened: list[str]) -> None:
    big = matter_dir / "documents" / "guide.md"
    with big.open("wb") as stream:  # sparse: no disk is spent, the size is what counts
        stream.truncate(files.MAX_DOCUMENT_BYTES + 1)
    opened.clear()
    source = load_matter_source(matter_dir)
    assert codes(source) == ["D009"]
    assert str(big) not in opened


def test_a_file_is_read_whole_whatever_size_it_reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The read asks for the size `fstat` gives (not for the cap: a buffer of 16 MB allocated and
    shrunk per file cost more than reading it): a file longer than it said
    (growing, or a /proc file that reports 0 bytes) is still read to its end, and refused only
    past the cap; one shorter than it said is read as it is."""
    path = tmp_path / "trajectory.jsonl"
    path.write_bytes(b"x" * 5000)
    real_fstat = os.fstat

    def reporting(size: int) -> Callable[[int], Any]:
        def fstat(descriptor: int) -> Any:
            info = real_fstat(descriptor)
            fields = list(info)
            fields[6] = size  # st_size
            return os.stat_result(fields)

        return fstat

    tracemalloc.start()
    assert files.read_regular_file(path, files.MAX_DOCUMENT_BYTES) == b"x" * 5000
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 100_000, "a buffer of the whole cap was allocated for a 5 KB file"
    for reported in (0, 1, 4999, 5000, 5001, 10_000):
        monkeypatch.setattr(os, "fstat", reporting(reported))
        assert files.read_regular_file(path, 5000) == b"x" * 5000
        refused = files.read_regular_file(path, 4999)
        assert isinstance(refused, files.Refused) and refused.reason is files.Refusal.TOO_LARGE


def test_the_result_cache_key_follows_no_link_and_opens_no_fifo(
    matter_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, opened: list[str]
) -> None:
    monkeypatch.setenv("RUBRIC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("RUBRIC_NO_CACHE", raising=False)
    outside = tmp_path / "outside.md"
    outside.write_text("## 1 Secret\nfirst version\n", encoding="utf-8")
    (matter_dir / "documents" / "guide.md").unlink()
    (matter_dir / "documents" / "guide.md").symlink_to(outside)
    os.mkfifo(matter_dir / "documents" / "pipe.md")
    config = LintSection()
    opened.clear()
    first = finishes(lambda: result_cache.matter_key(matter_dir, config))
    assert str(outside) not in opened and not any(path.endswith("pipe.md") for path in opened)
    assert any(path.endswith("hosting.md") for path in opened)  # the recorder does see reads
    outside.write_text("## 1 Secret\nsecond version, same link\n", encoding="utf-8")
    assert finishes(lambda: result_cache.matter_key(matter_dir, config)) == first
    (matter_dir / "documents" / "hosting.md").write_text("## 3.1 Changed\n", encoding="utf-8")
    assert result_cache.matter_key(matter_dir, config) != first  # files inside are still hashed


def test_lint_over_a_hostile_matter_finishes_with_findings(matter_dir: Path) -> None:
    os.mkfifo(matter_dir / "documents" / "pipe.md")
    set_document_path(matter_dir, "documents/pipe.md")
    (matter_dir / "counterparty.yaml").unlink()
    (matter_dir / "counterparty.yaml").symlink_to("/dev/zero")
    report = finishes(lambda: lint_paths([matter_dir], LintSection()))
    assert {"D007", "L007"} <= {d.code for d in report.diagnostics}


def test_duplicate_headings_lint_in_linear_work(matter_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """D006 once split the whole document for every finding (quadratic: 20,000 headings took 55 s)."""
    splits = 0
    real_editor_lines = matter_module.editor_lines

    def counting_editor_lines(text: str) -> list[str]:
        nonlocal splits
        splits += 1
        return real_editor_lines(text)

    monkeypatch.setattr(matter_module, "editor_lines", counting_editor_lines)
    document = "## 3.1 Availability\n" + "## 2 Again\ntext\n" * 20_000
    (matter_dir / "documents" / "guide.md").write_text(document, encoding="utf-8")
    rule = find_rule("D006")
    assert rule is not None
    report = lint_source(load_matter_source(matter_dir), LintSection(), [rule])
    assert len(report.diagnostics) == 19_999
    assert splits == 1  # the document's lines are computed once, not once per finding


def test_symlink_loops_and_broken_links_are_diagnosed_with_the_caches_on(
    matter_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RUBRIC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("RUBRIC_NO_CACHE", raising=False)
    for name, target in (("hidden_facts.yaml", "hidden_facts.yaml"), ("counterparty.yaml", "nowhere.yaml")):
        (matter_dir / name).unlink()
        (matter_dir / name).symlink_to(target)
    (matter_dir / "documents" / "guide.md").unlink()
    (matter_dir / "documents" / "guide.md").symlink_to("guide.md")
    reports = [lint_paths([matter_dir], LintSection()) for _ in range(2)]  # the second one from the cache
    for report in reports:
        assert report.exit_code == 1
        found = sorted((d.code, d.file.name) for d in report.diagnostics if d.code.startswith(("L", "D")))
        assert found == [("L003", "counterparty.yaml"), ("L003", "hidden_facts.yaml"), ("L003", "matter.yaml")]
    assert reports[0].diagnostics == reports[1].diagnostics
