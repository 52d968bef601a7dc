// The felt: seats around the table, each side's melds and red threes, the stock and the pile.
// Renders a server view; never decides anything about the rules.
import { h } from "../dom.js";
import { formatNumber, t, tn } from "../i18n.js";
import { cardName, cardSymbol, isWild, meldRankName, rankHeight } from "../cards.js";
import { cardBack, cardFace } from "./cardview.js";

export function sidesOf(view) {
  return view.sides || (view.melds ? view.melds.length : 2);
}

export function seatsOfSide(view, side) {
  const sides = sidesOf(view);
  const seats = [];
  for (let s = 0; s < view.players; s++) if (s % sides === side) seats.push(s);
  return seats;
}

export function seatName(view, seat) {
  if (seat === view.seat) return t("seat.you");
  return (view.names && view.names[seat]) || t("seat.computer", { n: seat });
}

/** "Your side" / "You" for the player's side, the players' names for the others (every side,
 * for a spectator: its view has no seat). */
export function sideName(view, side) {
  const seats = seatsOfSide(view, side);
  if (side === view.side && view.seat !== null && view.seat !== undefined) return seats.length > 1 ? t("side.yours") : t("side.you");
  const names = seats.map((s) => (view.names && view.names[s]) || t("seat.computer", { n: s }));
  return names.join(t("side.joiner"));
}

/** Where each seat sits, seen from the reader's seat at the bottom (a spectator's: seat 0's);
 * play goes to the left (clockwise).  `seat` counts from the reader's. */
export function seatPosition(seat, players) {
  if (seat === 0) return "bottom";
  const layouts = {
    2: { 1: "top" },
    3: { 1: "left", 2: "right" },
    4: { 1: "left", 2: "top", 3: "right" },
    6: { 1: "left", 2: "left", 3: "top", 4: "right", 5: "right" },
  };
  return (layouts[players] && layouts[players][seat]) || "top";
}

export function levelName(level) {
  return level ? t(`level.${level}`) : "";
}

function meldOrder(a, b) {
  const ha = a.rank === "W" ? 1 : a.rank === "3" ? 0 : rankHeight(a.rank) + 10;
  const hb = b.rank === "W" ? 1 : b.rank === "3" ? 0 : rankHeight(b.rank) + 10;
  return hb - ha;
}

function seatBadge(view, seat, opts) {
  // While a "may I go out?" waits for its answer, the asker is marked instead of the turn.
  const asked = view.asking !== null && view.asking !== undefined;
  const isTurn = view.result == null && view.turn === seat && !asked;
  const watching = view.seat === null || view.seat === undefined; // (a spectator's: nobody's partner)
  const isPartner = !watching && view.partner === seat;
  const meta = [];
  const side = seat % sidesOf(view);
  if (isPartner) meta.push(t("seat.partner"));
  else if (seat !== view.seat && !watching) meta.push(t("seat.opponent"));
  // With three partnerships (Ponytail, 6 players) "opponent" alone does not say who plays with
  // whom: each opponent names its partners.
  if (seat !== view.seat && side !== view.side && sidesOf(view) > 2) {
    const mates = seatsOfSide(view, side).filter((s) => s !== seat).map((s) => seatName(view, s));
    if (mates.length) meta.push(t("seat.with", { names: mates.join(t("side.joiner")) }));
  }
  if (view.levels && view.levels[seat]) meta.push(levelName(view.levels[seat]));
  const size = view.hand_sizes ? view.hand_sizes[seat] : 0;
  const pony = view.ponytail_sizes ? view.ponytail_sizes[seat] : null;
  const fan = [];
  for (let i = 0; i < Math.min(size, 5); i++) fan.push(cardBack("card--mini"));
  const asking = view.asking === seat;
  const me = view.seat ?? 0;
  const classes = ["seat", `seat--${seatPosition((seat - me + view.players) % view.players, view.players)}`, `seat--side-${side}`];
  if (isTurn) classes.push("seat--turn");
  if (isPartner) classes.push("seat--partner");
  if (opts.lastSeat === seat) classes.push("seat--last");
  return h("div", { class: classes.join(" "), dataset: { testid: `seat-${seat}`, seat } },
    h("div", { class: "seat-head" },
      partnerships(view) ? h("span", { class: `side-mark side-mark--${side}`, "aria-hidden": "true" }) : null,
      h("span", { class: "seat-name" }, seatName(view, seat)),
      isTurn ? h("span", { class: "seat-turn" }, t("seat.turn")) : null),
    meta.length ? h("div", { class: "seat-meta" }, meta.join(" · ")) : null,
    seat === view.seat ? null : h("div", { class: "seat-cards" },
      h("span", { class: "seat-fan", "aria-hidden": "true" }, fan),
      h("span", { dataset: { testid: `hand-size-${seat}` } }, tn("seat.cards", size))),
    pony != null ? h("div", { class: "seat-pony", dataset: { testid: `ponytail-${seat}` } },
      tn("seat.ponytail", pony)) : null,
    asking ? h("div", { class: "seat-asking" }, t("seat.asking")) : null);
}

