/**
 * Under a fact that several verdicts stated (`factEntries`, src/matrix/fact-entries.ts), the
 * verdicts themselves: who stated it and what each one's check said, one line each, so the merged
 * entry still shows its votes and paths. Nothing for a fact one verdict stated. Text, never HTML.
 */
import type { FactEntry } from '../../matrix/fact-entries';
import type { VerificationRecord } from '../../contracts/verification';
import { factVoteLines } from './review-model';

/** The list (see the module comment), as a `<dt>`/`<dd>` pair for the entry's `<dl>`. */
export function FactVotes({ records, entry }: { records: readonly VerificationRecord[]; entry: FactEntry | undefined }) {
  if (!entry || entry.members.length < 2) return null;
  return (
    <>
      <dt>Found by</dt>
      <dd>
        <ul className="fact-votes" data-testid={`fact-votes-${entry.primary}`}>
          {factVoteLines(records, entry).map((line) => (
            <li key={line.index} data-index={line.index}>
              {line.text}
            </li>
          ))}
        </ul>
      </dd>
    </>
  );
}
