"""Tournaments: config, schedule, run directories, the results database, standings, workers.
Imports match/ and below."""
