/** Fire & Axe: the ports by zone (value, town, settlement, longship), the Sagas, the seats. */
import { sentence } from '../moves';
import { useSeatName } from '../names';
import { type CommandOf, gameOps, type ViewOf } from '../ops';
import { type Picking, Target } from '../target';
import { Player, SEAT_COLOURS, SeatsTable } from './draw';
import { fieldKeys } from './generic';
import type { GameUi } from './types';

type View = ViewOf<'fire-and-axe'>;
type FireAndAxeCommand = CommandOf<'fire-and-axe'>;

const COLUMNS = 4;
const CARD_W = 150;
const CARD_H = 56;
const HEAD_H = 28;

function Board(props: { view: View; picking?: Picking }) {
  const { view } = props;
  const { picking } = props;
  const homes = [...new Set(view.seats.map((s) => s.location))].filter(
    (l) => !view.ports.some((p) => p.port === l),
  );
  const zones: [string, string[]][] = [
    ['Homelands', homes],
    ...[...new Set(view.ports.map((p) => p.zone))].map((z): [string, string[]] => [
      `${z} zone`,
      view.ports.filter((p) => p.zone === z).map((p) => p.port),
    ]),
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
            const settled =
              port?.settlement !== null && port?.settlement !== undefined
                ? SEAT_COLOURS[port.settlement]
                : '#f7f2e4';
            return (
              <Target key={name} picking={picking} k={`port:${name}`} label={`sail to ${name}`}>
                <rect
                  x={x}
                  y={cy}
                  width={CARD_W - 8}
                  height={CARD_H - 8}
                  rx={8}
                  fill={settled}
                  fill-opacity={0.35}
                  stroke="#555"
                />
                <text x={x + 8} y={cy + 18} class="port">
                  {name}
                  {port ? ` · ${port.value}` : ''}
                </text>
                <text x={x + 8} y={cy + 36} class="small">
                  {port
                    ? [port.town ? `${port.town} town` : '', port.good ?? '', port.region ?? '']
                        .filter(Boolean)
                        .join(' · ')
                    : 'homeland'}
                </text>
                {here.map((s, j) => (
                  <path
                    key={s.seat}
                    d={`M${x + 96 + j * 14},${cy + 30} h14 l-3,7 h-8 z`}
                    fill={SEAT_COLOURS[s.seat]}
                    stroke="#111"
                  />
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
    <SeatsTable
      caption={
        <>
          Era {view.era}, round {view.round}
          {view.round_limit ? ` of ${view.round_limit}` : ''} · demand: {view.demand}
          {view.turn ? ` · ${name(view.turn.seat)} is playing` : ' · game over'}
        </>
      }
      head={['Player', 'At', 'Crew', 'Goods', 'Points', 'Sagas']}
      rows={view.seats}
      seat={(s) => s.seat}
      acting={(seat) => view.turn?.seat === seat}
      cells={(s) => [
        <Player seat={s.seat} viewer={view.viewer} colour={SEAT_COLOURS[s.seat]} />,
        s.location,
        s.crew,
        s.goods.join(', ') || '–',
        s.points,
        s.sagas.map((g) => g.title).join(', ') || '–',
      ]}
    />
  );
}

export const fireAndAxe: GameUi<View, FireAndAxeCommand> = {
  ops: gameOps('fire-and-axe'),
  name: 'fire-and-axe',
  label: 'Fire & Axe',
  players: [3, 5],
  Board,
  Side,
  keysOf: fieldKeys,
  describe: (command) => sentence(command),
  toAct: (view) => (view.turn ? [view.turn.seat] : []),
};
