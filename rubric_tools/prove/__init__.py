"""Prove a rubric before any model runs: a solver that earns max_score from the rubric
alone (or names every point it cannot), and reward-hacking attacks replayed against it."""

from rubric_tools.prove.shortfalls import Reason, Shortfall
from rubric_tools.prove.solver import Solution, solve

__all__ = ["Reason", "Shortfall", "Solution", "solve"]
