/** Looot: the main board (land spaces, the ocean's Longships), each player's Fjord, the
 * Trophies; the seat's legal moves as targets on them. */
import { centre, viewBox } from '../hex';
import { sentence, words } from '../moves';
import { useSeatName } from '../names';
import { type CommandOf, gameOps, type ViewOf } from '../ops';
import { type Picking, Target } from '../target';
import { HexShape, Label, Player, SEAT_COLOURS, Swatch } from './draw';
import type { GameUi } from './types';

type View = ViewOf<'looot'>;
type LoootCommand = CommandOf<'looot'>;
const SIZE = 30;
const TERRAIN: Record<string, string> = {
  axe: '#b9b9c4',
  wood: '#5f9a4a',
  sheep: '#c9e6a0',
  gold: '#f1c84b',
  house: '#c98b5a',
  watchtower: '#a5714d',
  castle: '#8a6a9a',
};
// Each resource and building by its initial (the legend under the board says which is which).
const GLYPH: Record<string, string> = {
  axe: 'A',
  wood: 'W',
  sheep: 'S',
  gold: 'G',
  house: 'H',
  watchtower: 'T',
  castle: 'C',
};

function Hex(props: {
  q: number;
  r: number;
  fill: string;
  cls?: string;
  children?: preact.ComponentChildren;
}) {
  const at = centre(props.q, props.r, SIZE, 'flat');
  return (
    <g class={props.cls}>
      <HexShape at={at} size={SIZE * 0.96} orientation="flat" fill={props.fill} stroke="#444" />
      {props.children}
    </g>
  );
}

function glyph(q: number, r: number, text: string, dy = 5) {
  return (
    <Label at={centre(q, r, SIZE, 'flat')} dy={dy} class="glyph">
      {text}
    </Label>
  );
}

function Ship(props: { q: number; r: number; text: string }) {
  const [x, y] = centre(props.q, props.r, SIZE, 'flat');
  return (
    <g class="ship">
      <path
        d={`M${x - 14},${y + 2} h28 l-6,9 h-16 z M${x},${y + 2} v-16 l10,12 z`}
        fill="#7a4b2a"
        stroke="#2b1a0e"
      />
      <text x={x} y={y - 2} text-anchor="end" class="small">
        {props.text}
      </text>
    </g>
  );
}

function Legend() {
  return (
    <p class="legend small">
      {Object.entries(GLYPH).map(([name, letter]) => (
        <span key={name}>
          <Swatch colour={TERRAIN[name]} square /> {letter} {name}{' '}
        </span>
      ))}
    </p>
  );
}

function MainBoard(props: { view: View; picking?: Picking }) {
  const { view, picking } = props;
  const all = [...view.land.map((l) => l.space), ...view.ocean.map((o) => o.space)].map(([q, r]) =>
    centre(q, r, SIZE, 'flat'),
  );
  return (
    <svg class="board" viewBox={viewBox(all, SIZE)} role="group" aria-label="The main board">
      {view.land.map((l) => {
        const [q, r] = l.space;
        const key = `land:${q},${r}`;
        return (
          <Target key={key} picking={picking} k={key} label={`${l.terrain} space (${q}, ${r})`}>
            <Hex q={q} r={r} fill={TERRAIN[l.terrain] ?? '#ddd'}>
              {glyph(q, r, GLYPH[l.terrain] ?? l.terrain[0], -4)}
              {l.tiles_left > 0 && ['house', 'watchtower', 'castle'].includes(l.terrain)
                ? glyph(q, r, `×${l.tiles_left}`, 14)
                : null}
              {l.vikings.map((seat, i) => {
                const [x, y] = centre(q, r, SIZE, 'flat');
                return (
                  <circle
                    key={i}
                    class="viking"
                    cx={x - 8 + i * 10}
                    cy={y + 12}
                    r={5}
                    fill={SEAT_COLOURS[seat]}
                    stroke="#111"
                  />
                );
              })}
            </Hex>
          </Target>
        );
      })}
      {view.ocean.map((o) => {
        const [q, r] = o.space;
        const key = `slot:${o.slot}`;
        return (
          <Target
            key={key}
            picking={picking}
            k={key}
            label={
              o.longship
                ? `Longship ${o.longship.id} in slot ${o.slot}`
                : `empty ocean slot ${o.slot}`
            }
          >
            <Hex q={q} r={r} fill="#5b9bd5">
              {o.longship ? <Ship q={q} r={r} text={`${o.longship.id}`} /> : null}
            </Hex>
          </Target>
        );
      })}
    </svg>
  );
}

