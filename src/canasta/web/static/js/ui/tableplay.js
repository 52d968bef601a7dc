// What the game screen adds at a table with friends (docs/PROTOCOL.md, "Tables"): the host's
// button on a friend's seat (a computer plays for an absent friend, or gives the seat back),
// the quick messages as a bubble at the sender's seat for a few seconds and as lines of the
// move log, and a spectator's own area (no hand of its own, no move buttons).  These draw into
// what the felt and the controls have drawn; they decide nothing about the game.
import { fill, h } from "../dom.js";
import { has, t } from "../i18n.js";

export const BUBBLE_MS = 6000; // how long a quick message stays at its sender's seat

/** Whether the screen watches the match: a spectator's view has no seat. */
export function watching(view) {
  return !!view && (view.seat === null || view.seat === undefined);
}

/** A quick message in the reader's language ("Good luck!"). */
export function quickText(say) {
  return has(`quick.${say}`) ? t(`quick.${say}`) : say;
}

function badgeOf(root, seat) {
  return root.querySelector(`.seat[data-seat="${seat}"]`);
}

/**
 * The host's button on each friend's seat of the felt: "Let a computer play" when the friend
 * is away and plays it themselves, "Give the seat back" when a computer plays it (`people`:
 * the state's list).  `onHand(seat, computer)` when one is pressed.
 */
export function seatActions(root, { view, people, onHand }) {
  if (!people || view.seat !== 0) return; // (the host sits at seat 0)
  for (const p of people) {
    if (!p.person || p.seat === view.seat || (p.present && !p.computer)) continue;
    const badge = badgeOf(root, p.seat);
    if (!badge) continue;
    const computer = !p.computer;
    badge.appendChild(h("button", {
      type: "button", class: "btn btn-small seat-hand",
      "aria-label": t(computer ? "table.handOverSeat" : "table.giveBackSeat", { name: p.name }),
      dataset: { testid: `hand-seat-${p.seat}`, focusKey: `hand-seat-${p.seat}` },
      onclick: () => onHand(p.seat, computer),
    }, t(computer ? "table.handOver" : "table.giveBack")));
  }
}

/** Every seat's latest quick message of the last BUBBLE_MS, as a bubble at its badge
 * (`said`: [{seat, say, time}], oldest first). */
export function placeBubbles(root, said, now = Date.now()) {
  for (const old of root.querySelectorAll(".said-bubble")) old.remove();
  const latest = new Map();
  for (const m of said) if (now - m.time < BUBBLE_MS) latest.set(m.seat, m);
  for (const m of latest.values()) {
    const badge = badgeOf(root, m.seat);
    if (!badge) continue;
    // (the live region of the people's bar reads it out: the bubble is for the eyes)
    const bubble = h("span", {
      class: "said-bubble", "aria-hidden": "true", dataset: { testid: `bubble-${m.seat}` },
    }, quickText(m.say));
    badge.appendChild(bubble);
    // A seat at the window's edge (a phone's) keeps its bubble inside the window.
    const box = bubble.getBoundingClientRect();
    const room = document.documentElement.clientWidth - 4;
    const nudge = box.right > room ? room - box.right : box.left < 4 ? 4 - box.left : 0;
    if (nudge) bubble.style.setProperty("--nudge", `${Math.round(nudge)}px`);
  }
}

/**
 * The quick messages of this hand among its moves in the log (`list`: the history's body as
 * updateHistory drew it, the newest move first; `said`: [{seat, say, hand, at}], `at` the count
 * of moves made when it came, oldest first).  Every move keeps its number.
 */
export function logSaid(list, said, view) {
  const mine = said.filter((m) => m.hand === view.hand_number);
  if (!mine.length) return;
  let ol = list.querySelector("ol.history-list");
  if (!ol) ol = fill(list, h("ol", { class: "history-list", reversed: true })).firstChild;
  const moves = Array.from(ol.children);
  moves.forEach((li, i) => { li.value = moves.length - i; });
  for (const m of [...mine].reverse()) { // (each goes above the moves before it)
    const name = (view.names || [])[m.seat] || "";
    const line = h("li", { class: "history-said", dataset: { testid: "history-said" } },
      t("quick.said", { name, text: quickText(m.say) }));
    // Above the move made just before it (the newest move, when none came since).
    const before = m.at <= 0 ? null : moves[Math.max(0, moves.length - m.at)] || null;
    ol.insertBefore(line, before);
  }
}

/** A spectator's area instead of the player's: its title says what it sees; no hand, no
 * counter, no move buttons (the seat badge beside the title stays: seat 0's). */
export function watchArea(e) {
  e.handTitle.textContent = t("watch.title");
  e.hand.hidden = true;
  e.counter.textContent = "";
  e.staged.hidden = true;
  e.actions.element.hidden = true;
}
