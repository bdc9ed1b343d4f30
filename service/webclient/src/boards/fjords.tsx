/** Fjords: hex tiles with their corner terrains, the draft row, longhouses, vikings and rune
 * stones; the seat's legal moves as targets on the board and the row. */
import { centre, corners, points, viewBox, type Point } from '../hex';
import { hexKey, sentence, type Command } from '../moves';
import { Target, type Picking } from '../target';
import type { GameUi } from './types';
import { useSeatName } from '../names';
import { fjordsOps, type FjordsCommand, type FjordsView } from '../ops';

type View = FjordsView;
const SIZE = 40;
const TERRAIN: Record<string, string> = { M: '#9b8c7a', P: '#9fcf6f', S: '#4f8fd6' };
const TERRAIN_NAME: Record<string, string> = { M: 'mountain', P: 'plains', S: 'sea' };

/** The corners of a printed tile after `rotation` clockwise turns. */
export function rotate(printed: string, rotation: number): string {
  const turned = Array.from({ length: 6 }, () => '');
  for (let i = 0; i < 6; i++) turned[(i + rotation) % 6] = printed[i] ?? '?';
  return turned.join('');
}

function TileShape(props: { at: Point; size: number; corners: string; label?: string }) {
  const [cx, cy] = props.at;
  const hex = corners(props.at, props.size, 'pointy');
  const mid = (a: Point, b: Point): Point => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  return (
    <g class="tile">
      {hex.map((corner, i) => (
        <polygon
          key={i}
          points={points([[cx, cy], mid(hex[(i + 5) % 6], corner), corner, mid(corner, hex[(i + 1) % 6])])}
          fill={TERRAIN[props.corners[i]] ?? '#ccc'}
        />
      ))}
      <polygon points={points(hex)} fill="none" stroke="#3b3b3b" stroke-width={1.5} />
      {props.label && (
        <text x={cx} y={cy - props.size * 0.45} class="tile-id" text-anchor="middle">
          {props.label}
        </text>
      )}
    </g>
  );
}

function Longhouse(props: { at: Point; colour: string }) {
  const [x, y] = props.at;
  return (
    <g class="piece longhouse">
      <title>{`${props.colour} longhouse`}</title>
      <polygon
        points={points([[x - 10, y + 7], [x - 10, y - 3], [x, y - 11], [x + 10, y - 3], [x + 10, y + 7]])}
        fill={props.colour}
        stroke="#222"
        stroke-width={1.5}
      />
    </g>
  );
}

function Viking(props: { at: Point; colour: string }) {
  const [x, y] = props.at;
  return (
    <g class="piece viking">
      <title>{`${props.colour} viking`}</title>
      <circle cx={x} cy={y - 5} r={4.5} fill={props.colour} stroke="#222" stroke-width={1.2} />
      <path d={`M${x - 6},${y + 9} Q${x},${y - 6} ${x + 6},${y + 9} Z`} fill={props.colour} stroke="#222" stroke-width={1.2} />
    </g>
  );
}

function RuneStone(props: { at: Point; rune: string; colour?: string | null }) {
  const [x, y] = props.at;
  return (
    <g class="rune">
      <title>{`${props.rune} rune stone`}</title>
      <polygon points={points([[x, y - 8], [x + 7, y], [x, y + 8], [x - 7, y]])} fill={props.colour ?? '#e8e2c8'} stroke="#333" />
      <text x={x} y={y + 3.5} text-anchor="middle" class="rune-letter">
        {props.rune.charAt(0).toUpperCase()}
      </text>
    </g>
  );
}

function keysOf(command: Command): string[] {
  const c = command as Record<string, unknown>;
  const keys: string[] = [];
  if (c.type === 'PlaceTile') keys.push(`tile:${c.tile}`);
  if (c.type === 'UseJourneyRune' || c.type === 'UseHorseRune') keys.push(`from:${c.from_q},${c.from_r}`);
  if (c.type === 'UseWisdomRune') keys.push(`space:${c.rune_q},${c.rune_r}`);
  const at = hexKey('hex', [c.q, c.r]);
  if (at && typeof c.q === 'number') keys.push(at);
  return keys;
}

function describe(command: Command, view: View | null): string {
  const c = command as Record<string, unknown>;
  const colour = typeof c.colour === 'string' ? ` (${c.colour})` : '';
  switch (c.type) {
    case 'PlaceTile': {
      const extra = [c.longhouse ? 'with a longhouse' : '', c.home ? 'and the Home rune' : ''].filter(Boolean).join(' ');
      const row = view?.row.find((t) => t.tile === c.tile) ?? view?.drawn;
      const shown = row ? ` showing ${rotate(row.corners, Number(c.rotation ?? 0)).split('').map((t) => TERRAIN_NAME[t] ?? t).join('-')}` : '';
      return `Place tile ${c.tile} at (${c.q}, ${c.r}), turned ${Number(c.rotation ?? 0) * 60}°${shown} ${extra}${colour}`.trim();
    }
    case 'PlaceViking':
      return `Place a viking at (${c.q}, ${c.r})${colour}`;
    case 'DrawTile':
      return 'Draw a tile from the bag';
    case 'UseJourneyRune':
      return `Journey rune: sail from (${c.from_q}, ${c.from_r}) to (${c.q}, ${c.r})${colour}`;
    case 'UseHorseRune':
      return `Horse rune: ride from (${c.from_q}, ${c.from_r}) to (${c.q}, ${c.r})${colour}`;
    case 'UseWisdomRune':
      return `Wisdom rune on (${c.rune_q}, ${c.rune_r}), a viking at (${c.q}, ${c.r})${colour}`;
    default:
      return sentence(c);
  }
}

