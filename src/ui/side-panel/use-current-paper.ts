/**
 * The saved paper of the page the side panel opened on: looked up when the panel mounts, and
 * again whenever the papers change while none was found — the background may save the page a
 * moment after the panel opened (a publisher site the reader opted in, paper-recognizer.ts).
 */
import { useEffect, useState } from 'react';
import type { CurrentPaper } from './current-paper';

/** `looking` until the lookup answers; `none` when there is no lookup, no match, or it failed. */
export type CurrentPaperState = { status: 'looking' } | { status: 'none' } | ({ status: 'found' } & CurrentPaper);

/** Subscribe to changes of the saved papers (`papersChanged`); → unsubscribe. */
export type WatchPapers = (onChange: () => void) => () => void;

/**
 * Run `findCurrentPaper` (`currentPaperFinder`) once and expose its answer. Without a finder the
 * state is `none` at once; a rejected lookup also ends in `none` (the panel then offers the
 * normal "Capture this page"). With `watchPapers`, a `none` is looked up again on every change of
 * the papers, so a paper saved meanwhile appears; a found paper is never taken back.
 */
export function useCurrentPaper(
  findCurrentPaper: (() => Promise<CurrentPaper | undefined>) | undefined,
  watchPapers?: WatchPapers,
): CurrentPaperState {
  const [state, setState] = useState<CurrentPaperState>(() => (findCurrentPaper ? { status: 'looking' } : { status: 'none' }));
  useEffect(() => {
    if (!findCurrentPaper) return;
    let current = true;
    let found = false;
    const lookUp = () =>
      findCurrentPaper().then(
        (paper) => {
          if (!current || found) return;
          if (paper) found = true;
          setState(paper ? { status: 'found', ...paper } : { status: 'none' });
        },
        () => current && !found && setState({ status: 'none' }),
      );
    void lookUp();
    const unsubscribe = watchPapers?.(() => {
      if (!found) void lookUp();
    });
    return () => {
      current = false;
      unsubscribe?.();
    };
  }, [findCurrentPaper, watchPapers]);
  return state;
}
