// boardgame.io's server for the bench: the race game, its Lobby API and socket.io on one port,
// state in memory or (--storage flatfile --dir DIR) in boardgame.io's FlatFile storage.
// Prints one line, "ready <port>", once it listens.
const { Server, FlatFile } = require('boardgame.io/server');
const { Race } = require('./race');

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

async function main() {
  const port = Number(option('port', '8000'));
  const storage = option('storage', 'memory');
  const config = { games: [Race], origins: ['*'] };
  if (storage === 'flatfile') {
    config.db = new FlatFile({ dir: option('dir', '.bgio-flatfile'), logging: false });
  } else if (storage !== 'memory') {
    throw new Error(`unknown storage ${storage}: memory or flatfile`);
  }
  const server = Server(config);
  const running = await server.run({ port, callback: () => console.log(`ready ${port}`) });
  const stop = () => {
    server.kill(running);
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
