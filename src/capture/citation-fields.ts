/**
 * Volume and pages as every capture path stores them (HTML tags and printed lines, publisher
 * XML): a short volume ("127", "A12"), a page range "first-last" with a hyphen, or one page or
 * article number ("041027"); placeholders of articles not yet in an issue ("XXXX") are none.
 */

/** "10709 – 10716" → "10709-10716"; placeholders ("XXX-XXX") and a range ending where it starts → one page. */
export function normalizePages(first: string | null | undefined, last?: string | null): string | null {
  const clean = (value: string | null | undefined): string | null => {
    const text = (value ?? '').replace(/\s+/g, '').trim();
    return /^[A-Za-z]{0,3}\d{1,9}[A-Za-z]?$/.test(text) ? text : null;
  };
  let start = first ?? '';
  let end = last ?? null;
  const range = /^\s*(\S+?)\s*[–—‐-]\s*(\S+)\s*$/.exec(start);
  if (range && !end) {
    start = range[1]!;
    end = range[2]!;
  }
  const from = clean(start);
  if (!from) return null;
  const to = clean(end);
  return to && to !== from ? `${from}-${to}` : from;
}

/** A volume as printed ("127"), or null for a placeholder ("XXXX") or anything but a short number. */
export function normalizeVolume(value: string | null | undefined): string | null {
  const text = (value ?? '').trim();
  return /^[A-Za-z]?\d{1,6}[A-Za-z]?$/.test(text) ? text : null;
}
