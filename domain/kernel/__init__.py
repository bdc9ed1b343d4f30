"""What the games share, written once: every game package builds on these, none on another game.

- `rules_game`: `Rules`, a game's rules as functions, and `RulesGame`, the base that serves the
  protocol of `domain/engine.py` from them, so a game's `game.py` holds only its metadata;
- `recorder`: `Recorder`, the events of one decision, each applied to a scratch state as it is
  emitted, so a command's later rules see what its earlier events did;
- `ranking`: `ranked`, the outcome of final scores ranked by total, then by tie-breakers;
- `seats`: seat rotation round the table (the next seat, the order from a first player).
"""
