/** What the boards draw alike: the seats' colours, a hex, an open space to click, a centred
 * label, a player's name with their colour, and the table of seats beside a board. */
import type { ComponentChildren } from 'preact';

import { corners, type Orientation, type Point, points } from '../hex';
import { useSeatName } from '../names';
import { type Picking, Target } from '../target';

/** Each seat's colour, by seat number (five seats at the most). */
export const SEAT_COLOURS = ['#d33c3c', '#2f6fd0', '#e3b21c', '#3a9a4a', '#8d4fc0'];

/** A hex of `size` (centre to corner) at `at`, filled and outlined as given. */
export function HexShape(props: {
  at: Point;
  size: number;
  orientation: Orientation;
  fill?: string;
  stroke?: string;
  class?: string;
}) {
  return (
    <polygon
      class={props.class}
      points={points(corners(props.at, props.size, props.orientation))}
      fill={props.fill}
      stroke={props.stroke}
    />
  );
}

/** An empty hex the player can click: a place a move may go that nothing is drawn at yet. */
export function OpenSpace(props: {
  picking: Picking | undefined;
  k: string;
  label: string;
  at: Point;
  size: number;
  orientation: Orientation;
}) {
  return (
    <Target picking={props.picking} k={props.k} label={props.label}>
      <HexShape
        class="open-space"
        at={props.at}
        size={props.size}
        orientation={props.orientation}
      />
    </Target>
  );
}

/** Text centred on `at` (moved down by `dy`). */
export function Label(props: {
  at: Point;
  dy?: number;
  class: string;
  children: ComponentChildren;
}) {
  const [x, y] = props.at;
  return (
    <text x={x} y={y + (props.dy ?? 0)} text-anchor="middle" class={props.class}>
      {props.children}
    </text>
  );
}

/** A small square of a colour, beside a name or in a legend. */
export function Swatch(props: { colour: string; title?: string; square?: boolean }) {
  return (
    <span
      class={props.square ? 'swatch square' : 'swatch'}
      style={{ background: props.colour }}
      title={props.title}
    />
  );
}

/** A seat's player by name, with its colour when it has one, and "(you)" for the viewer. */
export function Player(props: {
  seat: number;
  viewer: number | null | undefined;
  colour?: string;
}) {
  const name = useSeatName();
  return (
    <>
      {props.colour !== undefined && (
        <>
          <Swatch colour={props.colour} />{' '}
        </>
      )}
      {name(props.seat)}
      {props.viewer === props.seat ? ' (you)' : ''}
    </>
  );
}

/** The seats as a table: a row a seat (the acting ones marked), a column a heading. */
export function SeatsTable<R>(props: {
  caption: ComponentChildren;
  head: string[];
  rows: readonly R[];
  seat(row: R): number;
  acting(seat: number): boolean;
  cells(row: R): ComponentChildren[];
}) {
  return (
    <table class="seats">
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          {props.head.map((heading) => (
            <th key={heading}>{heading}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => {
          const seat = props.seat(row);
          return (
            <tr key={seat} class={props.acting(seat) ? 'acting' : ''}>
              {props.cells(row).map((cell, i) => (
                <td key={i}>{cell}</td>
              ))}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
