"""The interface games and bot authors program against: the engine, the render interface, rng,
playout. Imports nothing of the referee but referee.errors."""
