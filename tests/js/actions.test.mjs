// What the buttons offer, and what they say when they cannot, without a browser.
import { test } from "node:test";
import assert from "node:assert/strict";
import { STATIC, english } from "./fakes.mjs";

const { t } = await english();
const { parseCard } = await import(`${STATIC}js/cards.js`);
const { Selection } = await import(`${STATIC}js/selection.js`);
const { addTargets, availability, hiddenAction, statusText, whyNot } = await import(`${STATIC}js/actions.js`);

const HAND = ["5H", "5D", "KH", "3S"].map(parseCard);

function view(over = {}) {
  return {
    seat: 0, side: 0, partner: 2, turn: 0, phase: "play", to_act: true, hand: HAND, names: ["Ana", "Lucía", "Mateo", "Elena"],
    legal: { draw: false, take: false, pass: false, ask: false, yes: false, no: false, meld: true, add: [], discard: ["5H", "5D", "KH"] },
    unavailable: { draw: "you have already drawn this turn: meld, or discard to end your turn", discard_cards: { "3S": "black threes stop the pile" } },
    result: null, asking: null, ...over,
  };
}

function ctx(over = {}) {
  return { view: view(), selection: new Selection(), busy: false, conn: "open", canUndo: false, paused: false, ...over };
}

const reason = (id, c) => whyNot(id, availability(c), c);

test("a discard is offered for one selected card the server lets go, else the server says why", () => {
  const c = ctx();
  assert.equal(availability(c).discard, false);
  assert.equal(reason("discard", c), t("why.chooseCards"));
  c.selection.toggle(2); // KH
  assert.equal(availability(c).discard, true);
  assert.equal(reason("discard", c), null);
  c.selection.toggle(2);
  c.selection.toggle(3); // 3S
  assert.equal(reason("discard", c), "black threes stop the pile");
  c.selection.toggle(0);
  assert.equal(reason("discard", c), t("why.chooseOne"));
  c.selection.clear();
  c.selection.toggle(0);
  c.selection.stage(HAND, "desc");
  c.selection.toggle(2);
  assert.equal(reason("discard", c), t("why.finishStaging"));
});

test("either card of a rank held in two suits is offered for the discard, and sent as chosen", () => {
  // The engine lists one discard per kind (one ace for the aces); the server tells the page every
  // card of the hand that may go, so the ace chosen is the ace discarded.
  const hand = ["AS", "AH", "KH", "3S"].map(parseCard);
  const legal = { ...view().legal, discard: ["AH", "AS", "KH"] };
  for (const i of [0, 1]) {
    const c = ctx({ view: view({ hand, legal }) });
    c.selection.toggle(i);
    assert.equal(availability(c).discard, true, hand[i].text);
    assert.equal(reason("discard", c), null);
    assert.equal(c.selection.discardMove(hand), `discard ${hand[i].text}`);
  }
  const c = ctx({ view: view({ hand, legal }) });
  c.selection.toggle(3); // 3S: not listed, the server's reason
  assert.equal(availability(c).discard, false);
  assert.equal(reason("discard", c), "black threes stop the pile");
});

test("melding needs cards chosen; the engine's reason when melding is refused", () => {
  const c = ctx();
  assert.equal(availability(c).meld, false);
  assert.equal(reason("meld", c), t("why.chooseCards"));
  c.selection.toggle(0);
  assert.equal(availability(c).meld, true);
  const refused = ctx({ view: view({ legal: { ...view().legal, meld: false }, unavailable: { meld: "none of your cards make an initial meld now" } }) });
  refused.selection.toggle(0);
  assert.equal(reason("meld", refused), "none of your cards make an initial meld now");
  assert.equal(reason("draw", c), "you have already drawn this turn: meld, or discard to end your turn");
});

