"""Project configuration: finding `rubric.toml` / `[tool.rubric]` and reading it with
the line of every key, and the `ConfigError` every configuration mistake raises."""
