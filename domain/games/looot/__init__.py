"""Looot (Charles Chevallier & Laurent Escoffier, Gigamic 2023), 2 to 4 players.

Sources: the rules summary /work/shared/rules/002_e0ff2b433ba8fc6f.txt and the component
data /work/shared/games/looot.md, whose "rule points that summaries get wrong" override the
summary. Modules: components (cards and values), board (the main board), fjord (a player's
board), state (incl. the turn's state machine), vikings (placement and captures), decide,
legal, evolve, setup, scoring, views, game (the `GAME` object).

Decisions where both sources are silent; each is one function, named here:
1. Board: the N boards used are drawn at random, each a random side up, and join as
   layouts.json shows for N players (`setup.draw_faces`, `board.assemble`). A config may fix
   the faces.
2. First player: drawn at random (`setup.draw_first_seat`).
3. Construction sites: each player gets one Port, one Altar and one Jarl Palace card drawn at
   random (`setup.deal_sites`).
4. Gained tiles: the player puts them on the Fjord one command each, in any order, before
   anything else; tiles that no longer fit on a full Fjord are lost (looot.md) at once
   (`decide._place_tile`, `decide._place_viking`).
5. Occupied-space Shield: the space must hold an opponent's Viking and none of the player's,
   and must still touch another Viking or a Longship (`vikings.may_share`).
6. Second-Viking Shield: usable after the first Viking's tiles are placed and before a
   Longship or Trophy is taken; Shields combine freely (`decide.may_place_second_viking`).
7. Longships and Trophies are end-of-turn actions, in either order; the turn ends with an
   explicit EndTurn (`state.step`).
8. Construction sites and Longships flip as soon as their needs are met, including a Longship
   put where its needs already are (`fjord.newly_completed`).
9. Watchtower pairs are paid once per player; a pair pays what its two stacks still hold
   (`vikings.watchtower_links`).
10. Castles: a player's group touching a Castle earns min(size // 4, 3) tiles from it in all,
    less those already taken there; the stack limits what is paid
    (`vikings.castle_tiles_owed`).
11. Trophy: a player may claim any free Trophy whose Axes they have (`decide._claim_trophy`).
12. Turn order: increasing seats from the first player; players out of Vikings are skipped and
    the game ends when nobody has any (`decide.next_seat`).
13. An ocean slot left empty once the bag is empty anchors no Viking
    (`vikings.anchor_spaces`).
14. Ranking: by points, then Trophy; equal on both share the rank (`scoring.rank_key`).
"""

from __future__ import annotations

from domain.games.looot.game import GAME

__all__ = ["GAME"]
