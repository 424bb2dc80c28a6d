// Small DOM helpers shared by the map's modules. Text from the API always goes in as
// text (textContent, attributes), never as HTML.

/**
 * Creates an element: `el('li', { class: 'photo', dataset: { photoId } }, [child, 'text'])`.
 * `on` takes event listeners (`{ click: fn }`); `style` takes properties (`{ aspectRatio: '4 / 3' }`), set
 * through the element's style object: the pages' Content-Security-Policy refuses `style` attributes.
 * False, null and undefined attributes are left out.
 */
export function el(tag, attributes = {}, children = []) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === 'dataset') Object.assign(element.dataset, value);
    else if (name === 'on') for (const [type, listener] of Object.entries(value)) element.addEventListener(type, listener);
    else if (name === 'text') element.textContent = value;
    else if (name === 'style') Object.assign(element.style, value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...[children].flat().filter((child) => child !== null && child !== undefined && child !== false));
  return element;
}

/** Calls `action` once calls stop for `milliseconds`. */
export function debounce(action, milliseconds) {
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => action(...args), milliseconds);
  };
}

const numbers = new Intl.NumberFormat('en-US');

/** 12345 → "12,345". */
export function formatCount(count) {
  return numbers.format(count);
}

/** "1 photo", "2 photos". */
export function plural(count, word) {
  return `${formatCount(count)} ${word}${count === 1 ? '' : 's'}`;
}

/** Metres as "350 m" or "1.2 km". */
export function formatDistance(meters) {
  return meters < 1000 ? `${Math.round(meters)} m` : `${(meters / 1000).toFixed(1)} km`;
}

/** Says `message` in the status line (read out by screen readers). */
export function announce(message) {
  document.getElementById('status').textContent = message;
}

/** Whether the visitor asked for less motion: the map then jumps instead of gliding. */
export const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
