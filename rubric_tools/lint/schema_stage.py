"""The schema stage of the lint engine: validation runs once per matter, before any rule.

The engine validates every YAML file of the matter (`schema_check.validate_matter`) and
keeps the result as a `SchemaReport`: the structured errors, and which of them a schema
rule will report — the rule that renders an error's kind is selected by the
configuration. The schema rules (S001-S006) render their kind's errors from it; a
semantic rule that re-checks a shape the schema also checks (a gate entry's type, an
issue's missing anchor) asks it whether the node is already reported, and stays quiet
if so, so that each defect is reported once. With the schema rule ignored or not
selected, the semantic rule reports the problem itself.

A schema rule declares the kind it renders with `@renders_schema_kind(kind)`; the stage
learns from that which selected rule reports which kind, without naming any code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from rubric_tools.lint.registry import Check, Rule
from rubric_tools.loading.elements import Location
from rubric_tools.loading.matter import MatterSource
from rubric_tools.loading.schema_check import SchemaError, SchemaErrorKind, validate_matter
from rubric_tools.loading.yaml_source import InstancePath

#: The schema-error kind each schema rule renders, keyed by the rule's check function.
_KIND_OF_CHECK: dict[Check, SchemaErrorKind] = {}


def renders_schema_kind(kind: SchemaErrorKind) -> Callable[[Check], Check]:
    """Declare that the decorated rule reports the schema stage's errors of `kind`."""

    def declare(check: Check) -> Check:
        _KIND_OF_CHECK[check] = kind
        return check

    return declare


def schema_kind_of(rule: Rule) -> SchemaErrorKind | None:
    """The kind of schema error `rule` reports, or None for a rule that is no schema rule."""
    return _KIND_OF_CHECK.get(rule.check)


@dataclass(frozen=True)
class SchemaReport:
    """What the schema stage found in one matter, and what the schema rules will report.

    `errors` lists every schema error, reported or not (a rule such as Y001 explains
    values the schema rejects whichever schema rules run); `reported_kinds` are the
    kinds whose schema rule is selected.
    """

    errors: tuple[SchemaError, ...] = ()
    reported_kinds: frozenset[SchemaErrorKind] = frozenset()
    #: (file name, instance path, kind) of every error a selected schema rule reports.
    reported_nodes: frozenset[tuple[str, InstancePath, SchemaErrorKind]] = field(init=False, repr=False)
    _missing_keys: frozenset[tuple[str, InstancePath, object]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        reported = [error for error in self.errors if error.kind in self.reported_kinds]
        # Frozen: the indexes are computed once, here, from the two fields above.
        object.__setattr__(self, "reported_nodes", frozenset((e.file_name, e.path, e.kind) for e in reported))
        missing = frozenset((e.file_name, e.path, e.key) for e in reported if e.kind == "required")
        object.__setattr__(self, "_missing_keys", missing)

    def of_kind(self, kind: SchemaErrorKind) -> list[SchemaError]:
        """Every error of `kind`, in file and line order (whether or not it is reported)."""
        return [error for error in self.errors if error.kind == kind]

    def reported(self, file_name: str, path: InstancePath, kind: SchemaErrorKind | None = None) -> bool:
        """Whether a selected schema rule reports the node at `path` of `file_name`.

        `kind` narrows it to one kind of error. An unknown key is reported at the key's
        own path (`(..., key)`), a missing key at the mapping that lacks it (see
        `reports_missing`)."""
        if kind is not None:
            return (file_name, tuple(path), kind) in self.reported_nodes
        return any((file_name, tuple(path), each) in self.reported_nodes for each in self.reported_kinds)

    def reports_missing(self, file_name: str, path: InstancePath, key: str) -> bool:
        """Whether a selected schema rule reports that the mapping at `path` lacks `key`."""
        return (file_name, tuple(path), key) in self._missing_keys

    # The same questions about a node of the model (`loading.elements`), by its location.
    def reported_at(self, location: Location, kind: SchemaErrorKind | None = None) -> bool:
        return self.reported(location.file_name, location.path, kind)

    def reports_missing_at(self, location: Location, key: str) -> bool:
        return self.reports_missing(location.file_name, location.path, key)


def run_schema_stage(source: MatterSource, selected: Iterable[Rule]) -> SchemaReport:
    """Validate the matter and record what the `selected` schema rules will report."""
    kinds = frozenset(kind for rule in selected if (kind := schema_kind_of(rule)) is not None)
    return SchemaReport(tuple(validate_matter(source)), kinds)
