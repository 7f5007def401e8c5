"""Baselines: record today's findings, then report only new ones.

An entry identifies a finding without its line number, so unrelated edits above it do
not un-baseline it: by rule code, file (relative to the baseline file's folder) and
the YAML path of the node it points at, where list items that have an `id` are named
by it (`issues[id=data_training].anchor`), so inserting an issue does not shift the
others. A finding in a Markdown document is keyed by its section token and a
fingerprint of its line's text instead. Each entry carries a count: three identical
keys are three findings, and a fourth one is new. Entries that no longer match a
finding are stale: reported (X201), and dropped by `--prune-baseline`.

The file format is described by `schemas/lint-baseline.schema.json`.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rubric_tools.diagnostics import Diagnostic, InstancePath, Span
from rubric_tools.internal_codes import RULE_CRASHED
from rubric_tools.lint.fix_codes import INVALID_BASELINE, STALE_BASELINE_ENTRY
from rubric_tools.loading import files
from rubric_tools.loading.yaml_source import YamlSource, load_yaml
from rubric_tools.scoring.sections import editor_lines

BASELINE_VERSION = 1
STALE_CODE = STALE_BASELINE_ENTRY.code
INTERNAL_CODES = (RULE_CRASHED.code,)  # a crash is never baselined
_HEADING = re.compile(r"^#{1,6}\s+(?P<title>.*)$")


class BaselineError(Exception):
    """A baseline file that cannot be read or does not have the documented format."""


@dataclass(frozen=True)
class Key:
    code: str
    file: str
    path: str | None = None  # YAML findings
    section: str | None = None  # document findings
    fingerprint: str | None = None

    def data(self) -> dict[str, Any]:
        item: dict[str, Any] = {"code": self.code, "file": self.file}
        if self.section is not None or self.fingerprint is not None:
            item.update(section=self.section, fingerprint=self.fingerprint)
        else:
            item["path"] = self.path
        return item


@dataclass(frozen=True)
class Entry:
    key: Key
    count: int
    message: str = ""
    line: int | None = None  # where it is written in the baseline file


# --------------------------------------------------------------------------- keys
def _render_path(data: Any, path: Sequence[str | int]) -> str:
    parts: list[str] = []
    for part in path:
        if isinstance(part, int) and isinstance(data, list) and 0 <= part < len(data):
            item = data[part]
            item_id = item.get("id") if isinstance(item, dict) else None
            parts.append(f"[id={item_id}]" if isinstance(item_id, str | int) and item_id != "" else f"[{part}]")
            data = item
        else:
            parts.append(("." if parts else "") + str(part))
            data = data.get(part) if isinstance(data, dict) else None
    return "".join(parts)


Point = tuple[int, int]
NodeStarts = dict[Point, InstancePath]


def node_starts(source: YamlSource) -> NodeStarts:
    """Where each node (key or value) starts → the deepest path starting there."""
    starts: NodeStarts = {}
    for path, position in source.positions.items():
        for span in (position.value, position.key):
            if span is not None:
                point = (span.line, span.column)
                if len(path) >= len(starts.get(point, ())):
                    starts[point] = path
    return starts


def yaml_path_at(source: YamlSource, span: Span | None, starts: NodeStarts | None = None) -> str:
    """The YAML path of the deepest node (key or value) that starts where `span` starts,
    else of the deepest node containing that point; "" for the document itself."""
    if span is None or source.data is None:
        return ""
    point = (span.line, span.column)
    chosen = (starts if starts is not None else node_starts(source)).get(point)
    if chosen is None:  # rare: a finding inside a node; a scan is fine
        for path, position in source.positions.items():
            value = position.value
            inside = (value.line, value.column) <= point < (value.end_line, value.end_column)
            if inside and (chosen is None or len(path) > len(chosen)):
                chosen = path
    return _render_path(source.data, [p for p in chosen if p != "<key>"]) if chosen else ""


def _sections(lines: list[str]) -> list[str]:
    """The section token each line lies in (the heading above it; "" before the first),
    computed in one pass so that many findings in one document cost linear time."""
    found, section = [], ""
    for text in lines:
        heading = _HEADING.match(text)
        if heading:
            title = heading.group("title").split()
            section = title[0].rstrip(".") if title else ""
        found.append(section)
    return found


def _fingerprint(lines: list[str], line: int) -> str:
    text = " ".join(lines[line - 1].split()) if 0 < line <= len(lines) else ""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class KeyMaker:
    """Computes finding keys, reading each file once."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self._yaml: dict[Path, tuple[YamlSource, NodeStarts]] = {}
        self._lines: dict[Path, list[str]] = {}
        self._sections: dict[Path, list[str]] = {}

    def relative(self, path: Path) -> str:
        return Path(os.path.relpath(path.absolute(), self.base.absolute())).as_posix()

    def key(self, diagnostic: Diagnostic) -> Key:
        path = diagnostic.file
        file = self.relative(path)
        if path.suffix.lower() in (".yaml", ".yml"):
            if path not in self._yaml:
                source = load_yaml(path)
                self._yaml[path] = (source, node_starts(source))
            source, starts = self._yaml[path]
            return Key(diagnostic.code, file, path=yaml_path_at(source, diagnostic.span, starts))
        if path not in self._lines:
            # Under the file-system policy: a finding may sit on a FIFO, which must never be opened.
            content = files.read_regular_file(path, files.MAX_DOCUMENT_BYTES)
            text = "" if isinstance(content, files.Refused) else content.decode("utf-8", errors="replace")
            self._lines[path] = editor_lines(text.removeprefix("\ufeff"))
            self._sections[path] = _sections(self._lines[path])
        lines, sections = self._lines[path], self._sections[path]
        section = sections[min(diagnostic.line, len(sections)) - 1] if sections else ""
        return Key(diagnostic.code, file, section=section, fingerprint=_fingerprint(lines, diagnostic.line))


