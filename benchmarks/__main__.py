"""`make bench`: engine playouts, referee overhead (and tournament throughput)."""

from __future__ import annotations

import sys

from benchmarks import engines, overhead

if __name__ == "__main__":
    print("== Rules engines: in-process random playouts (one core) ==")
    engines.main(["--seconds", "5"], standalone_mode=False)
    print("\n== Referee overhead ==")
    overhead.main(["--moves", "5000"], standalone_mode=False)
    sys.exit(0)
