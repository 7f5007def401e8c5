"""Helpers shared by the lint reporters: paths, the summary line, source snippets.

Reporters only present a LintReport; nothing here decides what is wrong.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from rubric_tools.diagnostics import Severity, Span
from rubric_tools.loading.files import MAX_DOCUMENT_BYTES, Refused, read_regular_file

if TYPE_CHECKING:  # a type only: the audit's reporters use these helpers without lint's engine
    from rubric_tools.lint.engine import LintReport

# rich is imported where a report is laid out: a clean report (a warm `rubric lint` of an
# unchanged matter) is printed without it, see `clean_summary`.

# YAML positions count YAML's line breaks; documents' positions are editor lines.
_YAML_SUFFIXES = (".yaml", ".yml")
#: Longer source lines are shown as a window around the span, not in full.
MAX_SNIPPET_CHARS = 160
_WINDOW_MARGIN = 60
_TAB = "    "


def display_path(path: Path, cwd: Path | None = None) -> str:
    """`path` relative to `cwd` when it lies under it, else absolute (POSIX separators)."""
    return _display_path(path, (cwd or Path.cwd()).absolute())


@lru_cache(maxsize=4096)
def _display_path(path: Path, cwd: Path) -> str:
    """Cached: every finding of a file shows the same path."""
    absolute = path if path.is_absolute() else cwd / path
    absolute = Path(os.path.normpath(absolute))
    try:
        return absolute.relative_to(cwd).as_posix()
    except ValueError:
        try:
            return absolute.resolve().relative_to(cwd.resolve()).as_posix()
        except (ValueError, OSError):
            return absolute.as_posix()


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary_line(report: LintReport) -> str:
    """`Found 3 errors, 1 warning in 2 of 12 matters.` or `All checks passed (12 matters).`"""
    total_matters = len(report.matters)
    if total_matters == 0:
        return "No matters were checked."
    counts = [
        _plural(report.count(severity), severity.value)
        for severity in (Severity.ERROR, Severity.WARNING, Severity.INFO)
        if report.count(severity)
    ]
    if not counts:
        return f"All checks passed ({_plural(total_matters, 'matter')})."
    flagged = sum(1 for matter in report.matters if matter.diagnostics)
    of_total = f"{flagged} of {total_matters} matter{'' if total_matters == 1 else 's'}"
    line = f"Found {', '.join(counts)} in {of_total}."
    if not report.failed:
        # Say why the run still passes, so a green exit with findings is not a surprise.
        line += f" None is at or above the fail level ({report.fail_level.value})."
    return line


def fixable_line(report: LintReport) -> str:
    """ruff's `[*] 2 fixable with the `--fix` option (1 hidden fix ...)`, plus what --fix
    and the baseline did; empty when there is nothing to say."""
    safe = sum(1 for d in report.diagnostics if d.fix is not None and d.fix.safe)
    unsafe = sum(1 for d in report.diagnostics if d.fix is not None and not d.fix.safe)
    parts = []
    if report.fixed:
        parts.append(f"Fixed {_plural(report.fixed, 'finding')}.")
    if report.unsafe_fixes and safe + unsafe:
        parts.append(f"[*] {safe + unsafe} fixable with `rubric lint --fix --unsafe-fixes`.")
        unsafe = 0
    elif safe:
        parts.append(f"[*] {safe} fixable with `rubric lint --fix`.")
    if unsafe:
        parts.append(f"{unsafe} more fix{'' if unsafe == 1 else 'es'} available with `--fix --unsafe-fixes`.")
    if report.baselined:
        parts.append(f"{_plural(report.baselined, 'finding')} hidden by the baseline.")
    return " ".join(parts)


def clean_summary(report: LintReport) -> str:
    """What the `full` and `concise` formats print without colour for a report without
    findings (the summary line and what `--fix` and the baseline did), without rich."""
    assert not report.diagnostics
    return "".join(f"{line}\n" for line in (summary_line(report), fixable_line(report)) if line)


# --------------------------------------------------------------------------- source lines
class SourceLines:
    """Lines of the files that diagnostics point into, read once each, never raising."""

    def __init__(self) -> None:
        self._cache: dict[Path, list[str] | None] = {}

    def lines(self, path: Path) -> list[str] | None:
        if path not in self._cache:
            self._cache[path] = _read_lines(path)
        return self._cache[path]


def _read_lines(path: Path) -> list[str] | None:
    # The file-system policy applies here too: a finding may sit on a FIFO, a device or
    # a symlink leading out of the matter, which must show no snippet, never be read.
    try:
        if path.is_symlink():
            return None
    except (OSError, ValueError):
        return None
    raw = read_regular_file(path, MAX_DOCUMENT_BYTES)
    if isinstance(raw, Refused):
        return None
    # Undecodable bytes show as U+FFFD; one character each, like the loader counts them.
    text = raw.decode("utf-8", errors="replace").removeprefix("\ufeff")
    # Imported here: a report without findings (a warm, clean lint) never reads a line.
    from rubric_tools.loading.lines import yaml_lines
    from rubric_tools.scoring.sections import editor_lines

    if path.suffix.lower() in _YAML_SUFFIXES:
        return yaml_lines(text)
    return editor_lines(text)


#: Tabs as spaces, C0 controls as their Control Pictures (U+2400-), DEL and C1 as U+FFFD.
_PRINTABLE = {
    **{code: chr(0x2400 + code) for code in range(0x20)},
    ord("\t"): _TAB,
    0x7F: "\ufffd",
    **{code: "\ufffd" for code in range(0x80, 0xA0)},
}


def printable(text: str) -> str:
    """Tabs as spaces and control characters as their visible symbols, so that a
    snippet can neither reflow nor drive the terminal, and carets stay aligned.
    (One `str.translate`: a report of 20,000 findings calls this 120,000 times.)"""
    if text.isascii() and text.isprintable():
        return text
    return text.translate(_PRINTABLE)


@dataclass(frozen=True)
class Snippet:
    """One source line ready to print, with where the carets go (in terminal cells)."""

    line_number: int
    text: str
    caret_start: int
    caret_width: int


def make_snippet(lines: list[str] | None, span: Span | None) -> Snippet | None:
    """The first line of `span` with caret positions; carets run to the end of the line
    for a multi-line span, and are at least one wide (also for an empty span)."""
    from rich.cells import cell_len

    if lines is None or span is None or not 1 <= span.line <= len(lines):
        return None
    text = lines[span.line - 1]
    start = min(max(span.column - 1, 0), len(text))
    end = span.end_column - 1 if span.end_line == span.line else len(text)
    end = min(max(end, start), len(text))
    prefix = ""
    if len(text) > MAX_SNIPPET_CHARS:
        window_start = max(0, start - _WINDOW_MARGIN)
        window_end = min(len(text), max(end, start + 1) + _WINDOW_MARGIN)
        prefix = "…" if window_start > 0 else ""
        suffix = "…" if window_end < len(text) else ""
        text, start, end = (
            text[window_start:window_end] + suffix,
            start - window_start,
            end - window_start,
        )
    before = prefix + printable(text[:start])
    marked = printable(text[start:end])
    return Snippet(
        line_number=span.line,
        text=before + printable(text[start:]),
        caret_start=cell_len(before),
        caret_width=max(1, cell_len(marked)),
    )
