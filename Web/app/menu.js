// The bar's menu button, shown on a phone only (map.css): it opens and closes the filters
// and tools under the bar, so that the bar is one row and the map keeps the screen.
// Escape closes it and gives the focus back to the button.

const button = document.getElementById('menu-button');
const tools = document.getElementById('bar-tools');

function setOpen(open) {
  tools.classList.toggle('open', open);
  button.setAttribute('aria-expanded', String(open));
}

export function setUpMenu() {
  button.addEventListener('click', () => setOpen(button.getAttribute('aria-expanded') !== 'true'));
  tools.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || button.getAttribute('aria-expanded') !== 'true') return;
    setOpen(false);
    button.focus();
  });
}
