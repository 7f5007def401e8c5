"""What a gate regex and a concept can do, worked out once, below everything that asks.

Shared by the lint rules (G008, G012, U001, U005) and `rubric audit`, which both sit above
it: `regex_shape` (the parse tree of `re`, the reference engine's dialect: can a pattern
only match text normalization removed), `regex_risk` (can it backtrack catastrophically),
`regex_backtracking` (the work of a failing search, estimated on the tree), `witness`
(strings a regex matches, built from its parse tree), `alternatives` (each alternative
of a regex as a pattern of its own), `gate_firing` (running gates on texts through the
scorer's matcher; the must-fire witnesses of a gate entry) and `concept_nodes` (where
each concept is written and whether any agent text can contain it).
"""