function Preview(props: { command: Command; view: View | null }) {
  const c = props.command as Record<string, unknown>;
  const { view } = props;
  if (c.type !== 'PlaceTile' || !view) return null;
  const row = view.row.find((t) => t.tile === c.tile) ?? view.drawn;
  if (!row) return null;
  return (
    <svg class="preview" viewBox="-22 -22 44 44" aria-hidden="true">
      <TileShape at={[0, 0]} size={20} corners={rotate(row.corners, Number(c.rotation ?? 0))} />
      {c.longhouse ? <Longhouse at={[0, 2]} colour={String(c.colour ?? view.seats[view.viewer ?? 0]?.supply[0]?.colour ?? 'grey')} /> : null}
    </svg>
  );
}

function Board(props: { view: View; picking?: Picking }) {
  const { view } = props;
  const { picking } = props;
  const occupied = new Set(view.tiles.map((t) => `${t.q},${t.r}`));
  const open = new Map<string, Point>();
  for (const key of picking?.reachable ?? []) {
    const [kind, at] = key.split(':');
    if ((kind === 'hex' || kind === 'space') && !occupied.has(at)) {
      const [q, r] = at.split(',').map(Number);
      open.set(key, centre(q, r, SIZE, 'pointy'));
    }
  }
  for (const stone of view.rune_stones) {
    if (!occupied.has(`${stone.q},${stone.r}`)) open.set(`stone:${stone.q},${stone.r}`, centre(stone.q, stone.r, SIZE, 'pointy'));
  }
  const all = [...view.tiles.map((t) => centre(t.q, t.r, SIZE, 'pointy')), ...open.values()];
  return (
    <div class="fjords">
      <svg class="board" viewBox={viewBox(all, SIZE)} role="group" aria-label="The table">
        {view.tiles.map((t) => {
          const at = centre(t.q, t.r, SIZE, 'pointy');
          const here = `${t.q},${t.r}`;
          const key = picking?.reachable.has(`from:${here}`) ? `from:${here}` : `hex:${here}`;
          return (
            <Target key={here} picking={picking} k={key} label={`tile ${t.tile} at (${t.q}, ${t.r})`}>
              <TileShape at={at} size={SIZE} corners={t.corners} />
            </Target>
          );
        })}
        {view.pieces.map((p, i) => {
          const [x, y] = centre(p.q, p.r, SIZE, 'pointy');
          return p.kind === 'longhouse' ? (
            <Longhouse key={`l${i}`} at={[x - 9, y + 4]} colour={p.colour} />
          ) : (
            <Viking key={`v${i}`} at={[x + 10, y + 2]} colour={p.colour} />
          );
        })}
        {view.rune_stones.map((s, i) => {
          const [x, y] = centre(s.q, s.r, SIZE, 'pointy');
          return <RuneStone key={`r${i}`} at={[x, y - 20]} rune={s.rune} colour={s.colour} />;
        })}
        {[...open.entries()]
          .filter(([key]) => !key.startsWith('stone:'))
          .map(([key, at]) => (
            <Target key={key} picking={picking} k={key} label={`empty space ${key.split(':')[1]}`}>
              <polygon class="open-space" points={points(corners(at, SIZE * 0.92, 'pointy'))} />
            </Target>
          ))}
      </svg>
      <section class="row" aria-label="The draft row">
        <h3>
          Draft row <small>({view.bag_size} tiles in the bag)</small>
        </h3>
        <svg
          viewBox={`0 0 ${Math.max(1, view.row.length + (view.drawn ? 1 : 0)) * 90} 90`}
          width={Math.max(1, view.row.length + (view.drawn ? 1 : 0)) * 80}
          class="row-tiles"
        >
          {[...view.row, ...(view.drawn ? [view.drawn] : [])].map((t, i) => (
            <Target key={t.tile} picking={picking} k={`tile:${t.tile}`} label={`row tile ${t.tile}`}>
              <rect x={i * 90 + 2} y={2} width={86} height={86} rx={8} class="slot" />
              <TileShape at={[i * 90 + 45, 45]} size={38} corners={t.corners} label={String(t.tile)} />
            </Target>
          ))}
        </svg>
      </section>
    </div>
  );
}

function Side(props: { view: View }) {
  const { view } = props;
  const name = useSeatName();
  return (
    <table class="seats">
      <caption>
        {view.phase === 'ended' ? 'Game over' : `${view.phase[0].toUpperCase()}${view.phase.slice(1)} phase`}
        {view.runes.length ? ` · rune stones: ${view.runes.join(', ')}` : ''}
      </caption>
      <thead>
        <tr>
          <th>Player</th>
          <th>Colour</th>
          <th>Longhouses</th>
          <th>Vikings</th>
          <th>Runes</th>
        </tr>
      </thead>
      <tbody>
        {view.seats.map((s) => (
          <tr key={s.seat} class={view.to_act.includes(s.seat) ? 'acting' : ''}>
            <td>
              {name(s.seat)}
              {s.seat === view.viewer ? ' (you)' : ''}
              {s.out ? ' · out' : ''}
            </td>
            <td>
              {s.supply.map((x) => (
                <span key={x.colour} class="swatch" style={{ background: x.colour }} title={x.colour} />
              ))}
            </td>
            <td>{s.supply.map((x) => x.longhouses).join(' + ')}</td>
            <td>{s.supply.map((x) => x.vikings).join(' + ')}</td>
            <td>{s.runes.join(', ') || '–'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export const fjords: GameUi<View, FjordsCommand> = {
  ops: fjordsOps,
  name: 'fjords',
  label: 'Fjords',
  players: [2, 4],
  Board,
  Side,
  Preview,
  keysOf,
  describe,
  toAct: (view) => view.to_act,
};
