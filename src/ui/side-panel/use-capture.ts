/**
 * State of one capture in the side panel: idle, busy, saved or failed.
 */
import { useCallback, useRef, useState } from 'react';
import type { PanelTarget } from '../../extension/panel-target';
import type { MessageFailure, PaperSummary, ResponseOf } from '../../contracts/messages';

export type CaptureState =
  | { status: 'idle' }
  | { status: 'busy' }
  | { status: 'saved'; paper: PaperSummary; warnings: string[] }
  | { status: 'failed'; failure: MessageFailure };

/**
 * Run `captureActivePage(target)` on demand and expose its state, for the page `targetKey`
 * (`panelTargetKey`) names. A call while one is running is ignored (the button is disabled too),
 * so a double click never captures twice. When the key changes (the tab moved to another page)
 * the state is idle again, and the answer of a capture started for the earlier page is dropped:
 * it never shows as this page's paper.
 */
export function useCapture(
  captureActivePage: (target?: PanelTarget) => Promise<ResponseOf<'capture-tab'>>,
  target?: PanelTarget,
  targetKey = 'initial',
) {
  const [held, setHeld] = useState<{ key: string; state: CaptureState }>({ key: targetKey, state: { status: 'idle' } });
  // Refs, not state: they must change synchronously, before React re-renders the button.
  const running = useRef<string | null>(null);
  const currentKey = useRef(targetKey);
  currentKey.current = targetKey;
  const capture = useCallback(async () => {
    if (running.current === targetKey) return;
    const key = targetKey;
    running.current = key;
    setHeld({ key, state: { status: 'busy' } });
    try {
      const response = await captureActivePage(target);
      if (currentKey.current !== key) return;
      setHeld({
        key,
        state: response.ok
          ? { status: 'saved', paper: response.paper, warnings: response.warnings }
          : { status: 'failed', failure: response.failure },
      });
    } finally {
      if (running.current === key) running.current = null;
    }
  }, [captureActivePage, target, targetKey]);
  const state: CaptureState = held.key === targetKey ? held.state : { status: 'idle' };
  return { state, capture };
}
