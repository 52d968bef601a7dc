// The device's key without a browser: made once, kept, of the form the server takes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { STATIC } from "./fakes.mjs";

const { DEVICE_STORAGE, KEY_FORM, deviceKey, forgetKept, newKey } = await import(`${STATIC}js/device.js`);

function memoryStorage(initial = {}) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (k) => (items.has(k) ? items.get(k) : null),
    setItem: (k, v) => { items.set(k, String(v)); },
  };
}

test("a new key is 30 URL-safe characters from 22 random bytes", () => {
  assert.equal(newKey((b) => b.fill(255)), "_".repeat(29) + "w");
  assert.equal(newKey((b) => b.fill(0)), "A".repeat(30));
  const a = newKey();
  const b = newKey();
  assert.match(a, KEY_FORM);
  assert.equal(a.length, 30);
  assert.notEqual(a, b);
});

test("the first visit makes the key and keeps it; later visits read it back", () => {
  forgetKept();
  const storage = memoryStorage();
  const key = deviceKey(storage);
  assert.match(key, KEY_FORM);
  assert.equal(storage.items.get(DEVICE_STORAGE), key);
  forgetKept(); // a new page of the same browser
  assert.equal(deviceKey(storage), key);
  assert.equal(deviceKey(memoryStorage()), key, "the page keeps the key it read");
});

test("a kept value the server would refuse is replaced", () => {
  for (const bad of ["", "short", "x".repeat(29) + ".", "x".repeat(65)]) {
    forgetKept();
    const storage = memoryStorage({ [DEVICE_STORAGE]: bad });
    const key = deviceKey(storage);
    assert.match(key, KEY_FORM);
    assert.notEqual(key, bad);
    assert.equal(storage.items.get(DEVICE_STORAGE), key);
  }
});

test("a browser that keeps nothing gets a key for the page", () => {
  forgetKept();
  const refusing = {
    getItem: () => { throw new Error("denied"); },
    setItem: () => { throw new Error("denied"); },
  };
  const key = deviceKey(refusing);
  assert.match(key, KEY_FORM);
  assert.equal(deviceKey(refusing), key);
});
