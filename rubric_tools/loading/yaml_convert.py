"""Turn a composed YAML node graph into plain data, as the reference's `safe_load` would.

Scalars are constructed by PyYAML's `SafeConstructor` (YAML 1.1: `no` is False, `010`
is 8, `2024-01-01` a date), the way the reference engine reads them. Collections are
built here, so that:
- no object is ever constructed from an unknown tag: where the reference's loader
  raises (a custom tag, `!!int June 1`, a bad merge), the value stays the text that
  was written and a Y005 diagnostic says the engine cannot load the file;
- duplicate keys are all reported, and the last value wins, as in the reference;
- alias expansion is bounded, so an alias bomb cannot exhaust memory;
- every key and value keeps its line:column span for diagnostics, and every plain
  scalar that YAML 1.2 would read differently is noted for the `yaml11` rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from yaml.constructor import ConstructorError, SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rubric_tools.diagnostics import Diagnostic, Span
from rubric_tools.loading.codes import DUPLICATE_KEY, YAML_UNCONSTRUCTIBLE
from rubric_tools.loading.yaml11 import MERGE_TAG, Reading, ScalarNote, classify

if TYPE_CHECKING:
    from rubric_tools.loading.yaml_source import YamlSource

InstancePath = tuple[str | int, ...]

#: How many nodes one file may expand to once aliases are followed.
MAX_EXPANDED_NODES = 200_000

_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"
#: Collection tags `safe_load` knows; we build them as plain mappings and lists.
_KNOWN_COLLECTION_TAGS = frozenset(
    {_MAP_TAG, _SEQ_TAG, *(f"tag:yaml.org,2002:{name}" for name in ("omap", "pairs", "set"))}
)


@dataclass(frozen=True)
class NodePosition:
    """Where a value sits, and where its key sits when it is a mapping value."""

    value: Span
    key: Span | None = None


class AliasLimit(Exception):
    """Aliases expand past MAX_EXPANDED_NODES."""


class AliasCycle(Exception):
    """An alias refers to a node that contains it."""


def _unconstructible_problem(node: ScalarNode, exc: Exception, problem: str) -> str:
    """What to say about a scalar the constructor of its tag refused."""
    if isinstance(exc, ConstructorError | ValueError | TypeError | OverflowError):
        return f"{type(exc).__name__}: {problem}"
    tag = str(node.tag or "").rsplit(":", 1)[-1]
    return f"{node.value!r} is not a valid {tag} ({type(exc).__name__} in PyYAML)"


def node_span(node: Node) -> Span:
    start, end = node.start_mark, node.end_mark
    return Span(start.line + 1, start.column + 1, end.line + 1, end.column + 1)


class Converter:
    """Converts one file's root node into `source.data`, recording positions and notes."""

    def __init__(self, source: YamlSource) -> None:
        self.source = source
        self.expanded = 0
        self.active: set[int] = set()
        self.constructor = SafeConstructor()
        self.notes: list[ScalarNote] = []

    # ------------------------------------------------------------------ scalars
    def scalar(self, node: ScalarNode, path: InstancePath) -> Any:
        """The value `safe_load` gives this scalar (its text when `safe_load` raises)."""
        self._note(node, path, is_key=False)
        return self._construct(node)

    def _note(self, node: ScalarNode, path: InstancePath, *, is_key: bool) -> None:
        if not node.style:  # only plain scalars (style None, or "" from libyaml) are resolved by their text
            reading = classify(node.value, str(node.tag or ""))
            if reading is not None:
                self.notes.append(ScalarNote(path, reading, node.value, node_span(node), is_key))

    def _construct(self, node: ScalarNode) -> Any:
        tag = str(node.tag or "")
        if tag not in SafeConstructor.yaml_constructors:
            self._unconstructible(node, f"could not determine a constructor for the tag {tag!r}")
            return node.value
        try:
            return self.constructor.construct_object(node)
        except Exception as exc:  # noqa: BLE001  whatever the constructor raises, `safe_load` raises too
            # A tagged value the tag's constructor cannot read (`!!bool maybe`, `!!int ''`,
            # `!!timestamp not a date`) raises ConstructorError, ValueError, KeyError,
            # IndexError or AttributeError inside PyYAML: the reference cannot load the file.
            problem = getattr(exc, "problem", None) or (str(exc).splitlines() or [""])[0]
            self._unconstructible(node, _unconstructible_problem(node, exc, problem))
            return node.value

    def _unconstructible(self, node: Node, problem: str) -> None:
        self.source.diagnostics.append(
            Diagnostic.of(
                YAML_UNCONSTRUCTIBLE,
                message=f"the engine's YAML loader (PyYAML safe_load) cannot load this value: {problem}",
                file=self.source.path,
                span=node_span(node),
                fix_hint="remove the tag, or quote the value to keep it as text",
            )
        )

    # ------------------------------------------------------------------ collections
    def convert(self, node: Node, path: InstancePath, key_span: Span | None = None) -> Any:
        self.expanded += 1
        if self.expanded > MAX_EXPANDED_NODES:
            raise AliasLimit
        positions = self.source.positions
        if path not in positions:
            positions[path] = NodePosition(node_span(node), key_span)
        if isinstance(node, ScalarNode):
            return self.scalar(node, path)
        if id(node) in self.active:
            raise AliasCycle
        if str(node.tag) not in _KNOWN_COLLECTION_TAGS:
            self._unconstructible(node, f"could not determine a constructor for the tag {node.tag!r}")
        self.active.add(id(node))
        try:
            if isinstance(node, SequenceNode):
                return [self.convert(item, (*path, i)) for i, item in enumerate(node.value)]
            if isinstance(node, MappingNode):
                return self._mapping(node, path)
            return None
        finally:
            self.active.discard(id(node))

    def _merge(self, result: dict[Any, Any], key_node: ScalarNode, value_node: Node, path: InstancePath) -> None:
        self.notes.append(ScalarNote(path, Reading.MERGE, key_node.value, node_span(key_node), True))
        merged = self.convert(value_node, path)
        sources = merged if isinstance(merged, list) else [merged]
        if not all(isinstance(source, dict) for source in sources):
            self._unconstructible(value_node, "expected a mapping or list of mappings for merging")
        for source in sources:
            if isinstance(source, dict):
                for k, v in source.items():
                    result.setdefault(k, v)

    def _key(self, key_node: Node, path: InstancePath) -> Any:
        if not isinstance(key_node, ScalarNode):
            self._unconstructible(key_node, "found unhashable key (a list or mapping used as a key)")
            return str(self.convert(key_node, (*path, "<key>")))
        key = self._construct(key_node)
        if not isinstance(key, str | int | float | bool | type(None)):
            key = str(key)  # a date or bytes key: the text the engine would print
        # A key's note sits at the path of the value it names.
        self._note(key_node, (*path, key), is_key=True)
        return key

    def _mapping(self, node: MappingNode, path: InstancePath) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        first_seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            if isinstance(key_node, ScalarNode) and str(key_node.tag) == MERGE_TAG:
                self._merge(result, key_node, value_node, path)
                continue
            key = self._key(key_node, path)
            key_span = node_span(key_node)
            if key in first_seen:
                self.source.diagnostics.append(
                    Diagnostic.of(
                        DUPLICATE_KEY,
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
