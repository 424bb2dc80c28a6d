// "My favorites": the signed-in user's saved photos as a layer of hearts, one per
// place (`GET /favorites?limit=200`, following `nextCursor`; each favorite carries its
// location). Redrawn when a heart changes while it is on. The map element tells tests
// what it drew: data-favorite-places.

import { call, session } from './api.js';
import { announce, plural } from './dom.js';
import { onHeartsChange } from './hearts.js';
import { labelledMarker } from './markers.js';

const button = document.getElementById('favorites-button');

export class Favorites {
  constructor(map, { onLocation }) {
    this.map = map;
    this.onLocation = onLocation;
    this.layer = L.layerGroup();
    button.addEventListener('click', () => (this.shown ? this.hide() : this.show()));
    onHeartsChange(() => { if (this.shown) this.show(); });
    session.onChange(() => { if (!session.signedIn) this.hide(); });
  }

  get shown() {
    return this.map.hasLayer(this.layer);
  }

  async show() {
    const favorites = [];
    let cursor = null;
    try {
      do {
        const page = await call('GET', '/favorites', { parameters: { limit: 200, cursor }, signedIn: true });
        favorites.push(...page.favorites);
        cursor = page.nextCursor;
      } while (cursor !== null);
    } catch (error) {
      announce(`Your favorites could not load: ${error.message}`);
      return;
    }
    // Favorites whose photo left the catalog (`missing`) have no place to be drawn at.
    const places = new Map();
    for (const favorite of favorites.filter((favorite) => !favorite.missing)) {
      const place = places.get(favorite.locationID) ?? { ...favorite, count: 0 };
      place.count += 1;
      places.set(favorite.locationID, place);
    }
    this.layer.clearLayers();
    for (const place of places.values()) {
      this.layer.addLayer(labelledMarker([place.latitude, place.longitude], {
        className: 'favorite',
        text: '♥',
        label: `My favorites at ${place.intersection || place.locationID}: ${plural(place.count, 'photo')}`,
        size: 26,
        // Beside the head of the place's pin, not over its count.
        anchor: [-6, 38],
        choose: () => this.onLocation(place.locationID),
        zIndexOffset: 500,
      }));
    }
    this.layer.addTo(this.map);
    this.map.getContainer().dataset.favoritePlaces = String(places.size);
    button.setAttribute('aria-pressed', 'true');
    announce(`${plural(favorites.length, 'favorite')} at ${plural(places.size, 'place')}.`);
  }

  hide() {
    this.layer.remove();
    delete this.map.getContainer().dataset.favoritePlaces;
    button.setAttribute('aria-pressed', 'false');
  }
}
