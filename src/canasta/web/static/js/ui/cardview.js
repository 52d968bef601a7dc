// Cards drawn with HTML and CSS: rank, suit symbol, red or black, the joker as a joker glyph
// (no letters: "JK" is the notation's, and the card's name is its label), wild cards marked with
// a star badge.
import { h } from "../dom.js";
import { SUIT_SYMBOLS, cardName, isRed, isWild, parseCard, rankLabel } from "../cards.js";

/** The joker's corner index: the playing-card joker of Unicode (U+1F0CF), the same in every
 * language. */
const JOKER_GLYPH = "\u{1F0CF}";

function asCard(card) {
  return typeof card === "string" ? parseCard(card) : card;
}

export function cardClasses(card, extra = "") {
  const c = asCard(card);
  const classes = ["card"];
  if (c.rank === "JK") classes.push("card--joker");
  else classes.push(isRed(c) ? "card--red" : "card--black");
  if (isWild(c)) classes.push("card--wild");
  if (c.rank === "3" && isRed(c)) classes.push("card--red3");
  if (extra) classes.push(extra);
  return classes.join(" ");
}

/** The inside of a card: corner index, centre pip and the wild-card star. */
export function cardInside(card) {
  const c = asCard(card);
  if (c.rank === "JK") {
    return [
      h("span", { class: "card-corner", "aria-hidden": "true" },
        h("span", { class: "card-rank" }, JOKER_GLYPH), h("span", { class: "card-suit" }, "★")),
      h("span", { class: "card-pip card-pip--joker", "aria-hidden": "true" }, "★"),
      h("span", { class: "card-corner card-corner--end", "aria-hidden": "true" },
        h("span", { class: "card-rank" }, JOKER_GLYPH), h("span", { class: "card-suit" }, "★")),
    ];
  }
  const suit = SUIT_SYMBOLS[c.suit] || c.suit;
  const rank = rankLabel(c.rank);
  return [
    h("span", { class: "card-corner", "aria-hidden": "true" },
      h("span", { class: "card-rank" }, rank), h("span", { class: "card-suit" }, suit)),
    h("span", { class: "card-pip", "aria-hidden": "true" }, suit),
    h("span", { class: "card-corner card-corner--end", "aria-hidden": "true" },
      h("span", { class: "card-rank" }, rank), h("span", { class: "card-suit" }, suit)),
    isWild(c) ? h("span", { class: "card-wild-mark", "aria-hidden": "true" }, "★") : null,
  ];
}

/** A card to look at (not a control): decorative unless given a label. */
export function cardFace(card, { label = null, extra = "", t = null } = {}) {
  const c = asCard(card);
  const attrs = { class: cardClasses(c, extra), dataset: { card: c.text } };
  if (label === true && t) {
    attrs.role = "img";
    attrs["aria-label"] = cardName(c, t);
  } else if (typeof label === "string") {
    attrs.role = "img";
    attrs["aria-label"] = label;
  } else {
    attrs["aria-hidden"] = "true";
  }
  return h("span", attrs, cardInside(c));
}

/** The back of a card (stock, other hands). */
export function cardBack(extra = "") {
  return h("span", { class: `card card--back ${extra}`.trim(), "aria-hidden": "true" });
}
