"""Inline suppressions: `# rubric: ignore[A006] -- why` in YAML, `<!-- rubric: ignore[D006]
-- why -->` in Markdown documents, and their `ignore-file[...]` forms.

A suppression written at the end of a line, or alone on the line just above, silences
the listed codes on the YAML node that starts on that line, including everything nested
in it (a comment above `issues:` covers every issue). In a document it covers the line,
or the whole section when that line is a `#` heading. `ignore-file` covers its file.
Codes may be rule codes or rule names, comma-separated. Like ruff's `noqa`, suppressions
are checked themselves: one without a reason (X101), one naming an unknown code (X102),
and one that silenced nothing (X103, whose fix removes it) are findings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rubric_tools.catalogue import declare_rule_code
from rubric_tools.diagnostics import Diagnostic, Severity, Span
from rubric_tools.fixing.fixes import Applicability, Edit, Fix
from rubric_tools.loading.matter import MatterSource
from rubric_tools.loading.yaml_source import YamlSource

_BODY = r"rubric:\s*(?P<kind>ignore-file|ignore)\s*\[(?P<codes>[^\]\n]*)\]"
_YAML_COMMENT = re.compile(r"(?:^|(?<=\s))#\s*" + _BODY + r"(?P<rest>[^\n]*)$")
_HTML_COMMENT = re.compile(r"<!--\s*" + _BODY + r"(?P<rest>.*?)-->")
#: A comment that starts like a suppression; if the grammar does not match it, it is malformed.
_YAML_ATTEMPT = re.compile(r"(?:^|(?<=\s))#\s*rubric\s*:")
_HTML_ATTEMPT = re.compile(r"<!--\s*rubric\s*:")
_REASON = re.compile(r"^\s*(?:--|—|:)\s*(?P<reason>.*?)\s*$")
_HEADING = re.compile(r"^#{1,6}\s")

#: Computed by the engine once every other rule has run; the rule of this code documents it.
UNUSED_SUPPRESSION = declare_rule_code("X103", "unused-suppression", Severity.WARNING)
UNUSED_CODE = UNUSED_SUPPRESSION.code


@dataclass
class Suppression:
    """One suppression comment and what it covers."""

    file: Path
    span: Span  # the comment itself
    kind: str  # "ignore" or "ignore-file"
    codes: tuple[str, ...]  # as written
    reason: str | None
    first_line: int = 1  # the lines it covers (inclusive)
    last_line: int = 0
    own_line: bool = False  # the comment is alone on its line
    used: set[str] = field(default_factory=set)  # codes (as written) that silenced something
    line_text: str = ""

    def covers(self, diagnostic: Diagnostic) -> bool:
        if diagnostic.file != self.file:
            return False
        return self.kind == "ignore-file" or self.first_line <= diagnostic.line <= self.last_line


def _codes(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def _reason(rest: str) -> str | None:
    match = _REASON.match(rest)
    reason = match.group("reason") if match else ""
    return reason or None


def _inside_scalar(source: YamlSource, line: int, column: int) -> bool:
    """Whether line:column lies inside a scalar's text, where a `#` is not a comment.

    Block collections span their children's comment lines too, so a multi-line span
    hides a `#` only when it is a quoted scalar, or a block scalar (`|`, `>`) below its
    indicator line (a comment may follow the indicator)."""
    for position in source.positions.values():
        span = position.value
        if not (span.line, span.column) <= (line, column) < (span.end_line, span.end_column):
            continue
        if span.line == span.end_line:
            return True
        first = source.lines[span.line - 1][span.column - 1 :] if span.line <= len(source.lines) else ""
        if first[:1] in ("'", '"') or (first[:1] in ("|", ">") and line > span.line):
            return True
    return False


def _next_content_line(lines: Sequence[str], after: int, comment: re.Pattern[str] | None) -> int:
    for number in range(after + 1, len(lines) + 1):
        text = lines[number - 1].strip()
        if text and not (comment is not None and text.startswith("#")):
            return number
    return after


def _yaml_region(source: YamlSource, line: int) -> int:
    """The last line of the outermost node that starts on `line` (or `line` itself)."""
    last = line
    best: int | None = None
    for path, position in source.positions.items():
        start = position.key.line if position.key is not None else position.value.line
        if start != line:
            continue
        if best is None or len(path) < best:
            best = len(path)
            span = position.value
            last = span.end_line - 1 if span.end_line > span.line and span.end_column == 1 else span.end_line
    return max(last, line)


def malformed_comments(source: MatterSource) -> list[tuple[Path, Span]]:
    """Comments that start like a suppression (`# rubric:`) but are not one, e.g.
    `# rubric: ignore A006` or `# rubric: noqa[A006]`: they would silence nothing."""
    found: list[tuple[Path, Span]] = []
    for yaml_source in source.files.values():
        for number, text in enumerate(yaml_source.lines, start=1):
            attempt = _YAML_ATTEMPT.search(text)
            if attempt is None or _inside_scalar(yaml_source, number, attempt.start() + 1):
                continue
            if _YAML_COMMENT.search(text) is None:
                found.append((yaml_source.path, Span(number, attempt.start() + 1, number, len(text) + 1)))
    for document in source.documents:
        if document.path is None or document.text is None or "rubric" not in document.text:
            continue  # (splitting a long document into lines is not free)
        for number, text in enumerate(document.lines, start=1):
            attempt = _HTML_ATTEMPT.search(text)
            if attempt is not None and _HTML_COMMENT.search(text) is None:
                found.append((document.path, Span(number, attempt.start() + 1, number, len(text) + 1)))
    return found


def yaml_suppressions(source: YamlSource) -> list[Suppression]:
    found = []
    for number, text in enumerate(source.lines, start=1):
        if "rubric" not in text:
            continue
        match = _YAML_COMMENT.search(text)
        if match is None or _inside_scalar(source, number, match.start() + 1):
            continue
        own_line = not text[: match.start()].strip()
        target = _next_content_line(source.lines, number, _YAML_COMMENT) if own_line else number
        suppression = Suppression(
            source.path,
            Span(number, match.start() + 1, number, len(text) + 1),
            match.group("kind"),
            _codes(match.group("codes")),
            _reason(match.group("rest")),
            own_line=own_line,
            line_text=text,
        )
        suppression.first_line, suppression.last_line = target, _yaml_region(source, target)
        found.append(suppression)
    return found


def markdown_suppressions(path: Path, lines: Sequence[str]) -> list[Suppression]:
    found = []
    in_fence = False
    for number, text in enumerate(lines, start=1):
        if text.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        if in_fence or "rubric:" not in text:
            continue
        for match in _HTML_COMMENT.finditer(text):
            rest = (text[: match.start()] + text[match.end() :]).strip()
            own_line = not rest
            target = _next_content_line(lines, number, None) if own_line else number
            last = target
            if _HEADING.match(lines[target - 1] if target <= len(lines) else ""):
                last = next(
                    (n - 1 for n in range(target + 1, len(lines) + 1) if _HEADING.match(lines[n - 1])), len(lines)
                )
            found.append(
                Suppression(
                    path,
                    Span(number, match.start() + 1, number, match.end() + 1),
                    match.group("kind"),
                    _codes(match.group("codes")),
                    _reason(match.group("rest")),
                    target,
                    last,
                    own_line,
                    line_text=text,
                )
            )
    return found


def matter_suppressions(source: MatterSource) -> list[Suppression]:
    """Every suppression in the matter's YAML files and documents, in file order."""
    found: list[Suppression] = []
    for yaml_source in source.files.values():
        found += yaml_suppressions(yaml_source)
    for document in source.documents:
        if document.path is not None and document.text is not None and "rubric" in document.text:
            found += markdown_suppressions(document.path, document.lines)
    return found


