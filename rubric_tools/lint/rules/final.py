"""Final-submission rules (F0xx): what `submit_final` is checked against."""

from __future__ import annotations

from collections.abc import Iterator

from rubric_tools.diagnostics import Severity, number_text
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import rule


@rule("F001", "unknown-required-issue", Severity.ERROR)
def unknown_required_issue(ctx: LintContext) -> Iterator[Finding]:
    """`final_submission.required_issue_ids` names an issue that does not exist.

    What it catches: an entry of `required_issue_ids` that is not the `id` of any
    issue in `rubric.yaml`.

    Why it matters: the engine checks each entry against the issues the agent
    matched. An id no issue carries is never matched, so every run — the perfect one
    included — pays `missing_required_issue_penalty` for it. Usually an issue was
    renamed and the list was not.

    Bad:

    ```yaml
    issues:
      - id: uptime_credit
    final_submission:
      required_issue_ids: [uptime_credits]
    ```

    Good:

    ```yaml
    final_submission:
      required_issue_ids: [uptime_credit]
    ```
    """
    final = ctx.model.final_submission
    issue_ids = ctx.model.issue_ids()
    for location, entry in final.required_issue_ids:
        if str(entry) not in issue_ids:
            yield ctx.report(
                location,
                f"required issue {str(entry)!r} is not a rubric issue id: every run pays the "
                "missing-issue penalty for it",
                hint=f"use one of: {', '.join(sorted(issue_ids))}" if issue_ids else "remove it, or add the issue",
            )


@rule("F002", "non-positive-minimum-characters", Severity.ERROR)
def non_positive_minimum_characters(ctx: LintContext) -> Iterator[Finding]:
    """`final_submission.minimum_characters` is zero or negative.

    What it catches: a `minimum_characters` of 0 or less.

    Why it matters: the final points are zeroed when the stripped summary is shorter
    than `minimum_characters`. At 0 or below, an empty summary earns them: the final
    points reward submitting, not summarising.

    Bad:

    ```yaml
    final_submission:
      points: 0.5
      minimum_characters: 0
    ```

    Good:

    ```yaml
    final_submission:
      points: 0.5
      minimum_characters: 200
    ```
    """
    final = ctx.model.final_submission
    value = final.minimum_characters
    if value is None:
        return  # absent (the default 80 applies) or not a number (a schema finding)
    if value <= 0:
        yield ctx.report(
            final.at("minimum_characters"),
            f"minimum_characters is {number_text(value)}: an empty summary earns the final points",
            hint="require a real summary, e.g. minimum_characters: 200 (the default is 80)",
        )
