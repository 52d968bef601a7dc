// The score sheet of a finished hand: one column per side, the breakdown rows, the match scores.
import { h } from "../dom.js";
import { formatNumber, has, t } from "../i18n.js";
import { seatName, seatsOfSide, sideName, sidesOf } from "./table.js";

export const BREAKDOWN_KEYS = ["melded", "canastas", "threes", "going_out", "in_hand", "penalties"];

function rowKeys(breakdown) {
  const keys = [...BREAKDOWN_KEYS];
  for (const b of breakdown) for (const k of Object.keys(b)) if (!keys.includes(k) && k !== "total") keys.push(k);
  keys.push("total");
  return keys;
}

/** A row's name; a variant may name a row its own way (Modern American scores every three laid,
 * black ones too, in its "threes" row). */
function rowName(key, variant) {
  if (variant && has(`score.row.${key}.${variant}`)) return t(`score.row.${key}.${variant}`);
  return has(`score.row.${key}`) ? t(`score.row.${key}`) : key.replace(/_/g, " ");
}

/** The same columns for every table of the sheet, so that the hand-by-hand scores stand under
 * the hand's own. */
function columns(sides) {
  return h("colgroup", {}, h("col", { class: "col-label" }),
    Array.from({ length: sides }, () => h("col", { class: "col-side" })));
}

/** How the match ended for the reader: "won", "lost", or null (it goes on, it ended even, or
 * the reader has no side). */
export function outcome(view) {
  const match = view.match || {};
  const known = (x) => x !== null && x !== undefined;
  if (!match.over || !known(match.winner) || !known(view.side)) return null;
  return match.winner === view.side ? "won" : "lost";
}

/** The title of a finished match's sheet: "You won", "Your side lost" (a partnership)... or,
 * without an outcome of the reader's, "Final score". */
export function outcomeTitle(view) {
  const end = outcome(view);
  if (!end) return t("score.finalTitle");
  return t(`score.${end}.${seatsOfSide(view, view.side).length > 1 ? "side" : "you"}`);
}

/** "Your side wins the match!" / "The match goes to Computer 1 & Computer 3." / null while the
 * match goes on. */
export function winnerText(view) {
  const match = view.match || {};
  if (!match.over) return null;
  if (match.winner === null || match.winner === undefined) return t("score.matchOverTie");
  if (match.winner === view.side) {
    return t(seatsOfSide(view, view.side).length > 1 ? "score.youWin" : "score.youWinAlone");
  }
  return t("score.theyWin", { side: sideName(view, match.winner) });
}

export function scoreTable(view, { caption = true } = {}) {
  const result = view.result;
  const sides = sidesOf(view);
  const breakdown = (result && result.breakdown) || [];
  const keys = rowKeys(breakdown);
  const sideIdx = Array.from({ length: sides }, (_, s) => s);
  const match = view.match || {};
  const matchScores = match.scores || view.scores || [];
  const fmt = (v) => (v === undefined || v === null ? "—" : formatNumber(v));
  return h("table", { class: "score-table", dataset: { testid: "score-table" } },
    caption ? h("caption", {}, t("score.caption", { n: formatNumber(view.hand_number) })) : null,
    columns(sides),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("score.row"))),
      sideIdx.map((s) => h("th", { scope: "col", class: s === view.side ? "own" : "" }, sideName(view, s))))),
    h("tbody", {},
      keys.map((k) => h("tr", { class: k === "total" ? "row-total" : "", dataset: { row: k } },
        h("th", { scope: "row" }, rowName(k, view.variant)),
        sideIdx.map((s) => h("td", { class: s === view.side ? "own" : "" }, fmt(breakdown[s] ? (breakdown[s][k] ?? 0) : undefined))))),
      h("tr", { class: "row-match", dataset: { row: "match" } },
        h("th", { scope: "row" }, t("score.row.match")),
        sideIdx.map((s) => h("td", { class: s === view.side ? "own" : "" }, fmt(matchScores[s]))))));
}

/** The match hand by hand (the players' running sheet): each finished hand's score per side,
 * then the match score.  Shown from the second hand on. */
export function handsTable(view) {
  const hands = (view.match && view.match.hand_scores) || [];
  if (hands.length < 2) return null;
  const sides = sidesOf(view);
  const sideIdx = Array.from({ length: sides }, (_, s) => s);
  const own = (s) => (s === view.side ? "own" : "");
  const totals = sideIdx.map((s) => hands.reduce((sum, h) => sum + (h[s] || 0), 0));
  return h("table", { class: "score-table hands-table", dataset: { testid: "hands-table" } },
    h("caption", {}, t("score.handsCaption")),
    columns(sides),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("score.row"))),
      sideIdx.map((s) => h("th", { scope: "col", class: own(s) }, sideName(view, s))))),
    h("tbody", {},
      hands.map((scores, i) => h("tr", { dataset: { hand: i + 1 } },
        h("th", { scope: "row" }, t("score.caption", { n: formatNumber(i + 1) })),
        sideIdx.map((s) => h("td", { class: own(s) }, formatNumber(scores[s] ?? 0))))),
      h("tr", { class: "row-match" },
        h("th", { scope: "row" }, t("score.row.match")),
        sideIdx.map((s) => h("td", { class: own(s) }, formatNumber(totals[s]))))));
}

/** The whole sheet: the winner when the match is over (first, in the colour of the reader's
 * outcome: it is read before the numbers, never below the part of the sheet in sight), who went
 * out, the table and the target. */
export function scoreSheet(view) {
  const result = view.result;
  const lines = [];
  if (result && result.went_out !== null && result.went_out !== undefined) {
    const who = seatName(view, result.went_out);
    const you = result.went_out === view.seat ? "you" : "";
    const key = result.concealed ? `score.${you ? "youW" : "w"}entOutConcealed` : `score.${you ? "youW" : "w"}entOut`;
    lines.push(t(key, { who }));
  } else if (result) {
    lines.push(t("score.noGoingOut"));
  }
  const winner = winnerText(view);
  const end = outcome(view);
  return h("div", { class: "score-sheet" },
    winner ? h("p", { class: `score-winner${end ? ` score-winner--${end}` : ""}`, dataset: { testid: "winner" } }, winner) : null,
    lines.map((l) => h("p", { class: "score-line" }, l)),
    scoreTable(view),
    handsTable(view),
    h("p", { class: "score-target" }, view.hand_limit
      ? t("score.targetOrHands", { target: formatNumber(view.target), hands: view.hand_limit })
      : t("score.target", { target: formatNumber(view.target) })));
}
