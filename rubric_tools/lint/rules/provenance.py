"""Provenance rules (V0xx): is the matter marked synthetic, and does it carry the canary?

Matters are published as evaluation data. `provenance.synthetic: true` is the
author's statement that no real client material is inside; the canary string lets
a model trainer find and exclude the matter from training data.
"""

from __future__ import annotations

from collections.abc import Iterator

from rubric_tools.diagnostics import Severity
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import rule
from rubric_tools.loading.matter import MATTER_FILE


def _matter_loaded(ctx: LintContext) -> bool:
    # A missing or broken matter.yaml is a load finding, not a provenance one.
    return ctx.model.file(MATTER_FILE).mapping


@rule("V001", "not-synthetic", Severity.ERROR)
def not_synthetic(ctx: LintContext) -> Iterator[Finding]:
    """`provenance.synthetic` is not `true`.

    What it catches: a matter.yaml whose `provenance` block is missing, or whose
    `synthetic` is absent or anything other than the boolean `true` (including the
    string `"true"` and `yes` written in quotes).

    Why it matters: matters are published. `synthetic: true` is the author's
    attestation that the documents and facts are invented; a matter that cannot make
    it may contain confidential client material and must not ship.

    Bad:

    ```yaml
    provenance:
      synthetic: "true"
      notice: Adapted from a client deal.
    ```

    Good:

    ```yaml
    provenance:
      synthetic: true
      confidential_source_material_used: false
      notice: Invented for this matter.
    ```
    """
    if not _matter_loaded(ctx):
        return
    provenance = ctx.model.provenance
    if not provenance.mapping:
        yield ctx.report(
            provenance,
            "matter.yaml has no provenance block with synthetic: true",
            key=True,
            hint="add provenance: {synthetic: true, ...}",
        )
        return
    synthetic = provenance.field("synthetic")
    if synthetic is not None and synthetic.value is True:
        return
    shown = "missing" if synthetic is None else f"{synthetic.value!r}, not true"
    yield ctx.report(
        provenance.at("synthetic"),
        f"provenance.synthetic is {shown}: the matter is not attested as invented material",
        hint="set synthetic: true once every document and fact is invented",
    )


@rule("V002", "canary-mismatch", Severity.ERROR)
def canary_mismatch(ctx: LintContext) -> Iterator[Finding]:
    """The matter's `canary` is missing or differs from the configured canary string.

    What it catches: when the configuration sets `canary` (in `[tool.rubric]` or
    rubric.toml), a matter.yaml whose `canary` is absent or not exactly that string.
    Without a configured canary the rule is silent.

    Why it matters: the canary is how model trainers find and exclude evaluation
    data; a matter without it (or with a stale one) leaks into training sets
    unnoticed, and the benchmark it belongs to quietly stops measuring anything.

    Bad:

    ```yaml
    # [tool.rubric] canary = "playbook-canary-1234"
    canary: playbook-canary-0000
    ```

    Good:

    ```yaml
    canary: playbook-canary-1234
    ```
    """
    expected = ctx.config.canary
    if not expected or not _matter_loaded(ctx):
        return
    matter_file = ctx.model.file(MATTER_FILE)
    canary = matter_file.field("canary")
    if canary is None:
        yield ctx.report(
            matter_file,
            f"matter.yaml has no canary; the configuration requires {expected!r}",
            hint=f"add canary: {expected}",
        )
        return
    if canary.value == expected:
        return
    yield ctx.report(
        canary.location,
        f"canary is {canary.value!r}, but the configuration requires {expected!r}",
        hint=f"set canary: {expected}",
    )
