/** Fire & Axe: the ports by zone (value, town, settlement, longship), the Sagas, the seats. */
import type { Schemas } from '../api';
import { sentence } from '../moves';
import { Target, type Picking } from '../target';
import { fieldKeys } from './generic';
import type { GameUi } from './types';

type View = Schemas['FireAndAxeView'];
const SEAT_COLOURS = ['#d33c3c', '#2f6fd0', '#e3b21c', '#3a9a4a', '#8d4fc0'];

function Board(props: { view: unknown; picking?: Picking }) {
  const view = props.view as View;
  const { picking } = props;
  const zones = [...new Set(view.ports.map((p) => p.zone))];
  const rows = Math.max(1, ...zones.map((z) => view.ports.filter((p) => p.zone === z).length));
  const homes = [...new Set(view.seats.map((s) => s.location))].filter((l) => !view.ports.some((p) => p.port === l));
  const width = (zones.length + 1) * 160;
  return (
    <svg class="board" viewBox={`0 0 ${width} ${rows * 56 + 40}`} role="group" aria-label="The map">
      <rect x={0} y={0} width={width} height={rows * 56 + 40} fill="#cfe3f3" />
      {[['Homelands', homes] as const, ...zones.map((z) => [z, view.ports.filter((p) => p.zone === z).map((p) => p.port)] as const)].map(([zone, ports], col) => (
        <g key={zone}>
          <text x={col * 160 + 80} y={22} text-anchor="middle" class="zone">
            {zone}
          </text>
          {ports.map((name, row) => {
            const port = view.ports.find((p) => p.port === name);
            const x = col * 160 + 10;
            const y = row * 56 + 34;
            const here = view.seats.filter((s) => s.location === name);
            return (
              <Target key={name} picking={picking} k={`port:${name}`} label={`sail to ${name}`}>
                <rect x={x} y={y} width={140} height={48} rx={8} fill={port?.settlement !== null && port?.settlement !== undefined ? SEAT_COLOURS[port.settlement] : '#f7f2e4'} fill-opacity={0.35} stroke="#555" />
                <text x={x + 8} y={y + 18} class="port">
                  {name}
                  {port ? ` · ${port.value}` : ''}
                </text>
                <text x={x + 8} y={y + 36} class="small">
                  {port ? [port.town ? `${port.town} town` : '', port.good ?? '', port.region ?? ''].filter(Boolean).join(' · ') : 'homeland'}
                </text>
                {here.map((s, i) => (
                  <path key={s.seat} d={`M${x + 100 + i * 12},${y + 30} h14 l-3,7 h-8 z`} fill={SEAT_COLOURS[s.seat]} stroke="#111" />
                ))}
              </Target>
            );
          })}
        </g>
      ))}
    </svg>
  );
}

function Side(props: { view: unknown }) {
  const view = props.view as View;
  return (
    <table class="seats">
      <caption>
        Era {view.era}, round {view.round}
        {view.round_limit ? ` of ${view.round_limit}` : ''} · demand: {view.demand}
        {view.turn ? ` · seat ${view.turn.seat} is playing` : ' · game over'}
      </caption>
      <thead>
        <tr>
          <th>Seat</th>
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
              <span class="swatch" style={{ background: SEAT_COLOURS[s.seat] }} /> {s.seat}
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

export const fireAndAxe: GameUi = {
  name: 'fire-and-axe',
  label: 'Fire & Axe',
  players: [3, 5],
  Board,
  Side,
  keysOf: fieldKeys,
  describe: (command) => sentence(command),
  toAct: (view) => ((view as View).turn ? [(view as View).turn!.seat] : []),
};
