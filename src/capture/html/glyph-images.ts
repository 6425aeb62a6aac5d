/**
 * Characters drawn as images. Old Nature pages (`/__chars/plus/special/plusmn/…/glyph.gif`,
 * alt "plusminus") and old IOP pages (`/icons/Entities/squ.gif`, alt "squ") put symbols that
 * fonts lacked into `<img>` tags; dropping them would turn "4.49 ± 0.75 nm" into "4.49 0.75 nm",
 * which changes a reported value. The alt text names the character (a Greek letter, an ISO
 * entity name); known names become the character, unknown ones are left out.
 */

const GREEK =
  'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega'.split(' ');
const NAMED: Record<string, string> = {
  plusminus: '±',
  plusmn: '±',
  pm: '±',
  minus: '−',
  times: '×',
  middot: '·',
  deg: '°',
  degree: '°',
  micro: 'µ',
  le: '≤',
  leq: '≤',
  ge: '≥',
  geq: '≥',
  sim: '∼',
  approx: '≈',
  ap: '≈',
  ne: '≠',
  equiv: '≡',
  infin: '∞',
  infinity: '∞',
  rarr: '→',
  larr: '←',
  harr: '↔',
  rightarrow: '→',
  leftarrow: '←',
  prime: '′',
  aring: 'å',
  angst: 'Å',
  ang: 'Å',
  squ: '□',
  square: '□',
  blacktriangle: '▴',
  bull: '•',
  phiv: 'ϕ',
  thetav: 'ϑ',
  epsiv: 'ϵ',
  ohm: 'Ω',
  perp: '⊥',
  par: '∥',
};

const GLYPH_SOURCE = /\/__chars\/|\/icons\/Entities\/|\/entities\//i;

/** The character an inline glyph image stands for, or null when the image is not a glyph. */
export function glyphOfImage(image: Element): string | null {
  if (!GLYPH_SOURCE.test(image.getAttribute('src') ?? '')) return null;
  const name = (image.getAttribute('alt') ?? '').trim();
  if (!name) return null;
  const known = NAMED[name] ?? NAMED[name.toLowerCase()];
  if (known) return known;
  const greek = GREEK.indexOf(name.toLowerCase());
  if (greek >= 0) {
    // Lower-case Greek starts at U+03B1 and upper-case at U+0391; final sigma (U+03C2) is skipped.
    const offset = greek >= 17 ? greek + 1 : greek;
    return String.fromCodePoint((name[0] === name[0]?.toUpperCase() ? 0x391 : 0x3b1) + offset);
  }
  return name.length === 1 ? name : null;
}
