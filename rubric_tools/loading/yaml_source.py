"""Read a YAML file into plain Python data plus the position of every key and value.

The file is parsed as the reference engine reads it: YAML 1.1, through PyYAML (its
libyaml C parser when installed, the pure-Python one otherwise — same results), with
every node's line:column kept. Before parsing, one pass over the parser's events
refuses what the composer could not survive: nesting deeper than MAX_DEPTH (the C
composer recurses and crashes the process on deep nesting), more than MAX_ALIASES
aliases, more than MAX_YAML_CHARS characters. `yaml_convert` then builds plain data
(see there for tags, duplicates and aliases). ruamel.yaml's round-trip loader is not
used for reading; it stays the tool for anything that edits files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.error import MarkedYAMLError, YAMLError
from yaml.events import AliasEvent, CollectionEndEvent, CollectionStartEvent

from rubric_tools.catalogue import RuleCode
from rubric_tools.diagnostics import Diagnostic, Span
from rubric_tools.loading import files, yaml_cache
from rubric_tools.loading.codes import (
    FILE_OUTSIDE_MATTER,
    FILE_TOO_LARGE,
    NON_UTF8_FILE,
    NOT_A_REGULAR_FILE,
    UNREADABLE_FILE,
    YAML_ALIAS_LIMIT,
    YAML_NESTING_LIMIT,
    YAML_SYNTAX,
)
from rubric_tools.loading.lines import yaml_lines
from rubric_tools.loading.yaml11 import Reading, ScalarNote
from rubric_tools.loading.yaml_convert import (
    MAX_EXPANDED_NODES,
    AliasCycle,
    AliasLimit,
    Converter,
    InstancePath,
    NodePosition,
)

__all__ = ["MAX_EXPANDED_NODES", "InstancePath", "NodePosition", "YamlSource", "load_yaml", "parse_yaml_text"]

#: Deepest nesting of collections accepted (real matters nest about six deep).
MAX_DEPTH = 100
#: Most aliases (`*name`) one file may use.
MAX_ALIASES = 10_000
#: Largest YAML text parsed.
MAX_YAML_CHARS = files.MAX_YAML_BYTES

#: PyYAML's pure-Python loader: the reference's `safe_load` itself.
PURE_LOADER: type[Any] = yaml.SafeLoader
#: libyaml when it is installed (same events and marks, an order of magnitude faster), else the pure one.
LOADER: type[Any] = getattr(yaml, "CSafeLoader", None) or PURE_LOADER


@dataclass
class YamlSource:
    """A parsed YAML file: `data` is None when it could not be read or parsed."""

    path: Path
    data: Any = None
    positions: dict[InstancePath, NodePosition] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    readable: bool = True
    notes: list[ScalarNote] = field(default_factory=list)  # scalars YAML 1.2 reads differently

    def span(self, path: InstancePath, *, key: bool = False) -> Span | None:
        """The span of the value (or its key) at `path`, else of its nearest ancestor."""
        probe = tuple(path)
        while True:
            position = self.positions.get(probe)
            if position is not None:
                if key and position.key is not None:
                    return position.key
                return position.value
            if not probe:
                return None
            probe = probe[:-1]


def _limit_diagnostic(path: Path, declared: RuleCode, message: str, span: Span, hint: str) -> Diagnostic:
    return Diagnostic.of(declared, message=message, file=path, span=span, fix_hint=hint)


def _point(mark: Any) -> Span:
    return Span.point(mark.line + 1, mark.column + 1) if mark is not None else Span.point(1, 1)


def _nesting_diagnostic(path: Path, span: Span) -> Diagnostic:
    return _limit_diagnostic(
        path,
        YAML_NESTING_LIMIT,
        f"collections nest more than {MAX_DEPTH} levels deep here",
        span,
        "flatten the data: no matter file needs this much nesting",
    )


_FLOW_BRACKET = re.compile(r"[\[\]{}]")


def _flow_bracket_guard(path: Path, text: str) -> Diagnostic | None:
    """Refuse text whose flow brackets could nest past MAX_DEPTH, in one linear scan.

    PyYAML's pure-Python scanner keeps a possible simple key per open flow level and
    revisits them all for every token, so deep flow nesting costs it quadratic time
    before a single event comes out. Brackets are counted everywhere, quoted or not:
    an over-estimate, so nothing can hide nesting from it.
    """
    depth = 0
    for match in _FLOW_BRACKET.finditer(text):
        if match.group() in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line = text.count("\n", 0, match.start()) + 1
                column = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
                return _nesting_diagnostic(path, Span.point(line, column))
        elif depth:
            depth -= 1
    return None


def _precheck(path: Path, text: str, loader: type[Any]) -> Diagnostic | None:
    """Why `text` must not be composed (too big, too deep, too many aliases), or None.

    The parser is iterative (its stacks live on the heap), so walking its events is
    safe on any input; only composing recurses. libyaml stops at 1,000 nested levels by
    itself; the pure-Python parser is guarded by a linear bracket count first. Other
    syntax errors are left to the composer, which reports them with their position.
    """
    if len(text) > MAX_YAML_CHARS:
        return _limit_diagnostic(
            path,
            FILE_TOO_LARGE,
            f"the file has {len(text):,} characters, over the {MAX_YAML_CHARS:,} limit",
            Span.point(1, 1),
            "split the data or shorten it",
        )
    if loader is PURE_LOADER:
        guarded = _flow_bracket_guard(path, text)
        if guarded is not None:
            return guarded
    depth = aliases = 0
    try:
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    return _nesting_diagnostic(path, _point(event.start_mark))
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
            elif isinstance(event, AliasEvent):
                aliases += 1
                if aliases > MAX_ALIASES:
                    return _limit_diagnostic(
                        path,
                        YAML_ALIAS_LIMIT,
                        f"more than {MAX_ALIASES:,} aliases",
                        _point(event.start_mark),
                        "write the repeated data out, or use fewer aliases",
                    )
    except MarkedYAMLError as exc:
        if "nesting depth" in str(exc.problem):  # libyaml's own limit, met while scanning ahead
            # Point where our limit is crossed, as the pure parser's guard does, not at level 1,000.
            return _flow_bracket_guard(path, text) or _nesting_diagnostic(path, _point(exc.problem_mark))
    except YAMLError:
        pass
    return None


def _syntax_diagnostic(path: Path, exc: YAMLError) -> Diagnostic:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    span = Span.point(mark.line + 1, mark.column + 1) if mark is not None else None
    if isinstance(exc, MarkedYAMLError):
        message = " ".join(part for part in (exc.context, exc.problem) if part)
    else:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return Diagnostic.of(
        YAML_SYNTAX,
        message=f"YAML syntax error: {message or 'cannot parse'}",
        file=path,
        span=span,
        fix_hint="fix the YAML so that it parses; nothing else in this file can be checked",
    )


_REFUSAL_CODES = {
    files.Refusal.OUTSIDE: (FILE_OUTSIDE_MATTER, "replace the symlink with the file itself"),
    files.Refusal.SPECIAL: (NOT_A_REGULAR_FILE, "replace it with a regular file"),
    files.Refusal.TOO_LARGE: (FILE_TOO_LARGE, "shorten the file"),
}


def refusal_diagnostic(path: Path, refused: files.Refused) -> Diagnostic:
    """The load diagnostic for a file the file-system policy refused to read."""
    declared, hint = _REFUSAL_CODES.get(refused.reason, (UNREADABLE_FILE, None))
    return Diagnostic.of(
        declared,
        message=f"{path.name} {refused.detail}",
        file=path,
        span=Span.point(1, 1),
        fix_hint=hint,
    )


def decode_text(path: Path, raw: bytes, *, keep_bom: bool = False) -> tuple[str | None, Diagnostic | None]:
    """Decode UTF-8 bytes read from `path`, or explain (with a position) why they do not decode.

    A leading byte-order mark is removed unless `keep_bom`: YAML keeps it for the parser,
    which skips it exactly where the reference's does (and reads a second one as text)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, Diagnostic.of(
            NON_UTF8_FILE,
            message=f"file is not UTF-8: byte 0x{raw[exc.start]:02x} cannot be decoded",
            file=path,
            span=Span.point(line, column),
            fix_hint="save the file as UTF-8",
        )
    return (text if keep_bom else text.removeprefix("\ufeff")), None


