"""Warroom's bot: the only package that knows Discord, the database and the clock."""