function Fjord(props: { view: View; seat: number; picking?: Picking }) {
  const { view, seat } = props;
  const name = useSeatName();
  const fjord = view.fjords[seat];
  // A seat's own view; in a public view (an audit), the seat acting.
  const mine = (view.viewer ?? view.turn?.seat) === seat ? props.picking : undefined;
  const tiles = new Map(fjord.tiles.map((t) => [`${t.space[0]},${t.space[1]}`, t.tile]));
  const ships = new Map(fjord.longships.map((l) => [`${l.space[0]},${l.space[1]}`, l]));
  const sites = new Map(fjord.sites.map((s) => [`${s.space[0]},${s.space[1]}`, s]));
  const all = view.fjord_spaces.map(([q, r]) => centre(q, r, SIZE, 'flat'));
  return (
    <figure class={`fjord${view.turn?.seat === seat ? ' acting' : ''}`}>
      <figcaption>
        <Player seat={seat} viewer={view.viewer} colour={SEAT_COLOURS[seat]} />:{' '}
        {fjord.vikings_left} vikings left
        {fjord.trophy !== null ? `, trophy ${fjord.trophy} axes` : ''}
        {fjord.shields.length ? `, shields: ${fjord.shields.map(words).join(', ')}` : ''}
      </figcaption>
      <svg
        class="fjord-board"
        viewBox={viewBox(all, SIZE)}
        role="group"
        aria-label={`${name(seat)}'s Fjord`}
      >
        {view.fjord_spaces.map(([q, r]) => {
          const here = `${q},${r}`;
          const tile = tiles.get(here);
          const ship = ships.get(here);
          const site = sites.get(here);
          const fill = tile
            ? TERRAIN[tile]
            : ship
              ? '#5b9bd5'
              : site
                ? site.completed
                  ? '#f6e3a1'
                  : '#efe9dc'
                : '#f4f1ea';
          return (
            <Target
              key={here}
              picking={mine}
              k={`fjord:${here}`}
              label={`Fjord space (${q}, ${r})`}
            >
              <Hex q={q} r={r} fill={fill} cls={tile ? 'has-tile' : ship ? 'has-ship' : undefined}>
                {tile ? glyph(q, r, GLYPH[tile] ?? tile) : null}
                {ship ? <Ship q={q} r={r} text={ship.filled ? '✓' : ''} /> : null}
                {site && !tile
                  ? glyph(q, r, site.site === 'jarl_palace' ? 'J' : site.site[0].toUpperCase())
                  : null}
              </Hex>
            </Target>
          );
        })}
      </svg>
      <ul class="sites">
        {fjord.sites.map((s) => (
          <li key={s.site}>
            {words(s.site)}: {s.points} points, needs {s.needs.join(', ')}
            {s.completed ? ' ✓' : ''}
          </li>
        ))}
        {fjord.longships.map((l) => (
          <li key={l.longship.id}>
            Longship {l.longship.id}: needs {l.longship.needs.join(', ')}, +{l.longship.bonus}{' '}
            {l.longship.boosts}
            {l.filled ? ' ✓' : ''}
          </li>
        ))}
      </ul>
    </figure>
  );
}

function Board(props: { view: View; picking?: Picking }) {
  const { view } = props;
  const { picking } = props;
  const name = useSeatName();
  const pending =
    view.turn && view.turn.seat === (view.viewer ?? view.turn.seat) ? view.turn.pending : [];
  return (
    <div class="looot">
      <MainBoard view={view} picking={picking} />
      <Legend />
      <section class="trophies" aria-label="Trophies">
        <h3>Trophies</h3>
        {view.trophies.map((t) => (
          <Target
            html
            key={t.axes}
            picking={picking}
            k={`trophy:${t.axes}`}
            label={`Trophy for ${t.axes} axes`}
          >
            <span class="trophy">
              Trophy: {t.axes} axes · {t.points} points
              {t.holder !== null ? ` · ${name(t.holder)}` : ''}
            </span>
          </Target>
        ))}
      </section>
      {pending.length > 0 && (
        <section class="pending" aria-label="Tiles to place">
          <h3>Your tiles to place</h3>
          {[...new Set(pending)].map((tile) => (
            <Target html key={tile} picking={picking} k={`tile:${tile}`} label={`${tile} tile`}>
              <span class="pending-tile">
                {GLYPH[tile]} {tile}
              </span>
            </Target>
          ))}
        </section>
      )}
      <div class="fjords-row">
        {view.fjords.map((f) => (
          <Fjord key={f.seat} view={view} seat={f.seat} picking={picking} />
        ))}
      </div>
    </div>
  );
}

function keysOf(command: LoootCommand): string[] {
  const space = (kind: string, [q, r]: readonly number[]) => `${kind}:${q},${r}`;
  switch (command.type) {
    case 'PlaceViking':
      return [space('land', command.space)];
    case 'PlaceTile':
      return [`tile:${command.tile}`, space('fjord', command.space)];
    case 'TakeLongship':
      return [`slot:${command.slot}`, space('fjord', command.space)];
    case 'ClaimTrophy':
      return [`trophy:${command.axes}`];
    default:
      return [];
  }
}

const SHIELDS = ['second_viking', 'occupied_space', 'double_resource'] as const;

function describe(command: LoootCommand): string {
  const at = ([q, r]: readonly number[]) => `(${q}, ${r})`;
  switch (command.type) {
    case 'PlaceViking': {
      const shields = SHIELDS.filter((s) => command[s]).map(words);
      return `Place a viking on ${at(command.space)}${shields.length ? `, using ${shields.join(' and ')}` : ''}`;
    }
    case 'PlaceTile':
      return `Put the ${command.tile} tile on your Fjord at ${at(command.space)}`;
    case 'TakeLongship':
      return `Take the Longship in slot ${command.slot} to your Fjord at ${at(command.space)}`;
    case 'ClaimTrophy':
      return `Claim the Trophy for ${command.axes} axes`;
    case 'EndTurn':
      return 'End your turn';
    default:
      return sentence(command);
  }
}

function Side(props: { view: View }) {
  const { view } = props;
  const name = useSeatName();
  if (!view.turn) return <p class="status">The game is over.</p>;
  return (
    <p class="status">
      {name(view.turn.seat)} is playing: {words(view.turn.step).toLowerCase()},{' '}
      {view.turn.vikings_placed} viking(s) placed
      {view.turn.pending.length ? `, tiles to place: ${view.turn.pending.join(', ')}` : ''}.{' '}
      {view.bag_size} Longships in the bag.
    </p>
  );
}

export const looot: GameUi<View, LoootCommand> = {
  ops: gameOps('looot'),
  name: 'looot',
  label: 'Looot',
  players: [2, 4],
  Board,
  Side,
  keysOf,
  describe,
  toAct: (view) => (view.turn ? [view.turn.seat] : []),
};
