"""Questions and escalations as written, and what the first-wins matcher makes of them.

Questions and escalations are matched the same way (engine.md §3): the normalized
free text is compared with each item in rubric order, over `concepts` then each
`aliases` list, and the first item with a matching non-empty variant wins. Shadowing
relies on one sound implication: if every concept of an earlier variant V is a
substring of some concept of a later variant W, any text that contains all of W
contains all of V, so V always wins.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from rubric_tools.lint.context import LintContext
from rubric_tools.loading.yaml_source import InstancePath
from rubric_tools.scoring.text import normalize

#: rubric list → (hidden_facts key holding its answers, what one item is called)
KINDS: dict[str, tuple[str, str]] = {
    "questions": ("client_answers", "question"),
    "escalations": ("escalation_answers", "escalation"),
}


@dataclass(frozen=True)
class RawVariant:
    """One variant of an item: its node path and its normalized concepts."""

    path: InstancePath
    concepts: tuple[str, ...]

    @property
    def label(self) -> str:
        return "concepts" if self.path[-1] == "concepts" else f"aliases[{self.path[-1]}]"

    def shown(self) -> str:
        return "[" + ", ".join(repr(c) for c in self.concepts) + "]"


@dataclass(frozen=True)
class RawItem:
    """A question or escalation as written, with where it sits."""

    list_name: str
    index: int
    data: Mapping[str, Any]

    @property
    def path(self) -> InstancePath:
        return (self.list_name, self.index)

    @property
    def id(self) -> str | None:
        value = self.data.get("id")
        return str(value) if value is not None else None

    @property
    def kind(self) -> str:
        return KINDS[self.list_name][1]

    def name(self) -> str:
        return f"{self.kind} {self.id!r}" if self.id is not None else f"{self.list_name}[{self.index}]"

    def variants(self) -> list[RawVariant]:
        """`concepts` then every `aliases` list, in the matcher's order."""
        found: list[RawVariant] = []
        concepts = self.data.get("concepts")
        if isinstance(concepts, list):
            found.append(RawVariant((*self.path, "concepts"), _normalized(concepts)))
        aliases = self.data.get("aliases")
        for alias_index, alias in enumerate(aliases if isinstance(aliases, list) else []):
            if isinstance(alias, list):
                found.append(RawVariant((*self.path, "aliases", alias_index), _normalized(alias)))
        return found

    def malformed(self) -> bool:
        """`concepts` or `aliases` of the wrong type: the schema rules report it, and what
        the engine would make of it is not ours to guess."""
        return any(key in self.data and not isinstance(self.data[key], list) for key in ("concepts", "aliases"))

    def live_variants(self) -> list[RawVariant]:
        """The variants that can match at all: the engine skips empty ones."""
        return [v for v in self.variants() if v.concepts]


def _normalized(concepts: list[Any]) -> tuple[str, ...]:
    return tuple(normalize(str(concept)) for concept in concepts)


def raw_items(ctx: LintContext, list_name: str) -> list[RawItem]:
    entries = ctx.rubric_data.get(list_name)
    return [
        RawItem(list_name, i, e)
        for i, e in enumerate(entries if isinstance(entries, list) else [])
        if isinstance(e, Mapping)
    ]


def all_items(ctx: LintContext) -> Iterator[RawItem]:
    for list_name in KINDS:
        yield from raw_items(ctx, list_name)


def shadows(earlier: tuple[str, ...], later: tuple[str, ...]) -> bool:
    """Whether any text matching `later` also matches `earlier` (both non-empty)."""
    return bool(earlier) and bool(later) and all(any(e in w for w in later) for e in earlier)


def shadowing_of(items: list[RawItem], position: int, variant: RawVariant) -> tuple[RawItem, RawVariant] | None:
    """The first earlier item variant that always wins over `variant`, if any."""
    for earlier in items[:position]:
        for candidate in earlier.live_variants():
            if shadows(candidate.concepts, variant.concepts):
                return earlier, candidate
    return None


Shadowing = tuple[RawVariant, RawItem, RawVariant]  # (shadowed variant, winner, winning variant)


def shadow_report(ctx: LintContext) -> Iterator[tuple[RawItem, list[Shadowing]]]:
    """Every item with at least one shadowed variant, and what shadows each."""
    for list_name in KINDS:
        items = raw_items(ctx, list_name)
        for position, item in enumerate(items):
            shadowed: list[Shadowing] = []
            for variant in item.live_variants():
                winner = shadowing_of(items, position, variant)
                if winner is not None:
                    shadowed.append((variant, *winner))
            if shadowed:
                yield item, shadowed
