"""Questions and escalations as written, and what the first-wins matcher makes of them.

Questions and escalations are matched the same way (engine.md §3): the normalized
free text is compared with each item in rubric order, over `concepts` then each
`aliases` list, and the first item with a matching non-empty variant wins. Shadowing
relies on one sound implication: if every concept of an earlier variant V is a
substring of some concept of a later variant W, any text that contains all of W
contains all of V, so V always wins.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rubric_tools.lint.context import LintContext
from rubric_tools.loading.elements import Location, MatchItemElement, VariantElement
from rubric_tools.loading.yaml_source import InstancePath

#: rubric list → (hidden_facts key holding its answers, what one item is called)
KINDS: dict[str, tuple[str, str]] = {
    "questions": ("client_answers", "question"),
    "escalations": ("escalation_answers", "escalation"),
}


@dataclass(frozen=True)
class ItemVariant:
    """One variant of an item: where it is and its normalized concepts."""

    element: VariantElement
    concepts: tuple[str, ...]

    @property
    def location(self) -> Location:
        return self.element.location

    @property
    def path(self) -> InstancePath:
        return self.element.location.path

    @property
    def label(self) -> str:
        return "concepts" if self.path[-1] == "concepts" else f"aliases[{self.path[-1]}]"

    def shown(self) -> str:
        return "[" + ", ".join(repr(c) for c in self.concepts) + "]"


@dataclass(frozen=True)
class Item:
    """A question or escalation of the model, as the first-wins matcher sees it."""

    element: MatchItemElement

    @property
    def list_name(self) -> str:
        return self.element.list_name

    @property
    def index(self) -> int:
        return self.element.index

    @property
    def location(self) -> Location:
        return self.element.location

    @property
    def path(self) -> InstancePath:
        return self.element.location.path

    @property
    def id(self) -> str | None:
        return self.element.id

    @property
    def kind(self) -> str:
        return self.element.kind

    def name(self) -> str:
        return self.element.name()

    def variants(self) -> list[ItemVariant]:
        """`concepts` then every `aliases` list, in the matcher's order."""
        return [ItemVariant(variant, variant.normalized) for variant in self.element.variants]

    def malformed(self) -> bool:
        """`concepts` or `aliases` of the wrong type: the schema rules report it, and what
        the engine would make of it is not ours to guess."""
        return self.element.malformed

    def live_variants(self) -> list[ItemVariant]:
        """The variants that can match at all: the engine skips empty ones."""
        return [v for v in self.variants() if v.concepts]


def items(ctx: LintContext, list_name: str) -> list[Item]:
    """The questions or escalations of the matter, in file order."""
    return [Item(element) for element in ctx.model.match_items(list_name)]


def all_items(ctx: LintContext) -> Iterator[Item]:
    for list_name in KINDS:
        yield from items(ctx, list_name)


def shadows(earlier: tuple[str, ...], later: tuple[str, ...]) -> bool:
    """Whether any text matching `later` also matches `earlier` (both non-empty)."""
    return bool(earlier) and bool(later) and all(any(e in w for w in later) for e in earlier)


def shadowing_of(found: list[Item], position: int, variant: ItemVariant) -> tuple[Item, ItemVariant] | None:
    """The first earlier item variant that always wins over `variant`, if any."""
    for earlier in found[:position]:
        for candidate in earlier.live_variants():
            if shadows(candidate.concepts, variant.concepts):
                return earlier, candidate
    return None


Shadowing = tuple[ItemVariant, Item, ItemVariant]  # (shadowed variant, winner, winning variant)


def shadow_report(ctx: LintContext) -> Iterator[tuple[Item, list[Shadowing]]]:
    """Every item with at least one shadowed variant, and what shadows each."""
    for list_name in KINDS:
        found = items(ctx, list_name)
        for position, item in enumerate(found):
            shadowed: list[Shadowing] = []
            for variant in item.live_variants():
                winner = shadowing_of(found, position, variant)
                if winner is not None:
                    shadowed.append((variant, *winner))
            if shadowed:
                yield item, shadowed
