"""Roads & Boats (Splotter Spellen, 3rd edition, 2003): rules engine for 1-4 players."""

from referee.games.roads_and_boats.game import RoadsAndBoats

GAME = RoadsAndBoats()
