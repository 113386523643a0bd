"""`horde serve` at the command line: where it listens, what it refuses, and what it says
when the [web] extra is missing. The game in a browser is tests/web/test_serve_browser.py."""

from __future__ import annotations

import http.client
import json
import socket
import sys

import pytest

from tests.web.conftest import free_port, listening

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="needs 127.0.0.2 to be a loopback address (Linux)")


def get(served, path: str = "/", **headers) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=20)
    try:
        connection.request("GET", path, headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


@linux_only
def test_listens_on_127_0_0_1_by_default(serve):
    served = serve("roll-them-bones")
    assert listening("127.0.0.1", served.port)
    assert not listening("127.0.0.2", served.port)  # it would, on 0.0.0.0
    assert get(served) == 200
    output = served.stop()
    assert (f"Serving Zombies!!! Roll Them Bones! on http://127.0.0.1:{served.port}/ "
            "(a game in each browser tab that opens it)") in output
    assert "Traceback" not in output
    assert served.process.returncode == 0  # Ctrl-C is how a server ends


@linux_only
def test_host_changes_the_address(serve):
    served = serve("roll-them-bones", "--host", "127.0.0.2", wait_on="127.0.0.2")
    assert not listening("127.0.0.1", served.port)
    assert f"on http://127.0.0.2:{served.port}/" in served.stop()


def test_pages_and_games_only_for_the_servers_own_address(serve):
    """A web site whose name points at 127.0.0.1 gets no page, and another site's page
    cannot start a game through the websocket."""
    served = serve("roll-them-bones")
    assert get(served, Host=f"localhost:{served.port}") == 200
    assert get(served, Host=f"evil.example:{served.port}") == 403
    upgrade = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
               "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
    assert get(served, "/ws", Origin="http://evil.example", **upgrade) == 403
    assert get(served, "/ws", Origin=f"http://127.0.0.1:{served.port}", **upgrade) == 101


def saved(served) -> list[dict]:
    """The games autosaved so far (a file still empty is a game not saved yet)."""
    return [json.loads(text) for f in served.data.rglob("*.json") if (text := f.read_text())]


def play_in_tabs(served, tabs: int) -> list[dict]:
    """Open `tabs` tabs at once (websockets, as the page opens them), press Enter in each
    once its game is drawn (the highlighted choice), and return the games autosaved."""
    import asyncio

    import aiohttp

    async def tab(session) -> None:
        async with session.ws_connect(f"ws://127.0.0.1:{served.port}/ws?width=80&height=24") as websocket:
            await asyncio.wait_for(websocket.receive(), 60)  # the app starts drawing
            while True:  # and has drawn when its output pauses
                try:
                    await asyncio.wait_for(websocket.receive(), 2)
                except TimeoutError:
                    break
            await websocket.send_json(["stdin", "\r"])
            for _ in range(300):
                if len(saved(served)) == tabs:
                    return
                await asyncio.sleep(0.1)

    async def all_tabs() -> None:
        async with aiohttp.ClientSession() as session:
            await asyncio.gather(*(tab(session) for _ in range(tabs)))

    asyncio.run(all_tabs())
    records = saved(served)
    assert len(records) == tabs, served.stop()
    return records


def test_each_tab_plays_the_game_the_options_give(serve):
    """A tab starts a game with the pack and options given to `horde serve`, as its
    autosaved record says."""
    served = serve("roll-them-bones", "--players", "human,random", "--seed", "7",
                   "--set", "health=4", "--house", "quick", "--delay", "0.00001")
    [record] = play_in_tabs(served, 1)
    assert (record["pack"], record["seed"], record["bots"]) == ("roll-them-bones", 7, ["human", "random"])
    assert record["params"] == {"health": "4"}
    assert [h["path"].rsplit("/", 1)[-1] for h in record["house"]] == ["quick.yaml"]


def test_one_game_per_tab(serve):
    """Two tabs opened together play two games, each autosaved in its own file: in each,
    Enter takes the highlighted choice, and each file holds that decision (and the bot's
    after it)."""
    records = play_in_tabs(serve("roll-them-bones", "--players", "human,random"), 2)
    assert all(r["decisions"] for r in records)
    assert records[0]["seed"] != records[1]["seed"]  # no --seed: a new game in each tab


@pytest.mark.parametrize("args, message", [
    (["--port", "0"], "--port 0: a port is a number from 1 to 65535"),
    (["--port", "70000"], "--port 70000: a port is a number from 1 to 65535"),
    (["--host", "no-such-host.invalid"], "--host no-such-host.invalid: no such address"),
    (["--host", "203.0.113.7"], "cannot listen on 203.0.113.7:8000"),  # not this machine's
    (["--players", "human,nobody"], "nobody"),
])
def test_a_bad_address_or_option_is_one_clear_error(horde, args, message):
    pytest.importorskip("textual_serve", reason="the [web] extra is not installed")
    r = horde("serve", "roll-them-bones", *args)
    assert r.exit_code == 1, r.output
    assert message in r.output


def test_a_port_in_use_is_one_clear_error(horde):
    pytest.importorskip("textual_serve", reason="the [web] extra is not installed")
    with socket.socket() as taken:
        port = free_port()
        taken.bind(("127.0.0.1", port))
        taken.listen()
        r = horde("serve", "roll-them-bones", "--port", port)
    assert r.exit_code == 1
    assert f"cannot listen on 127.0.0.1:{port}" in r.output
    assert "choose another --port" in r.output


def test_without_the_web_extra_it_says_how_to_install_it(horde, monkeypatch):
    monkeypatch.setitem(sys.modules, "textual_serve", None)  # `import textual_serve` fails
    monkeypatch.setitem(sys.modules, "textual_serve.server", None)
    r = horde("serve", "roll-them-bones")
    assert r.exit_code == 1
    assert "horde serve needs textual-serve, which is not installed" in r.output
    assert "pip install 'horde[web]'" in r.output
