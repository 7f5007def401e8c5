"""What `rubric explain CODE` and `rubric rules` do: the rules' documentation, as
functions that take their streams and return the exit code.

They import only what they show: a lint rule's facts come from the generated rule index
(its docstring read from its module's source), any other code's from the catalogue's
small declaration modules, and rich lays them out. The registry, which imports every rule
module (about 150 ms), is asked only when the index cannot answer: an unknown query (to
suggest close codes and names) or a rule whose source is not installed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from rubric_tools.commands.common import EXIT_OK, EXIT_USAGE, report_internal_error, wants_color
from rubric_tools.reporting.formats import RulesFormat

if TYPE_CHECKING:
    from rubric_tools.reporting.lint_rules import ListedRule


def run_explain(query: str, stdout: TextIO, stderr: TextIO, *, no_color: bool = False) -> int:
    """Print a rule's or another code's documentation; exit 2 with suggestions for an unknown one."""
    try:
        page = _page(query, wants_color(stdout, no_color))
        if page is None:
            from rubric_tools.lint.registry import all_rules
            from rubric_tools.reporting.lint_rules import did_you_mean

            suggestions = did_you_mean(query, all_rules())
            hint = f" Did you mean {_alternatives(suggestions)}?" if suggestions else ""
            print(f"error: unknown rule {query!r}.{hint} Run `rubric rules` for the list.", file=stderr)
            return EXIT_USAGE
        stdout.write(page)
    except Exception as exc:
        return report_internal_error(stderr, exc, "explaining a rule")
    return EXIT_OK


def _page(query: str, color: bool) -> str | None:
    """The page of the lint rule, else of the other code, with this code or name; None
    when there is neither. Rules come first, as in `rubric rules`."""
    from rubric_tools.lint.rule_index import find_indexed_rule
    from rubric_tools.reporting.explain import render_code_explain, render_explain

    indexed = find_indexed_rule(query)
    if indexed is not None:
        return render_explain(indexed, color=color)
    from rubric_tools.catalogue import find_code  # imports the code declarations: only for a code not a rule

    code = find_code(query)
    if code is not None:
        return render_code_explain(code, color=color)
    from rubric_tools.lint.registry import find_rule  # imports every rule: only when the index cannot answer

    rule = find_rule(query)
    return None if rule is None else render_explain(rule, color=color)


def _alternatives(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def run_rules(output_format: RulesFormat, stdout: TextIO, stderr: TextIO, *, no_color: bool = False) -> int:
    """Print every registered rule as a table or as JSON."""
    try:
        from rubric_tools.lint.rule_index import added_rules, indexed_rules
        from rubric_tools.reporting.lint_rules import render_rules_json, render_rules_table

        indexed = indexed_rules()
        rules: Sequence[ListedRule]
        if indexed is None:  # the rules' source is not installed: import them
            from rubric_tools.lint.registry import all_rules

            rules = all_rules()
        else:
            rules = sorted([*indexed, *added_rules()], key=lambda rule: rule.code)
        if output_format is RulesFormat.JSON:
            stdout.write(render_rules_json(rules))
        else:
            stdout.write(render_rules_table(rules, color=wants_color(stdout, no_color)))
    except Exception as exc:
        return report_internal_error(stderr, exc, "listing the rules")
    return EXIT_OK
