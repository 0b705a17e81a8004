"""Experiments: what the rankers score (quality), on real and simulated data."""
