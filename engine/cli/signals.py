"""SIGTERM and SIGHUP stop a command the way Ctrl-C does.

A terminal closed under a game (SIGHUP), or a service manager or `kill` stopping a long run
(SIGTERM), would otherwise end the process at once: a game played with `--save` lost its
decisions, and a `sim --jobs 2` left its worker processes writing into a closed pipe. Ctrl-C
already takes the careful way out everywhere — `KeyboardInterrupt`, on which a game is saved
and a run reports the games that finished — so these signals raise it too, in the main
thread. Only the first one does: a second SIGTERM while the game is being saved is ignored
(recorded), so the save is not cut short; SIGKILL is what stops a process that will not.
After SIGHUP the standard streams that were the terminal read end-of-input and write
nowhere: the terminal is gone, and an error writing to it must not cost the save.

`stop_signals()` is used around every command by `engine.cli.app`, and by anything else
that runs a game loop of its own (a full-screen app calls it the same way). The command
then exits as a shell reports a process ended by the signal (143 for SIGTERM, 129 for
SIGHUP), after the same work as Ctrl-C's 130. Worker processes are the parent's to stop
(`engine.sim.parallel`).
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

# SIGHUP does not exist on Windows: there, SIGTERM alone
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                     if hasattr(signal, name))


@dataclass
class Stop:
    """The stop signal received, if any (its number), while `stop_signals` was in force."""

    signum: int | None = None

    @property
    def exit_code(self) -> int:
        """What a shell reports for a process ended by the signal: 128 + its number."""
        return 128 + (self.signum or signal.SIGINT)


@contextmanager
def stop_signals() -> Iterator[Stop]:
    """Within: SIGTERM and SIGHUP raise KeyboardInterrupt in the main thread (the first of
    them; later ones are only recorded). The handlers before are put back on the way out.
    Outside the main thread, where Python cannot install handlers, nothing changes."""
    stop = Stop()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def handler(signum, _frame):
        if stop.signum is None:
            stop.signum = signum
            if signum == getattr(signal, "SIGHUP", None):
                _leave_terminal()
            raise KeyboardInterrupt
    before = {s: signal.signal(s, handler) for s in STOP_SIGNALS
              if signal.getsignal(s) is not signal.SIG_IGN}  # nohup's choice stays
    try:
        yield stop
    finally:
        for s, old in before.items():
            signal.signal(s, old)


def _leave_terminal() -> None:
    """After a hang-up the terminal is gone: reading it or writing to it fails (EIO), which
    would cut short the save that follows. Standard streams that were that terminal now
    read end-of-input and write nowhere; streams to files or pipes are kept."""
    try:
        devnull = os.open(os.devnull, os.O_RDWR)
    except OSError:
        return
    try:
        for fd in (0, 1, 2):
            try:
                if os.isatty(fd):
                    os.dup2(devnull, fd)
            except OSError:
                pass
    finally:
        os.close(devnull)
