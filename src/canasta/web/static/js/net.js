// The HTTP API, and where a game's WebSocket is (connection.js speaks on it).
import { lang } from "./i18n.js";

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

const PERSON_KEY = "canasta.device";

/** This device's key (docs/PROTOCOL.md, "A person's statistics and games"): made once, 176
 * random bits as 30 URL-safe characters, kept in localStorage ("canasta.device", the item a
 * game of one person is its device's by); null when storage is unavailable (then each seat's
 * own key stands for its person). */
export function personKey() {
  try {
    let key = localStorage.getItem(PERSON_KEY);
    if (!key || !/^[A-Za-z0-9_-]{16,64}$/.test(key)) {
      const bytes = crypto.getRandomValues(new Uint8Array(22));
      key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      localStorage.setItem(PERSON_KEY, key);
    }
    return key;
  } catch {
    return null;
  }
}

export async function api(path, { method = "GET", body, key, person = false } = {}) {
  // The server writes its refusals in the language asked for: the one the player chose.
  const init = { method, headers: { Accept: "application/json", "Accept-Language": lang() } };
  // A table's key goes in a header, never in the URL (docs/PROTOCOL.md, "Tables").
  if (key) init.headers["X-Canasta-Key"] = key;
  const own = person ? personKey() : null;
  if (own) init.headers["X-Canasta-Device"] = own;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError((data && data.error) || `HTTP ${res.status}`, res.status);
  return data;
}

export const getOptions = () => api("/api/options");
/** One page of the games list, the most recently played first; `before`: the previous page's `next`. */
export function listGames({ limit, before } = {}) {
  const query = new URLSearchParams();
  if (limit) query.set("limit", String(limit));
  if (before) query.set("before", before);
  const text = query.toString();
  return api(text ? `/api/games?${text}` : "/api/games");
}
export const getGame = (id) => api(`/api/games/${encodeURIComponent(id)}`);
export const getStats = () => api("/api/stats");
export const createGame = (options) => api("/api/games", { method: "POST", body: options });
export const getReplay = (id, hand) =>
  api(`/api/games/${encodeURIComponent(id)}/replay?hand=${encodeURIComponent(hand)}`);

export const setGameLang = (id, lang) =>
  api(`/api/games/${encodeURIComponent(id)}/lang`, { method: "POST", body: { lang } });

const tablePath = (id) => `/api/tables/${encodeURIComponent(id)}`;
export const openTable = (options) => api("/api/tables", { method: "POST", body: options, person: true });
export const getTable = (id, key) => api(tablePath(id), { key });
export const joinTable = (id, key, body) => api(`${tablePath(id)}/join`, { method: "POST", body, key, person: true });
/** This device's person's statistics and games (their seats at tables), when it has a key. */
export const getPersonStats = () => (personKey() ? api("/api/person/stats", { person: true }) : Promise.resolve(null));
export const fillTable = (id, key) => api(`${tablePath(id)}/fill`, { method: "POST", body: {}, key });
export const getTableReplay = (id, key, hand) =>
  api(`${tablePath(id)}/replay?hand=${encodeURIComponent(hand)}`, { key });
export const newLinks = (id, key) => api(`${tablePath(id)}/links`, { method: "POST", body: {}, key });
export const startTable = (id, key) => api(`${tablePath(id)}/start`, { method: "POST", body: {}, key });
export const handSeat = (id, key, seat, computer) =>
  api(`${tablePath(id)}/seats/${seat}`, { method: "POST", body: { computer }, key });

export function tableSocketUrl(id, play = false) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(id)}${play ? "/play" : ""}`;
}

export function socketUrl(id, seat = 0) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/games/${encodeURIComponent(id)}/${seat}`;
}
