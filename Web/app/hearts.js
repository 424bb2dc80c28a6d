// Hearts: which photos the signed-in user saved. A list of photos asks for all its
// hearts in one call (`GET /favorites?ids=`, up to 100 IDs a call); a heart saves or
// removes one favorite (`PUT` / `DELETE /favorites/{photoID}`).

import { call, session } from './api.js';
import { announce } from './dom.js';

/** Most IDs `GET /favorites?ids=` takes in one call. */
const idsPerCall = 100;

const saved = new Set();
const listeners = new Set();

/** Calls `listener` after a heart changed. */
export function onHeartsChange(listener) {
  listeners.add(listener);
}

/** Learns which of `photoIDs` are saved; nothing when signed out. */
export async function loadHearts(photoIDs) {
  if (!session.signedIn || photoIDs.length === 0) return;
  for (let start = 0; start < photoIDs.length; start += idsPerCall) {
    const ids = photoIDs.slice(start, start + idsPerCall);
    const { favorites } = await call('GET', '/favorites', { parameters: { ids: ids.join(',') }, signedIn: true });
    ids.forEach((id) => saved.delete(id));
    favorites.forEach((favorite) => saved.add(favorite.photoID));
  }
}

export function isSaved(photoID) {
  return saved.has(photoID);
}

/** Saves or removes a favorite; returns whether it is now saved. */
export async function toggleHeart(photoID) {
  const save = !saved.has(photoID);
  await call(save ? 'PUT' : 'DELETE', `/favorites/${encodeURIComponent(photoID)}`, { signedIn: true });
  if (save) saved.add(photoID);
  else saved.delete(photoID);
  announce(save ? 'Saved to your favorites.' : 'Removed from your favorites.');
  listeners.forEach((listener) => listener(photoID, save));
  return save;
}

session.onChange(() => saved.clear());
