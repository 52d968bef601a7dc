// Cards and moves as words and symbols: small pure functions (no DOM), usable under Node.
// Every function that produces words takes the translation function `t(key, params)`.

export const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
export const RED_SUITS = new Set(["D", "H"]);
/** Natural ranks, highest first (as the engine orders them). */
export const NATURAL_RANKS = "AKQJT987654";

/** A card object from its text ("7H", "TD", "10D", "JK"), shaped like the server's cards. */
export function parseCard(text) {
  const s = String(text).trim().toUpperCase();
  if (s === "JK") return { text: "JK", rank: "JK", suit: "", value: 50, wild: true, three: false };
  let rank = s.slice(0, -1);
  const suit = s.slice(-1);
  if (rank === "10") rank = "T";
  const wild = rank === "2";
  const three = rank === "3";
  let value = 5;
  if (rank === "A" || rank === "2") value = 20;
  else if ("KQJT98".includes(rank)) value = 10;
  else if (three) value = RED_SUITS.has(suit) ? 0 : 5;
  return { text: rank + suit, rank, suit, value, wild, three };
}

/** The rank as printed on a card's corner: "10" for T (the joker has a glyph instead). */
export function rankLabel(rank) {
  return rank === "T" ? "10" : rank;
}

export function isRed(card) {
  return RED_SUITS.has(card.suit);
}

export function isWild(card) {
  return card.wild ?? (card.rank === "2" || card.rank === "JK");
}

/** "7♥", "10♦", "Joker": the short form used in captions and hints (the joker by its name in
 * the player's language, as the server writes it: "JK" is the notation's, not the players'). */
export function cardSymbol(card, t) {
  const c = typeof card === "string" ? parseCard(card) : card;
  if (c.rank === "JK") return t("card.joker");
  return rankLabel(c.rank) + (SUIT_SYMBOLS[c.suit] || c.suit);
}

/** The accessible name: "7 of hearts" / "7 de corazones", "Joker". */
export function cardName(card, t) {
  const c = typeof card === "string" ? parseCard(card) : card;
  if (c.rank === "JK") return t("card.joker");
  return t("card.name", { rank: t(`rank.${c.rank}`), suit: t(`suit.${c.suit}`) });
}

/** The name of a meld's rank: "7", "10", "Aces"... as used in "the meld of {rank}". */
export function meldRankName(rank, t) {
  if (rank === "W") return t("meld.rank.W");
  if (rank === "3") return t("meld.rank.3");
  return t(`rankPlural.${rank}`);
}

// ---- ordering ----------------------------------------------------------------------------

/** A natural rank's height: A 14, K 13 ... 4 4; wild cards and threes get none (-1). */
export function rankHeight(rank) {
  const i = NATURAL_RANKS.indexOf(rank);
  return i < 0 || rank === "" ? -1 : 14 - i;
}

function kindOf(card) {
  if (card.rank === "JK") return "joker";
  if (card.rank === "2") return "deuce";
  if (card.rank === "3") return RED_SUITS.has(card.suit) ? "red3" : "black3";
  return "natural";
}

const SUIT_ORDER = "SHCD";

/**
 * The hand orders the player can choose, each visibly different; the first is the default
 * (the order the server sends too: by rank high to low, wild cards and threes apart).
 */
export const SORT_ORDERS = ["desc", "asc", "wilds", "suit"];
export const DEFAULT_SORT = SORT_ORDERS[0];

/**
 * The display order of a hand as a list of indices into `hand`.
 * desc/asc: naturals by rank (high to low / low to high), then wild cards, then threes;
 * wilds: wild cards first, then naturals high to low, then threes;
 * suit: by suit, then by rank, wild cards and threes at the end.
 * An unknown order (an old saved setting such as "server") counts as the default.
 */
