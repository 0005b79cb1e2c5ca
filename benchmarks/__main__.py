"""`make bench`: engine playouts, referee overhead, bot start-up, tournament throughput."""

from __future__ import annotations

from benchmarks import engines, overhead, startup, tournament

if __name__ == "__main__":
    print("== Rules engines: in-process random playouts (one core), against 04b8b0d ==")
    engines.main(
        [
            *("--seconds", "1.5", "--rounds", "2", "--baseline", "04b8b0d"),
            *("--case", "manila", "--case", "navegador:2-5", "--case", "puerto-rico:3-5"),
            *("--case", "roads-and-boats:2,4:bare"),
        ],
        standalone_mode=False,
    )
    print("\n== Referee CPU per move against a raw pipe round trip (C children) ==")
    overhead.main(["--acts", "3000", "--matches", "10"], standalone_mode=False)
    print("\n== Bot start-up and close, without and with the sandbox and reuse (per bot) ==")
    startup.main(["--bots", "40"], standalone_mode=False)
    print("\n== Tournament throughput (bundled bots, Manila, 3 seats, 60 matches) ==")
    tournament.main(["--rounds", "20"], standalone_mode=False)
