// One photo in a list: its thumbnail (from this server's copy, `imageURL`, with a plain
// stand-in when it cannot be had), title and date, a heart, its details
// (`GET /photos/{photoID}`: the archive's text and the NYPL page) on demand, and "Report
// a problem" (report.js).

import { openAccountDialog } from './account.js';
import { get, session } from './api.js';
import { el } from './dom.js';
import { isSaved, toggleHeart } from './hearts.js';
import { reportControls } from './report.js';
import { photoLabel, photoTitle } from './titles.js';

/** What a screen reader says of the picture. */
function altText(photo, place) {
  return `Photo: ${photoLabel(photo, place)}`;
}

/** The thumbnail, replaced by a labelled stand-in if it fails to load. */
function thumbnail(photo, place) {
  const alt = altText(photo, place);
  const image = el('img', {
    class: 'thumb',
    src: `${photo.imageURL}?size=thumb`,
    alt,
    loading: 'lazy',
    decoding: 'async',
    referrerpolicy: 'no-referrer',
    style: { aspectRatio: `${photo.width} / ${photo.height}` },
  });
  image.addEventListener('error', () => {
    image.replaceWith(el('div', { class: 'thumb thumb-missing', role: 'img', 'aria-label': alt }, [
      el('span', { text: 'Image unavailable' }),
    ]));
  }, { once: true });
  return image;
}

function heartButton(photo, place) {
  const button = el('button', { type: 'button', class: 'heart' });
  const render = () => {
    const saved = session.signedIn && isSaved(photo.photoID);
    button.setAttribute('aria-pressed', String(saved));
    button.setAttribute('aria-label', `Favorite: ${photoLabel(photo, place)}`);
    button.title = saved ? 'Remove from my favorites' : 'Save to my favorites';
    button.textContent = saved ? '♥' : '♡';
  };
  render();
  button.addEventListener('click', async () => {
    if (!session.signedIn) {
      openAccountDialog();
      return;
    }
    button.disabled = true;
    try {
      await toggleHeart(photo.photoID);
    } finally {
      button.disabled = false;
      render();
    }
  });
  button.render = render;
  return button;
}

/** The photo's details, fetched when first shown. */
function detailsToggle(photo) {
  const id = `details-${photo.photoID}`;
  const details = el('div', { class: 'details', id, hidden: true });
  const button = el('button', {
    type: 'button', class: 'details-button', 'aria-expanded': 'false', 'aria-controls': id, text: 'Details',
  });
  let loaded = false;
  button.addEventListener('click', async () => {
    const open = details.hidden;
    details.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (!open || loaded) return;
    loaded = true;
    details.textContent = 'Loading…';
    try {
      const full = await get(`/photos/${encodeURIComponent(photo.photoID)}`);
      details.replaceChildren(
        ...(full.folder ? [el('p', { class: 'folder', text: full.folder })] : []),
        ...(full.text ? [el('p', { class: 'text', text: full.text })] : []),
        el('p', {}, [el('a', { href: full.nyplURL, target: '_blank', rel: 'noopener', text: 'See it at the New York Public Library' })]),
      );
    } catch (error) {
      loaded = false;
      details.textContent = `The details could not load: ${error.message}`;
    }
  });
  return [button, details];
}

/**
 * A list item for `photo` (a PhotoSummary); `place` names where it was taken, for the
 * name of a photo without a title, and `where` (`{latitude, longitude}`) is that
 * place on the map, where a report of a wrong place starts.
 */
export function photoItem(photo, place, where) {
  const [detailsButton, details] = detailsToggle(photo);
  const heart = heartButton(photo, place);
  const report = reportControls(photo, where);
  const item = el('li', { class: 'photo', dataset: { photoId: photo.photoID } }, [
    thumbnail(photo, place),
    el('div', { class: 'photo-text' }, [
      el('p', { class: 'photo-title', text: photoTitle(photo, place), dataset: { untitled: String(!photo.title) } }),
      el('p', { class: 'photo-date', text: photo.date || 'Undated' }),
      el('div', { class: 'photo-actions' }, [heart, detailsButton, report.button]),
    ]),
    details,
    report.container,
  ]);
  item.renderHeart = heart.render;
  return item;
}
