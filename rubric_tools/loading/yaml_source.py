"""Read a YAML file into plain Python data plus the position of every key and value.

We compose the node graph with ruamel.yaml and convert it ourselves, so that:
- no object is ever constructed from a YAML tag (tagged values stay plain data);
- duplicate keys are all reported, and the last value wins, as in the reference
  engine's loader;
- alias expansion is bounded, so an alias bomb cannot exhaust memory;
- every key and value keeps its line:column span for diagnostics.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rubric_tools.diagnostics import Diagnostic, Severity, Span
from rubric_tools.loading import yaml_cache

#: How many nodes one file may expand to once aliases are followed.
MAX_EXPANDED_NODES = 200_000

InstancePath = tuple[str | int, ...]


@dataclass(frozen=True)
class NodePosition:
    """Where a value sits, and where its key sits when it is a mapping value."""

    value: Span
    key: Span | None = None


@dataclass
class YamlSource:
    """A parsed YAML file: `data` is None when it could not be read or parsed."""

    path: Path
    data: Any = None
    positions: dict[InstancePath, NodePosition] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    readable: bool = True

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


class _AliasLimit(Exception):
    pass


class _Cycle(Exception):
    pass


def _span(node: Node) -> Span:
    start, end = node.start_mark, node.end_mark
    return Span(start.line + 1, start.column + 1, end.line + 1, end.column + 1)


def _tag(node: Node) -> str:
    tag = node.tag
    return str(getattr(tag, "value", tag) or "")


def _scalar(node: ScalarNode) -> Any:
    tag = _tag(node)
    text = node.value
    if tag.endswith(":null"):
        return None
    if tag.endswith(":bool"):
        return text.lower() in ("true", "yes", "on")
    if tag.endswith(":int"):
        cleaned = text.replace("_", "")
        try:
            if cleaned.lower().startswith(("0x", "-0x", "+0x")):
                return int(cleaned, 16)
            if cleaned.lower().startswith(("0o", "-0o", "+0o")):
                return int(cleaned, 8)
            return int(cleaned)
        except ValueError:
            return text
    if tag.endswith(":float"):
        lowered = text.lower().replace("_", "")
        if lowered in (".inf", "+.inf"):
            return math.inf
        if lowered == "-.inf":
            return -math.inf
        if lowered == ".nan":
            return math.nan
        try:
            return float(lowered)
        except ValueError:
            return text
    if node.style == ">":
        # The round-trip scanner marks fold points with BEL so it can re-emit them.
        return text.replace("\a", "")
    # Strings, timestamps, binary and custom tags all stay the text that was written.
    return text


class _Converter:
    def __init__(self, source: YamlSource) -> None:
        self.source = source
        self.expanded = 0
        self.active: set[int] = set()

    def convert(self, node: Node, path: InstancePath, key_span: Span | None = None) -> Any:
        self.expanded += 1
        if self.expanded > MAX_EXPANDED_NODES:
            raise _AliasLimit
        if path not in self.source.positions:
            self.source.positions[path] = NodePosition(_span(node), key_span)
        if isinstance(node, ScalarNode):
            return _scalar(node)
        if id(node) in self.active:
            raise _Cycle
        self.active.add(id(node))
        try:
            if isinstance(node, SequenceNode):
                return [self.convert(item, (*path, i)) for i, item in enumerate(node.value)]
            if isinstance(node, MappingNode):
                return self._mapping(node, path)
            return None
        finally:
            self.active.discard(id(node))

    def _mapping(self, node: MappingNode, path: InstancePath) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        first_seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            if isinstance(key_node, ScalarNode) and _tag(key_node).endswith(":merge"):
                merged = self.convert(value_node, path)
                for source in merged if isinstance(merged, list) else [merged]:
                    if isinstance(source, dict):
                        for k, v in source.items():
                            result.setdefault(k, v)
                continue
            key = self.convert(key_node, (*path, "<key>")) if not isinstance(key_node, ScalarNode) \
                else _scalar(key_node)
            if not isinstance(key, str | int | float | bool | type(None)):
                key = str(key)
            key_span = _span(key_node)
            if key in first_seen:
                self.source.diagnostics.append(
                    Diagnostic(
                        code="L002",
                        name="duplicate-key",
                        severity=Severity.ERROR,
                        message=(
                            f"duplicate key {key!r} (first defined on line {first_seen[key]}); "
                            "the engine silently keeps this last value"
                        ),
                        file=self.source.path,
                        span=key_span,
                        fix_hint="remove one of the two entries or merge them",
                    )
                )
                # Last value wins: re-record its position too.
                self.source.positions.pop((*path, key), None)
            else:
                first_seen[key] = key_span.line
            result[key] = self.convert(value_node, (*path, key), key_span)
        return result


def _syntax_diagnostic(path: Path, exc: YAMLError) -> Diagnostic:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    span = Span.point(mark.line + 1, mark.column + 1) if mark is not None else None
    if isinstance(exc, MarkedYAMLError):
        message = " ".join(part for part in (exc.context, exc.problem) if part)
    else:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return Diagnostic(
        code="L001",
        name="yaml-syntax",
        severity=Severity.ERROR,
        message=f"YAML syntax error: {message or 'cannot parse'}",
        file=path,
        span=span,
        fix_hint="fix the YAML so that it parses; nothing else in this file can be checked",
    )


def read_text(path: Path) -> tuple[str | None, Diagnostic | None]:
    """Read a UTF-8 text file, or explain (with a position) why it cannot be read."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, Diagnostic(
            code="L003",
            name="unreadable-file",
            severity=Severity.ERROR,
            message=f"cannot read file: {exc.strerror or exc}",
            file=path,
            span=Span.point(1, 1),
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, Diagnostic(
            code="L004",
            name="non-utf8-file",
            severity=Severity.ERROR,
            message=f"file is not UTF-8: byte 0x{raw[exc.start]:02x} cannot be decoded",
            file=path,
            span=Span.point(line, column),
            fix_hint="save the file as UTF-8",
        )
    return text.removeprefix("\ufeff"), None


