// The player's settings, remembered in localStorage: the pace of the computer moves and the
// order of the hand.
import { DEFAULT_SORT, SORT_ORDERS } from "./cards.js";

export const SPEEDS = { slow: 1400, normal: 700, fast: 300, instant: 0 };

function read(key, fallback, allowed) {
  try {
    const v = localStorage.getItem(key);
    if (v !== null && (!allowed || allowed.includes(v))) return v;
  } catch {
    /* storage may be unavailable */
  }
  return fallback;
}

function write(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* ignore */
  }
}

let speed = read("canasta.speed", "normal", Object.keys(SPEEDS));
let sort = read("canasta.sort", DEFAULT_SORT, SORT_ORDERS);

export const settings = {
  speed: () => speed,
  setSpeed(v) {
    if (v in SPEEDS) {
      speed = v;
      write("canasta.speed", v);
    }
  },
  delay: () => SPEEDS[speed],
  sort: () => sort,
  setSort(v) {
    if (SORT_ORDERS.includes(v)) {
      sort = v;
      write("canasta.sort", v);
    }
  },
};
