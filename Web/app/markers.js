// The one way the map makes a marker: a div icon with a short text, an accessible name,
// data attributes for tests, and an action on click and on Enter or Space when it has
// the keyboard's focus (Leaflet makes the icon focusable, but its own keyboard support
// only opens popups).

import { el } from './dom.js';

/**
 * A marker at `latlng`: `className` styles it, `text` is what it shows, `label` its
 * accessible name (and tooltip), `choose` runs when it is activated, `dataset` is copied
 * onto its element.
 */
export function labelledMarker(latlng, { className, text, label, choose, size = 28, anchor, dataset = {}, zIndexOffset = 0 }) {
  const icon = L.divIcon({ className, html: el('span', { text }), iconSize: [size, size], iconAnchor: anchor });
  const marker = L.marker(latlng, { icon, title: label, riseOnHover: true, zIndexOffset });
  marker.on('click', choose);
  marker.on('keypress', (event) => {
    if (event.originalEvent.key === 'Enter' || event.originalEvent.key === ' ') {
      event.originalEvent.preventDefault();
      choose();
    }
  });
  marker.on('add', () => {
    const element = marker.getElement();
    Object.assign(element.dataset, dataset);
    element.setAttribute('aria-label', label);
  });
  return marker;
}
