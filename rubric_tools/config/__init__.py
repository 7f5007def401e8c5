"""Project configuration: one frozen `ProjectConfig` (`project`) of typed sections, one
module each (`lint`, `attack`, `audit`, `check`, `coverage`), validated in one place when
the file is read; finding and reading `rubric.toml` / `[tool.rubric]` with the line of
every key (`discovery`); which file applies and the command line on top (`resolve`); the
`ConfigError` every configuration mistake raises (`errors`). Names defined by higher
packages (lint rules, attack strategies) come in through a `Vocabulary`.

Nothing is imported here: a command imports the modules it needs."""
