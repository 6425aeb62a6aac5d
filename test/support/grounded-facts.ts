/**
 * Facts a simulated model states about the passage it is sent: what the rules engine finds in the
 * request's user message (captured as a plain-text document), for each property the message
 * names. The quotes are sentences of the passage, so the grounding gate can pass them, and the
 * same message always gives the same facts — a model server that is deterministic and honest,
 * for timing and resume tests of the batch command (test/e2e/openai-test-server.ts serves them).
 */
import { captureDocument } from '../../src/capture/capture-document';
import { nodeDomParser } from '../../src/capture/node/node-dom';
import { extractWithRules } from '../../src/extract/rules';
import type { ScriptedFact } from '../e2e/openai-test-server';
import { readFileSync } from 'node:fs';
import { sharedPath } from './shared-data';

/** At most this many facts per property and message: a model states a few, not every number. */
const FACTS_PER_PROPERTY = 2;

/** Facts already worked out, by message: the proposers of a layer are sent the same message. */
const memo = new Map<string, Promise<ScriptedFact[]>>();
const MEMO_LIMIT = 1000;

/** The facts of `user` (see the module comment); none when it names no property or holds no value. */
export function groundedFacts(user: string): Promise<ScriptedFact[]> {
  let facts = memo.get(user);
  if (!facts) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(user, (facts = factsOf(user)));
  }
  return facts;
}

async function factsOf(user: string): Promise<ScriptedFact[]> {
  let article;
  try {
    article = await captureDocument(new TextEncoder().encode(user), { domParser: nodeDomParser() });
  } catch {
    return [];
  }
  const facts: ScriptedFact[] = [];
  const perProperty = new Map<string, number>();
  for (const triplet of extractWithRules(article)) {
    if (triplet.value.kind !== 'number' || !triplet.evidence || !user.includes(triplet.property)) continue;
    const count = perProperty.get(triplet.property) ?? 0;
    if (count >= FACTS_PER_PROPERTY) continue;
    perProperty.set(triplet.property, count + 1);
    facts.push({
      material: triplet.material,
      property: triplet.property,
      value: triplet.value.value,
      unit: triplet.unit,
      quote: triplet.evidence.quote.exact,
    });
  }
  return facts;
}

/**
 * The first `count` band-gap facts (a number value with an evidence sentence) the rules engine
 * finds in the fixture page `fixturePath` (under ../shared/fixtures), as every model role of a
 * test server will state them. Throws, naming the page, when it has fewer.
 */
export async function fixtureBandGapFacts(fixturePath: string, count: number): Promise<ScriptedFact[]> {
  const bytes = new Uint8Array(readFileSync(sharedPath('fixtures', fixturePath)));
  const article = await captureDocument(bytes, { domParser: nodeDomParser() });
  const facts = extractWithRules(article).flatMap((triplet) =>
    triplet.property === 'band_gap' && triplet.value.kind === 'number' && triplet.evidence
      ? [
          {
            material: triplet.material,
            property: 'band_gap',
            value: triplet.value.value,
            unit: triplet.unit,
            quote: triplet.evidence.quote.exact,
          },
        ]
      : [],
  );
  if (facts.length < count) throw new Error(`the fixture page ${fixturePath} has ${facts.length} band-gap facts; the test needs ${count}`);
  return facts.slice(0, count);
}
