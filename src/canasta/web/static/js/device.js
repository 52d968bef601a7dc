// This browser's key for its games of one person (docs/PROTOCOL.md, "Devices"): made once, on
// the first visit, from the browser's own random numbers, and kept in localStorage. The server
// keeps only its hash, and shows a game, the past games, replays and statistics only to the
// device whose key made them; the player never sees the key.

export const DEVICE_STORAGE = "canasta.device";
/** The form the server takes: 30 to 64 URL-safe characters (this client makes 30: 176 bits). */
export const KEY_FORM = /^[A-Za-z0-9_-]{30,64}$/;
const KEY_BYTES = 22;

let kept = null; // the key of this page, once read or made

/** A new key: KEY_BYTES random bytes, in base64url without padding. */
export function newKey(random = (bytes) => globalThis.crypto.getRandomValues(bytes)) {
  const bytes = random(new Uint8Array(KEY_BYTES));
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The device's key: the one localStorage keeps, or a new one put there. A browser that keeps
 * nothing (storage refused) gets a key for this page only: its games are then its own until
 * the page is closed, and nobody else's ever.
 */
export function deviceKey(storage = globalThis.localStorage, random = undefined) {
  if (kept) return kept;
  let key = null;
  try {
    key = storage.getItem(DEVICE_STORAGE);
  } catch {
    key = null;
  }
  if (!key || !KEY_FORM.test(key)) {
    key = newKey(random);
    try {
      storage.setItem(DEVICE_STORAGE, key);
    } catch {
      /* kept for this page alone */
    }
  }
  kept = key;
  return key;
}

/** Forget the page's copy (the Node tests start each case afresh). */
export function forgetKept() {
  kept = null;
}
