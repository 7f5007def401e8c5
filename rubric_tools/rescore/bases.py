"""Find each record's matter folder under the current matters and under the base.

The base is another folder of matters (`--base DIR`) or the same matters at a git
revision (`--base-rev REV`): read with `git ls-tree` and `git cat-file`, never touching
the work tree, and written into a private temporary folder so that the ordinary loader,
with its file-system checks (symlinks out of the matter and so on), reads it.
"""

from __future__ import annotations

import hashlib
import subprocess
import tempfile
from pathlib import Path

from rubric_tools.loading.layout import folder_named, is_matter, locate_matter, score_shaping_files, search_upwards
from rubric_tools.rescore.records import ArchiveRecord


class BaseError(Exception):
    """The base cannot be used at all (not a folder, not a git revision)."""


def current_matter(record: ArchiveRecord, matters: Path | None) -> Path | None:
    """The record's matter under the current rubric, found as `rubric replay` does
    (or from `--matters DIR` by the archive's folder layout or the record's matter id)."""
    hint = Path(record.matter_hint) if record.matter_hint else None
    if matters is not None:
        name = record.matter_id or (hint.resolve().parent.name if hint is not None else None)
        found = folder_named(matters, name) if name else None
        if found is not None or record.matter_id is not None:
            return found
    if hint is None:
        return None
    if record.matter_id is None:
        return locate_matter(hint)
    return search_upwards(hint.resolve().parent, record.matter_id)


class BaseMatters:
    """The base matter folder of each current matter folder, cached."""

    def __init__(self, base_dir: Path | None = None, base_rev: str | None = None) -> None:
        self.base_dir = base_dir
        self.base_rev = base_rev
        self._cache: dict[Path, Path | None] = {}
        self.errors: dict[Path, str] = {}  # matter folders whose base could not be read, and why
        self._temp: tempfile.TemporaryDirectory[str] | None = None
        if base_dir is not None and not base_dir.is_dir():
            raise BaseError(f"{base_dir}: --base is not a folder")

    @property
    def enabled(self) -> bool:
        return self.base_dir is not None or self.base_rev is not None

    def close(self) -> None:
        if self._temp is not None:
            self._temp.cleanup()
            self._temp = None

    def folder(self, current: Path) -> Path | None:
        key = current.resolve()
        if key not in self._cache:
            if self.base_dir is not None:
                self._cache[key] = folder_named(self.base_dir, key.name)
            elif self.base_rev is not None:
                try:
                    self._cache[key] = self._export(key, self.base_rev)
                except BaseError as exc:
                    self.errors[key] = str(exc)
                    self._cache[key] = None
            else:
                self._cache[key] = None
        return self._cache[key]

    def _export(self, folder: Path, rev: str) -> Path | None:
        top = Path(_git(folder, "rev-parse", "--show-toplevel").decode().strip())
        commit = resolve_revision(top, rev)
        relative = folder.relative_to(top.resolve())
        if self._temp is None:
            self._temp = tempfile.TemporaryDirectory(prefix="rubric-rescore-base-")
        target = Path(self._temp.name) / commit / relative
        listing = _git(top, "ls-tree", "-r", "-z", "--full-tree", commit, "--", relative.as_posix())
        for entry in filter(None, listing.split(b"\0")):
            meta, _, name = entry.partition(b"\t")
            mode, kind, sha = meta.decode().split()
            if kind != "blob":
                continue  # a submodule: nothing a matter can use
            path = Path(self._temp.name) / commit / name.decode("utf-8", "surrogateescape")
            path.parent.mkdir(parents=True, exist_ok=True)
            content = _git(top, "cat-file", "blob", sha)
            if mode == "120000":  # a symlink: recreate it so the loader's checks apply
                path.symlink_to(content.decode("utf-8", "surrogateescape"))
            else:
                path.write_bytes(content)
        return target if is_matter(target) else None


def resolve_revision(folder: Path, rev: str) -> str:
    """The commit `rev` names in the repository holding `folder` (BaseError if none)."""
    try:
        return _git(folder, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").decode().strip()
    except BaseError as exc:
        raise BaseError(f"{rev!r} is not a commit of the git repository holding {folder}") from exc


def _git(cwd: Path, *args: str) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except OSError as exc:
        raise BaseError(f"cannot run git: {exc.strerror or exc}") from exc
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip() or f"git {args[0]} failed"
        raise BaseError(f"{cwd}: {message}")
    return done.stdout


def matter_digest(folder: Path) -> str:
    """sha256 of every file that shapes the matter's scores (not its trajectories)."""
    digest = hashlib.sha256()
    for relative, path in score_shaping_files(folder):
        digest.update(relative.as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()
