// The player's hand as the client stages a move, with no DOM: which cards are selected, the
// groups prepared for a meld or a take, what a click or a drop means, and the move texts
// (FORMAT.md's notation) that the buttons send.  Cards are indices into the view's `hand`; the
// display order (the player's sort) decides the order of the cards inside a move.  Nothing here
// judges legality: the server does (its `legal` only tells which buttons to offer).
import { moveCards, parseCard, sortOrder, sumValues, takeText } from "./cards.js";

const norm = (text) => parseCard(text).text;
const rankOf = (text) => (text === "JK" ? "JK" : text.slice(0, -1));

/** Does the server's new view hold the very hand the selection was made in? */
export function sameHand(old, view) {
  return !!old && old.hand_number === view.hand_number && old.hand.length === view.hand.length &&
    old.hand.every((c, i) => c.text === view.hand[i].text);
}

export class Selection {
  constructor() {
    this.selected = new Set(); // indices into view.hand
    this.staged = []; // prepared groups, each a list of indices in display order
  }

  get size() {
    return this.selected.size;
  }

  get groups() {
    return this.staged.length;
  }

  /** Nothing selected and nothing prepared. */
  get empty() {
    return this.selected.size === 0 && this.staged.length === 0;
  }

  stagedSet() {
    return new Set(this.staged.flat());
  }

  has(i) {
    return this.selected.has(i);
  }

  /** A click on a card of the hand: it is selected, or no longer; a prepared card is not in
   * the hand any more (it shows among the groups) and a click cannot reach it. */
  toggle(i) {
    if (this.stagedSet().has(i)) return false;
    if (this.selected.has(i)) this.selected.delete(i);
    else this.selected.add(i);
    return true;
  }

  /** "Add group": the selected cards become a prepared group, in display order. */
  stage(hand, sort) {
    if (!this.selected.size) return false;
    this.staged.push(sortOrder(hand, sort).filter((i) => this.selected.has(i)));
    this.selected.clear();
    return true;
  }

  /** Take back prepared group `gi`: its cards go back to the hand, unselected. */
  unstage(gi) {
    if (gi < 0 || gi >= this.staged.length) return false;
    this.staged.splice(gi, 1);
    return true;
  }

  clear() {
    this.selected.clear();
    this.staged = [];
  }

  /** A new state came: the selection stands while the hand is the same, else it goes. */
  follow(old, view) {
    if (sameHand(old, view)) return false;
    this.clear();
    return true;
  }

  /** The selected cards' texts in display order. */
  selectedTexts(hand, sort) {
    return sortOrder(hand, sort).filter((i) => this.selected.has(i)).map((i) => hand[i].text);
  }

  groupTexts(hand) {
    return this.staged.map((g) => g.map((i) => hand[i].text));
  }

  /** Every card the player is laying: the selected ones and the prepared groups. */
  cards(hand) {
    return [...this.selected, ...this.stagedSet()].map((i) => hand[i]).filter(Boolean);
  }

  /** The points being laid, counted as the engine counts an initial meld: before the draw the
   * cards can only be for taking the pile, whose top card is laid too (`top_counts`). */
  points(view) {
    const taking = view.phase === "draw" && view.pile_top;
    return sumValues(this.cards(view.hand)) + (taking ? view.top_counts || 0 : 0);
  }

  /** "meld": every prepared group, and the selected cards as one more. */
  meldMove(hand, sort) {
    const groups = this.groupTexts(hand);
    if (this.selected.size) groups.push(this.selectedTexts(hand, sort));
    return "meld " + groups.map((g) => g.join(" ")).join(" / ");
  }

  /** "take": the selected cards go with the top card, the prepared groups are melded too.
   * With nothing selected, a prepared group of the top card's rank is the one that goes with
   * it (the player may have prepared it like the others). */
  takeMove(hand, sort, top) {
    const groups = this.groupTexts(hand);
    let withTop = this.selectedTexts(hand, sort);
    if (!withTop.length && top) {
      const i = groups.findIndex((g) => g.some((text) => rankOf(text) === top.rank));
      if (i >= 0) withTop = groups.splice(i, 1)[0];
    }
    return takeText(withTop, groups);
  }

  /** The one selected card, when exactly one is selected and nothing is prepared. */
  single(hand) {
    if (this.selected.size !== 1 || this.staged.length) return null;
    return hand[[...this.selected][0]] || null;
  }

  discardMove(hand) {
    const card = this.single(hand);
    return card ? `discard ${card.text}` : null;
  }

  /** A click on one of the side's melds: add the selected cards to it (null: nothing to add). */
  addMove(hand, sort, rank) {
    if (!this.selected.size) return null;
    return `add ${rank} ${this.selectedTexts(hand, sort).join(" ")}`;
  }

  /** A card dragged onto a meld joins the selection (and the selection goes to that meld). */
  dropOnMeld(hand, sort, i, rank) {
    if (Number.isInteger(i) && hand[i] && !this.stagedSet().has(i)) this.selected.add(i);
    return this.addMove(hand, sort, rank);
  }
}

/** A card dragged onto the pile is discarded, whatever is selected (null: no such card). */
export function dropOnPile(hand, i) {
  return Number.isInteger(i) && hand[i] ? `discard ${hand[i].text}` : null;
}

/** The cards of the hand a hint's move would use (one index per card of the move). */
export function hintIndices(hand, move) {
  const result = new Set();
  if (!move) return result;
  for (const text of moveCards(move).map(norm)) {
    const i = hand.findIndex((c, j) => c.text === text && !result.has(j));
    if (i >= 0) result.add(i);
  }
  return result;
}

/** The cards of the hand this seat has just drawn (`view.drew`): the newest copy of each. */
export function drawnIndices(view) {
  const result = new Set();
  let drew = view.drew;
  if (!drew) return result;
  if (typeof drew === "string") drew = drew.split(/\s+/).filter(Boolean);
  for (const d of drew) {
    const text = norm(typeof d === "string" ? d : d.text);
    for (let i = view.hand.length - 1; i >= 0; i--) {
      if (view.hand[i].text === text && !result.has(i)) {
        result.add(i);
        break;
      }
    }
  }
  return result;
}
