"""One match: settings, the match loop, the record, its walker, replay and signatures. Imports
process/, api/ and games/.

``match`` (the match loop) also runs compiled when ``make setup`` has built it and it
matches its source (:mod:`referee.api.native`, ``docs/native.md``).
"""

from referee.api.native import accelerate

accelerate(__name__, __path__)  # before any module of the package is imported
