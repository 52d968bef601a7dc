// The player's hand on screen: the card buttons (selected, hinted, just drawn), fanned out to
// the room they have, the groups prepared for a meld, and the count of the cards being laid.
// Renders a view and a Selection (selection.js); the screen decides what a click does.
import { h, keepFocus } from "../dom.js";
import { formatNumber, t } from "../i18n.js";
import { cardName, sortOrder } from "../cards.js";
import { cardClasses, cardFace, cardInside } from "./cardview.js";

/**
 * The hand's card buttons in display order, the prepared cards left out (they show among the
 * groups).  opts: selection, sort, hinted and drawn (sets of indices), animate (the drawn
 * cards slide in), onToggle(i), onKey(event).
 */
export function handButtons(view, { selection, sort, hinted, drawn, animate, onToggle, onKey }) {
  const staged = selection.stagedSet();
  // A card is followed by the focus as itself, not as its place in the server's list (which
  // shifts when a card leaves): its text and which of the hand's copies of it it is.
  const copy = [];
  const seen = new Map();
  for (const c of view.hand) {
    copy.push(seen.get(c.text) || 0);
    seen.set(c.text, copy[copy.length - 1] + 1);
  }
  return sortOrder(view.hand, sort).filter((i) => !staged.has(i)).map((i) => {
    const c = view.hand[i];
    const described = [drawn.has(i) ? "drawn-note" : "", hinted.has(i) ? "hint-note" : ""]
      .filter(Boolean).join(" ");
    const extra = [hinted.has(i) ? "card--hinted" : "", drawn.has(i) ? "card--drawn" : "",
      drawn.has(i) && animate ? "card--arriving" : ""]
      .filter(Boolean).join(" ");
    return h("button", {
      type: "button",
      class: `${cardClasses(c, extra)} card--hand`,
      "aria-pressed": selection.has(i) ? "true" : "false",
      "aria-label": cardName(c, t),
      "aria-describedby": described || null,
      draggable: "true",
      dataset: { card: c.text, index: String(i), focusKey: `card-${c.text}-${copy[i]}`, focusFallback: "hand" },
      onclick: () => onToggle(i),
      onkeydown: onKey,
      ondragstart: (e) => {
        e.dataTransfer.setData("text/plain", String(i));
        e.dataTransfer.effectAllowed = "move";
      },
    }, cardInside(c));
  });
}

/**
 * The selection changed: the pressed states are written, or, when cards went into (or came
 * back from) a prepared group, the hand is drawn again by `redraw()` and the focus stays
 * where it was in the hand (on the card now there, when its own card left: keepFocus).
 */
export function refreshHand(root, hand, view, selection, redraw) {
  const staged = selection.stagedSet();
  const shown = new Set(Array.from(hand.querySelectorAll("button[data-index]"), (b) => Number(b.dataset.index)));
  if (!view.hand.some((_, i) => shown.has(i) === staged.has(i))) {
    for (const b of hand.querySelectorAll("button[data-index]")) {
      b.setAttribute("aria-pressed", selection.has(Number(b.dataset.index)) ? "true" : "false");
    }
    return;
  }
  keepFocus(root, redraw);
}

/** What each hand was last fanned for (its room, its card's width and its number of cards). */
const fanned = new WeakMap();

/**
 * Fan the hand into the room it has, the way card apps do: cards overlap just enough for one
 * row, down to a step that still shows each card's corner; past that the hand takes another
 * row. Written as CSS variables on the hand (its cards' margins use them).
 *
 * The fan is a function of the hand's width alone: the room is measured without the overhang
 * this writes (the hand's padding-right is --over), else a fan that leaves less room asks for
 * another row, that one more room, and so on at every frame. The same room, card and number
 * of cards write nothing, so the ResizeObserver that calls this when the hand's size changes
 * (its height does with the rows) settles at once.
 */
export function layoutHand(hand) {
  const cards = hand.querySelectorAll(".card--hand");
  const n = cards.length;
  if (!n) return;
  const width = hand.clientWidth;
  const cardW = cards[0].offsetWidth;
  const over = hand.style.getPropertyValue("--over");
  hand.style.removeProperty("--over");
  const style = getComputedStyle(hand);
  const room = width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  if (over) hand.style.setProperty("--over", over);
  if (!room || !cardW) return;
  const key = `${room}:${cardW}:${n}`;
  if (fanned.get(hand) === key) return;
  fanned.set(hand, key);
  const gap = cardW * 0.1;
  const least = cardW * 0.42; // the corner's rank and suit stay readable
  let rows = 1;
  const perRow = () => Math.ceil(n / rows);
  const stepFor = (k) => (k <= 1 ? cardW + gap : Math.min(cardW + gap, (room - cardW) / (k - 1)));
  while (rows < 4 && stepFor(perRow()) < least) rows++;
  const step = Math.max(1, Math.floor(stepFor(perRow()) * 10) / 10);
  hand.style.setProperty("--step", `${step}px`);
  hand.style.setProperty("--over", `${cardW - step}px`);
  hand.dataset.rows = String(rows);
}

/** Arrow keys, Home and End move the focus along the hand's cards. */
export function moveAlongHand(e, hand) {
  const keys = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];
  if (!keys.includes(e.key)) return;
  const cards = Array.from(hand.querySelectorAll("button[data-index]:not([disabled])"));
  const at = cards.indexOf(e.currentTarget);
  let next = at;
  if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = Math.max(0, at - 1);
  if (e.key === "ArrowRight" || e.key === "ArrowDown") next = Math.min(cards.length - 1, at + 1);
  if (e.key === "Home") next = 0;
  if (e.key === "End") next = cards.length - 1;
  e.preventDefault();
  if (cards[next]) cards[next].focus();
}

/** The prepared groups, each with its button to take it back (null when there are none). */
export function stagedGroups(view, selection, { onUnstage }) {
  if (!selection.groups) return null;
  return [
    h("span", { class: "staged-title" }, t("staged.title")),
    h("ol", { class: "staged-list" }, selection.staged.map((g, gi) => h("li", { class: "staged-group" },
      h("span", { class: "staged-cards", role: "img", "aria-label": g.map((i) => cardName(view.hand[i], t)).join(", ") },
        g.map((i) => cardFace(view.hand[i], { extra: "card--small" }))),
      h("button", {
        type: "button", class: "btn btn-small btn-ghost",
        "aria-label": t("staged.removeN", { n: gi + 1 }),
        dataset: { testid: `unstage-${gi}`, focusKey: `unstage-${gi}` },
        onclick: () => onUnstage(gi),
      }, "✕")))),
  ];
}

/** The line above the hand: the points being laid (and the side's minimum), or the minimum. */
export function counterText(view, selection) {
  if (selection.empty || view.result) {
    return view.minimum ? t("counter.minimum", { minimum: formatNumber(view.minimum) }) : "";
  }
  const points = formatNumber(selection.points(view));
  return view.minimum
    ? t("counter.layingMinimum", { points, minimum: formatNumber(view.minimum) })
    : t("counter.laying", { points });
}
