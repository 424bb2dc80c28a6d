// The map's link to the moderation page (/moderation), shown only to a moderator: the
// signed-in user's role is read from `GET /users/me` at start and at each sign-in.

import { ApiError, call, session } from './api.js';

const link = document.getElementById('moderation-link');

async function render() {
  link.hidden = true;
  if (!session.signedIn) return;
  try {
    const user = await call('GET', '/users/me', { signedIn: true });
    link.hidden = user.role !== 'moderator';
  } catch (failure) {
    if (!(failure instanceof ApiError)) throw failure;
  }
}

export function setUpModerationLink() {
  session.onChange(render);
  render();
}
