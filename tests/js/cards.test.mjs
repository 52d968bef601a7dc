// Cards and moves in the player's words (js/cards.js): no notation reaches a caption.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { LOCALE, STATIC } from "./fakes.mjs";

const i18n = await import(`${STATIC}js/i18n.js`);
const cards = await import(`${STATIC}js/cards.js`);

/** The catalogue of `lang` installed (as the client does once it has fetched it). */
function speak(lang) {
  i18n.setCatalogue(lang, i18n.parsePo(readFileSync(`${LOCALE}${lang}.po`, "utf8")));
  i18n.setLang(lang, { remember: false });
  return i18n.t;
}

test("the joker is named in captions, never written JK", () => {
  for (const lang of i18n.LANGS) {
    const t = speak(lang);
    const joker = t("card.joker");
    assert.equal(cards.cardSymbol("JK", t), joker);
    const texts = [
      cards.describeMove("discard JK", t, "Lucía"),
      cards.describeMove("meld KH KD JK", t),
      cards.describeMove("add 9 JK", t, null, { hint: true }),
      cards.describeMove("take 5H JK / KH KD KC", t, "Ana"),
    ];
    for (const text of texts) {
      assert.ok(text.includes(joker), text);
      assert.doesNotMatch(text, /\bJK\b|\b(?:[AKQJT2-9]|10)[CDHS]\b/, text);
    }
  }
  const t = speak("es");
  assert.equal(cards.cardSymbol("TD", t), "10♦");
  assert.equal(cards.describeMove("discard JK", t, "Lucía"), `Lucía descarta ${t("card.joker")}`);
});