/** Whether the table plays in partnerships, whose seats and melds share a colour mark. */
function partnerships(view) {
  return view.players > sidesOf(view);
}

/** "4 kings, 1 wild card" for K K K K 2: the naturals by their rank, the wild cards apart; a
 * meld of wild cards only is counted once ("7 wild cards"). */
export function meldLabel(meld) {
  const wilds = meld.wilds ?? meld.cards.filter(isWild).length;
  const naturals = meld.naturals ?? meld.cards.length - wilds;
  const all = meld.rank === "W";
  const parts = [t("meld.label", { rank: meldRankName(meld.rank, t), n: all ? wilds : naturals })];
  if (meld.canasta) parts.push(t(`meld.canasta.${meld.canasta}`));
  if (wilds && !all) parts.push(tn("meld.wilds", wilds));
  return parts.join(", ");
}

function meldElement(view, side, meld, opts) {
  const canAdd = opts.interactive && side === view.side && opts.addRanks && opts.addRanks.has(meld.rank);
  const cards = meld.cards.map((c) => cardFace(c, { extra: "card--small" }));
  const classes = ["meld"];
  if (meld.canasta) classes.push("meld--canasta", `meld--${meld.canasta}`);
  if (canAdd) classes.push("meld--target");
  const badge = meld.canasta
    ? h("span", { class: `canasta-badge canasta-badge--${meld.canasta}` }, t(`meld.canastaShort.${meld.canasta}`))
    : null;
  const head = h("span", { class: "meld-head" },
    h("span", { class: "meld-rank" }, meld.rank === "W" ? "★" : meld.rank === "T" ? "10" : meld.rank),
    h("span", { class: "meld-count" }, formatNumber(meld.size ?? meld.cards.length)),
    badge);
  const attrs = {
    class: classes.join(" "),
    dataset: { meldRank: meld.rank, side: String(side), testid: "table-meld" },
  };
  if (canAdd) {
    return h("button", {
      ...attrs, type: "button",
      "aria-label": t("meld.addTo", { meld: meldLabel(meld) }),
      dataset: { ...attrs.dataset, focusKey: `meld-${side}-${meld.rank}` },
      onclick: () => opts.onMeld(meld.rank),
      ondragover: (e) => { e.preventDefault(); e.currentTarget.classList.add("drop-hover"); },
      ondragleave: (e) => e.currentTarget.classList.remove("drop-hover"),
      ondrop: (e) => { e.preventDefault(); e.currentTarget.classList.remove("drop-hover"); opts.onDropMeld(meld.rank, e); },
    }, head, h("span", { class: "meld-cards" }, cards));
  }
  return h("div", { ...attrs, role: "img", "aria-label": meldLabel(meld) },
    head, h("span", { class: "meld-cards" }, cards));
}

/** Where a side needs canastas of given kinds (Ponytail), how many it lacks beyond what its
 * count of canastas suggests: two clean canastas still lack the dirty one. */
