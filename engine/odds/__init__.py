"""Exact odds calculators (pure: the standard library, and numpy for the big A&A tables): A&A Anniversary battles
(:mod:`engine.odds.aa`), A&A Miniatures attacks (:mod:`engine.odds.minis`) and Memoir '44
battle dice (:mod:`engine.odds.memoir`).  Everything is computed by exact dynamic
programming over dice outcomes and battle states; nothing is sampled."""
