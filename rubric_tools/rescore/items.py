"""From archive records to work items: each record's matter folders, resolved once."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from rubric_tools.diagnostics import Diagnostic
from rubric_tools.loading.layout import child_matters
from rubric_tools.rescore.archive import Item, archive_files
from rubric_tools.rescore.bases import BaseMatters, current_matter, matter_digest
from rubric_tools.rescore.codes import RESCORE_MATTER_NOT_FOUND
from rubric_tools.rescore.records import ArchiveRecord, RawEpisode, RawFile, record_problem
from rubric_tools.rescore.worker import WorkItem


def _not_found(record: ArchiveRecord) -> Diagnostic:
    source = record.source
    what = f"matter {record.matter_id!r}" if record.matter_id else "this trajectory's matter"
    return record_problem(
        source.file,
        source.line or 1,
        RESCORE_MATTER_NOT_FOUND,
        f"cannot find {what}",
        "pass --matters DIR (a folder of matter folders)",
    )


def work_items(
    records: Iterable[Item | RawEpisode | RawFile], matters: Path | None, bases: BaseMatters, generation: str = ""
) -> Iterator[WorkItem | RawEpisode | RawFile | Diagnostic]:
    """Every record with its current and base matter folders, or why it cannot be scored.
    Unparsed episodes pass through: the worker that parses them finds their matter."""
    found: dict[tuple[str | None, str], Path | None] = {}
    for record in records:
        if isinstance(record, Diagnostic | RawEpisode | RawFile):
            yield record
            continue
        hint_folder = str(Path(record.matter_hint).parent) if record.matter_hint else ""
        key = (record.matter_id, hint_folder)
        if key not in found:
            found[key] = current_matter(record, matters)
        root = found[key]
        if root is None:
            yield _not_found(record)
            continue
        base_root = bases.folder(root) if bases.enabled else None
        base = str(base_root) if base_root is not None else None
        yield WorkItem(record, str(root), base, bases.enabled, generation)


def _hash_file(path: Path, digest: hashlib._Hash) -> None:
    with path.open("rb") as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)


def matters_digest(matters: Path) -> str:
    """The digest of every matter in a folder of matters (or of the one matter it is)."""
    digest = hashlib.sha256()
    folders = child_matters(matters)
    for folder in folders:
        digest.update(folder.name.encode() + b"\0" + matter_digest(folder).encode())
    return digest.hexdigest()


def run_key(archives: list[Path], matters: Path, base: str, version: str) -> str:
    """What a checkpoint is valid for: the input's bytes, the rubric's and the base's digests."""
    digest = hashlib.sha256(f"rescore\0{version}\0{base}\0{matters_digest(matters)}\0".encode())
    for entry in archive_files(archives):
        if isinstance(entry, Path):
            digest.update(str(entry).encode() + b"\0")
            _hash_file(entry, digest)
    return digest.hexdigest()
