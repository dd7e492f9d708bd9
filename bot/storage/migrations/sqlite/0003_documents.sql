-- Versioned documents: state that is not a game (leagues, ratings, pending reports,
-- daily roll seeds), kept as JSON under (kind, key) and changed only on the version read.
CREATE TABLE documents (
    kind       TEXT    NOT NULL,
    key        TEXT    NOT NULL,
    version    INTEGER NOT NULL,
    data       TEXT    NOT NULL,
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (kind, key)
);
