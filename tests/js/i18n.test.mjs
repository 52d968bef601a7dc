// The client's reading of the gettext catalogues (js/i18n.js parsePo), on the real files.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { LOCALE, STATIC } from "./fakes.mjs";

const i18n = await import(`${STATIC}js/i18n.js`);

test("every entry of both catalogues is read, by its context", () => {
  for (const lang of i18n.LANGS) {
    const text = readFileSync(`${LOCALE}${lang}.po`, "utf8");
    const words = i18n.parsePo(text);
    assert.equal(Object.keys(words).length, text.match(/^msgctxt /gm).length);
    assert.ok(words["lang.self"]);
  }
  const es = i18n.parsePo(readFileSync(`${LOCALE}es.po`, "utf8"));
  assert.equal(es["refusal.turn.draw_first"], "empieza tu turno: roba del mazo o toma el pozo");
  assert.equal(es["rankThe.Q"], "las damas");
});

test("continued lines, escapes, and an untranslated entry read as its English", () => {
  const po = 'msgid ""\nmsgstr "Language: es\\n"\n\nmsgctxt "a"\nmsgid "say \\"{x}\\""\n"!"\nmsgstr ""\n\n' +
    'msgctxt "b"\nmsgid "one"\nmsgstr "uno"\n';
  assert.deepEqual(i18n.parsePo(po), { a: 'say "{x}"!', b: "uno" });
  assert.throws(() => i18n.parsePo("nonsense"), /unexpected line/);
});
