"""`rubric audit`: execute every gate and concept against texts whose verdict is known.

Modules: `witness` (matching strings from a regex's parse tree), `corpus` (the matter's
own texts of known verdict), `frames` and `dodges` (generated correct work and
rewrites), `firing` (running gates through the scorer), `gate_audit` and `concepts`
(the verdicts), `guards` (proposals and their verification), `runner`, `render`,
`probe_writer` and `command`.
"""
