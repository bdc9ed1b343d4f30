"""A game's history: replay any game, audit any move, prove the draws were fair, repair.

- loading: one game's record read from the store as a snapshot at its head;
- record: that record decoded (rules version checked first), commands placed in the stream;
- disclosure: what a seat, a spectator or an operator may be shown of a game in progress;
- replay: the table at any version and the move list;
- audit: one move (by version or command id) with the table before and what it produced;
- fairness: the revealed seed against its commitment, every draw re-derived;
- verify, rebuild: operator checks over every stored game;
- repair, inspection: a damaged game's keys read, repaired or quarantined;
- archived_games: the store that reads Redis first, then the cold archive.
"""
