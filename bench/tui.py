"""The full-screen table's speed: a person's decisions per second through Textual's Pilot.

A person at the table waits, after each key, for the screen to be drawn again; in a test
that plays a whole game through `App.run_test()` that redraw is most of the time. This
bench plays DECISIONS decisions of a person in games of each pack at 80x24 (one person
following the pack's greedy policy, as tests/tui/test_whole_games.py does, against a random
bot), and prints per pack the person's decisions per second and the milliseconds a decision
takes, in wall time and in CPU time of the process (the bots' thread included; the machine
may be shared). `--profile FILE` writes a cProfile of the runs (read it with `python -m pstats`).

    python -m bench.tui                                 # every pack, 40 decisions each
    python -m bench.tui --packs defcon-z/competitive --decisions 80 --profile tui.prof
    python -m bench.tui --json after.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time

SIZE = (80, 24)


async def _play(pack: str, mode: str | None, seed: int, decisions: int) -> dict:
    from engine.api import load
    from engine.bots import make_bot
    from engine.render.panels import spoken
    from engine.tui.app import TableApp
    from engine.tui.panes import ChoicesPane
    from engine.tui.table import Table

    game = load(pack, mode=mode)
    specs = ["human", "random"]
    bots = [make_bot(s, 10 + k, game) for k, s in enumerate(specs)]
    app = TableApp(Table(game, specs, bots, game.new_state(players=2, seed=seed), pack))
    advisor = make_bot("greedy", 5, game)
    made = 0
    async with app.run_test(size=SIZE) as pilot:
        pane = app.query_one(ChoicesPane)

        async def ready() -> bool:
            while not app.ended:
                if pane.option_count and app.shown:
                    return True
                await pilot.pause(0.005)
            return False

        await ready()
        wall, cpu = time.perf_counter(), time.process_time()
        while made < decisions and await ready():
            shown = [str(pane.get_option_at_index(k).prompt).partition(". ")[2].split("  ")[0]
                     for k in range(pane.option_count)]
            S = app.table.state
            number = shown.index(spoken(advisor.choose(S, S.decision()))) + 1
            await pilot.press(*str(number))
            if number * 10 <= len(shown):
                await pilot.press("enter")
            made += 1
        await ready()  # the screen after the last decision, drawn
        await pilot.pause()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"decisions": made, "wall_s": wall, "cpu_s": cpu}


def measure(pack: str, mode: str | None, seed: int, decisions: int) -> dict:
    """DECISIONS decisions of a person, in as many games (seeds seed, seed+1, …) as it takes."""
    made, wall, cpu, games = 0, 0.0, 0.0, 0
    while made < decisions and games < 50:
        r = asyncio.run(_play(pack, mode, seed + games, decisions - made))
        made, wall, cpu, games = made + r["decisions"], wall + r["wall_s"], cpu + r["cpu_s"], games + 1
    return {"decisions": made, "games": games, "wall_s": wall, "cpu_s": cpu,
            "per_s": made / wall if wall else 0.0,
            "ms_wall": 1e3 * wall / max(made, 1), "ms_cpu": 1e3 * cpu / max(made, 1)}


def workloads(names: list[str] | None) -> list[tuple[str, str | None]]:
    from engine.pack.loader import list_packs

    if names:
        return [(n.partition("/")[0], n.partition("/")[2] or None) for n in names]
    return [(p.id, None) for p in list_packs()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.tui", description=__doc__.splitlines()[0])
    ap.add_argument("--packs", nargs="*", metavar="PACK", help="pack or pack/mode (default: every pack)")
    ap.add_argument("--decisions", type=int, default=40, help="a person's decisions per pack")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--profile", metavar="FILE", help="write a cProfile of the runs here")
    ap.add_argument("--json", metavar="OUT.json", help="write the figures as JSON")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    os.environ["HORDE_DATA_DIR"] = tempfile.mkdtemp(prefix="bench-tui-")  # the autosaves
    profiler = None
    if args.profile:
        import cProfile
        profiler = cProfile.Profile()
    results = {}
    for pack, mode in workloads(args.packs):
        name = f"{pack}/{mode}" if mode else pack
        if profiler is not None:
            profiler.enable()
        r = measure(pack, mode, args.seed, args.decisions)
        if profiler is not None:
            profiler.disable()
        results[name] = r
        print(f"{name:24} {r['decisions']:4d} decisions ({r['games']} games) {r['per_s']:5.1f}/s "
              f"{r['ms_wall']:7.1f} ms wall  {r['ms_cpu']:7.1f} ms cpu a decision", flush=True)
    if profiler is not None:
        profiler.dump_stats(args.profile)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
