"""Fixes as data and as edits, shared by `rubric lint` and `rubric audit`.

`fixes` (a finding's `Fix`, to JSON and to the result cache), `yaml_edits` (edits of one
YAML node that keep the rest of the file byte for byte), `gate_edits` (writing a guard
into a gate entry: the audit's proposals), `apply_fixes` (splicing edits into files and
checking that the YAML reads back as meant). Which fixes are safe, and the `--fix` loop,
are lint's (`lint.fix_proof`, `lint.fix_run`).
"""
