"""The names the project configuration refers to, for `rubric_tools.config`: every lint
rule (for `select`, `ignore`, `severity`) and every attack strategy (for `attack.exempt`).

The configuration package sits below `lint` and `prove` and is handed this vocabulary
by whoever reads a configuration file; each list is produced only when a setting names
something, so a run that configures no selector never imports the rule modules.
"""

from __future__ import annotations

from rubric_tools.config.vocabulary import Vocabulary
from rubric_tools.lint.registry import all_rules


def strategy_names() -> list[str]:
    """The reward-hacking strategies of `rubric attack`, in their order."""
    from rubric_tools.prove.strategies import STRATEGIES  # the solver: only when `exempt` is set

    return [strategy.name for strategy in STRATEGIES]


#: What a configuration file of this tool may name.
CONFIG_VOCABULARY = Vocabulary(rules=all_rules, strategies=strategy_names)
