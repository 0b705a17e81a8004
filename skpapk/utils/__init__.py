"""Utilities: group-aware sorting primitives and input validation."""