def names_code(written: str, diagnostic: Diagnostic) -> bool:
    return written.upper() == diagnostic.code or written.lower() == diagnostic.name


def apply_suppressions(diagnostics: Iterable[Diagnostic], suppressions: Sequence[Suppression]) -> list[Diagnostic]:
    """The diagnostics no suppression covers; each suppression records which codes it used."""
    kept = []
    for diagnostic in diagnostics:
        silenced = False
        for suppression in suppressions:
            if not suppression.covers(diagnostic):
                continue
            for written in suppression.codes:
                if names_code(written, diagnostic):
                    suppression.used.add(written)
                    silenced = True
        if not silenced:
            kept.append(diagnostic)
    return kept


def _line_break_after(path: Path, line: int) -> str | None:
    """The line break ending `line` of the file as it is on disk (None: last line or unreadable)."""
    from rubric_tools.fixing.apply_fixes import is_yaml, line_starts, read_for_edit

    read = read_for_edit(path)
    if read is None:
        return None
    text = read[0]
    starts = line_starts(text, is_yaml(path))
    if line >= len(starts):
        return None
    ending = re.search("(\r\n|\r|\n|\x85|\u2028|\u2029)$", text[starts[line - 1] : starts[line]])
    return ending.group(1) if ending else None


def removal_fix(suppression: Suppression, unused: Sequence[str]) -> Fix | None:
    """Remove the unused codes; the whole comment (or its line) when none is left."""
    line, text = suppression.span.line, suppression.line_text
    kept = [c for c in suppression.codes if c not in unused]
    if kept:
        bracket = text.find("[", suppression.span.column - 1)
        close = text.find("]", bracket)
        if bracket < 0 or close < 0:
            return None
        span = Span(line, bracket + 2, line, close + 1)
        edit = Edit(suppression.file, span, text[bracket + 1 : close], ", ".join(kept))
        return Fix(f"remove unused {', '.join(unused)}", (edit,), Applicability.SAFE)
    if suppression.own_line:
        brk = _line_break_after(suppression.file, line)
        if brk is not None:
            edit = Edit(suppression.file, Span(line, 1, line + 1, 1), text + brk, "")
        else:
            edit = Edit(suppression.file, Span(line, 1, line, len(text) + 1), text, "")
        return Fix("remove the unused suppression", (edit,), Applicability.SAFE)
    start = suppression.span.column - 1
    while start > 0 and text[start - 1] in " \t":
        start -= 1
    end = suppression.span.end_column - 1
    edit = Edit(suppression.file, Span(line, start + 1, line, end + 1), text[start:end], "")
    return Fix("remove the unused suppression", (edit,), Applicability.SAFE)


def unused_codes(suppression: Suppression, ran: set[str], rule_names: dict[str, str]) -> list[str]:
    """Codes of `suppression` whose rule ran (`ran`: codes) and silenced nothing."""
    unused = []
    for written in suppression.codes:
        code = written.upper() if written.upper() in ran else rule_names.get(written.lower())
        if code is not None and code in ran and code != UNUSED_CODE and written not in suppression.used:
            unused.append(written)
    return unused
