// Follows a seat's live stream with the eventsource package (the browser's EventSource API),
// closing it after a seeded random number of messages and opening a new one where it left
// off: a fresh single-use ticket (the seat token never goes in a URL) and last_event_id.
// Prints one JSON line per message ({kind, id, data}) and a line {connect: n} per connection;
// stops once it has received the view at the version written to its standard input.
// Usage: node follow.mjs <base url> <game id> <seat token> <seed>
import { EventSource } from "eventsource";

const [base, gameId, token, seedText] = process.argv.slice(2);
let seed = Number(seedText) >>> 0;
function random() {
  // mulberry32: a small seeded generator, so a failing run can be repeated
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const BUDGETS = [0, 1, 1, 2, 3, 5];
let finalVersion = null;
let lastId = 0; // the last message's id: where a new connection resumes
let viewAt = -1; // the version of the last view (or patch) received
let connections = 0;
process.stdin.setEncoding("utf8");
process.stdin.on("data", (text) => {
  finalVersion = Number(text.trim());
  if (current !== null && viewAt >= finalVersion) {
    current.close();
    current = null;
  }
  maybeDone();
});

function print(line) {
  process.stdout.write(JSON.stringify(line) + "\n");
}

let current = null;
function maybeDone() {
  if (finalVersion !== null && viewAt >= finalVersion && current === null) {
    print({ done: connections });
    process.exit(0);
  }
}

async function connect() {
  const reply = await fetch(`${base}/v1/games/${gameId}/stream-tickets`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
  });
  if (reply.status !== 201) {
    print({ error: `ticket: ${reply.status} ${await reply.text()}` });
    process.exit(1);
  }
  const { ticket } = await reply.json();
  const url = `${base}/v1/games/${gameId}/stream?ticket=${ticket}&last_event_id=${lastId}`;
  connections += 1;
  print({ connect: connections, after: lastId });
  let budget = BUDGETS[Math.floor(random() * BUDGETS.length)];
  const source = new EventSource(url);
  current = source;
  const reopen = () => {
    source.close();
    current = null;
    if (finalVersion !== null && viewAt >= finalVersion) maybeDone();
    else setImmediate(connect);
  };
  source.onopen = () => {
    if (budget === 0) reopen();
  };
  source.onerror = (error) => {
    print({ error: `stream: ${error.message ?? error.code ?? "closed"}` });
    process.exit(1);
  };
  for (const kind of ["event", "view", "patch"]) {
    source.addEventListener(kind, (message) => {
      if (current !== source) return; // closed: a message already in flight
      lastId = Number(message.lastEventId);
      if (kind !== "event") viewAt = lastId;
      print({ kind, id: message.lastEventId, data: message.data });
      budget -= 1;
      if (budget <= 0) reopen();
      else if (finalVersion !== null && viewAt >= finalVersion) reopen();
    });
  }
}

connect();
