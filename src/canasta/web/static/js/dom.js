// Tiny DOM helpers: build elements without innerHTML (no escaping mistakes).

/**
 * h("button", {class: "x", onclick: fn, dataset: {testid: "draw"}}, "text", child, ...)
 * Attributes whose value is false, null or undefined are left out; true gives an empty attribute.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) if (v !== undefined && v !== null) el.dataset[k] = v;
    } else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = value;
    } else if (key === "text") {
      el.textContent = value;
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replace an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

/**
 * Remember which element has the focus across a re-render, by its data-focus-key (or the
 * data attribute named by `by`, such as "testid"), and a text field's caret and selection with
 * it: a field that is drawn again while the player types in it keeps what is typed next.
 *
 * When that element is gone or disabled after the render, the focus stays near it: an element
 * of a group (data-focus-fallback="hand" on each of the hand's cards) hands it to the one of
 * its group now at its place, or the group's last when the group is shorter (a discarded
 * card's neighbour, never the page's body while the hand has cards); another element to the
 * first marked data-focus-fallback.
 */
export function keepFocus(root, render, by = "focus-key") {
  const name = `data-${by}`;
  const active = document.activeElement;
  const key = active && root.contains(active) ? active.getAttribute(name) : null;
  const caret = key && typeof active.selectionStart === "number"
    ? [active.selectionStart, active.selectionEnd, active.selectionDirection || "none"] : null;
  const group = key ? active.getAttribute("data-focus-fallback") : null;
  const groupOf = () => Array.from(root.querySelectorAll(`[data-focus-fallback="${CSS.escape(group)}"]`));
  const at = group ? groupOf().indexOf(active) : -1;
  render();
  if (!key) return;
  const again = root.querySelector(`[${name}="${CSS.escape(key)}"]`);
  if (again && !again.disabled) {
    again.focus({ preventScroll: true });
    if (caret && typeof again.setSelectionRange === "function") {
      try {
        again.setSelectionRange(...caret);
      } catch {
        // (a field type without a caret)
      }
    }
  } else if (group) {
    const near = groupOf().filter((el) => !el.disabled);
    const next = near[Math.min(Math.max(at, 0), near.length - 1)];
    if (next) next.focus({ preventScroll: true });
  } else if (again) {
    // The control was disabled by the new state: keep the focus near it.
    const fallback = root.querySelector("[data-focus-fallback]");
    if (fallback) fallback.focus({ preventScroll: true });
  }
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