test("nothing but the sort is offered while busy, offline, or once the hand is over", () => {
  for (const [over, why] of [[{ busy: true }, "why.busy"], [{ conn: "lost" }, "why.offline"],
    [{ view: view({ result: { went_out: 0 } }) }, "why.handOver"]]) {
    const c = ctx(over);
    c.selection.toggle(2);
    const en = availability(c);
    assert.deepEqual(Object.keys(en).filter((id) => en[id]), over.view ? ["sort", "show-score"] : ["sort"]);
    assert.equal(whyNot("discard", en, c), t(why));
  }
});

test("another seat's turn is told by name; undo and hint say why they are not offered", () => {
  const c = ctx({ view: view({ turn: 1, to_act: false }) });
  assert.equal(reason("draw", c), t("why.notYourTurn", { name: "Lucía" }));
  assert.equal(reason("undo", ctx()), t("why.noUndo"));
  assert.equal(availability(ctx({ canUndo: true })).undo, true);
  assert.equal(availability(ctx()).hint, true);
});

test("pass and the score sheet are hidden unless they apply; ask without a partner", () => {
  const c = ctx();
  const en = availability(c);
  assert.equal(hiddenAction("pass", en, c.view), true);
  assert.equal(hiddenAction("show-score", en, c.view), true);
  assert.equal(hiddenAction("ask", en, c.view), false);
  assert.equal(hiddenAction("ask", en, view({ partner: null })), true);
  assert.equal(hiddenAction("draw", en, c.view), false);
});

test("the status line: the connection first, then the pause, then whose turn it is", () => {
  assert.equal(statusText(ctx({ conn: "refused" })), t("status.refused"));
  assert.equal(statusText(ctx({ conn: "lost" })), t("status.reconnecting"));
  assert.equal(statusText(ctx({ view: null })), t("status.connecting"));
  assert.equal(statusText(ctx({ paused: true })), t("status.paused"));
  assert.equal(statusText(ctx()), t("status.play"));
  assert.equal(statusText(ctx({ view: view({ phase: "draw", answer: "yes" }) })), `${t("status.answeredYes")} ${t("status.draw")}`);
  assert.equal(statusText(ctx({ view: view({ turn: 2, to_act: false, legal: { yes: true, no: true }, asking: 2 }) })),
    t("status.answer", { name: "Mateo" }));
  assert.equal(statusText(ctx({ view: view({ turn: 3, to_act: false }) })), t("status.waitingFor", { name: "Elena" }));
});

test("Add to… goes to the melds the server says take the selected cards, whatever their suits", () => {
  // add_fits: by meld rank, every choice of cards of the hand the engine adds to it.
  const melds = [[{ rank: "K" }, { rank: "9" }, { rank: "A" }], []];
  const add_fits = { 9: ["9", "9 9", "2", "2 9", "2 9 9"], K: ["2"], A: ["2", "2 2"] };
  const v = { side: 0, melds, legal: { add: ["9", "A", "K"] }, add_fits };
  assert.deepEqual(addTargets(v, ["9S", "9D"]), { melds: ["9"], fallback: null });
  assert.deepEqual(addTargets(v, ["9H", "2C", "9D"]), { melds: ["9"], fallback: null });
  // A deuce fits three melds, in the table's order; two deuces only the aces.
  assert.deepEqual(addTargets(v, ["2C"]), { melds: ["K", "9", "A"], fallback: null });
  assert.deepEqual(addTargets(v, ["2C", "2D"]), { melds: ["A"], fallback: null });
  // Nothing takes them: the move goes to the meld of the first natural card for the server to say
  // why, and wild cards alone go nowhere.
  assert.deepEqual(addTargets(v, ["9S", "9D", "9H"]), { melds: [], fallback: "9" });
  assert.deepEqual(addTargets(v, ["QS", "9D"]), { melds: [], fallback: "Q" });
  assert.deepEqual(addTargets(v, ["JK"]), { melds: [], fallback: null });
  // A state without the list (a spectator's) offers nothing.
  assert.deepEqual(addTargets({ side: 0, melds, legal: {} }, ["2C"]).melds, []);
});
