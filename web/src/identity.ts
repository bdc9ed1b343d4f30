/** The player this browser plays as: its id, name and token, kept in localStorage. */
export interface Identity {
  player_id: string;
  name: string;
  token: string;
}

const KEY = 'skald.player';

export function identity(): Identity | null {
  try {
    const raw = localStorage.getItem(KEY);
    const held: unknown = raw ? JSON.parse(raw) : null;
    if (typeof held !== 'object' || held === null) return null;
    const text = (name: keyof Identity): string | null => {
      const value: unknown = Reflect.get(held, name);
      return typeof value === 'string' ? value : null;
    };
    const [player_id, name, token] = [text('player_id'), text('name'), text('token')];
    return player_id !== null && name !== null && token !== null
      ? { player_id, name, token }
      : null;
  } catch {
    return null;
  }
}

export function remember(player: Identity): void {
  localStorage.setItem(KEY, JSON.stringify(player));
}

export function forget(): void {
  localStorage.removeItem(KEY);
}
