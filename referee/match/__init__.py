"""One match: settings, the match loop, the record, its walker, replay and signatures. Imports
process/, api/ and games/."""
