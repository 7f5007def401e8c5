"""What `rubric explain CODE` and `rubric rules` do: the codes' documentation, as
functions that take their streams and return the exit code.

Both ask the code registry (`rubric_tools.code_registry`), the one look-up of every code:
it imports no rule (a rule's docstring is read from its module's source; another code's
documentation comes from the catalogue's small declaration modules), and rich lays the
page out. A renamed code is followed to its new code, with a warning.
"""

from __future__ import annotations

from typing import TextIO

from rubric_tools.commands.common import EXIT_OK, EXIT_USAGE, report_internal_error, wants_color
from rubric_tools.reporting.formats import RulesFormat


def run_explain(query: str, stdout: TextIO, stderr: TextIO, *, no_color: bool = False) -> int:
    """Print a rule's or another code's documentation; exit 2 with suggestions for an unknown one."""
    try:
        from rubric_tools.code_registry import RULE, entries, lookup
        from rubric_tools.reporting.explain import render_code_explain, render_explain

        entry = lookup(query, follow=False)
        if entry is not None and entry.redirect is not None:
            print(f"warning: {entry.code} has been remapped to {entry.redirect}.", file=stderr)
            entry = lookup(entry.redirect)
        if entry is None:
            from rubric_tools.reporting.lint_rules import did_you_mean

            suggestions = did_you_mean(query, entries(RULE))
            hint = f" Did you mean {_alternatives(suggestions)}?" if suggestions else ""
            print(f"error: unknown rule {query!r}.{hint} Run `rubric rules` for the list.", file=stderr)
            return EXIT_USAGE
        color = wants_color(stdout, no_color)
        stdout.write(render_explain(entry, color=color) if entry.is_rule else render_code_explain(entry, color=color))
    except Exception as exc:
        return report_internal_error(stderr, exc, "explaining a rule")
    return EXIT_OK


def _alternatives(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def run_rules(output_format: RulesFormat, stdout: TextIO, stderr: TextIO, *, no_color: bool = False) -> int:
    """Print every lint rule as a table or as JSON."""
    try:
        from rubric_tools.code_registry import RULE, entries
        from rubric_tools.reporting.lint_rules import render_rules_json, render_rules_table

        rules = entries(RULE)
        if output_format is RulesFormat.JSON:
            stdout.write(render_rules_json(rules))
        else:
            stdout.write(render_rules_table(rules, color=wants_color(stdout, no_color)))
    except Exception as exc:
        return report_internal_error(stderr, exc, "listing the rules")
    return EXIT_OK
