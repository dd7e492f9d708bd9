-- The parts of a game's snapshot stored apart (its map and unit cards, …): written only
-- when they change, so a commit no longer rewrites them (bot/storage/snapshots.py).
ALTER TABLE games ADD COLUMN parts TEXT;
