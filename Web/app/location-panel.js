// A pin's photos in the panel: `GET /locations/{locationID}` a page at a time (a "More
// photos" button follows `nextCursor`), with the filters in force and every heart of a
// page in one call. A photo chosen elsewhere (a search result) comes first, marked as
// the chosen one, and is not listed again among the pages. The list tells tests what it
// shows: data-location-id, data-photo-count (the location's matching photos) and, on the
// chosen photo's item, data-chosen.

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

/**
 * Opens `locationID`'s photos, `chosenPhotoID`'s first when given; `closed` runs when the
 * panel closes or shows something else.
 */
export async function showLocation(locationID, { closed, chosenPhotoID = null } = {}) {
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
  let chosenShown = false;
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
      const items = page.photos.filter((photo) => photo.photoID !== chosenPhotoID)
        .map((photo) => photoItem(photo, place, where));
      if (chosenPhotoID && !chosenShown) {
        chosenShown = true;
        const chosen = await chosenItem(chosenPhotoID, place, where);
        if (shownList !== list) return;
        if (chosen) items.unshift(chosen);
      }
      list.append(...items);
      cursor = page.nextCursor;
      more.hidden = cursor === null;
      await loadHearts(items.map((item) => item.dataset.photoId));
      items.forEach((item) => item.renderHeart());
      list.querySelector('[data-chosen]')?.scrollIntoView({ block: 'nearest' });
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

/**
 * The item of the photo chosen elsewhere (`GET /photos/{photoID}`), marked as chosen; null
 * when it cannot be loaded (the list is then shown without it).
 */
async function chosenItem(photoID, place, where) {
  try {
    const photo = await get(`/photos/${encodeURIComponent(photoID)}`);
    const item = photoItem(photo, place, where);
    item.classList.add('chosen');
    item.dataset.chosen = 'true';
    item.setAttribute('aria-current', 'true');
    return item;
  } catch (error) {
    announce(`The chosen photo could not load: ${error.message}`);
    return null;
  }
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
