// What the player may do now, and why not, with no DOM: the action buttons' list, which of them
// are available (from the server's `legal`, the selection and the connection), the reason an
// unavailable one gives when pressed, and the status line.  The reasons the rules decide are the
// server's (the engine's words, in the player's language); the rest are the client's own.
import { parseCard } from "./cards.js";
import { t } from "./i18n.js";
import { seatName } from "./ui/table.js";

/** Which move keys exist; each action: shortcut, test id, and the catalogue key of its label. */
export const ACTIONS = [
  { id: "draw", key: "d", label: "actions.draw" },
  { id: "take", key: "t", label: "actions.take" },
  { id: "meld", key: "m", label: "actions.meld" },
  { id: "add-group", key: "g", label: "actions.addGroup" },
  { id: "add-to", key: "a", label: "actions.addTo" },
  { id: "discard", key: "x", label: "actions.discard" },
  { id: "pass", key: "p", label: "actions.pass" },
  { id: "ask", key: "q", label: "actions.ask" },
  { id: "undo", key: "u", label: "actions.undo" },
  { id: "hint", key: "h", label: "actions.hint" },
  { id: "clear", key: "c", label: "actions.clear" },
  { id: "sort", key: "s", label: "actions.sort" },
  { id: "show-score", key: "k", label: "actions.scoreSheet" },
];

const norm = (c) => parseCard(typeof c === "string" ? c : c.text).text;

/**
 * The game as the actions see it: `view` (the state on screen, or null), `selection`, `busy`,
 * `conn` ("connecting", "open", "lost", "refused"), `canUndo`, `paused`.
 * Returns {actionId: available}.
 */
export function availability({ view: v, selection, busy, conn, canUndo }) {
  const en = {};
  for (const a of ACTIONS) en[a.id] = false;
  en.sort = true;
  if (!v) return en;
  en["show-score"] = !!v.result;
  if (busy || conn !== "open" || v.result) return en;
  const legal = v.legal || {};
  const nSel = selection.size;
  const nStaged = selection.groups;
  en.draw = !!legal.draw;
  en.take = !!legal.take;
  en.meld = !!legal.meld && (nSel > 0 || nStaged > 0);
  en["add-group"] = nSel > 0 && (!!legal.meld || !!legal.take);
  en["add-to"] = nSel > 0 && (legal.add || []).length > 0;
  const discards = new Set((legal.discard || []).map(norm));
  const single = selection.single(v.hand);
  en.discard = !!single && discards.has(single.text);
  en.pass = !!legal.pass;
  en.ask = !!legal.ask;
  en.undo = !!canUndo;
  en.hint = (v.turn === v.seat && !!v.to_act) || !!legal.yes;
  en.clear = !selection.empty;
  return en;
}

/** Why action `id` is unavailable now (null when it is available). */
export function whyNot(id, en, { view: v, selection, busy, conn }) {
  if (en[id]) return null;
  if (conn !== "open") return t("why.offline");
  if (!v) return t("why.busy");
  if (v.result) return t("why.handOver");
  if (busy) return t("why.busy");
  if (id === "undo") return t("why.noUndo");
  if (id === "clear") return t("why.nothingToClear");
  const legal = v.legal || {};
  if (!(v.turn === v.seat && v.to_act) && !legal.yes && !legal.no) {
    return t("why.notYourTurn", { name: seatName(v, v.asking ?? v.turn) });
  }
  if (id === "hint") return t("why.noHint");
  const server = v.unavailable || {};
  const nSel = selection.size;
  const choose = t("why.chooseCards");
  switch (id) {
    case "draw": case "take": case "pass": case "ask":
      return server[id] || t("why.notNow");
    case "meld": return server.meld || choose;
    case "add-group": return legal.meld || legal.take ? choose : server.meld || t("why.notNow");
    case "add-to": return server.add || choose;
    case "discard": {
      if (server.discard) return server.discard;
      if (selection.groups) return t("why.finishStaging");
      if (nSel !== 1) return nSel ? t("why.chooseOne") : choose;
      const card = selection.single(v.hand);
      return (server.discard_cards && server.discard_cards[card.text]) || t("why.notNow");
    }
    default: return t("why.notNow");
  }
}

/**
 * Where "Add to…" sends the selected cards `texts`: `melds`, the ranks of the side's melds that
 * take them (the server's `add_fits`: the engine's answer for every choice of cards of the
 * hand, each written as its cards' ranks sorted, since suits make no difference to an addition),
 * in the table's order; and, when none does, `fallback`, the rank of their first natural card,
 * where the move goes anyway so that the server says why (null: wild cards alone).
 */
export function addTargets(view, texts) {
  const fits = view.add_fits || {};
  const ranks = texts.map((text) => parseCard(text).rank);
  const key = [...ranks].sort().join(" ");
  const order = (view.melds[view.side] || []).map((m) => m.rank);
  const melds = order.filter((rank, i) => order.indexOf(rank) === i && (fits[rank] || []).includes(key));
  const natural = ranks.find((rank) => rank !== "2" && rank !== "JK");
  return { melds, fallback: melds.length ? null : natural ?? null };
}

/** Which buttons are left out of sight (not merely unavailable) in this state. */
export function hiddenAction(id, en, view) {
  if (id === "show-score") return !(view && view.result);
  if (id === "pass") return !en.pass;
  if (id === "ask") return !(view && view.partner !== null && view.partner !== undefined);
  return false;
}

/** The status line: the connection, the pause, whose turn it is and what they are to do. */
export function statusText({ view: v, conn, paused }) {
  if (conn === "refused") return t("status.refused");
  if (conn === "lost") return t("status.reconnecting");
  if (!v) return t("status.connecting");
  if (paused) return t("status.paused");
  if (v.result) {
    if (v.match && v.match.over) return t("status.matchOver");
    return t("status.handOver");
  }
  const legal = v.legal || {};
  if (legal.yes || legal.no) {
    return t("status.answer", { name: seatName(v, v.asking ?? v.partner) });
  }
  if (v.turn === v.seat && v.to_act !== false) {
    if (v.asking === v.seat) return t("status.waitingAnswer", { name: seatName(v, v.partner) });
    let base;
    if (v.phase === "draw") base = legal.pass ? t("status.drawOrPass") : t("status.draw");
    else base = t("status.play");
    if (v.answer === "yes") base = `${t("status.answeredYes")} ${base}`;
    else if (v.answer === "no") base = `${t("status.answeredNo")} ${base}`;
    return base;
  }
  if (v.asking !== null && v.asking !== undefined && v.asking !== v.seat) {
    return t("status.waitingAnswerOf", { asker: seatName(v, v.asking) });
  }
  return t("status.waitingFor", { name: seatName(v, v.turn) });
}
