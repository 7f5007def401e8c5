"""Rubric coverage: which scorable items a matter's trajectories and probes exercise,
mutation adequacy, and the data behind the HTML report.

Modules: `model` (items, results), `items` (enumerate a matter's scorable items with
their YAML positions), `exercise` (replay trajectories and run probes, then credit
items from the scorer's events and observations), `mutation` (alter the in-memory
model and re-run the checks), `analysis`
(one matter end to end, runnable in a worker process), `runs` (a set of matters
against the thresholds of `[tool.rubric.coverage]`, read by `rubric_tools.config.coverage`),
`check_rows` (`rubric check --coverage`). The command itself is
`rubric_tools.commands.coverage.run_coverage`.
"""
