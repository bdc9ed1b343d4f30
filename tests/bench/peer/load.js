// The load client of the bench's boardgame.io side, one process: race matches created through
// the Lobby API, two boardgame.io Clients per match over socket.io, and one of three runs,
// measured the way Skald's side is (tests/bench/load.py):
//   flood  every match plays --moves moves as fast as it can: each move is sent as soon as the
//          seat to move sees the previous one (the server refuses a move on a stale state);
//   paced  --rate moves per second offered over the matches (each match at its own phase) for
//          --warmup then --seconds seconds, each timed from the move until the other seat's
//          client shows it; with --rate 0 every match moves again as soon as it can (the
//          ceiling with the other seat notified).
// Protocol: prints "ready" once every client is synced, waits for "go" on stdin, prints
// "measuring" when the measured window opens (the bench reads the processes' CPU time then)
// and one JSON line with the results when it is over.
const readline = require('readline');
const { performance } = require('perf_hooks');
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Race } = require('./race');

const SETUP_CONCURRENCY = 32;
const TARGET = 1e9; // never reached: every move stays legal
const WARMUP_MOVES = 2; // per match, before a flood is timed

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

// A small seeded generator (mulberry32): the same steps in every run.
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function post(url, body) {
  const reply = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!reply.ok) throw new Error(`POST ${url}: ${reply.status} ${await reply.text()}`);
  return reply.json();
}

// One seat's client and the number of moves it has seen, with waiters on that number.
class Seat {
  constructor(server, matchID, playerID, credentials) {
    this.playerID = playerID;
    this.moves = -1;
    this.waiters = [];
    this.client = Client({
      game: Race,
      matchID,
      playerID,
      credentials,
      debug: false,
      multiplayer: SocketIO({ server, socketOpts: { transports: ['websocket'], forceNew: true } }),
    });
    this.client.subscribe((state) => this.seen(state));
    this.client.start();
  }

  seen(state) {
    if (!state || state.G.moves <= this.moves) return;
    this.moves = state.G.moves;
    const waiting = this.waiters;
    this.waiters = [];
    for (const waiter of waiting) {
      if (this.moves >= waiter.moves) waiter.resolve();
      else this.waiters.push(waiter);
    }
  }

  // Resolves once this seat has seen at least `moves` moves.
  sees(moves) {
    if (this.moves >= moves) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ moves, resolve }));
  }

  stop() {
    this.client.stop();
  }
}

class Match {
  constructor(seats, seed) {
    this.seats = seats;
    this.rng = seeded(seed);
    this.count = 0;
    this.turn = 0; // boardgame.io's default turn order starts with player '0'
  }

  // The seat to move sends its move (once its client shows its turn: the server refuses a
  // move made on a stale state); resolves once the other seat has seen it.
  async move() {
    const mover = this.seats[this.turn];
    const other = this.seats[1 - this.turn];
    await mover.sees(this.count);
    mover.client.moves.move(1 + Math.floor(this.rng() * 3));
    this.count += 1;
    this.turn = 1 - this.turn;
    await other.sees(this.count);
  }
}

async function openMatches(url, count) {
  const server = url;
  const matches = [];
  let next = 0;
  async function worker() {
    while (next < count) {
      const index = next++;
      const { matchID } = await post(`${url}/games/race/create`, {
        numPlayers: 2,
        setupData: { target: TARGET },
      });
      const seats = [];
      for (const playerID of ['0', '1']) {
        const joined = await post(`${url}/games/race/${matchID}/join`, {
          playerID,
          playerName: `seat ${playerID}`,
        });
        seats.push(new Seat(server, matchID, playerID, joined.playerCredentials));
      }
      matches[index] = new Match(seats, 1000 + index);
    }
  }
  await Promise.all(Array.from({ length: SETUP_CONCURRENCY }, worker));
  await Promise.all(matches.flatMap((match) => match.seats.map((seat) => seat.sees(0))));
  return matches;
}

async function play(matches, moves) {
  await Promise.all(
    matches.map(async (match) => {
      for (let n = 0; n < moves; n++) await match.move();
    }),
  );
}

// Timed after a first few moves per match, as on Skald's side (matches loaded, sockets warm).
async function flood(matches, moves) {
  await play(matches, WARMUP_MOVES);
  console.log('measuring');
  const started = performance.now();
  await play(matches, moves);
  const seconds = (performance.now() - started) / 1000;
  return { moves: matches.length * moves, seconds, per_s: (matches.length * moves) / seconds };
}

function sleepUntil(moment) {
  const delay = moment - performance.now();
  return delay > 0 ? new Promise((resolve) => setTimeout(resolve, delay)) : Promise.resolve();
}

async function paced(matches, rate, seconds, warmup) {
  const latencies = [];
  const interval = rate > 0 ? (matches.length / rate) * 1000 : 0;
  const started = performance.now();
  const measuredFrom = started + warmup * 1000;
  const deadline = measuredFrom + seconds * 1000;
  const phase = seeded(7);
  const opening = sleepUntil(measuredFrom).then(() => console.log('measuring'));
  await Promise.all([
    opening,
    ...matches.map(async (match) => {
      let nextAt = started + phase() * interval;
      for (;;) {
        await sleepUntil(nextAt);
        const sentAt = performance.now();
        if (sentAt >= deadline) return;
        await match.move();
        if (sentAt >= measuredFrom) latencies.push((performance.now() - sentAt) / 1000);
        nextAt += interval;
      }
    }),
  ]);
  const achieved = latencies.length / ((performance.now() - measuredFrom) / 1000);
  return { offered_per_s: rate, achieved_per_s: achieved, latencies };
}

async function main() {
  const url = option('url', 'http://127.0.0.1:8000');
  const mode = option('mode', 'flood');
  const matches = await openMatches(url, Number(option('matches', '10')));
  const input = readline.createInterface({ input: process.stdin });
  console.log('ready');
  for await (const line of input) if (line.trim() === 'go') break;
  let result;
  if (mode === 'flood') {
    result = await flood(matches, Number(option('moves', '10')));
  } else if (mode === 'paced') {
    const rate = Number(option('rate', '0'));
    result = await paced(matches, rate, Number(option('seconds', '3')), Number(option('warmup', '1')));
  } else {
    throw new Error(`unknown mode ${mode}: flood or paced`);
  }
  for (const match of matches) for (const seat of match.seats) seat.stop();
  // Exit once the line is written: a pipe takes it asynchronously, and exiting at once would
  // cut it at the pipe's buffer.
  process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
