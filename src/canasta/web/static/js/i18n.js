// Message catalogues: every word the client shows comes from the game's gettext catalogue of
// its language (src/canasta/locale/<lang>.po, served at /i18n/<lang>.po), the one the server and
// the terminal game read too (docs/I18N.md). Adding a language = adding its catalogue and its
// code to LANGS (and to canasta.i18n.LANGS).

export const LANGS = ["es", "en"];
const STORAGE_KEY = "canasta.lang";

const catalogues = {};
let current = "en";
const listeners = new Set();

export async function loadCatalogues(base = "/i18n/") {
  await Promise.all(
    LANGS.map(async (lang) => {
      const res = await fetch(`${base}${lang}.po`);
      if (!res.ok) throw new Error(`catalogue ${lang}: ${res.status}`);
      catalogues[lang] = parsePo(await res.text());
    }),
  );
}

const PO_ESCAPES = { n: "\n", t: "\t", '"': '"', "\\": "\\" };

function unquote(line) {
  const m = /^"((?:[^"\\]|\\.)*)"$/.exec(line.trim());
  if (!m) throw new Error(`catalogue: not a quoted string: ${line}`);
  return m[1].replace(/\\(.)/g, (whole, c) => PO_ESCAPES[c] ?? whole);
}

/** A gettext catalogue's text as {msgctxt: text} (an untranslated entry reads as its msgid):
 * the same reading as the server's (canasta.i18n.read_po). */
export function parsePo(text) {
  const out = {};
  let fields = {};
  let last = null;
  const flush = () => {
    if (fields.msgid && fields.msgctxt !== undefined) out[fields.msgctxt] = fields.msgstr || fields.msgid;
    fields = {};
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const m = /^(msgctxt|msgid|msgstr) (.*)$/.exec(line);
    if (m) {
      if (m[1] in fields || (m[1] !== "msgstr" && "msgstr" in fields)) flush();
      fields[m[1]] = unquote(m[2]);
      last = m[1];
    } else if (line.startsWith('"') && last) {
      fields[last] += unquote(line);
    } else {
      throw new Error(`catalogue: unexpected line: ${raw}`);
    }
  }
  flush();
  return out;
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

/** A game's date and time, cut before the time so a narrow column can break the line there:
 * ["Dec 3,", "04:00 PM"] (["3 dic,", "16:00"]); one part when there is no time to cut at. */
export function formatDateParts(iso) {
  const d = new Date(typeof iso === "number" && iso < 1e12 ? iso * 1000 : iso);
  if (Number.isNaN(d.getTime())) return [String(iso ?? "")];
  const parts = new Intl.DateTimeFormat(current, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }).formatToParts(d);
  const at = parts.findIndex((p) => p.type === "hour");
  const text = (ps) => ps.map((p) => p.value).join("").trim();
  return at > 0 ? [text(parts.slice(0, at)), text(parts.slice(at))] : [text(parts)];
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
