/** Fire & Axe: the ports by zone (value, town, settlement, longship), the Sagas, the seats. */
import { sentence } from '../moves';
import { Target, type Picking } from '../target';
import { fieldKeys } from './generic';
import type { GameUi } from './types';
import { useSeatName } from '../names';
import { fireAndAxeOps, type FireAndAxeCommand, type FireAndAxeView } from '../ops';

type View = FireAndAxeView;
const SEAT_COLOURS = ['#d33c3c', '#2f6fd0', '#e3b21c', '#3a9a4a', '#8d4fc0'];

const COLUMNS = 4;
const CARD_W = 150;
const CARD_H = 56;
const HEAD_H = 28;

function Board(props: { view: View; picking?: Picking }) {
  const { view } = props;
  const { picking } = props;
  const homes = [...new Set(view.seats.map((s) => s.location))].filter((l) => !view.ports.some((p) => p.port === l));
  const zones: [string, string[]][] = [
    ['Homelands', homes],
    ...[...new Set(view.ports.map((p) => p.zone))].map(
      (z) => [`${z} zone`, view.ports.filter((p) => p.zone === z).map((p) => p.port)] as [string, string[]],
    ),
  ];
  // Each zone a block of port cards, four to a row, one block under another.
  let y = 0;
  const blocks = zones.map(([zone, ports]) => {
    const top = y;
    y += HEAD_H + Math.ceil(Math.max(1, ports.length) / COLUMNS) * CARD_H + 8;
    return { zone, ports, top };
  });
  const width = COLUMNS * CARD_W + 10;
  return (
    <svg class="board" viewBox={`0 0 ${width} ${y}`} role="group" aria-label="The map">
      <rect x={0} y={0} width={width} height={y} fill="#cfe3f3" />
      {blocks.map(({ zone, ports, top }) => (
        <g key={zone}>
          <text x={8} y={top + 20} class="zone">
            {zone}
          </text>
          {ports.map((name, i) => {
            const port = view.ports.find((p) => p.port === name);
            const x = 5 + (i % COLUMNS) * CARD_W;
            const cy = top + HEAD_H + Math.floor(i / COLUMNS) * CARD_H;
            const here = view.seats.filter((s) => s.location === name);
            const settled = port?.settlement !== null && port?.settlement !== undefined ? SEAT_COLOURS[port.settlement] : '#f7f2e4';
            return (
              <Target key={name} picking={picking} k={`port:${name}`} label={`sail to ${name}`}>
                <rect x={x} y={cy} width={CARD_W - 8} height={CARD_H - 8} rx={8} fill={settled} fill-opacity={0.35} stroke="#555" />
                <text x={x + 8} y={cy + 18} class="port">
                  {name}
                  {port ? ` · ${port.value}` : ''}
                </text>
                <text x={x + 8} y={cy + 36} class="small">
                  {port ? [port.town ? `${port.town} town` : '', port.good ?? '', port.region ?? ''].filter(Boolean).join(' · ') : 'homeland'}
                </text>
                {here.map((s, j) => (
                  <path key={s.seat} d={`M${x + 96 + j * 14},${cy + 30} h14 l-3,7 h-8 z`} fill={SEAT_COLOURS[s.seat]} stroke="#111" />
                ))}
              </Target>
            );
          })}
        </g>
      ))}
    </svg>
  );
}

function Side(props: { view: View }) {
  const { view } = props;
  const name = useSeatName();
  return (
    <table class="seats">
      <caption>
        Era {view.era}, round {view.round}
        {view.round_limit ? ` of ${view.round_limit}` : ''} · demand: {view.demand}
        {view.turn ? ` · ${name(view.turn.seat)} is playing` : ' · game over'}
      </caption>
      <thead>
        <tr>
          <th>Player</th>
          <th>At</th>
          <th>Crew</th>
          <th>Goods</th>
          <th>Points</th>
          <th>Sagas</th>
        </tr>
      </thead>
      <tbody>
        {view.seats.map((s) => (
          <tr key={s.seat} class={view.turn?.seat === s.seat ? 'acting' : ''}>
            <td>
              <span class="swatch" style={{ background: SEAT_COLOURS[s.seat] }} /> {name(s.seat)}
              {view.viewer === s.seat ? ' (you)' : ''}
            </td>
            <td>{s.location}</td>
            <td>{s.crew}</td>
            <td>{s.goods.join(', ') || '–'}</td>
            <td>{s.points}</td>
            <td>{s.sagas.map((g) => g.title).join(', ') || '–'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export const fireAndAxe: GameUi<View, FireAndAxeCommand> = {
  ops: fireAndAxeOps,
  name: 'fire-and-axe',
  label: 'Fire & Axe',
  players: [3, 5],
  Board,
  Side,
  keysOf: fieldKeys,
  describe: (command) => sentence(command),
  toAct: (view) => (view.turn ? [view.turn!.seat] : []),
};
