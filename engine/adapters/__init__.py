"""Adapters of horde games to agent libraries (the optional extra `[agents]`)."""
