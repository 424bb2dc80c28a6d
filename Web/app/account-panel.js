// "My account": the signed-in user's email address and its verification. A new
// address is saved with `PATCH /users/me` (an empty field removes it), which sends a
// 6-digit code to it; the code comes back with `POST /users/me/email/verify`, and
// "Send a new code" asks for another (`POST /users/me/email/verify/resend`).

import { ApiError, call } from './api.js';
import { announce } from './dom.js';

const dialog = document.getElementById('profile-dialog');
const emailForm = document.getElementById('profile-email-form');
const email = document.getElementById('profile-email');
const state = document.getElementById('profile-email-state');
const codeForm = document.getElementById('profile-code-form');
const code = document.getElementById('profile-code');
const error = document.getElementById('profile-error');

/** Shows the user's address and what is left to do with it. */
function show(user) {
  email.value = user.email ?? '';
  codeForm.hidden = !user.email || user.emailVerified;
  dialog.dataset.emailState = !user.email ? 'none' : user.emailVerified ? 'verified' : 'unverified';
  state.textContent = !user.email
    ? 'No email address: without one, a forgotten password cannot be reset.'
    : user.emailVerified
      ? 'Verified: a forgotten password can be reset by mail.'
      : 'Not verified yet: enter the code sent to it.';
}

/** Runs `request`, showing its problem if it fails; returns its answer, or null. */
async function attempt(request) {
  error.textContent = '';
  try {
    return await request();
  } catch (failure) {
    if (!(failure instanceof ApiError)) throw failure;
    error.textContent = failure.message;
    return null;
  }
}

export async function openAccountPanel() {
  error.textContent = '';
  code.value = '';
  const user = await attempt(() => call('GET', '/users/me', { signedIn: true }));
  if (!user) return;
  show(user);
  dialog.showModal();
  email.focus();
}

async function saveEmail() {
  const address = email.value.trim();
  const user = await attempt(() => call('PATCH', '/users/me', { body: { email: address || null }, signedIn: true }));
  if (!user) return;
  show(user);
  if (user.email && !user.emailVerified) code.focus();
}

async function verify() {
  if (!codeForm.reportValidity()) return;
  const user = await attempt(() => call('POST', '/users/me/email/verify', { body: { code: code.value }, signedIn: true }));
  if (!user) return;
  show(user);
  announce(`${user.email} is verified.`);
}

async function resend() {
  const answer = await attempt(() => call('POST', '/users/me/email/verify/resend', { signedIn: true }));
  if (answer) state.textContent = 'A new code is on its way; the one before no longer works.';
}

export function setUpAccountPanel() {
  emailForm.addEventListener('submit', (event) => {
    event.preventDefault();
    saveEmail();
  });
  codeForm.addEventListener('submit', (event) => {
    event.preventDefault();
    verify();
  });
  document.getElementById('profile-resend').addEventListener('click', resend);
  document.getElementById('profile-close').addEventListener('click', () => dialog.close());
  document.getElementById('profile-button').addEventListener('click', openAccountPanel);
}
