"""`rubric rescore`: re-score rollout archives under two rubric versions (see README)."""
