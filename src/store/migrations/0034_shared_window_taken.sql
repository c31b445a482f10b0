-- How many events the last statement on a counter added (SharedWindowRepo::take): a node that
-- takes a block of a window's events at once learns how much of it it got.
ALTER TABLE shared_windows ADD COLUMN taken INTEGER NOT NULL DEFAULT 0;
