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
    return raw ? (JSON.parse(raw) as Identity) : null;
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
