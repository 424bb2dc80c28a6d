// The one way the map talks to the API: same-origin fetches of JSON, problem details
// (RFC 9457) turned into ApiError, and the signed-in user's token. Public reads carry
// no token, so shared caches may keep them; only the user's own calls send it.

const tokenKey = 'past-nyc.token';
const userKey = 'past-nyc.username';

/** An answer that was not a success, with the problem's status, title and detail. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `The server answered ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.problem = problem;
  }
}

/** `path` with the parameters that have a value as its query. */
export function pathWithQuery(path, parameters = {}) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined && value !== null && value !== '') query.set(name, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * The signed-in user, kept in sessionStorage: it lasts across reloads of this tab and
 * dies with it, is never shared with other tabs or written to disk for good, and is
 * readable only by this origin's scripts (the pages' Content-Security-Policy lets no
 * other script run). It never goes in a URL. Listeners hear every change.
 */
export const session = {
  listeners: new Set(),
  get token() { return sessionStorage.getItem(tokenKey); },
  get username() { return sessionStorage.getItem(userKey); },
  get signedIn() { return this.token !== null; },
  start(token, username) {
    sessionStorage.setItem(tokenKey, token);
    sessionStorage.setItem(userKey, username);
    this.listeners.forEach((listener) => listener());
  },
  end() {
    sessionStorage.removeItem(tokenKey);
    sessionStorage.removeItem(userKey);
    this.listeners.forEach((listener) => listener());
  },
  onChange(listener) { this.listeners.add(listener); },
};

// A token an older map kept in localStorage, where it outlived the tab, is removed.
localStorage.removeItem(tokenKey);
localStorage.removeItem(userKey);

/**
 * Sends one request and returns its JSON (null for 204).
 * - `parameters`: the query; `body`: sent as JSON; `signal`: an AbortSignal.
 * - `signedIn`: send the token (and forget it when the server answers 401).
 */
export async function call(method, path, { parameters, body, signal, signedIn = false } = {}) {
  const headers = { Accept: 'application/json' };
  if (signedIn) {
    if (!session.token) throw new ApiError(401, { title: 'Sign in first' });
    headers.Authorization = `Bearer ${session.token}`;
  }
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(pathWithQuery(path, parameters), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  const type = response.headers.get('Content-Type') || '';
  const data = response.status === 204 || !type.includes('json') ? null : await response.json();
  if (!response.ok) {
    if (signedIn && response.status === 401) session.end();
    throw new ApiError(response.status, data);
  }
  return data;
}

/** A public GET. */
export function get(path, parameters, signal) {
  return call('GET', path, { parameters, signal });
}

/** Whether `error` is a fetch that was aborted on purpose (a newer one replaced it). */
export function isAbort(error) {
  return error?.name === 'AbortError';
}
