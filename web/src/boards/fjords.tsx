/** Fjords: hex tiles with their corner terrains, the draft row, longhouses, vikings and rune
 * stones; the seat's legal moves as targets on the board and the row. */
import { centre, corners, type Point, points, viewBox } from '../hex';
import { sentence } from '../moves';
import { type CommandOf, gameOps, type ViewOf } from '../ops';
import { type Picking, Target } from '../target';
import { Label, OpenSpace, Player, SeatsTable, Swatch } from './draw';
import type { GameUi } from './types';

type View = ViewOf<'fjords'>;
type FjordsCommand = CommandOf<'fjords'>;
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
          points={points([
            [cx, cy],
            mid(hex[(i + 5) % 6], corner),
            corner,
            mid(corner, hex[(i + 1) % 6]),
          ])}
          fill={TERRAIN[props.corners[i]] ?? '#ccc'}
        />
      ))}
      <polygon points={points(hex)} fill="none" stroke="#3b3b3b" stroke-width={1.5} />
      {props.label && (
        <Label at={props.at} dy={-props.size * 0.45} class="tile-id">
          {props.label}
        </Label>
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
        points={points([
          [x - 10, y + 7],
          [x - 10, y - 3],
          [x, y - 11],
          [x + 10, y - 3],
          [x + 10, y + 7],
        ])}
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
      <path
        d={`M${x - 6},${y + 9} Q${x},${y - 6} ${x + 6},${y + 9} Z`}
        fill={props.colour}
        stroke="#222"
        stroke-width={1.2}
      />
    </g>
  );
}

function RuneStone(props: { at: Point; rune: string; colour?: string | null }) {
  const [x, y] = props.at;
  return (
    <g class="rune">
      <title>{`${props.rune} rune stone`}</title>
      <polygon
        points={points([
          [x, y - 8],
          [x + 7, y],
          [x, y + 8],
          [x - 7, y],
        ])}
        fill={props.colour ?? '#e8e2c8'}
        stroke="#333"
      />
      <Label at={props.at} dy={3.5} class="rune-letter">
        {props.rune.charAt(0).toUpperCase()}
      </Label>
    </g>
  );
}

function keysOf(command: FjordsCommand): string[] {
  const keys: string[] = [];
  if (command.type === 'PlaceTile') keys.push(`tile:${command.tile}`);
  if (command.type === 'UseJourneyRune' || command.type === 'UseHorseRune')
    keys.push(`from:${command.from_q},${command.from_r}`);
  if (command.type === 'UseWisdomRune') keys.push(`space:${command.rune_q},${command.rune_r}`);
  if (command.type !== 'DrawTile') keys.push(`hex:${command.q},${command.r}`);
  return keys;
}

function describe(command: FjordsCommand, view: View | null): string {
  const colour =
    command.type !== 'DrawTile' && typeof command.colour === 'string' ? ` (${command.colour})` : '';
  switch (command.type) {
    case 'PlaceTile': {
      const c = command;
      const extra = [c.longhouse ? 'with a longhouse' : '', c.home ? 'and the Home rune' : '']
        .filter(Boolean)
        .join(' ');
      const row = view?.row.find((t) => t.tile === c.tile) ?? view?.drawn;
      const shown = row
        ? ` showing ${rotate(row.corners, c.rotation ?? 0)
            .split('')
            .map((t) => TERRAIN_NAME[t] ?? t)
            .join('-')}`
        : '';
      return `Place tile ${c.tile} at (${c.q}, ${c.r}), turned ${(c.rotation ?? 0) * 60}°${shown} ${extra}${colour}`.trim();
    }
    case 'PlaceViking':
      return `Place a viking at (${command.q}, ${command.r})${colour}`;
    case 'DrawTile':
      return 'Draw a tile from the bag';
    case 'UseJourneyRune':
      return `Journey rune: sail from (${command.from_q}, ${command.from_r}) to (${command.q}, ${command.r})${colour}`;
    case 'UseHorseRune':
      return `Horse rune: ride from (${command.from_q}, ${command.from_r}) to (${command.q}, ${command.r})${colour}`;
    case 'UseWisdomRune':
      return `Wisdom rune on (${command.rune_q}, ${command.rune_r}), a viking at (${command.q}, ${command.r})${colour}`;
    default:
      return sentence(command);
  }
}

function Preview(props: { command: FjordsCommand; view: View | null }) {
  const { command: c, view } = props;
  if (c.type !== 'PlaceTile' || !view) return null;
  const row = view.row.find((t) => t.tile === c.tile) ?? view.drawn;
  if (!row) return null;
  return (
    <svg class="preview" viewBox="-22 -22 44 44" aria-hidden="true">
      <TileShape at={[0, 0]} size={20} corners={rotate(row.corners, c.rotation ?? 0)} />
      {c.longhouse ? (
        <Longhouse
          at={[0, 2]}
          colour={c.colour ?? view.seats[view.viewer ?? 0]?.supply[0]?.colour ?? 'grey'}
        />
      ) : null}
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
    if (!occupied.has(`${stone.q},${stone.r}`))
      open.set(`stone:${stone.q},${stone.r}`, centre(stone.q, stone.r, SIZE, 'pointy'));
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
            <Target
              key={here}
              picking={picking}
              k={key}
              label={`tile ${t.tile} at (${t.q}, ${t.r})`}
            >
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
            <OpenSpace
              key={key}
              picking={picking}
              k={key}
              label={`empty space ${key.split(':')[1]}`}
              at={at}
              size={SIZE * 0.92}
              orientation="pointy"
            />
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
          role="group"
          aria-label="The row's tiles"
        >
          {[...view.row, ...(view.drawn ? [view.drawn] : [])].map((t, i) => (
            <Target
              key={t.tile}
              picking={picking}
              k={`tile:${t.tile}`}
              label={`row tile ${t.tile}`}
            >
              <rect x={i * 90 + 2} y={2} width={86} height={86} rx={8} class="slot" />
              <TileShape
                at={[i * 90 + 45, 45]}
                size={38}
                corners={t.corners}
                label={String(t.tile)}
              />
            </Target>
          ))}
        </svg>
      </section>
    </div>
  );
}

function Side(props: { view: View }) {
  const { view } = props;
  return (
    <SeatsTable
      caption={
        <>
          {view.phase === 'ended'
            ? 'Game over'
            : `${view.phase[0].toUpperCase()}${view.phase.slice(1)} phase`}
          {view.runes.length ? ` · rune stones: ${view.runes.join(', ')}` : ''}
        </>
      }
      head={['Player', 'Colour', 'Longhouses', 'Vikings', 'Runes']}
      rows={view.seats}
      seat={(s) => s.seat}
      acting={(seat) => view.to_act.includes(seat)}
      cells={(s) => [
        <>
          <Player seat={s.seat} viewer={view.viewer} />
          {s.out ? ' · out' : ''}
        </>,
        s.supply.map((x) => <Swatch key={x.colour} colour={x.colour} title={x.colour} />),
        s.supply.map((x) => x.longhouses).join(' + '),
        s.supply.map((x) => x.vikings).join(' + '),
        s.runes.join(', ') || '–',
      ]}
    />
  );
}

export const fjords: GameUi<View, FjordsCommand> = {
  ops: gameOps('fjords'),
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
