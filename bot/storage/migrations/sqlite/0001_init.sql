-- Games, seats, players and the append-only order log.
CREATE TABLE players (
    id          INTEGER PRIMARY KEY,          -- the Discord user id
    name        TEXT    NOT NULL,
    first_seen  TEXT    NOT NULL,
    last_seen   TEXT    NOT NULL
);

CREATE TABLE games (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    channel_id    INTEGER NOT NULL,           -- a channel, or a thread for league matches
    guild_id      INTEGER,
    kind          TEXT    NOT NULL,           -- 'minis', later 'memoir', 'aa'
    status        TEXT    NOT NULL CHECK (status IN ('open', 'active', 'finished', 'aborted')),
    host_id       INTEGER NOT NULL,
    options       TEXT    NOT NULL,           -- JSON
    version       INTEGER NOT NULL,           -- bumped by every committed change
    snapshot      TEXT    NOT NULL,           -- JSON of the engine state at this version
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL,
    waiting_since TEXT,                       -- when the decision we wait for began
    reminded_at   TEXT,
    carry_dice    TEXT    NOT NULL DEFAULT '[]'  -- dice of undone orders, used first
);
-- One game that is not over per channel.
CREATE UNIQUE INDEX games_one_live_per_channel ON games(channel_id)
    WHERE status IN ('open', 'active');

CREATE TABLE seats (
    game_id   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat      TEXT    NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE orders (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,              -- the game version this row produced
    kind       TEXT    NOT NULL CHECK (kind IN ('new', 'order', 'undo', 'seat', 'admin')),
    actor_id   INTEGER,
    seat       TEXT    NOT NULL,
    text       TEXT    NOT NULL,
    events     TEXT    NOT NULL,              -- JSON list
    dice       TEXT    NOT NULL,              -- JSON list of every die rolled, in order
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- The log is append-only: rows are never changed or removed.
CREATE TRIGGER orders_append_only_update BEFORE UPDATE ON orders
BEGIN SELECT RAISE(ABORT, 'the order log is append-only'); END;

CREATE TABLE guild_settings (
    guild_id          INTEGER PRIMARY KEY,
    moderator_role_id INTEGER
);
