"""`python -m engine ARGS` runs the `horde` command, for a checkout without the script installed."""

from engine.cli.app import main

main()
