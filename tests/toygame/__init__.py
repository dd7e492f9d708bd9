"""The dice race, a second game plugged into the platform through its public interfaces
only (docs/adding-a-game.md walks through it): an engine (``engine.py``, registered
with ``engine.core.game.register``), a front (``front.py``, registered with
``bot.games.register_front``), a render module (``render.py``) and a command group on
the generic lifecycle (``commands.py``).  Importing this package plugs it in."""

from bot.games import register_front
from engine.core.game import register
from tests.toygame.engine import RULES
from tests.toygame.front import FRONT

register(RULES)
register_front(FRONT)

from tests.toygame import commands  # noqa: E402,F401  (declares /race …)