# --------------------------------------------------------------------------- file
def render_baseline(entries: Sequence[Entry]) -> str:
    """The baseline file: one entry per line, so diffs and stale reports point at lines."""
    rows = []
    for entry in sorted(entries, key=lambda e: (e.key.file, e.key.code, json.dumps(e.key.data()))):
        item = {**entry.key.data(), "count": entry.count, "message": entry.message}
        rows.append("    " + json.dumps(item, ensure_ascii=False, sort_keys=False))
    body = ",\n".join(rows)
    return (
        "{\n"
        f'  "version": {BASELINE_VERSION},\n'
        '  "tool": "rubric-tools",\n'
        '  "entries": [\n' + (body + "\n" if body else "") + "  ]\n}\n"
    )


def _entry(item: Any, line: int | None) -> Entry:
    if not isinstance(item, dict) or not isinstance(item.get("code"), str) or not isinstance(item.get("file"), str):
        raise BaselineError("every entry needs a string `code` and `file`")
    count = item.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise BaselineError(f"entry count must be a positive integer, got {count!r}")
    for name in ("path", "section", "fingerprint", "message"):
        if item.get(name) is not None and not isinstance(item[name], str):
            raise BaselineError(f"entry `{name}` must be a string")
    key = Key(item["code"], item["file"], item.get("path"), item.get("section"), item.get("fingerprint"))
    if key.path is None and key.section is None and key.fingerprint is None:
        key = Key(key.code, key.file, path="")
    return Entry(key, count, str(item.get("message") or ""), line)


