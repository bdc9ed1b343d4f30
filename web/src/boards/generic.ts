/** Keys for games whose commands name hexes, vertices, units or ports by field. */
import { type Command, hexKey } from '../moves';

export function fieldKeys(command: Command): string[] {
  const keys: string[] = [];
  for (const field of ['hex', 'to', 'at']) {
    const key = hexKey('hex', command[field]);
    if (key) keys.push(key);
    else if (typeof command[field] === 'string') keys.push(`port:${command[field]}`);
  }
  if (Array.isArray(command.vertex)) keys.push(`vertex:${JSON.stringify(command.vertex)}`);
  if (typeof command.unit === 'number') keys.push(`unit:${command.unit}`);
  return keys;
}