function kindsMissing(view, side, canastas) {
  const missing = view.canastas_missing ? view.canastas_missing[side] : 0;
  return missing && canastas + missing > view.canastas_needed ? missing : 0;
}

function sideMelds(view, side, opts) {
  const melds = [...(view.melds[side] || [])].sort(meldOrder);
  const threes = (view.threes && view.threes[side]) || [];
  const own = side === view.side;
  const canastas = melds.filter((m) => m.canasta).length;
  const headingId = `side-${side}-title-${opts.idPrefix || "g"}`;
  return h("section", {
    class: `side ${own ? "side--own" : "side--other"}`,
    "aria-labelledby": headingId,
    // Its melds may scroll inside it: reachable with the keyboard too.
    tabindex: "0",
    dataset: { testid: `side-${side}`, side: String(side) },
  },
    h("h3", { class: "side-title", id: headingId },
      h("span", { class: "side-name" },
        partnerships(view) ? h("span", { class: `side-mark side-mark--${side}`, "aria-hidden": "true" }) : null,
        sideName(view, side)),
      h("span", { class: "side-stats" }, tn("side.canastas", canastas),
        view.canastas_needed && own ? ` / ${view.canastas_needed}` : "",
        own && kindsMissing(view, side, canastas) ? ` · ${tn("side.kindsMissing", kindsMissing(view, side, canastas))}` : "")),
    h("div", { class: "side-body" },
      threes.length
        ? h("div", { class: "threes", role: "img", dataset: { testid: `threes-${side}` },
          // Modern American lays black threes there too: only an all-red row is "red threes".
          "aria-label": t(threes.every((c) => c.suit === "H" || c.suit === "D") ? "side.redThrees" : "side.threes",
            { cards: threes.map((c) => cardName(c, t)).join(", ") }) },
        threes.map((c) => cardFace(c, { extra: "card--small" })))
        : null,
      melds.length
        ? h("div", { class: "melds" }, melds.map((m) => meldElement(view, side, m, opts)))
        : h("p", { class: "side-empty" }, t("side.noMelds"))));
}

function pileArea(view, opts) {
  const top = view.pile_top;
  const frozen = view.pile_frozen || view.pile_frozen_all;
  const frozenText = view.pile_frozen_all ? t("pile.frozenAll") : view.pile_frozen ? t("pile.frozen") : "";
  const label = [
    top ? t("pile.top", { card: cardName(top, t) }) : t("pile.empty"),
    tn("pile.size", view.pile_size),
    frozenText,
  ].filter(Boolean).join(". ");
  const faces = [];
  if (frozen) faces.push(h("span", { class: "card card--cross", "aria-hidden": "true" }));
  faces.push(top ? cardFace(top, { extra: "card--pile" }) : h("span", { class: "card card--empty", "aria-hidden": "true" }));
  const canTake = opts.interactive && view.legal && view.legal.take;
  const stack = h("span", { class: `pile-stack${frozen ? " pile-stack--frozen" : ""}` }, faces);
  const pileAttrs = {
    class: `pile${canTake ? " pile--active" : ""}`,
    dataset: { testid: "pile", frozen: frozen ? "true" : "false", top: top ? top.text : "" },
  };
  const drop = opts.interactive ? {
    ondragover: (e) => { e.preventDefault(); e.currentTarget.classList.add("drop-hover"); },
    ondragleave: (e) => e.currentTarget.classList.remove("drop-hover"),
    ondrop: (e) => { e.preventDefault(); e.currentTarget.classList.remove("drop-hover"); opts.onDropPile(e); },
  } : {};
  const pile = canTake
    ? h("button", { ...pileAttrs, ...drop, type: "button", "aria-label": `${t("actions.take")}: ${label}`,
      dataset: { ...pileAttrs.dataset, focusKey: "pile" }, onclick: () => opts.onTake() }, stack)
    : h("div", { ...pileAttrs, ...drop, role: "img", "aria-label": label }, stack);
  return h("div", { class: "deck-slot" },
    pile,
    h("span", { class: "deck-caption" }, t("pile.name"), " · ", formatNumber(view.pile_size)),
    frozen ? h("span", { class: "frozen-tag", dataset: { testid: "pile-frozen" } },
      h("span", { "aria-hidden": "true" }, "❄ "), frozenText) : null);
}

