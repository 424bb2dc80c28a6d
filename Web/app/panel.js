// The side panel (a bottom sheet on a phone): one view at a time, a location's photos,
// a tour's stops or the user's walks. Escape or × closes it; focus moves to its title
// when it opens.

const panel = document.getElementById('panel');
const title = document.getElementById('panel-title');
const body = document.getElementById('panel-body');

let onClose = null;

/**
 * Shows `content` under `heading`. `kind` names the view (the panel's data-kind), and
 * `closed(replaced)` runs when this view is closed (false) or replaced by another (true).
 */
export function showPanel(heading, content, { kind, closed = null, focus = true } = {}) {
  const previous = onClose;
  onClose = null;
  previous?.(true);
  title.textContent = heading;
  body.replaceChildren(content);
  panel.dataset.kind = kind;
  panel.hidden = false;
  onClose = closed;
  if (focus) title.focus({ preventScroll: true });
}

export function closePanel() {
  if (panel.hidden) return;
  panel.hidden = true;
  body.replaceChildren();
  delete panel.dataset.kind;
  const closed = onClose;
  onClose = null;
  closed?.(false);
}

/** The kind of view shown, or null when the panel is closed. */
export function panelKind() {
  return panel.hidden ? null : panel.dataset.kind;
}

export function setUpPanel() {
  document.getElementById('panel-close').addEventListener('click', closePanel);
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') closePanel();
  });
}
