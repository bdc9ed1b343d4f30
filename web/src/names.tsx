/** Players' names by seat, from the `players` every view envelope carries: the pages provide
 * them, boards and pages name a seat by `useSeatName()` ("Astrid", or "seat 2" while free). */
import { type ComponentChildren, createContext } from 'preact';
import { useContext } from 'preact/hooks';

export interface PlayerName {
  seat: number;
  name: string;
}

export type SeatName = (seat: number) => string;

export function namer(players: readonly PlayerName[] | null | undefined): SeatName {
  const names = new Map((players ?? []).map((p) => [p.seat, p.name]));
  return (seat) => (seat < 0 ? 'the game' : names.get(seat) || `seat ${seat}`);
}

const Names = createContext<SeatName>(namer([]));

export function PlayerNames(props: {
  players: readonly PlayerName[] | null | undefined;
  children: ComponentChildren;
}) {
  return <Names.Provider value={namer(props.players)}>{props.children}</Names.Provider>;
}

export function useSeatName(): SeatName {
  return useContext(Names);
}

/** "Astrid and Bjorn": several seats named in a sentence. */
export function listNames(name: SeatName, seats: readonly number[]): string {
  const names = seats.map(name);
  return names.length < 2
    ? names.join('')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
