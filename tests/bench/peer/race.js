// The race game of Skald's tests (tests/fakes/race.py) for boardgame.io: two players alternate
// moves of 1-3 steps plus a die roll of 0-2 towards a target. The bench sets a target no race
// reaches, so every move stays legal, as on Skald's side.
const { INVALID_MOVE } = require('boardgame.io/core');

const MAX_STEPS = 3;

const Race = {
  name: 'race',
  setup: ({ ctx }, setupData) => ({
    positions: Array(ctx.numPlayers).fill(0),
    target: (setupData && setupData.target) || 20,
    moves: 0,
  }),
  moves: {
    move: ({ G, playerID, random }, steps) => {
      if (!Number.isInteger(steps) || steps < 1 || steps > MAX_STEPS) return INVALID_MOVE;
      G.positions[playerID] += steps + random.Die(3) - 1;
      G.moves += 1;
    },
  },
  turn: { minMoves: 1, maxMoves: 1 },
  endIf: ({ G }) => {
    const winner = G.positions.findIndex((position) => position >= G.target);
    return winner >= 0 ? { winner: String(winner) } : undefined;
  },
};

module.exports = { Race };
