/**
 * An import file saved as UTF-16 (a spreadsheet's "Unicode text", Notepad's "Unicode") was read as
 * UTF-8 and every line refused as "not JSON" (issue 27, item 11): its byte-order mark, or its NUL
 * bytes, say how to read it.
 */
import { Blob as NodeBlob } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { toCsv, toJson, toJsonl } from '../../../src/export/dataset-export';
import { importFileInMemory, memoryDataset } from '../../../src/export/memory-dataset';
import { bandGapRow, tcRangeRow } from './dataset-fixtures';

const NOW = new Date('2026-11-25T10:00:00.000Z');

/** `text` in UTF-16 of the given byte order, with or without a byte-order mark. */
function utf16(text: string, order: 'le' | 'be', mark: boolean): Uint8Array {
  const units = (mark ? '\uFEFF' : '') + text;
  const bytes = new Uint8Array(units.length * 2);
  for (let index = 0; index < units.length; index += 1) {
    const code = units.charCodeAt(index);
    bytes[index * 2 + (order === 'le' ? 0 : 1)] = code & 0xff;
    bytes[index * 2 + (order === 'le' ? 1 : 0)] = code >> 8;
  }
  return bytes;
}

async function imported(bytes: Uint8Array) {
  const dataset = memoryDataset();
  const result = await importFileInMemory(dataset, new NodeBlob([bytes]) as unknown as Blob, { fileName: 'f', now: NOW });
  if ('fileProblem' in result) throw new Error(result.fileProblem);
  return { result, materials: dataset.rows.map((row) => row.material).sort() };
}

describe('an import file in UTF-16', () => {
  it.each([
    ['JSON Lines', toJsonl([bandGapRow, tcRangeRow])],
    ['a JSON array', toJson([bandGapRow, tcRangeRow])],
    ['CSV', toCsv([bandGapRow, tcRangeRow]).replace(/^\uFEFF/, '')],
  ])('imports %s with a byte-order mark (either order) or without one, as it imports UTF-8', async (_kind, text) => {
    const expected = await imported(new TextEncoder().encode(text));
    expect(expected.result.refused).toBe(0);
    for (const bytes of [utf16(text, 'le', true), utf16(text, 'be', true), utf16(text, 'le', false)]) {
      const { result, materials } = await imported(bytes);
      expect(result.refused).toBe(0);
      expect(materials).toEqual(expected.materials);
    }
  });
});
