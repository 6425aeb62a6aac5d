import { describe, expect, it } from 'vitest';
import { parseFixtureSources } from '../support/fixture-sources';

// Rows written in the format of ../shared/fixtures/SOURCES.md (self-made, not copied).
const markdown = `# Fixture sources
## acs

| file | source repo @ commit | path in repo | repo licence | DOI [source] | title | kind | notes |
|---|---|---|---|---|---|---|---|
| \`acs/a.html\` | x/y @ \`1\` | \`p\` | MIT | 10.1021/ABC.123 [dc.Identifier scheme=doi] | A title | full article page | n |
| \`acs/b.html\` | x/y @ \`1\` | \`p\` | MIT | 10.1016/j.x.2013.05.006 [NOT in page (only PII S1); from filename] | B | full article page | n |

## nature

| file | source repo @ commit | path in repo | repo licence | DOI [source] | title | kind | notes |
|---|---|---|---|---|---|---|---|
| \`nature/c.html\` | x/y @ \`1\` | \`p\` | MIT | doi:10.1038/nmat942 [citation_doi] | C | full article page | prefix |
| \`blocked/d.html\` | x/y @ \`1\` | \`p\` | MIT | — [none] | Just a moment... | bot-challenge page | - |
| \`pdf/supercon/e.pdf\` | x/y @ \`1\` | \`p\` | MIT | 10.1103/x.1 [SuperMat biblio TEI] | E | PDF | 4 pp; WARNING: SuperMat biblio metadata does not match the PDF |

## Available upstream but NOT copied
| \`acs/zzz.html\` | ignored |
`;

describe('parseFixtureSources', () => {
  const rows = parseFixtureSources(markdown);
  it('reads one row per listed file, stopping at the upstream section', () => {
    expect(rows.map((row) => row.file)).toEqual(['acs/a.html', 'acs/b.html', 'nature/c.html', 'blocked/d.html', 'pdf/supercon/e.pdf']);
  });
  it('normalizes DOIs and tells in-document DOIs from external ones', () => {
    expect(rows.map((row) => [row.doi, row.doiInDocument])).toEqual([
      ['10.1021/abc.123', true],
      ['10.1016/j.x.2013.05.006', false],
      ['10.1038/nmat942', true],
      [null, false],
      ['10.1103/x.1', false],
    ]);
  });
  it('marks negative controls', () => {
    expect(rows.filter((row) => row.negativeControl).map((row) => row.file)).toEqual(['blocked/d.html']);
  });
});
