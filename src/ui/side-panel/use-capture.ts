/**
 * State of one capture in the side panel: idle, busy, saved or failed.
 */
import { useCallback, useRef, useState } from 'react';
import type { MessageFailure, PaperSummary, ResponseOf } from '../../contracts/messages';

export type CaptureState =
  | { status: 'idle' }
  | { status: 'busy' }
  | { status: 'saved'; paper: PaperSummary; warnings: string[] }
  | { status: 'failed'; failure: MessageFailure };

/**
 * Run `captureActivePage` on demand and expose its state. A call while one is running is
 * ignored (the button is disabled too), so a double click never captures twice.
 */
export function useCapture(captureActivePage: () => Promise<ResponseOf<'capture-tab'>>) {
  const [state, setState] = useState<CaptureState>({ status: 'idle' });
  // A ref, not state: it must change synchronously, before React re-renders the button.
  const running = useRef(false);
  const capture = useCallback(async () => {
    if (running.current) return;
    running.current = true;
    setState({ status: 'busy' });
    try {
      const response = await captureActivePage();
      setState(
        response.ok
          ? { status: 'saved', paper: response.paper, warnings: response.warnings }
          : { status: 'failed', failure: response.failure },
      );
    } finally {
      running.current = false;
    }
  }, [captureActivePage]);
  return { state, capture };
}