function stockArea(view, opts) {
  const canDraw = opts.interactive && view.legal && view.legal.draw;
  const label = tn("stock.size", view.stock_size);
  const stack = h("span", { class: "stock-stack" },
    view.stock_size > 0 ? [cardBack("card--stack2"), cardBack("card--stack1"), cardBack()]
      : h("span", { class: "card card--empty", "aria-hidden": "true" }));
  const attrs = { class: `stock${canDraw ? " stock--active" : ""}`, dataset: { testid: "stock" } };
  const stock = canDraw
    ? h("button", { ...attrs, type: "button", "aria-label": `${t("actions.draw")}: ${label}`,
      dataset: { ...attrs.dataset, focusKey: "stock" }, onclick: () => opts.onDraw() }, stack)
    : h("div", { ...attrs, role: "img", "aria-label": label }, stack);
  return h("div", { class: "deck-slot" }, stock,
    h("span", { class: "deck-caption" }, t("stock.name"), " · ", formatNumber(view.stock_size)));
}

/** What the table's highlights mean (the players see them without being told otherwise). */
function legend(view) {
  const item = (swatch, key) => h("li", {}, h("span", { class: `legend-swatch legend-swatch--${swatch}`, "aria-hidden": "true" }), t(key));
  return h("ul", { class: "legend", "aria-label": t("legend.title"), dataset: { testid: "legend" } },
    item("turn", "legend.turn"),
    item("target", "legend.target"),
    item("drawn", "legend.drawn"),
    partnerships(view) ? item("sides", "legend.sides") : null);
}

/**
 * The felt for a view. opts: {interactive, addRanks: Set, onMeld(rank), onTake(), onDraw(),
 * onDropPile(e), onDropMeld(rank, e), lastSeat, idPrefix, ownSeat (false: the player's seat is
 * shown elsewhere, beside the hand)}.
 */
export function renderFelt(view, opts = {}) {
  const sides = sidesOf(view);
  const positions = { top: [], left: [], right: [] };
  const me = view.seat ?? 0;
  for (let k = 1; k < view.players; k++) positions[seatPosition(k, view.players)].push((me + k) % view.players);
  // Seats on the left are listed from the top of the table down (play goes up the left side).
  positions.left.reverse();
  const others = [];
  for (let s = 0; s < sides; s++) if (s !== view.side) others.push(s);
  return h("div", { class: `felt felt--p${view.players} felt--s${sides}`, dataset: { players: view.players } },
    h("div", { class: "felt-top seat-row" }, positions.top.map((s) => seatBadge(view, s, opts))),
    h("div", { class: "felt-left seat-col" }, positions.left.map((s) => seatBadge(view, s, opts))),
    h("div", { class: "felt-right seat-col" }, positions.right.map((s) => seatBadge(view, s, opts))),
    h("div", { class: `felt-others sides-other sides-other--${others.length}` }, others.map((s) => sideMelds(view, s, opts))),
    h("div", { class: "felt-deck" },
      h("div", { class: "deck-row" }, stockArea(view, opts), pileArea(view, opts)),
      legend(view)),
    h("div", { class: "felt-own" }, sideMelds(view, view.side, opts)),
    opts.ownSeat === false ? null : h("div", { class: "felt-bottom seat-row" }, seatBadge(view, me, opts)));
}

/** The player's own seat badge (name, turn, partnership), for beside the hand. */
export function ownSeatBadge(view, opts = {}) {
  return seatBadge(view, view.seat ?? 0, opts);
}

/** The move history of this hand as a list of captions. */
export function historyList(view, describe) {
  const takenBack = new Set(view.penalized || []);
  const items = (view.history || []).map(([seat, move], i) => h("li", {}, describe(seat, move),
    takenBack.has(i) ? ` ${t("history.takenBack")}` : null));
  return h("ol", { class: "history-list", reversed: true }, items.reverse());
}

export { cardSymbol };
