"""Helpers of the hidden-information tests (the dump bot)."""
