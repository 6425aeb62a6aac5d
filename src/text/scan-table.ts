/**
 * Candidates from a table block, read as the article index reads it (`IndexedTable`: header row,
 * data rows of cells, aligned or not, and the table's caption). A header cell naming a property
 * ("Eg (eV)", "Tc [K]", "a / Å") makes its column a property column; a cell's quantity is the
 * index's (`ArticleIndex.quantitiesOf`: a unit of its own, else its header's, as the grounding
 * gate reads cells). The material is the first material mention in the row's first cell. A cell's
 * conditions are its column header's, its row label's and the caption's (`tableCellFacts`, as
 * the gate reads them).
 */
import type { PropertyDefinition } from '../contracts/property';
import { findPropertyMentions } from './find-property-mentions';
import { unitFitsProperty } from './scan-fit';
import { tableCellFacts } from './scan-facts';
import type { Candidate, ScanMaterialMention, ScanQuantity } from './scan-types';
import type { IndexedTable } from './article-table';

/**
 * Whether a cell's quantity printed its unit in the cell ("39 K"), rather than taking its
 * header's (a bare "146(5)" under "K0 (GPa)"): a quantity with its own unit ends with it, one read
 * with the header's unit spans the number alone, which never ends with a unit's letters.
 */
function unitInCell(quantity: ScanQuantity): boolean {
  return quantity.text.endsWith(quantity.unitText);
}

/**
 * Candidates of one table; `quantities` and `materials` are those of its block, offsets into
 * `Article.text`.
 */
export function tableCandidates(
  table: IndexedTable,
  schemas: readonly PropertyDefinition[],
  quantities: readonly ScanQuantity[],
  materials: readonly ScanMaterialMention[],
): Candidate[] {
  const { block, header, caption } = table;
  const candidates: Candidate[] = [];
  for (const cell of header.cells) {
    const mention = findPropertyMentions(cell.text, schemas)[0];
    if (!mention || cell.column === 0) continue; // column 0 holds the material
    const schema = schemas.find((candidate) => candidate.name === mention.property)!;
    const absoluteMention = { ...mention, start: cell.start + mention.start, end: cell.start + mention.end };
    // Rows with spanning cells shift columns; skipping them keeps precision.
    for (const row of table.rows.filter((each) => each.aligned)) {
      const valueCell = row.cells[cell.column]!;
      const inCell = quantities.filter((quantity) => quantity.start >= valueCell.start && quantity.end <= valueCell.end);
      // Several numbers in a cell ("1.52 (2.10)b") are ambiguous: skipped.
      const quantity = inCell.length === 1 ? inCell[0]! : null;
      if (!quantity || !unitFitsProperty(quantity, schema)) continue;
      const firstCell = row.cells[0]!;
      const material = materials.find((candidate) => candidate.start >= firstCell.start && candidate.end <= firstCell.end) ?? null;
      candidates.push({
        property: schema.name,
        mention: absoluteMention,
        quantity,
        material,
        // From the header row when the unit is printed there: the quote must show the unit too.
        segment: { kind: 'table-row', start: unitInCell(quantity) ? row.start : header.start, end: row.end, blockId: block.id },
        blockId: block.id,
        ...tableCellFacts(cell, firstCell, caption, material?.text ?? null),
      });
    }
  }
  return candidates;
}
