/**
 * Candidates from a table block. Captured tables are rows separated by "\n" and cells by "\t",
 * the first row being the header (see src/capture). A header cell naming a property ("Eg (eV)",
 * "Tc [K]", "a / Å") makes its column a property column; the unit comes from the cell itself or
 * else from the header. The material is the first material mention in the row's first cell.
 * A cell's conditions are its column header's, its row label's and the caption's
 * (`tableCellFacts`, as the gate reads them).
 */
import type { Block } from '../contracts/article';
import { findPropertyMentions, type PropertyDefinition } from '../properties';
import { headerUnit } from './quantities';
import { unitFitsProperty } from './scan-fit';
import { tableCellFacts } from './scan-facts';
import type { Candidate, ScanDependencies, ScanMaterialMention, ScanQuantity } from './scan-types';

interface Span {
  start: number;
  end: number;
  text: string;
}

function splitSpans(text: string, offset: number, separator: string): Span[] {
  const spans: Span[] = [];
  let start = 0;
  for (const part of text.split(separator)) {
    spans.push({ start: offset + start, end: offset + start + part.length, text: part });
    start += part.length + separator.length;
  }
  return spans;
}

/** A cell holding exactly one number, as a quantity in the header's unit; null otherwise. */
function bareNumber(cell: Span, unit: { unit: string; unitText: string }, dependencies: ScanDependencies): ScanQuantity | null {
  const text = cell.text.trim();
  const parsed = text === '' ? null : dependencies.parseNumber(text);
  if (!parsed) return null;
  const start = cell.start + cell.text.indexOf(text);
  const value =
    parsed.uncertainty === undefined
      ? { kind: 'number' as const, value: parsed.value }
      : { kind: 'number' as const, value: parsed.value, uncertainty: parsed.uncertainty };
  return { start, end: start + text.length, text, value, valueText: text, unit: unit.unit, unitText: unit.unitText };
}

/**
 * Candidates of one table block; `quantities` and `materials` are those of the block, offsets into
 * `Article.text`; `caption` the table's caption block (`captionOf`), if any.
 */
export function tableCandidates(
  block: Block,
  schemas: readonly PropertyDefinition[],
  quantities: readonly ScanQuantity[],
  materials: readonly ScanMaterialMention[],
  dependencies: ScanDependencies,
  caption?: Block,
): Candidate[] {
  const rows = splitSpans(block.text, block.start, '\n').map((row) => ({ row, cells: splitSpans(row.text, row.start, '\t') }));
  const header = rows[0];
  if (!header || rows.length < 2) return [];
  const candidates: Candidate[] = [];
  header.cells.forEach((cell, column) => {
    const mention = findPropertyMentions(cell.text, schemas)[0];
    if (!mention || column === 0) return; // column 0 holds the material
    const schema = schemas.find((candidate) => candidate.name === mention.property)!;
    const absoluteMention = { ...mention, start: cell.start + mention.start, end: cell.start + mention.end };
    // The same reading of a header's unit as the grounding gate's (parseTableQuantities), so
    // that what the scan takes from a header, the gate confirms.
    const unitFromHeader = headerUnit(cell.text);
    for (const { row, cells } of rows.slice(1)) {
      // Rows with spanning cells shift columns; skipping them keeps precision.
      if (cells.length !== header.cells.length) continue;
      const valueCell = cells[column]!;
      const inCell = quantities.filter((quantity) => quantity.start >= valueCell.start && quantity.end <= valueCell.end);
      let quantity: ScanQuantity | null = null;
      let segmentStart = row.start;
      if (inCell.length === 1 && unitFitsProperty(inCell[0]!, schema, dependencies)) quantity = inCell[0]!;
      else if (inCell.length === 0 && unitFromHeader && unitFitsProperty({ unit: unitFromHeader.unit }, schema, dependencies)) {
        quantity = bareNumber(valueCell, unitFromHeader, dependencies);
        segmentStart = header.row.start; // the quote must show the unit too
      }
      // Several numbers in a cell ("1.52 (2.10)b") are ambiguous: skipped.
      if (!quantity) continue;
      const firstCell = cells[0]!;
      const material = materials.find((candidate) => candidate.start >= firstCell.start && candidate.end <= firstCell.end) ?? null;
      candidates.push({
        property: schema.name,
        mention: absoluteMention,
        quantity,
        material,
        segment: { kind: 'table-row', start: segmentStart, end: row.end, blockId: block.id },
        blockId: block.id,
        ...tableCellFacts(
          { text: cell.text, start: cell.start },
          { text: firstCell.text, start: firstCell.start },
          caption,
          material?.text ?? null,
        ),
      });
    }
  });
  return candidates;
}