def read_text(
    path: Path,
    root: Path | None = None,
    limit: int = files.MAX_DOCUMENT_BYTES,
    overlay: files.Overlay | None = None,
    *,
    keep_bom: bool = False,
) -> tuple[str | None, Diagnostic | None]:
    """Read a UTF-8 text file under the file-system policy, or explain why it cannot be read.

    With `root`, the file must also resolve inside that folder. An unsaved buffer of it in
    `overlay` is read instead of the disk (`rubric_tools.loading.files`).
    """
    if root is not None:
        raw = files.read_matter_file(path, root, limit, overlay)
    else:
        raw = files.read_file(path, limit, overlay)
    if isinstance(raw, files.Refused):
        return None, refusal_diagnostic(path, raw)
    return decode_text(path, raw, keep_bom=keep_bom)


_FAILED = object()
#: Text on which libyaml and PyYAML's pure-Python scanner (the reference's) disagree, found
#: by `tests/test_yaml_oracle.py`: a tab, a byte-order mark, a block scalar header with a
#: comment and no space (`|#`, which libyaml reads as an empty scalar). A false alarm only
#: costs a slower parse.
_READERS_DISAGREE = re.compile("[\t\ufeff]|[|>][-+0-9]*#")


def _compose(source: YamlSource, text: str, loader: type[Any]) -> Any:
    """The root node of `text` (None when empty), or _FAILED with the reason in `source.diagnostics`."""
    refusal = _precheck(source.path, text, loader)
    if refusal is not None:
        source.diagnostics.append(refusal)
        return _FAILED
    try:
        return yaml.compose(text, Loader=loader)
    except YAMLError as exc:
        source.diagnostics.append(_syntax_diagnostic(source.path, exc))
    except (RecursionError, ValueError) as exc:
        source.diagnostics.append(_syntax_diagnostic(source.path, YAMLError(str(exc) or "too deeply nested")))
    return _FAILED


