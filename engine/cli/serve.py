"""`horde serve`: the game app of `horde play` in a web browser, through textual-serve.

textual-serve runs one command per browser tab, with TEXTUAL_DRIVER naming Textual's web
driver, and relays the tab's keys, clicks and size to it. That command is `horde play`
with the options given here, so a tab is one game, exactly as at a terminal; everything is
checked here first (the pack, the seats, the address), so a mistake is one error at the
terminal instead of a broken game in every tab.

The server listens on 127.0.0.1 unless told otherwise. A page is served only to a browser
that asked for it by a loopback name when the server listens on a loopback address (so a
web site whose name is made to point at 127.0.0.1 cannot drive it), and a game starts only
from a page of the server itself (the websocket's Origin must be the server's own address).
textual-serve ships with the `[web]` extra: without it, one line says how to install it.
"""

from __future__ import annotations

import ipaddress
import logging
import shlex
import socket
import sys
from typing import Annotated
from urllib.parse import urlsplit

import typer

from engine.cli.common import HouseOpt, ModeOpt, PackArg, SetOpt, load_game, whole
from engine.cli.play import DelayOpt, ScoresForBotsOpt, seat_specs
from engine.errors import HordeError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
INSTALL = "pip install 'horde[web]'"
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain"})
# how a tab runs `horde`: the same Python, the same code, whatever the PATH holds
HORDE = [sys.executable, "-c", "from engine.cli.app import main; main()"]


def serve(
    pack: PackArg,
    mode: ModeOpt = None,
    house: HouseOpt = None,
    set_: SetOpt = None,
    players: Annotated[str | None, typer.Option(
        "--players", "-p", metavar="SEATS",
        help="Who sits at each seat, as for `horde play`: e.g. human,random, or a number "
             "(you plus random bots).")] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", "-s", parser=whole(),
        help="Random seed: every tab plays the same game. Default: a new game in each tab.")
    ] = None,
    delay: DelayOpt = 0.0,
    scores_for_bots: ScoresForBotsOpt = False,
    host: Annotated[str, typer.Option(
        "--host", metavar="ADDRESS",
        help="The address to listen on. 0.0.0.0 lets other machines play: anyone who can "
             "reach it can start games.")] = DEFAULT_HOST,
    port: Annotated[int, typer.Option(
        "--port", metavar="PORT", parser=whole(), help="The port to listen on.")] = DEFAULT_PORT,
) -> None:
    """Serve the game app to web browsers: each browser tab that opens the address plays a
    game of PACK, with the options `horde play` takes. Ctrl-C stops the server."""
    from engine.bots import make_bot
    from engine.record import SEEDS

    server_class = _textual_serve()
    game = load_game(pack, mode, house, set_)
    specs = seat_specs(players, game)
    for spec in specs:
        make_bot(spec, 0, game)  # an unknown bot is an error here, not in every tab
    if seed is not None and seed not in SEEDS:
        raise HordeError(f"--seed {seed}: not a 64-bit number", hint="a record could not keep it")
    host = host.strip()
    check_address(host, port)
    options = play_options(mode, house, set_, players, seed, delay, scores_for_bots)
    command = shlex.join([*HORDE, "play", *options, "--", pack])  # a PACK may start with -
    server = make_server(server_class, command, host, port, game.title)
    try:
        server.serve()  # until Ctrl-C
    except OSError as exc:  # the address was taken between the check and now
        raise HordeError(f"cannot listen on {url_host(host)}:{port}: {exc.strerror or exc}") from None


def play_options(mode, house, sets, players, seed, delay, scores_for_bots) -> list[str]:
    """The command-line options of `horde play` that give the same game."""
    options: list[str] = []
    if mode is not None:
        options += ["--mode", mode]
    for h in house or []:
        options += ["--house", h]
    for s in sets or []:
        options += ["--set", s]
    if players is not None:
        options += ["--players", players]
    if seed is not None:
        options += ["--seed", str(seed)]
    if delay:
        options += ["--delay", f"{delay:f}"]  # digits only, as --delay reads them
    if scores_for_bots:
        options.append("--scores-for-bots")
    return options


def _textual_serve():
    try:
        from textual_serve.server import Server
    except ImportError:
        raise HordeError("horde serve needs textual-serve, which is not installed",
                         hint=f"install the web extra: {INSTALL}") from None
    return Server