def parse_yaml_text(path: Path, text: str) -> YamlSource:
    """Parse YAML text already read from `path`."""
    source = YamlSource(path=path, lines=text.splitlines())
    cached = yaml_cache.restore(text)
    if cached is not None:
        source.data = cached[0]
        source.positions = {p: NodePosition(value, key) for p, (value, key) in cached[1].items()}
        return source
    yaml = YAML(typ="rt", pure=True)
    try:
        node = yaml.compose(text)
    except YAMLError as exc:
        source.diagnostics.append(_syntax_diagnostic(path, exc))
        source.readable = False
        return source
    except (RecursionError, ValueError) as exc:
        source.diagnostics.append(_syntax_diagnostic(path, YAMLError(str(exc) or "too deeply nested")))
        source.readable = False
        return source
    if node is None:
        return source
    try:
        source.data = _Converter(source).convert(node, ())
    except (_AliasLimit, RecursionError):
        source.diagnostics.append(
            Diagnostic(
                code="L006",
                name="yaml-alias-limit",
                severity=Severity.ERROR,
                message=f"aliases expand to more than {MAX_EXPANDED_NODES:,} nodes (an alias bomb?)",
                file=path,
                span=Span.point(1, 1),
                fix_hint="write the repeated data out, or use fewer nested aliases",
            )
        )
        source.data = None
        source.readable = False
    except _Cycle:
        source.diagnostics.append(
            Diagnostic(
                code="L006",
                name="yaml-alias-limit",
                severity=Severity.ERROR,
                message="a recursive alias refers to itself",
                file=path,
                span=Span.point(1, 1),
                fix_hint="remove the self-referencing alias",
            )
        )
        source.data = None
        source.readable = False
    if not source.diagnostics:
        yaml_cache.store(text, source.data, {p: (n.value, n.key) for p, n in source.positions.items()})
    return source


def load_yaml(path: Path) -> YamlSource:
    """Read and parse a YAML file; problems become diagnostics, never exceptions."""
    text, problem = read_text(path)
    if problem is not None:
        return YamlSource(path=path, diagnostics=[problem], readable=False)
    return parse_yaml_text(path, text or "")
