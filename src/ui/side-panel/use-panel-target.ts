/**
 * The side panel's target page as React state (`watchPanelTarget`), with the key its paper state
 * hangs on (`panelTargetKey`).
 */
import { useEffect, useState } from 'react';
import { panelTargetKey, type PanelTarget } from '../../extension/panel-target';

/** Subscribe to the panel's target (`watchPanelTarget` bound to its mode and the browser's tabs); → unsubscribe. */
export type WatchPanelTarget = (onChange: (target: PanelTarget) => void) => () => void;

/** The target and its key; `target` undefined while the first answer is pending, or always without `watch` (key "initial"). */
export interface PanelTargetState {
  target: PanelTarget | undefined;
  key: string;
}

/**
 * Follow `watch` while mounted. Without it the panel behaves as before there was a target: one
 * page, resolved when asked (key "initial"). While the first target is pending the key is
 * "pending", so nothing is looked up or shown for a page not yet known.
 */
export function usePanelTarget(watch: WatchPanelTarget | undefined): PanelTargetState {
  const [target, setTarget] = useState<PanelTarget | undefined>(undefined);
  useEffect(() => watch?.(setTarget), [watch]);
  if (!watch) return { target: undefined, key: 'initial' };
  return { target, key: target ? panelTargetKey(target) : 'pending' };
}
