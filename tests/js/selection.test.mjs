// The player's selection and prepared groups without a browser: what a click, a drop and each
// button turn into (the move texts of FORMAT.md), and when the selection stands or goes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { STATIC } from "./fakes.mjs";

const { parseCard } = await import(`${STATIC}js/cards.js`);
const { Selection, dropOnPile, drawnIndices, hintIndices, sameHand } = await import(`${STATIC}js/selection.js`);

const hand = (...texts) => texts.map(parseCard);
// Shown high to low ("desc"): KH KD 9S 9D 5H 5D JK 2C 3S
const HAND = hand("5H", "KH", "9S", "JK", "5D", "KD", "9D", "3S", "2C");
const SORT = "desc";
const at = (text, from = HAND) => from.findIndex((c) => c.text === text);

function select(sel, ...texts) {
  for (const text of texts) assert.equal(sel.toggle(at(text)), true);
}

test("a click selects a card and a second click lets it go", () => {
  const sel = new Selection();
  assert.equal(sel.empty, true);
  select(sel, "KH");
  assert.equal(sel.has(at("KH")), true);
  select(sel, "KH");
  assert.equal(sel.has(at("KH")), false);
  assert.equal(sel.empty, true);
});

test("a prepared group keeps the display order, and its cards no longer answer clicks", () => {
  const sel = new Selection();
  select(sel, "JK", "9D", "9S");
  assert.equal(sel.stage(HAND, SORT), true);
  assert.deepEqual(sel.groupTexts(HAND), [["9S", "9D", "JK"]]);
  assert.equal(sel.size, 0);
  assert.equal(sel.toggle(at("9S")), false);
  assert.equal(sel.stage(HAND, SORT), false); // nothing selected: no empty group
  assert.equal(sel.groups, 1);
});

test("meld sends every prepared group and the selection as one more", () => {
  const sel = new Selection();
  select(sel, "9S", "9D", "2C");
  sel.stage(HAND, SORT);
  select(sel, "KD", "JK", "KH");
  assert.equal(sel.meldMove(HAND, SORT), "meld 9S 9D 2C / KH KD JK");
  sel.clear();
  select(sel, "5D", "5H", "JK");
  assert.equal(sel.meldMove(HAND, SORT), "meld 5H 5D JK");
});

test("take: the selection goes with the top card, or else the prepared group of its rank", () => {
  const top = parseCard("5C");
  const sel = new Selection();
  select(sel, "5H", "5D");
  assert.equal(sel.takeMove(HAND, SORT, top), "take 5H 5D");
  sel.stage(HAND, SORT);
  select(sel, "KH", "KD", "JK");
  sel.stage(HAND, SORT);
  assert.equal(sel.takeMove(HAND, SORT, top), "take 5H 5D / KH KD JK");
  assert.equal(sel.takeMove(HAND, SORT, parseCard("QC")), "take / 5H 5D / KH KD JK");
  assert.equal(new Selection().takeMove(HAND, SORT, top), "take");
});

test("discard needs exactly one card selected and nothing prepared", () => {
  const sel = new Selection();
  assert.equal(sel.discardMove(HAND), null);
  select(sel, "3S");
  assert.equal(sel.discardMove(HAND), "discard 3S");
  select(sel, "KH");
  assert.equal(sel.discardMove(HAND), null);
  select(sel, "KH");
  sel.stage(HAND, SORT);
  select(sel, "KH");
  assert.equal(sel.discardMove(HAND), null);
});

test("a meld clicked or a card dropped on it adds the selected cards to it", () => {
  const sel = new Selection();
  assert.equal(sel.addMove(HAND, SORT, "K"), null); // nothing to add: the screen asks to select
  assert.equal(sel.dropOnMeld(HAND, SORT, at("KD"), "K"), "add K KD");
  assert.equal(sel.dropOnMeld(HAND, SORT, at("KH"), "K"), "add K KH KD");
  assert.equal(sel.dropOnMeld(HAND, SORT, 42, "K"), "add K KH KD"); // no such card: the rest
  assert.equal(dropOnPile(HAND, at("9S")), "discard 9S");
  assert.equal(dropOnPile(HAND, Number.NaN), null);
});

test("taking back a prepared group returns its cards; clear empties everything", () => {
  const sel = new Selection();
  select(sel, "5H", "5D");
  sel.stage(HAND, SORT);
  select(sel, "9S", "9D");
  sel.stage(HAND, SORT);
  select(sel, "KH");
  assert.equal(sel.unstage(0), true);
  assert.deepEqual(sel.groupTexts(HAND), [["9S", "9D"]]);
  assert.equal(sel.toggle(at("5H")), true); // back in the hand
  assert.equal(sel.unstage(5), false);
  sel.clear();
  assert.equal(sel.empty, true);
});

test("the selection stands while the hand is the same and goes when it changes", () => {
  const view = { hand_number: 1, hand: HAND };
  const sel = new Selection();
  select(sel, "KH");
  assert.equal(sel.follow(view, { ...view, hand: [...HAND] }), false);
  assert.equal(sel.has(at("KH")), true);
  assert.equal(sameHand(view, { ...view, hand_number: 2 }), false);
  assert.equal(sel.follow(view, { ...view, hand: HAND.slice(1) }), true);
  assert.equal(sel.empty, true);
  assert.equal(sel.follow(null, view), true);
});

test("the points being laid count the top card only when taking the pile", () => {
  const sel = new Selection();
  select(sel, "KH", "KD", "JK"); // 10 + 10 + 50
  const view = { hand: HAND, phase: "draw", pile_top: parseCard("KC"), top_counts: 10 };
  assert.equal(sel.points(view), 80);
  assert.equal(sel.points({ ...view, phase: "play" }), 70);
  sel.stage(HAND, SORT); // prepared cards count too
  select(sel, "5H");
  assert.equal(sel.points({ ...view, phase: "play" }), 75);
});

test("a hint marks one card per card of its move, a draw the newest copies", () => {
  const twice = hand("7H", "7H", "8C", "7H");
  assert.deepEqual([...hintIndices(twice, "meld 7H 7H 8C")], [0, 1, 2]);
  assert.deepEqual([...hintIndices(twice, null)], []);
  assert.deepEqual([...drawnIndices({ hand: twice, drew: ["7H"] })], [3]);
  assert.deepEqual([...drawnIndices({ hand: twice, drew: "7H 7H" })], [3, 1]);
  assert.deepEqual([...drawnIndices({ hand: twice, drew: null })], []);
});
