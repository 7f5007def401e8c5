"""`rubric audit`: execute every gate and concept against texts whose verdict is known.

Modules: `corpus` (the matter's own texts of known verdict), `frames` and `dodges`
(generated correct work and rewrites), `gate_audit` and `concepts` (the verdicts),
`guards` (proposals and their verification), `findings` (evidence and diagnostics),
`codes` (the catalogue), `runner` and
`probe_writer`; `inflection` (the contract verbs and nouns the inflection dodges rewrite),
`lexicon` (word forms from lemminflect), `names` (the matter's names, never inflected),
`seeding` (generic defect operators) and `recall` (the seeded-defect benchmark's
measurement). The cheap parts shared with lint rules U001/U005 live in `gate_analysis`:
`witness` (matching strings from a regex's parse tree), `gate_firing` (running gates
through the scorer) and `concept_nodes`. The settings (`[tool.rubric.audit]`) are
`rubric_tools.config.audit`; `thresholds` holds the default `fail-on` codes. The command
is `rubric_tools.commands.audit`.
"""