def read_baseline(path: Path) -> list[Entry]:
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise BaselineError(f"cannot read baseline {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise BaselineError(f"baseline {path} is not UTF-8") from exc
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise BaselineError(f"baseline {path} is not valid JSON: {exc}") from exc
    if (
        not isinstance(data, dict)
        or data.get("version") != BASELINE_VERSION
        or not isinstance(data.get("entries"), list)
    ):
        raise BaselineError(f"baseline {path} is not a version {BASELINE_VERSION} rubric-tools baseline")
    lines = text.split("\n")
    entries = []
    for item in data["entries"]:
        needle = json.dumps(item.get("code")) if isinstance(item, dict) else None
        line = None
        if needle is not None and isinstance(item, dict):
            marker = json.dumps(item.get("path") or item.get("fingerprint") or "", ensure_ascii=False)
            line = next((n for n, t in enumerate(lines, 1) if needle in t and marker in t), None)
        try:
            entries.append(_entry(item, line))
        except BaselineError as exc:
            raise BaselineError(f"baseline {path}: {exc}") from exc
    return entries


# --------------------------------------------------------------------------- use
def record(diagnostics: Sequence[Diagnostic], base: Path) -> list[Entry]:
    """Baseline entries for today's findings."""
    maker = KeyMaker(base)
    counts: Counter[Key] = Counter()
    messages: dict[Key, str] = {}
    for diagnostic in diagnostics:
        if diagnostic.code in INTERNAL_CODES or diagnostic.code == STALE_CODE:
            continue
        key = maker.key(diagnostic)
        counts[key] += 1
        messages.setdefault(key, diagnostic.message)
    return [Entry(key, count, messages[key]) for key, count in counts.items()]


@dataclass
class Filtered:
    new: list[Diagnostic]
    baselined: int
    stale: list[tuple[Entry, int]]  # entry, how many of its findings are gone
    matched: list[Entry]  # entries pruned to what still matches


def apply_baseline(diagnostics: Sequence[Diagnostic], entries: Sequence[Entry], base: Path) -> Filtered:
    maker = KeyMaker(base)
    allowance: Counter[Key] = Counter()
    for entry in entries:
        allowance[entry.key] += entry.count
    remaining = Counter(allowance)
    new: list[Diagnostic] = []
    baselined = 0
    for diagnostic in diagnostics:
        key = maker.key(diagnostic) if diagnostic.code not in INTERNAL_CODES else None
        if key is not None and remaining[key] > 0:
            remaining[key] -= 1
            baselined += 1
        else:
            new.append(diagnostic)
    stale, matched = [], []
    for entry in entries:
        gone = min(entry.count, remaining[entry.key])
        remaining[entry.key] -= gone
        if gone:
            stale.append((entry, gone))
        if entry.count - gone:
            matched.append(Entry(entry.key, entry.count - gone, entry.message))
    return Filtered(new, baselined, stale, matched)


def stale_diagnostics(path: Path, stale: Sequence[tuple[Entry, int]]) -> list[Diagnostic]:
    found = []
    for entry, gone in stale:
        where = entry.key.path if entry.key.path is not None else f"§{entry.key.section}"
        found.append(
            Diagnostic.of(
                STALE_BASELINE_ENTRY,
                message=f"baseline entry {entry.key.code} at {entry.key.file} {where or '(file)'} matches "
                f"{'no finding' if gone == entry.count else f'{gone} fewer finding(s)'} any more",
                file=path,
                span=Span.point(entry.line, 1) if entry.line else None,
                fix_hint="run `rubric lint --baseline FILE --prune-baseline` to drop stale entries",
            )
        )
    return found


def configured_baseline(config_source: Path | None, setting: str | None) -> Path | None:
    """The baseline file named by a configuration's `baseline` (relative to its file)."""
    if setting is None:
        return None
    path = Path(setting)
    return path if path.is_absolute() or config_source is None else config_source.parent / path


def hide_baselined(diagnostics: list[Diagnostic], path: Path) -> list[Diagnostic]:
    """`diagnostics` without the baselined ones (for `rubric check`, which gates only new
    findings like `rubric lint` does); a broken baseline file becomes a finding itself."""
    try:
        entries = read_baseline(path)
    except BaselineError as error:
        return [
            *diagnostics,
            Diagnostic.of(
                INVALID_BASELINE,
                message=str(error),
                file=path,
                fix_hint="fix the file, or write it again with `rubric lint --write-baseline FILE`",
            ),
        ]
    return apply_baseline(diagnostics, entries, path.parent).new
