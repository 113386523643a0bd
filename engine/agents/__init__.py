"""What learning agents need of any game: fixed action ids, explicit chance, observations, pickles.

The libraries they live in (OpenSpiel, PettingZoo) are reached through engine.adapters;
this package needs none of them.
"""
