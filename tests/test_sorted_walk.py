"""The streamed folder walk yields exactly what listing everything and sorting did."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from rubric_tools.loading.layout import DISK

#: Names whose order differs between paths as text and paths part by part ("a-b" sorts
#: before "a/…" as text, after "a" as a part), with a dot, a capital, non-ASCII and a space.
NAMES = ("a", "a-b", "a.jsonl", "a0", "b", "b.jsonl", "B", "b-c.jsonl", "é.jsonl", "x y.jsonl", "z", "_")


def _tree(root: Path, seed: int) -> None:
    rng = random.Random(seed)

    def fill(folder: Path, depth: int) -> None:
        for name in rng.sample(NAMES, 7):
            if depth < 3 and rng.random() < 0.4:
                (folder / name).mkdir()
                fill(folder / name, depth + 1)
            else:
                (folder / name).write_text("x", encoding="utf-8")

    root.mkdir()
    fill(root, 0)
    folders = sorted(p for p in root.rglob("*") if p.is_dir())
    (root / "link-to-folder").symlink_to(folders[0], target_is_directory=True)
    (root / "dangling.jsonl").symlink_to(root / "nowhere")
    files = sorted(p for p in root.rglob("*") if p.is_file())
    (root / "link-to-file.jsonl").symlink_to(files[0])


@pytest.mark.parametrize("seed", range(5))
def test_text_order_is_sorted_os_walk(tmp_path: Path, seed: int) -> None:
    root = tmp_path / "t"
    _tree(root, seed)
    listed = [os.path.join(parent, name) for parent, _, files in os.walk(root) for name in files]
    assert list(DISK.sorted_files(root, lambda folder, name: True)) == sorted(listed)


@pytest.mark.parametrize("seed", range(5))
def test_parts_order_is_sorted_rglob(tmp_path: Path, seed: int) -> None:
    root = tmp_path / "t"
    _tree(root, seed)

    def is_file(folder: tuple[str, ...], name: str) -> bool:
        return os.path.isfile(os.path.join(root, *folder, name))

    walked = [Path(path) for path in DISK.sorted_files(root, is_file, order="parts")]
    assert walked == sorted(p for p in root.rglob("*") if p.is_file())


def test_the_filter_sees_the_folder_below_the_top(tmp_path: Path) -> None:
    (tmp_path / "trajectories" / "m").mkdir(parents=True)
    (tmp_path / "trajectories" / "m" / "t.yaml").write_text("[]", encoding="utf-8")
    seen: list[tuple[tuple[str, ...], str]] = []
    list(DISK.sorted_files(tmp_path, lambda folder, name: seen.append((folder, name)) is None))
    assert seen == [(("trajectories", "m"), "t.yaml")]


def test_an_unreadable_or_missing_folder_yields_nothing(tmp_path: Path) -> None:
    assert list(DISK.sorted_files(tmp_path / "missing", lambda folder, name: True)) == []
