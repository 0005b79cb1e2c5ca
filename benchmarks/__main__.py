"""`make bench`: engine playouts, referee overhead, tournament throughput."""

from __future__ import annotations

from benchmarks import engines, overhead, permove, startup, tournament

if __name__ == "__main__":
    print("== Rules engines: in-process random playouts (one core) ==")
    engines.main(["--seconds", "5"], standalone_mode=False)
    print("\n== Referee overhead: full protocol vs raw pipe ==")
    overhead.main(["--moves", "5000"], standalone_mode=False)
    print("\n== Referee CPU per move against a raw pipe round trip (C children) ==")
    permove.main(["--acts", "3000", "--matches", "10"], standalone_mode=False)
    print("\n== Bot start-up and close, without and with the sandbox (per bot) ==")
    startup.main(["--bots", "40"], standalone_mode=False)
    print("\n== Tournament throughput (random bots, Manila, 3 seats) ==")
    tournament.main([], standalone_mode=False)
