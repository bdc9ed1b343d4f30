/** Landnám: the explored hexes (terrain, number, harbour), units, farms and towns, the players. */
import { centre, type Point, viewBox } from '../hex';
import { sentence } from '../moves';
import { useSeatName } from '../names';
import { type CommandOf, gameOps, type ViewOf } from '../ops';
import { type Picking, Target } from '../target';
import { HexShape, Label, OpenSpace, Player, SEAT_COLOURS, SeatsTable } from './draw';
import { fieldKeys } from './generic';
import type { GameUi } from './types';

type View = ViewOf<'landnam'>;
type LandnamCommand = CommandOf<'landnam'>;
const SIZE = 34;
const TERRAIN: Record<string, string> = {
  sea: '#4f8fd6',
  bog: '#7b8b5a',
  field: '#e8d36a',
  pasture: '#a8d878',
  forest: '#3f7f3f',
  mountain: '#9b8c7a',
};

function Board(props: { view: View; picking?: Picking }) {
  const { view } = props;
  const { picking } = props;
  const at = (hex: readonly number[]): Point => centre(hex[0], hex[1], SIZE, 'pointy');
  const cells = new Set(view.cells.map((c) => `${c.hex[0]},${c.hex[1]}`));
  const extra = [...(picking?.reachable ?? [])]
    .filter((k) => k.startsWith('hex:') && !cells.has(k.slice(4)))
    .map((k) => k.slice(4).split(',').map(Number));
  const vertexAt = (vertex: readonly (readonly number[])[]): Point => {
    const ps = vertex.map(at);
    return [
      ps.reduce((s, p) => s + p[0], 0) / ps.length,
      ps.reduce((s, p) => s + p[1], 0) / ps.length,
    ];
  };
  const vertices = [...(picking?.reachable ?? [])].filter((k) => k.startsWith('vertex:'));
  return (
    <>
      <svg
        class="board"
        viewBox={viewBox([...view.cells.map((c) => at(c.hex)), ...extra.map(at)], SIZE)}
        role="group"
        aria-label="The island"
      >
        {view.cells.map((c) => {
          const key = `hex:${c.hex[0]},${c.hex[1]}`;
          const [x, y] = at(c.hex);
          return (
            <Target
              key={key}
              picking={picking}
              k={key}
              label={`${c.terrain} (${c.hex[0]}, ${c.hex[1]})`}
            >
              <HexShape
                at={[x, y]}
                size={SIZE * 0.97}
                orientation="pointy"
                fill={TERRAIN[c.terrain] ?? '#ccc'}
                stroke="#333"
              />
              {c.number !== null && c.number !== undefined && (
                <Label at={[x, y]} dy={5} class="number">
                  {c.number}
                </Label>
              )}
              {c.harbour && (
                <Label at={[x, y]} dy={20} class="small">
                  ⚓{c.harbour}
                </Label>
              )}
            </Target>
          );
        })}
        {extra.map((hex) => (
          <OpenSpace
            key={`x${hex}`}
            picking={picking}
            k={`hex:${hex[0]},${hex[1]}`}
            label={`unexplored (${hex[0]}, ${hex[1]})`}
            at={at(hex)}
            size={SIZE * 0.9}
            orientation="pointy"
          />
        ))}
        {view.houses.map((h, i) => {
          const [x, y] = vertexAt(h.vertex);
          return (
            <rect
              key={`h${i}`}
              x={x - 6}
              y={y - 6}
              width={12}
              height={12}
              fill={SEAT_COLOURS[h.owner]}
              stroke="#111"
              stroke-width={h.level > 1 ? 3 : 1}
            />
          );
        })}
        {view.units.map((u) => {
          if (!u.at) return null;
          const [x, y] = at(u.at);
          const key = `unit:${u.id}`;
          return (
            <Target
              key={key}
              picking={picking}
              k={key}
              label={`seat ${u.owner}'s ${u.kind} ${u.id}`}
            >
              {u.kind === 'ship' ? (
                <path
                  d={`M${x - 12},${y - 10} h24 l-5,8 h-14 z`}
                  fill={SEAT_COLOURS[u.owner]}
                  stroke="#111"
                />
              ) : (
                <circle cx={x + 10} cy={y - 10} r={6} fill={SEAT_COLOURS[u.owner]} stroke="#111" />
              )}
            </Target>
          );
        })}
        {vertices.map((k) => {
          const [x, y] = vertexAt(vertexOf(k));
          return (
            <Target key={k} picking={picking} k={k} label="a corner">
              <circle cx={x} cy={y} r={7} class="open-space" />
            </Target>
          );
        })}
      </svg>
      <Trade picking={picking} />
    </>
  );
}