def check_address(host: str, port: int) -> None:
    """That the server can listen on host:port, said before it starts: a name that does
    not resolve, a port out of range or one already taken is one clear error."""
    if not 1 <= port <= 65535:
        raise HordeError(f"--port {port}: a port is a number from 1 to 65535",
                         hint=f"for example --port {DEFAULT_PORT}")
    if not host:
        raise HordeError("--host is empty", hint=f"for example --host {DEFAULT_HOST}")
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        why = exc.strerror if isinstance(exc, socket.gaierror) else "not a host name"
        raise HordeError(f"--host {host}: no such address ({why})",
                         hint=f"an address of this machine, such as {DEFAULT_HOST} or 0.0.0.0") from None
    for family, kind, proto, _, address in addresses:
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will
            try:
                s.bind(address)
            except OSError as exc:
                hint = ("another program listens there: choose another --port"
                        if exc.errno in (98, 48) else  # EADDRINUSE on Linux, on macOS
                        f"an address of this machine, such as {DEFAULT_HOST} or 0.0.0.0")
                raise HordeError(f"cannot listen on {url_host(host)}:{port}: {exc.strerror}",
                                 hint=hint) from None


def url_host(host: str) -> str:
    """The host as a URL writes it: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host else host


def is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def make_server(server_class, command: str, host: str, port: int, title: str):
    """A textual-serve Server for `command` that tells each page the address its browser
    used (so it works as well by name as by number, and on 0.0.0.0), says what it serves
    in words, refuses pages and games that other web sites ask for, and stops at once on
    Ctrl-C: the tabs' games are told to quit (each saves itself) and waited for."""
    import asyncio

    from aiohttp import WSCloseCode, web
    from textual_serve.app_service import AppService

    local = is_loopback(host)

    class HordeServer(server_class):
        tabs: set = set()

        def allowed(self, request) -> bool:
            name = (request.url.host or "").strip("[]")
            if local and not is_loopback(name):
                return False  # a web site's name made to point at this machine
            origin = request.headers.get("Origin")
            return origin is None or urlsplit(origin).netloc == request.host

        async def handle_index(self, request):
            if not self.allowed(request):
                raise web.HTTPForbidden(text=f"open http://{url_host(host)}:{port}/")
            self.public_url = f"http://{request.host}"
            return await super().handle_index(request)

        async def handle_websocket(self, request):
            """A tab: its game runs as long as the page is open."""
            if not self.allowed(request):
                raise web.HTTPForbidden(text="a game starts only from this server's own page")
            websocket = web.WebSocketResponse(heartbeat=15)
            await websocket.prepare(request)

            async def close() -> None:
                await websocket.close()

            game = AppService(self.command, write_bytes=websocket.send_bytes,
                              write_str=websocket.send_str, close=close,
                              download_manager=self.download_manager)
            self.tabs.add(websocket)
            try:
                await game.start(_size(request, "width", 80), _size(request, "height", 24))
                await self._process_messages(websocket, game)
            finally:
                self.tabs.discard(websocket)
                await game.stop()  # asks the game to quit
                await _ended(getattr(game, "_process", None))
            return websocket

        async def on_startup(self, app) -> None:
            self.console.print(f"Serving {title} on http://{url_host(host)}:{port}/ "
                               "(a game in each browser tab that opens it)", highlight=False,
                               soft_wrap=True)
            self.console.print("Press Ctrl+C to stop.", highlight=False)

        async def on_shutdown(self, app) -> None:
            for websocket in list(self.tabs):
                await websocket.close(code=WSCloseCode.GOING_AWAY, message=b"server stopped")

        def initialize_logging(self) -> None:
            handler = logging.StreamHandler()
            handler.setFormatter(OneLine())
            logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)
            logging.getLogger("aiohttp.access").setLevel(logging.WARNING)

        def serve(self, debug: bool = False) -> None:
            self.initialize_logging()
            web.run_app(self._make_app(), host=self.host, port=self.port, print=None,
                        shutdown_timeout=GRACE)

    async def _ended(process) -> None:
        if process is None:
            return
        try:
            await asyncio.wait_for(process.wait(), GRACE)
        except TimeoutError:
            process.kill()
            await process.wait()

    return HordeServer(command, host=host, port=port, title=title)


GRACE = 10  # seconds a tab's game has to quit when its page closes or the server stops


def _size(request, name: str, default: int) -> int:
    """The page's terminal size in cells, from the websocket's address."""
    text = request.query.get(name, "")
    return min(int(text), 1000) if text.isascii() and text.isdigit() and int(text) > 0 else default


class OneLine(logging.Formatter):
    """Log records as one line each: a failure is named, never shown as a traceback."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            message += f" ({type(exc).__name__}: {exc})"
        return message


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
