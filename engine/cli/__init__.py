"""The `horde` command line: thin Typer commands over the library (see `app`)."""
