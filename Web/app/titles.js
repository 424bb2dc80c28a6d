// What the page calls a photo. Three photos in four have no title in the archive; the
// page names them by where and when they were taken instead of "Untitled" (the API
// keeps `title` null: this is the page's wording, not the data).

/**
 * A readable name for `photo` (a PhotoSummary or PlacedPhoto): its title; else its place
 * (`place`, or the photo's own `intersection`, else its borough) and date; else the
 * first words of its text, when the caller has it; else "Untitled photo".
 */
export function photoTitle(photo, place) {
  if (photo.title) return photo.title;
  const where = place || photo.intersection || (photo.borough ? `A photo in ${photo.borough}` : null);
  if (where) return photo.date ? `${where}, ${photo.date}` : where;
  const words = firstWords(photo.text);
  if (words) return words;
  return photo.date ? `Untitled photo, ${photo.date}` : 'Untitled photo';
}

/** `photoTitle` with its date, or "undated": what a screen reader is told of the photo. */
export function photoLabel(photo, place) {
  const title = photoTitle(photo, place);
  if (!photo.date) return `${title}, undated`;
  return title.endsWith(photo.date) ? title : `${title}, ${photo.date}`;
}

/** The first eight words of `text`, with an ellipsis when there are more; null without text. */
function firstWords(text) {
  const words = (text || '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  return words.length > 8 ? `${words.slice(0, 8).join(' ')}…` : words.join(' ');
}
