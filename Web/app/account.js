// Signing in and registering (`POST /users/login`, `POST /users`: a token kept in
// sessionStorage, see api.js) and signing out (`POST /users/logout`). The account button names the
// signed-in user; the favorites, walks and account buttons show only then. "Forgot password?"
// leads to the password reset (password-reset.js), "My account" to the email (account-panel.js).

import { setUpAccountPanel } from './account-panel.js';
import { ApiError, call, session } from './api.js';
import { announce } from './dom.js';
import { openPasswordReset, setUpPasswordReset } from './password-reset.js';

const dialog = document.getElementById('account-dialog');
const form = document.getElementById('account-form');
const username = document.getElementById('account-username');
const password = document.getElementById('account-password');
const error = document.getElementById('account-error');
const accountButton = document.getElementById('account-button');

export function openAccountDialog() {
  error.textContent = '';
  password.value = '';
  dialog.showModal();
  username.focus();
}

async function submit(action) {
  error.textContent = '';
  if (!form.reportValidity()) return;
  const credentials = { username: username.value.trim(), password: password.value };
  try {
    const answer = await call('POST', action === 'register' ? '/users' : '/users/login', { body: credentials });
    session.start(answer.token, answer.user.username);
    dialog.close();
    announce(action === 'register' ? `Welcome, ${answer.user.username}.` : `Signed in as ${answer.user.username}.`);
  } catch (failure) {
    if (!(failure instanceof ApiError)) throw failure;
    error.textContent = failure.message;
  }
}

async function signOut() {
  try {
    await call('POST', '/users/logout', { signedIn: true });
  } catch (failure) {
    // The token may already be gone (expired, revoked): signed out either way.
    if (!(failure instanceof ApiError)) throw failure;
  }
  session.end();
  announce('Signed out.');
}

function render() {
  accountButton.textContent = session.signedIn ? `Sign out ${session.username}` : 'Sign in';
  document.getElementById('favorites-button').hidden = !session.signedIn;
  document.getElementById('walks-button').hidden = !session.signedIn;
  document.getElementById('profile-button').hidden = !session.signedIn;
}

export function setUpAccount() {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit(event.submitter?.value === 'register' ? 'register' : 'login');
  });
  document.getElementById('account-cancel').addEventListener('click', () => dialog.close());
  document.getElementById('forgot-password').addEventListener('click', () => {
    dialog.close();
    openPasswordReset();
  });
  setUpPasswordReset();
  setUpAccountPanel();
  accountButton.addEventListener('click', () => (session.signedIn ? signOut() : openAccountDialog()));
  session.onChange(render);
  render();
  // A token kept from an earlier visit may have expired or been revoked: a 401 signs out.
  if (session.signedIn) {
    call('GET', '/users/me', { signedIn: true }).catch((failure) => {
      if (!(failure instanceof ApiError)) announce(`Could not check your sign-in: ${failure.message}`);
    });
  }
}
