/**
 * The saved paper of the page the side panel opened on: looked up when the panel mounts, and
 * again whenever the papers change while none was found — the background may save the page a
 * moment after the panel opened (a publisher site the reader opted in, paper-recognizer.ts).
 */
import { useEffect, useState } from 'react';
import type { CurrentPaper } from './current-paper';
import type { PanelTarget } from '../../extension/panel-target';

/** `looking` until the lookup answers; `none` when there is no lookup, no match, or it failed. */
export type CurrentPaperState = { status: 'looking' } | { status: 'none' } | ({ status: 'found' } & CurrentPaper);

/** Subscribe to changes of the saved papers (`papersChanged`); → unsubscribe. */
export type WatchPapers = (onChange: () => void) => () => void;

/**
 * Run `findCurrentPaper(target)` (`currentPaperFinder`) for the page `targetKey` names
 * (`panelTargetKey`) and expose its answer; a new key looks up again (the tab moved to another
 * page), and until that answer the state is `looking`, never the earlier page's paper. Without a
 * finder the state is `none` at once; a rejected lookup also ends in `none` (the panel then
 * offers the normal "Capture this page"). With `watchPapers`, a `none` is looked up again on
 * every change of the papers, so a paper saved meanwhile appears; a found paper is never taken
 * back while the page stays. `targetKey` "pending" (the page is not known yet) looks nothing up.
 */
export function useCurrentPaper(
  findCurrentPaper: ((target?: PanelTarget) => Promise<CurrentPaper | undefined>) | undefined,
  watchPapers?: WatchPapers,
  target?: PanelTarget,
  targetKey = 'initial',
): CurrentPaperState {
  const [held, setHeld] = useState<{ key: string; state: CurrentPaperState }>(() => ({
    key: targetKey,
    state: findCurrentPaper ? { status: 'looking' } : { status: 'none' },
  }));
  useEffect(() => {
    if (!findCurrentPaper || targetKey === 'pending') return;
    let current = true;
    let found = false;
    const setState = (state: CurrentPaperState) => setHeld({ key: targetKey, state });
    const lookUp = () =>
      findCurrentPaper(target).then(
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
    // `target` is read through the key: a new object for the same page must not look up again.
  }, [findCurrentPaper, watchPapers, targetKey]);
  if (held.key === targetKey) return held.state;
  return findCurrentPaper ? { status: 'looking' } : { status: 'none' };
}
