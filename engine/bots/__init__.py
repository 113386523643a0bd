"""Bots: who plays a seat when no person does. See `base` for the interface and registry."""

from engine.bots.base import BOTS, Bot, Human, bot_names, is_human, make_bot, register_bot
from engine.bots.random_bot import RandomBot

__all__ = ["BOTS", "Bot", "Human", "RandomBot", "bot_names", "is_human", "make_bot",
           "register_bot"]