/** The hexes of a `vertex:[[q,r],[q,r],[q,r]]` key (as fieldKeys writes it). */
function vertexOf(key: string): number[][] {
  const numbers = (key.match(/-?\d+/g) ?? []).map(Number);
  return Array.from({ length: Math.floor(numbers.length / 2) }, (_, i) => [
    numbers[2 * i],
    numbers[2 * i + 1],
  ]);
}

const RESOURCES = ['iron', 'grain', 'timber', 'wool'] as const;

/** A trade's resources, given and got, as places to pick while the seat may trade. */
function tradeKeys(command: LandnamCommand): string[] {
  return command.type === 'TradeWithStock' || command.type === 'OfferTrade'
    ? [`give:${command.give}`, `get:${command.get}`]
    : [];
}

function keysOf(command: LandnamCommand): string[] {
  return [...fieldKeys(command), ...tradeKeys(command)];
}

/** The resources to give and to get, for the trades the seat may make now. */
function Trade(props: { picking?: Picking }) {
  const { picking } = props;
  const sides = (['give', 'get'] as const).filter((side) =>
    RESOURCES.some((r) => picking?.reachable.has(`${side}:${r}`)),
  );
  if (!sides.length) return null;
  return (
    <section class="trade" aria-label="Trade">
      {sides.map((side) => (
        <p key={side}>
          {side === 'give' ? 'Give' : 'Get'}:{' '}
          {RESOURCES.map((r) => (
            <Target html key={r} picking={picking} k={`${side}:${r}`} label={`${side} ${r}`}>
              <span class="resource">{r}</span>
            </Target>
          ))}
        </p>
      ))}
    </section>
  );
}

function Side(props: { view: View }) {
  const { view } = props;
  const name = useSeatName();
  return (
    <SeatsTable
      caption={
        <>
          {view.active !== null ? `${name(view.active)} is playing` : 'Nobody is playing'} ·{' '}
          {view.fate_deck} fate cards in the deck
        </>
      }
      head={[
        'Player',
        'Points',
        'Cards',
        'Tokens (white, red, black)',
        'Left (ships, settlers, houses)',
      ]}
      rows={view.players}
      seat={(p) => p.seat}
      acting={(seat) => view.active === seat}
      cells={(p) => [
        <Player seat={p.seat} viewer={view.viewer} colour={SEAT_COLOURS[p.seat]} />,
        p.points,
        <>
          {p.resource_cards} resources, {p.fate_cards} fate
          {p.hand
            ? ` (${Object.entries(p.hand)
                .map(([k, n]) => `${n} ${k}`)
                .join(', ')})`
            : ''}
        </>,
        <>
          {p.white}, {p.red}, {p.black}
        </>,
        <>
          {p.ships_left}, {p.settlers_left}, {p.houses_left}
        </>,
      ]}
    />
  );
}

export const landnam: GameUi<View, LandnamCommand> = {
  ops: gameOps('landnam'),
  name: 'landnam',
  label: 'Landnám',
  players: [3, 5],
  Board,
  Side,
  keysOf,
  describe: (command) => sentence(command),
  toAct: (view) => (view.active !== null ? [view.active] : []),
};
