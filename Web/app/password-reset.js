// "Forgot password?": a reset token asked for by email (`POST /users/password-reset`,
// which answers the same whatever the address), then the token from that message with a
// new password (`POST /users/password-reset/confirm`), which signs in as a login does.

import { ApiError, call, session } from './api.js';
import { announce } from './dom.js';

const dialog = document.getElementById('reset-dialog');
const requestForm = document.getElementById('reset-request-form');
const confirmForm = document.getElementById('reset-confirm-form');
const email = document.getElementById('reset-email');
const sent = document.getElementById('reset-sent');
const token = document.getElementById('reset-token');
const password = document.getElementById('reset-password');
const error = document.getElementById('reset-error');

/** Opens the dialog, its fields empty but the address. */
export function openPasswordReset() {
  error.textContent = '';
  sent.textContent = 'Already have a reset token? Paste it below.';
  token.value = '';
  password.value = '';
  dialog.showModal();
  email.focus();
}

async function requestToken() {
  error.textContent = '';
  if (!requestForm.reportValidity()) return;
  try {
    const answer = await call('POST', '/users/password-reset', { body: { email: email.value.trim() } });
    sent.textContent = `${answer.message[0].toUpperCase()}${answer.message.slice(1)}. Paste its token below.`;
    token.focus();
  } catch (failure) {
    if (!(failure instanceof ApiError)) throw failure;
    error.textContent = failure.message;
  }
}

async function setPassword() {
  error.textContent = '';
  if (!confirmForm.reportValidity()) return;
  try {
    const answer = await call('POST', '/users/password-reset/confirm', {
      body: { token: token.value.trim(), newPassword: password.value },
    });
    session.start(answer.token, answer.user.username);
    dialog.close();
    announce(`Your password is set. Signed in as ${answer.user.username}; every other device is signed out.`);
  } catch (failure) {
    if (!(failure instanceof ApiError)) throw failure;
    error.textContent = failure.message;
  }
}

export function setUpPasswordReset() {
  requestForm.addEventListener('submit', (event) => {
    event.preventDefault();
    requestToken();
  });
  confirmForm.addEventListener('submit', (event) => {
    event.preventDefault();
    setPassword();
  });
  document.getElementById('reset-cancel').addEventListener('click', () => dialog.close());
}