def _flow_plain_question_mark(text: str, root: Any) -> bool:
    """Whether a plain scalar inside a flow collection holds a "?" (`{pattern: fines?}`):
    libyaml reads it, the reference's scanner stops the scalar there and refuses the file."""
    if root is _FAILED or root is None or "?" not in text or not ("{" in text or "[" in text):
        return False
    stack: list[tuple[Any, bool]] = [(root, False)]
    seen: set[int] = set()
    while stack:
        node, in_flow = stack.pop()
        if isinstance(node, yaml.ScalarNode):
            if in_flow and not node.style and "?" in node.value:
                return True
            continue
        if id(node) in seen:  # an alias: its node is walked once
            continue
        seen.add(id(node))
        flow = in_flow or bool(node.flow_style)
        if isinstance(node, yaml.SequenceNode):
            stack.extend((item, flow) for item in node.value)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.extend(((key, flow), (value, flow)))
    return False


def parse_yaml_text(path: Path, text: str) -> YamlSource:
    """Parse YAML text already read from `path`."""
    source = YamlSource(path=path, lines=yaml_lines(text))
    cached = yaml_cache.restore(text)
    if cached is not None:
        source.data, positions, notes = cached
        source.positions = {p: NodePosition(value, key) for p, (value, key) in positions.items()}
        source.notes = [
            ScalarNote(p, Reading(reading), written, span, is_key) for p, reading, written, span, is_key in notes
        ]
        return source
    # libyaml and PyYAML's own scanner disagree on a few characters: libyaml takes a tab
    # after a plain scalar (`id: q_x<TAB>`) that `safe_load` refuses, and reads a byte-order
    # mark inside the text differently. Text holding one is read by the reference's parser.
    loader = PURE_LOADER if _READERS_DISAGREE.search(text) else LOADER
    node = _compose(source, text, loader)
    libyaml_refused = node is _FAILED and source.diagnostics[-1].code == YAML_SYNTAX.code
    if loader is not PURE_LOADER and (libyaml_refused or _flow_plain_question_mark(text, node)):
        # libyaml refuses text `safe_load` accepts (escapes such as "\ud800", `[a:[b]]`) and
        # accepts text it refuses (`{pattern: fines?}`): the reference's own parser decides.
        source.diagnostics.clear()
        node = _compose(source, text, PURE_LOADER)
    if node is _FAILED:
        source.readable = False
        return source
    if node is None:
        return source
    converter = Converter(source)
    try:
        source.data = converter.convert(node, ())
        source.notes = converter.notes
    except (AliasLimit, RecursionError):
        source.diagnostics.append(
            Diagnostic.of(
                YAML_ALIAS_LIMIT,
                message=f"aliases expand to more than {MAX_EXPANDED_NODES:,} nodes (an alias bomb?)",
                file=path,
                span=Span.point(1, 1),
                fix_hint="write the repeated data out, or use fewer nested aliases",
            )
        )
        source.data = None
        source.readable = False
    except AliasCycle:
        source.diagnostics.append(
            Diagnostic.of(
                YAML_ALIAS_LIMIT,
                message="a recursive alias refers to itself",
                file=path,
                span=Span.point(1, 1),
                fix_hint="remove the self-referencing alias",
            )
        )
        source.data = None
        source.readable = False
    if not source.diagnostics:
        notes = [(n.path, n.reading.value, n.text, n.span, n.is_key) for n in source.notes]
        yaml_cache.store(text, source.data, {p: (n.value, n.key) for p, n in source.positions.items()}, notes)
    return source


def load_yaml(path: Path, root: Path | None = None, overlay: files.Overlay | None = None) -> YamlSource:
    """Read and parse a YAML file; problems become diagnostics, never exceptions.

    With `root`, the file must resolve inside that folder (a matter's files). `overlay`:
    unsaved buffers to read instead of the disk.
    """
    text, problem = read_text(path, root, files.MAX_YAML_BYTES, overlay, keep_bom=True)
    if problem is not None:
        return YamlSource(path=path, diagnostics=[problem], readable=False)
    return parse_yaml_text(path, text or "")
