"""Provenance rules (V0xx): is the matter marked synthetic, and does it carry the canary?

Matters are published as evaluation data. `provenance.synthetic: true` is the
author's statement that no real client material is inside; the canary string lets
a model trainer find and exclude the matter from training data.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from rubric_tools.diagnostics import Severity
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import rule
from rubric_tools.loading.matter import MATTER_FILE


def _matter_loaded(ctx: LintContext) -> bool:
    # A missing or broken matter.yaml is a load finding, not a provenance one.
    return isinstance(ctx.data(MATTER_FILE), Mapping)


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
    provenance = ctx.matter_data.get("provenance")
    if not isinstance(provenance, Mapping):
        yield ctx.at(
            MATTER_FILE,
            ("provenance",),
            "matter.yaml has no provenance block with synthetic: true",
            key=True,
            hint="add provenance: {synthetic: true, ...}",
        )
        return
    value = provenance.get("synthetic")
    if value is True:
        return
    shown = "missing" if "synthetic" not in provenance else f"{value!r}, not true"
    yield ctx.at(
        MATTER_FILE,
        ("provenance", "synthetic"),
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
    value = ctx.matter_data.get("canary")
    if value == expected:
        return
    if "canary" not in ctx.matter_data:
        yield ctx.at(
            MATTER_FILE,
            (),
            f"matter.yaml has no canary; the configuration requires {expected!r}",
            hint=f"add canary: {expected}",
        )
        return
    yield ctx.at(
        MATTER_FILE,
        ("canary",),
        f"canary is {value!r}, but the configuration requires {expected!r}",
        hint=f"set canary: {expected}",
    )
