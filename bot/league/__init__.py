"""League play: a pure core (no Discord, no database, no clock) and its wiring.

- :mod:`bot.league.model` — the frozen values (League, Player, Round, Pairing, Bye,
  Result, Scoring, Tiebreak) and the parsers for results, scoring and tiebreak lists;
- :mod:`bot.league.ops` — the operations (create, sign up, leave, start, record and
  set results, byes, drop, next round) returning new leagues;
- :mod:`bot.league.pairing` — round-robin and Swiss pairing;
- :mod:`bot.league.standings` — points and tiebreaks, exactly;
- :mod:`bot.league.reports` — results reported by a player and confirmed by the opponent;
- :mod:`bot.league.ratings` — OpenSkill ratings per server and game kind;
- :mod:`bot.league.export` — CSV, the ``league show --json`` shape, text tables;
- :mod:`bot.league.codec` — JSON for storage.

On the platform (these know the repository and the channels):

- :mod:`bot.league.store` — leagues, matches, reports and ratings as versioned documents;
- :mod:`bot.league.play` — match threads, results from game ends, ratings, deadlines;
- :mod:`bot.league.commands` — ``/league …``, ``/rating``, ``/leaderboard``.

docs/league.md describes the rules these modules follow.
"""
