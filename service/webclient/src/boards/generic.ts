/** Keys for games whose commands name hexes, vertices, units or ports by field. */
import { hexKey, type Command } from '../moves';

export function fieldKeys(command: Command): string[] {
  const c = command as Record<string, unknown>;
  const keys: string[] = [];
  for (const field of ['hex', 'to', 'at']) {
    const key = hexKey('hex', c[field]);
    if (key) keys.push(key);
    else if (typeof c[field] === 'string') keys.push(`port:${c[field]}`);
  }
  if (Array.isArray(c.vertex)) keys.push(`vertex:${JSON.stringify(c.vertex)}`);
  if (typeof c.unit === 'number') keys.push(`unit:${c.unit}`);
  return keys;
}
