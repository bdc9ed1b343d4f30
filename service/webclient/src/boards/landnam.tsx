/** Landnám: the explored hexes (terrain, number, harbour), units, farms and towns, the players. */
import { centre, corners, points, viewBox, type Point } from '../hex';
import { sentence } from '../moves';
import { Target, type Picking } from '../target';
import { fieldKeys } from './generic';
import type { GameUi } from './types';
import { useSeatName } from '../names';
import { landnamOps, type LandnamCommand, type LandnamView } from '../ops';

type View = LandnamView;
const SIZE = 34;
const SEAT_COLOURS = ['#d33c3c', '#2f6fd0', '#e3b21c', '#3a9a4a', '#8d4fc0'];
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
    return [ps.reduce((s, p) => s + p[0], 0) / ps.length, ps.reduce((s, p) => s + p[1], 0) / ps.length];
  };
  const vertices = [...(picking?.reachable ?? [])].filter((k) => k.startsWith('vertex:'));
  return (
    <svg class="board" viewBox={viewBox([...view.cells.map((c) => at(c.hex)), ...extra.map(at)], SIZE)} role="group" aria-label="The island">
      {view.cells.map((c) => {
        const key = `hex:${c.hex[0]},${c.hex[1]}`;
        const [x, y] = at(c.hex);
        return (
          <Target key={key} picking={picking} k={key} label={`${c.terrain} (${c.hex[0]}, ${c.hex[1]})`}>
            <polygon points={points(corners([x, y], SIZE * 0.97, 'pointy'))} fill={TERRAIN[c.terrain] ?? '#ccc'} stroke="#333" />
            {c.number !== null && c.number !== undefined && (
              <text x={x} y={y + 5} text-anchor="middle" class="number">
                {c.number}
              </text>
            )}
            {c.harbour && (
              <text x={x} y={y + 20} text-anchor="middle" class="small">
                ⚓{c.harbour}
              </text>
            )}
          </Target>
        );
      })}
      {extra.map((hex) => (
        <Target key={`x${hex}`} picking={picking} k={`hex:${hex[0]},${hex[1]}`} label={`unexplored (${hex[0]}, ${hex[1]})`}>
          <polygon class="open-space" points={points(corners(at(hex), SIZE * 0.9, 'pointy'))} />
        </Target>
      ))}
      {view.houses.map((h, i) => {
        const [x, y] = vertexAt(h.vertex);
        return <rect key={`h${i}`} x={x - 6} y={y - 6} width={12} height={12} fill={SEAT_COLOURS[h.owner]} stroke="#111" stroke-width={h.level > 1 ? 3 : 1} />;
      })}
      {view.units.map((u) => {
        if (!u.at) return null;
        const [x, y] = at(u.at);
        const key = `unit:${u.id}`;
        return (
          <Target key={key} picking={picking} k={key} label={`seat ${u.owner}'s ${u.kind} ${u.id}`}>
            {u.kind === 'ship' ? (
              <path d={`M${x - 12},${y - 10} h24 l-5,8 h-14 z`} fill={SEAT_COLOURS[u.owner]} stroke="#111" />
            ) : (
              <circle cx={x + 10} cy={y - 10} r={6} fill={SEAT_COLOURS[u.owner]} stroke="#111" />
            )}
          </Target>
        );
      })}
      {vertices.map((k) => {
        const [x, y] = vertexAt(JSON.parse(k.slice(7)));
        return (
          <Target key={k} picking={picking} k={k} label="a corner">
            <circle cx={x} cy={y} r={7} class="open-space" />
          </Target>
        );
      })}
    </svg>
  );
}

function Side(props: { view: View }) {
  const { view } = props;
  const name = useSeatName();
  return (
    <table class="seats">
      <caption>
        {view.active !== null ? `${name(view.active)} is playing` : 'Nobody is playing'} · {view.fate_deck} fate cards in the deck
      </caption>
      <thead>
        <tr>
          <th>Player</th>
          <th>Points</th>
          <th>Cards</th>
          <th>Tokens (white, red, black)</th>
          <th>Left (ships, settlers, houses)</th>
        </tr>
      </thead>
      <tbody>
        {view.players.map((p) => (
          <tr key={p.seat} class={view.active === p.seat ? 'acting' : ''}>
            <td>
              <span class="swatch" style={{ background: SEAT_COLOURS[p.seat] }} /> {name(p.seat)}
              {view.viewer === p.seat ? ' (you)' : ''}
            </td>
            <td>{p.points}</td>
            <td>
              {p.resource_cards} resources, {p.fate_cards} fate
              {p.hand ? ` (${Object.entries(p.hand).map(([k, n]) => `${n} ${k}`).join(', ')})` : ''}
            </td>
            <td>
              {p.white}, {p.red}, {p.black}
            </td>
            <td>
              {p.ships_left}, {p.settlers_left}, {p.houses_left}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export const landnam: GameUi<View, LandnamCommand> = {
  ops: landnamOps,
  name: 'landnam',
  label: 'Landnám',
  players: [3, 5],
  Board,
  Side,
  keysOf: fieldKeys,
  describe: (command) => sentence(command),
  toAct: (view) => (view.active !== null ? [view.active as number] : []),
};
