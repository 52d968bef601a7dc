// The line about the last move ("Lucía discards 7♥", "Meld taken back", "Hand 2 dealt"), with
// no DOM.  A caption is kept as a function, written when shown, so that it follows the
// language the player picks afterwards.
import { describeMove } from "./cards.js";
import { formatNumber, t } from "./i18n.js";

/** Who made a move, as the captions name them: null for the player. */
function mover(view, seat) {
  if (view && seat === view.seat) return null;
  return (view && view.names && view.names[seat]) || t("seat.computer", { n: seat });
}

/** A move of the hand's history in words. */
export function describeBy(view, seat, move) {
  return describeMove(move, t, mover(view, seat));
}

/** The penalty a move just cost its side (table options: an initial meld below the minimum
 * is taken back for 100 points), told as such rather than as the meld it tried; or 0. */
export function penaltyPoints(old, view, seat) {
  if (!old || old.hand_number !== view.hand_number || !view.penalties || !old.penalties) return 0;
  const side = seat % view.sides;
  return Math.max(0, (view.penalties[side] || 0) - (old.penalties[side] || 0));
}

/**
 * The caption once state `msg` replaces view `old` on screen (`fresh`: the present after
 * connecting, which tells no news): a function giving the text, or null to keep the one shown.
 */
export function captionFor(old, msg, fresh) {
  const view = msg.view;
  if (msg.last) {
    const { seat, move } = msg.last;
    const points = penaltyPoints(old, view, seat);
    if (!points) return () => describeBy(view, seat, move);
    const who = mover(view, seat);
    return () => (who === null
      ? t("caption.penaltyYou", { points: formatNumber(points) })
      : t("caption.penalty", { who, points: formatNumber(points) }));
  }
  if (!old || old.hand_number !== view.hand_number) {
    const n = view.hand_number;
    return fresh ? () => "" : () => t("caption.dealt", { n });
  }
  if (view.history.length < old.history.length) return () => t("caption.undone");
  return null;
}
