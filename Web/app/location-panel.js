// A pin's photos in the panel: `GET /locations/{locationID}` a page at a time (a "More
// photos" button follows `nextCursor`), with the filters in force and every heart of a
// page in one call. The list tells tests what it shows: data-location-id, and
// data-photo-count (the location's matching photos).

import { get } from './api.js';
import { announce, el, plural } from './dom.js';
import { filterParameters } from './filters.js';
import { loadHearts, onHeartsChange } from './hearts.js';
import { showPanel } from './panel.js';
import { photoItem } from './photos.js';
import { closeReport } from './report.js';

const pageSize = 24;

/** The list shown, while a location is open. */
let shownList = null;

/** Opens `locationID`'s photos; `closed` runs when the panel closes or shows something else. */
export async function showLocation(locationID, { closed } = {}) {
  const list = el('ul', { class: 'photos', dataset: { locationId: locationID, state: 'loading' } });
  const more = el('button', { type: 'button', class: 'more', hidden: true, text: 'More photos' });
  const summary = el('p', { class: 'summary', text: 'Loading…' });
  showPanel('Loading…', el('div', {}, [summary, list, more]), {
    kind: 'location',
    closed: (replaced) => {
      if (shownList === list) shownList = null;
      closeReport();
      closed?.(replaced);
    },
  });
  shownList = list;

  let cursor = null;
  let place = null;
  const loadPage = async () => {
    more.disabled = true;
    list.dataset.state = 'loading';
    try {
      const page = await get(`/locations/${encodeURIComponent(locationID)}`, {
        limit: pageSize, cursor, ...filterParameters(),
      });
      if (shownList !== list) return;
      place = page.intersection || page.locationID;
      document.getElementById('panel-title').textContent = place;
      summary.textContent = `${page.borough ? `${page.borough}: ` : ''}${plural(page.photoCount, 'photo')}`;
      list.dataset.photoCount = String(page.photoCount);
      const where = { latitude: page.latitude, longitude: page.longitude };
      const items = page.photos.map((photo) => photoItem(photo, place, where));
      list.append(...items);
      cursor = page.nextCursor;
      more.hidden = cursor === null;
      await loadHearts(page.photos.map((photo) => photo.photoID));
      items.forEach((item) => item.renderHeart());
      list.dataset.state = cursor === null ? 'complete' : 'ready';
      if (page.photoCount === 0) summary.textContent = 'No photo here matches the filters.';
    } catch (error) {
      list.dataset.state = 'error';
      announce(`The photos could not load: ${error.message}`);
      summary.textContent = `The photos could not load: ${error.message}`;
    } finally {
      more.disabled = false;
    }
  };
  more.addEventListener('click', loadPage);
  await loadPage();
}

/** Redraws the hearts of the open list (after a sign-in or a change elsewhere). */
export async function refreshShownHearts() {
  const list = shownList;
  if (!list) return;
  const items = [...list.querySelectorAll('li.photo')];
  await loadHearts(items.map((item) => item.dataset.photoId));
  items.forEach((item) => item.renderHeart());
}

onHeartsChange(() => {
  shownList?.querySelectorAll('li.photo').forEach((item) => item.renderHeart());
});
