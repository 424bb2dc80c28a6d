// The view in the address: `#lat,lon,zoom` or `#lat,lon,zoom,locationID` (a location ID is
// itself "lat,lon"), so a link opens the same place with the same panel.

/** The view the address names, or null when it names none. */
export function readViewHash(hash = window.location.hash) {
  const parts = hash.replace(/^#/, '').split(',');
  if (parts.length !== 3 && parts.length !== 5) return null;
  const [lat, lon, zoom] = parts.slice(0, 3).map(Number);
  if (![lat, lon, zoom].every(Number.isFinite) || Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  return { lat, lon, zoom: Math.round(zoom), locationID: parts.length === 5 ? `${parts[3]},${parts[4]}` : null };
}

/** Writes the view into the address without adding a history entry per move. */
export function writeViewHash({ lat, lon, zoom, locationID }) {
  const hash = `#${lat.toFixed(5)},${lon.toFixed(5)},${zoom}${locationID ? `,${locationID}` : ''}`;
  if (hash !== window.location.hash) history.replaceState(null, '', hash);
}
