// Message catalogues: every word the client shows comes from static/i18n/<lang>.json.
// Adding a language = adding its catalogue and its code to LANGS.

export const LANGS = ["es", "en"];
const STORAGE_KEY = "canasta.lang";

const catalogues = {};
let current = "en";
const listeners = new Set();

export async function loadCatalogues(base = "/static/i18n/") {
  await Promise.all(
    LANGS.map(async (lang) => {
      const res = await fetch(`${base}${lang}.json`);
      if (!res.ok) throw new Error(`catalogue ${lang}: ${res.status}`);
      catalogues[lang] = await res.json();
    }),
  );
}

/** For Node checks: install catalogues without fetching. */
export function setCatalogue(lang, messages) {
  catalogues[lang] = messages;
}

/** The browser's language: Spanish when navigator.language starts with "es", else English. */
export function detectLang() {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved && LANGS.includes(saved)) return saved;
  } catch {
    /* storage may be unavailable */
  }
  const nav = (globalThis.navigator && navigator.language) || "en";
  const prefix = nav.toLowerCase().slice(0, 2);
  if (LANGS.includes(prefix)) return prefix;
  return "en";
}

export function lang() {
  return current;
}

export function setLang(code, { remember = true } = {}) {
  if (!LANGS.includes(code)) return;
  current = code;
  if (globalThis.document) document.documentElement.lang = code;
  if (remember) {
    try {
      localStorage.setItem(STORAGE_KEY, code);
    } catch {
      /* ignore */
    }
  }
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Translate `key`, filling {name} placeholders from `params`. Falls back to English, then the key. */
export function t(key, params = {}) {
  let msg = catalogues[current]?.[key];
  if (msg === undefined) msg = catalogues.en?.[key];
  if (msg === undefined) {
    if (globalThis.console) console.warn(`missing message: ${key}`);
    return key;
  }
  // A number given as a number is written the language's one way (see formatNumber).
  const show = (v) => (typeof v === "number" ? formatNumber(v) : String(v));
  return msg.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? show(params[name]) : whole));
}

/** Does the catalogue have this key? (for optional rows, e.g. an unknown score-sheet row). */
export function has(key) {
  return catalogues[current]?.[key] !== undefined || catalogues.en?.[key] !== undefined;
}

/** Plural forms: key.one / key.other (any CLDR category the catalogue gives), with {n}. */
export function tn(key, n, params = {}) {
  const cat = new Intl.PluralRules(current).select(n);
  const full = has(`${key}.${cat}`) ? `${key}.${cat}` : `${key}.other`;
  return t(full, { ...params, n: formatNumber(n) });
}

const numberFormats = {};

/** Every number the client shows goes through here: one format per language, thousands always
 * grouped (Spanish CLDR data leaves 4-digit numbers ungrouped: "5000" beside "10.000"). */
export function formatNumber(n) {
  if (!numberFormats[current]) numberFormats[current] = new Intl.NumberFormat(current, { useGrouping: "always" });
  return numberFormats[current].format(n);
}

/** A share as a percentage in the language's own way ("43%", "43 %"). */
export function formatPercent(part, whole) {
  return new Intl.NumberFormat(current, { style: "percent", maximumFractionDigits: 0 }).format(whole ? part / whole : 0);
}

export function formatDate(iso) {
  const d = new Date(typeof iso === "number" && iso < 1e12 ? iso * 1000 : iso);
  if (Number.isNaN(d.getTime())) return String(iso ?? "");
  return new Intl.DateTimeFormat(current, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }).format(d);
}

/** The language's own name, from its own catalogue ("Español", "English"). */
export function langName(code) {
  return catalogues[code]?.["lang.self"] ?? code;
}

/** Fill static markup: data-i18n="key" (text), data-i18n-attr="attr:key;attr2:key2". */
export function applyStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":").map((s) => s.trim());
      if (attr && key) el.setAttribute(attr, t(key));
    }
  }
}
