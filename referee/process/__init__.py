"""Bot processes: spawning, the wire protocol, pools, preflight and the turn guard. Imports api/
and the top-level helpers."""
