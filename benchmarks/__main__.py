"""`make bench`: the baseline as shipped beside this checkout (benchmarks.suite)."""

from __future__ import annotations

from benchmarks import suite

if __name__ == "__main__":
    suite.main(prog_name="python -m benchmarks")
