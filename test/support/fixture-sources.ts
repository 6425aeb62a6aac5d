/**
 * Reader for `fixtures/SOURCES.md` in the shared data root: one row per fixture file with the
 * DOI the listing gives and where that DOI came from. Test support: the capture corpus test
 * (test/corpus/capture-corpus.test.ts) checks each capture against it.
 */

export interface FixtureSource {
  /** Path relative to the fixtures folder, e.g. `acs/papis__acs_2.html`. */
  file: string;
  /** Publisher group: the `##` section the row is listed under (acs, rsc, pdf/supercon, …). */
  group: string;
  /** Normalized DOI as listed, or null when the listing gives none ("—"). */
  doi: string | null;
  /** The bracketed note on where the DOI came from, e.g. `citation_doi`, `XML`, `PDF text`. */
  doiSource: string;
  title: string;
  kind: string;
  notes: string;
  /**
   * Whether the listing says the DOI is written in the document itself (meta tags, XML, PDF
   * text, body links). False for DOIs that came from outside the file — a file name, or
   * SuperMat's GROBID-consolidated bibliography for arXiv preprints that do not print it —
   * and for rows whose notes warn that the listed metadata does not match the file.
   */
  doiInDocument: boolean;
  /** Negative control: blocked/, other/, pdf/scanned-control/ or `NOT_` in the file name. */
  negativeControl: boolean;
}

const EXTERNAL_DOI_SOURCE = /NOT in page|SuperMat biblio|from filename\]?$/i;

/** Parse the per-group tables of SOURCES.md (rows before "Available upstream"). */
export function parseFixtureSources(markdown: string): FixtureSource[] {
  const rows: FixtureSource[] = [];
  let group = '';
  for (const line of markdown.split('\n')) {
    if (/^## Available upstream/.test(line)) break;
    const heading = /^## (.+)$/.exec(line);
    if (heading?.[1]) {
      group = heading[1].trim();
      continue;
    }
    if (!group || !line.startsWith('| `')) continue;
    const cells = line.split(' | ').map((cell) => cell.replace(/^\|\s*|\s*\|$/g, '').trim());
    const file = cells[0]?.replace(/`/g, '') ?? '';
    const doiCell = cells[4] ?? '';
    const doiSource = /\[(.*)\]\s*$/.exec(doiCell)?.[1] ?? '';
    const doiText = doiCell.replace(/\[.*\]\s*$/, '').trim();
    const doi = /10\.\d{4,9}\/\S+/.test(doiText) ? doiText.replace(/^doi:/i, '').toLowerCase() : null;
    const notes = cells.slice(7).join(' | ');
    const mismatch = /does not match the PDF|point to an earlier related/i.test(notes);
    rows.push({
      file,
      group,
      doi,
      doiSource,
      title: cells[5] ?? '',
      kind: cells[6] ?? '',
      notes,
      doiInDocument: doi !== null && !mismatch && !EXTERNAL_DOI_SOURCE.test(doiSource),
      negativeControl: /^(blocked|other|pdf\/scanned-control)\//.test(file) || file.includes('NOT_'),
    });
  }
  return rows;
}
