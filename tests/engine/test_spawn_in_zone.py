"""`spawn(kind, zone)` works in a pack without a board: the entity is made in the zone.
Only a place that needs a board (a cell) is an error, and it says so."""

from engine.api import load

PACK = """\
pack: tokens
players: {min: 2, max: 2}
kinds:
  - {id: token, fields: {face: 0}}
zones:
  cup: {per: player, visible: owner}
  pool: {}
flow:
  - do: |
      t = spawn('token', current.cup)
      t.face = 3
      spawn('token', pool)
      end_game()
"""


def test_spawn_makes_the_entity_in_the_zone(tmp_path):
    (tmp_path / "pack.yaml").write_text(PACK)
    S = load(tmp_path).new_state(players=2, seed=1)
    assert S.decision() is None and S.is_terminal()
    (mine,), (pooled,) = S.zones["cup#0"], S.zones["pool"]
    assert S.ents[mine] == {"id": "token", "@z": "cup#0", "face": 3}
    assert S.ents[pooled]["id"] == "token" and S.zones["cup#1"] == []
    assert S.view(1)["zones"]["cup#0"] == {"hidden": 1}  # the cup's owner alone sees in


def test_spawn_on_a_place_without_a_board_is_a_clear_error(horde, tmp_path):
    (tmp_path / "pack.yaml").write_text(PACK.replace("spawn('token', pool)", "spawn('token', 3)"))
    result = horde("sim", tmp_path, "-n", "1")
    assert result.exit_code == 1
    assert "spawn: this pack declares no board, so a piece is spawned in a zone, not at 3" \
        in result.output
