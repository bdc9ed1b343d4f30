/** The API, through the client openapi-fetch builds from the generated OpenAPI types. */
import createClient, { type Middleware } from 'openapi-fetch';

import type { components, paths } from '../generated/schema';
import { identity } from './identity';

export type Schemas = components['schemas'];
export type Problem = Schemas['Problem'];

/** A refused request: the problem the API answered, shown by its `detail`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Partial<Problem>,
  ) {
    super(problem.detail ?? problem.title ?? `HTTP ${status}`);
  }
  get code(): string {
    return this.problem.code ?? '';
  }
}

const origin = typeof location === 'undefined' ? 'http://127.0.0.1:8000' : location.origin;

/** Requests as the player (its token in the Authorization header, when it has one). */
export const api = createClient<paths>({ baseUrl: origin });
const asPlayer: Middleware = {
  onRequest({ request }) {
    const token = identity()?.token;
    if (token && !request.headers.has('authorization')) {
      request.headers.set('authorization', `Bearer ${token}`);
    }
    return request;
  },
};
api.use(asPlayer);

/** Requests as nobody: what a spectator sees. */
export const spectator = createClient<paths>({ baseUrl: origin });

/** The data of a reply, or an ApiError carrying its problem. */
export async function ok<T>(
  reply: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await reply;
  if (data !== undefined && response.ok) return data;
  throw new ApiError(response.status, problemOf(error));
}

/** The fields of a problem that a refusal's body has (any body: a proxy may answer one). */
function problemOf(error: unknown): Partial<Problem> {
  if (typeof error !== 'object' || error === null) return {};
  const text = (name: 'title' | 'detail' | 'code'): string | undefined => {
    const value: unknown = Reflect.get(error, name);
    return typeof value === 'string' ? value : undefined;
  };
  return { title: text('title'), detail: text('detail'), code: text('code') };
}

/** A message for anything thrown. */
export function reason(error: unknown): string {
  if (error instanceof ApiError)
    return error.code ? `${error.message} (${error.code})` : error.message;
  return error instanceof Error ? error.message : String(error);
}

/** A fresh command id: unguessable, within the API's alphabet. */
export function commandId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return `w-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
