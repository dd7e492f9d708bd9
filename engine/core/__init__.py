"""Pieces every game engine shares: hex grid, dice, errors, events, the game protocol."""
