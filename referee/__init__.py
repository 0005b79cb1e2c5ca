"""referee: a referee and tournament runner for board-game bots."""

__version__ = "0.2.0"
