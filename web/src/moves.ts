/** Legal commands as the board shows them: each is reached by clicking keys (a hex, a tile). */

export type Command = { type: string } & Record<string, unknown>;

/** The keys that lead to a command: clicking all of them (in any order) picks it. */
export type KeysOf = (command: Command) => string[];

/** A selection: at most one key of each kind (the part before ':'). */
export function select(selection: string[], key: string): string[] {
  const kind = key.split(':')[0];
  if (selection.includes(key)) return selection.filter((k) => k !== key);
  return [...selection.filter((k) => k.split(':')[0] !== kind), key];
}

/** The commands whose keys include every selected key. */
export function choices<C>(moves: C[], keysOf: (command: C) => string[], selection: string[]): C[] {
  return moves.filter((move) => {
    const keys = keysOf(move);
    return selection.every((key) => keys.includes(key));
  });
}

/** Every key of these commands: what the board highlights. */
export function reachable<C>(moves: C[], keysOf: (command: C) => string[]): Set<string> {
  const keys = new Set<string>();
  for (const move of moves) for (const key of keysOf(move)) keys.add(key);
  return keys;
}

export function hexKey(kind: string, hex: unknown): string | null {
  if (Array.isArray(hex) && hex.length === 2) return `${kind}:${hex[0]},${hex[1]}`;
  return null;
}

/** "PlaceViking" → "Place viking". */
export function words(name: string): string {
  const spaced = name
    .replace(/[_-]/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

function valueText(value: unknown): string {
  if (value === true) return 'yes';
  if (value === false) return 'no';
  if (value === null || value === undefined) return 'none';
  if (Array.isArray(value)) {
    if (value.length === 2 && value.every((v) => typeof v === 'number'))
      return `(${value[0]}, ${value[1]})`;
    return value.map(valueText).join(', ') || 'none';
  }
  if (typeof value === 'object') {
    return Object.entries(value)
      .map(([k, v]) => `${words(k).toLowerCase()} ${valueText(v)}`)
      .join(', ');
  }
  return String(value);
}

/** A readable line for a command or an event: its type in words, then its fields. */
export function sentence(message: Record<string, unknown>, skip: string[] = []): string {
  const type = typeof message.type === 'string' ? words(message.type) : 'Message';
  const fields = Object.entries(message)
    .filter(
      ([k, v]) => k !== 'type' && !skip.includes(k) && v !== null && v !== false && v !== undefined,
    )
    .map(([k, v]) => `${words(k).toLowerCase()} ${valueText(v)}`);
  return fields.length ? `${type}: ${fields.join('; ')}` : type;
}