export function sortOrder(hand, order) {
  const idx = hand.map((_, i) => i);
  if (!SORT_ORDERS.includes(order)) order = DEFAULT_SORT;
  const group = (c) => {
    const k = kindOf(c);
    if (order === "wilds") return k === "joker" ? 0 : k === "deuce" ? 1 : k === "natural" ? 2 : 3;
    return k === "natural" ? 0 : k === "joker" ? 1 : k === "deuce" ? 2 : 3;
  };
  const key = (i) => {
    const c = hand[i];
    const g = group(c);
    const h = rankHeight(c.rank);
    const suit = SUIT_ORDER.indexOf(c.suit);
    if (order === "asc") return [g, h, suit, i];
    if (order === "suit") return [g, g === 0 ? suit : 0, -h, i];
    return [g, -h, suit, i];
  };
  const keys = new Map(idx.map((i) => [i, key(i)]));
  return idx.sort((a, b) => {
    const ka = keys.get(a), kb = keys.get(b);
    for (let j = 0; j < ka.length; j++) if (ka[j] !== kb[j]) return ka[j] - kb[j];
    return 0;
  });
}

/** The sum of the cards' values (the count of an initial meld). */
export function sumValues(cards) {
  return cards.reduce((sum, c) => sum + (Number(c.value) || 0), 0);
}

/** The cards of a move's groups, as card texts: "meld 7H 7D / 9C 2C" -> [["7H","7D"],["9C","2C"]]. */
export function moveGroups(rest) {
  return rest.split("/").map((part) => part.trim().split(/\s+/).filter(Boolean));
}

function cardsText(texts, t) {
  return texts.map((c) => cardSymbol(c, t)).join(" ");
}

/** Parse a move text into {verb, groups, rank, card}. */
export function parseMove(text) {
  const s = String(text || "").trim();
  const sp = s.indexOf(" ");
  const verb = (sp < 0 ? s : s.slice(0, sp)).toLowerCase();
  const rest = sp < 0 ? "" : s.slice(sp + 1).trim();
  const move = { verb, groups: [], rank: null, card: null, text: s };
  if (verb === "discard") move.card = rest.split(/\s+/)[0] || null;
  else if (verb === "add") {
    const toks = rest.split(/\s+/).filter(Boolean);
    let rank = (toks[0] || "").toUpperCase();
    if (rank === "10") rank = "T";
    move.rank = rank;
    move.groups = [toks.slice(1)];
  } else if (verb === "meld" || verb === "take") {
    move.groups = rest ? moveGroups(rest) : [];
  }
  return move;
}

/** Every card text a move takes from the mover's hand. */
export function moveCards(text) {
  const m = parseMove(text);
  if (m.card) return [m.card];
  return m.groups.flat();
}

/**
 * A move in words: describeMove("discard 7H", t, "Computer 2") -> "Computer 2 discards 7♥";
 * with who = null: the player's own move ("You discard 7♥"); with {hint: true}: advice
 * ("Discard 7♥").
 */
export function describeMove(text, t, who = null, { hint = false } = {}) {
  const m = parseMove(text);
  const known = ["draw", "take", "meld", "add", "discard", "pass", "ask", "yes", "no"];
  if (!known.includes(m.verb)) return who === null ? text : `${who}: ${text}`;
  const params = { who: who ?? "" };
  let key = m.verb;
  if (m.verb === "discard") params.cards = cardSymbol(m.card, t);
  if (m.verb === "meld") params.cards = m.groups.map((g) => cardsText(g, t)).join(" · ");
  if (m.verb === "add") {
    params.cards = cardsText(m.groups[0] || [], t);
    params.rank = meldRankName(m.rank, t);
  }
  if (m.verb === "take") {
    const [withTop = [], ...extra] = m.groups;
    if (withTop.length && extra.length) key = "takeWithMelds";
    else if (withTop.length) key = "takeWith";
    else if (extra.length) key = "takeMelds";
    params.cards = cardsText(withTop, t);
    params.melds = extra.map((g) => cardsText(g, t)).join(" · ");
  }
  const family = hint ? "moveHint" : who === null ? "moveYou" : "move";
  return t(`${family}.${key}`, params);
}

/** The text of a move from groups of card texts: ("meld", [["7H","7D","7S"],["9C","9D"]]). */
export function moveText(verb, groups) {
  return [verb, groups.map((g) => g.join(" ")).join(" / ")].filter(Boolean).join(" ");
}

/** "take", "take 7H 7S", "take 7H 7S / KH KD KC", "take / KH KD KC". */
export function takeText(withTop, extra) {
  let text = "take";
  if (withTop.length) text += " " + withTop.join(" ");
  for (const g of extra) text += " / " + g.join(" ");
  return text;
}
