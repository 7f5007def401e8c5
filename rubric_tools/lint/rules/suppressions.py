"""Suppression rules (X10x): inline `rubric: ignore[...]` comments are checked themselves.

See `rubric_tools.suppressions` for the syntax and what a suppression covers.
"""

from __future__ import annotations

from collections.abc import Iterator

from rubric_tools.catalogue import find_code
from rubric_tools.diagnostics import Severity
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import RULES, rule
from rubric_tools.suppressions import UNUSED_SUPPRESSION, malformed_comments, matter_suppressions


@rule("X101", "suppression-without-reason", Severity.WARNING)
def suppression_without_reason(ctx: LintContext) -> Iterator[Finding]:
    """An inline suppression does not say why the finding is acceptable.

    What it catches: a `# rubric: ignore[...]` or `ignore-file[...]` comment (or its
    `<!-- ... -->` form in a document) with no `-- reason` after the codes.

    Why it matters: a suppression hides a defect from every later reader and every CI
    run. Without the reason nobody can tell a deliberate exception from a silenced bug,
    or know when it may be removed. The suppression still applies.

    Bad:

    ```yaml
    anchor: "msa §full"  # rubric: ignore[A006]
    ```

    Good:

    ```yaml
    anchor: "msa §full"  # rubric: ignore[A006] -- the order form has no sections
    ```
    """
    for suppression in matter_suppressions(ctx.source):
        if suppression.reason is None:
            yield Finding(
                f"suppression of {', '.join(suppression.codes) or 'nothing'} gives no reason",
                suppression.file,
                suppression.span,
                "add ` -- why this finding is acceptable` after the codes",
            )


@rule("X102", "unknown-suppression-code", Severity.WARNING)
def unknown_suppression_code(ctx: LintContext) -> Iterator[Finding]:
    """An inline suppression names a code that is no rule, or is not written as one.

    What it catches: a code or rule name inside `rubric: ignore[...]` that no lint rule
    has (a typo such as `A06`, a retired code), an empty `ignore[]`, and a comment that
    starts like a suppression but does not follow its grammar (`# rubric: ignore A006`,
    `# rubric: noqa[A006]`).

    Why it matters: the suppression silences nothing, so the finding it was meant for
    is either still reported or, worse, the author believes a rule is silenced that
    was never involved.

    Bad:

    ```yaml
    anchor: "msa §full"  # rubric: ignore[A06] -- the order form has no sections
    ```

    Good:

    ```yaml
    anchor: "msa §full"  # rubric: ignore[A006] -- the order form has no sections
    ```
    """
    names = {r.name for r in RULES.values()}
    for suppression in matter_suppressions(ctx.source):
        unknown = [
            c for c in suppression.codes if c.upper() not in RULES and c.lower() not in names and find_code(c) is None
        ]
        if unknown or not suppression.codes:
            yield Finding(
                f"suppression names unknown code {', '.join(repr(c) for c in unknown)}"
                if unknown
                else "suppression names no code",
                suppression.file,
                suppression.span,
                "name rule codes or names, as `rubric rules` lists them",
            )
    for file, span in malformed_comments(ctx.source):
        yield Finding(
            "comment looks like a suppression but is not one, so it silences nothing",
            file,
            span,
            "write `# rubric: ignore[CODE] -- reason` (or `ignore-file[...]`; `<!-- ... -->` in documents)",
        )


@rule(UNUSED_SUPPRESSION, fixable=True)
def unused_suppression(ctx: LintContext) -> Iterator[Finding]:
    """An inline suppression silenced nothing.

    What it catches: a code in a `rubric: ignore[...]` or `ignore-file[...]` comment
    whose rule ran and reported nothing the comment covers, like ruff's RUF100.
    Codes of rules that did not run (not selected, or ignored) are not judged.
    The lint engine computes this finding after every other rule has run, since only
    then is it known what each suppression silenced; this function yields nothing.

    Why it matters: the defect was fixed (or moved), but the comment stays and would
    silently swallow the next, unrelated finding on that node. `rubric lint --fix`
    removes the unused codes, or the whole comment.

    Bad:

    ```yaml
    anchor: "msa §4.2"  # rubric: ignore[A006] -- left from when it was §full
    ```

    Good:

    ```yaml
    anchor: "msa §4.2"
    ```
    """
    return iter(())
