/**
 * The saved paper of the page the side panel opened on, looked up once when the panel mounts.
 */
import { useEffect, useState } from 'react';
import type { CurrentPaper } from './current-paper';

/** `looking` until the lookup answers; `none` when there is no lookup, no match, or it failed. */
export type CurrentPaperState = { status: 'looking' } | { status: 'none' } | ({ status: 'found' } & CurrentPaper);

/**
 * Run `findCurrentPaper` (`currentPaperFinder`) once and expose its answer. Without a finder the
 * state is `none` at once; a rejected lookup also ends in `none` (the panel then offers the
 * normal "Capture this page").
 */
export function useCurrentPaper(findCurrentPaper: (() => Promise<CurrentPaper | undefined>) | undefined): CurrentPaperState {
  const [state, setState] = useState<CurrentPaperState>(() => (findCurrentPaper ? { status: 'looking' } : { status: 'none' }));
  useEffect(() => {
    if (!findCurrentPaper) return;
    let current = true;
    findCurrentPaper().then(
      (found) => current && setState(found ? { status: 'found', ...found } : { status: 'none' }),
      () => current && setState({ status: 'none' }),
    );
    return () => {
      current = false;
    };
  }, [findCurrentPaper]);
  return state;
}
