/**
 * How the toolbar button opens the side panel, and why not with
 * `sidePanel.setPanelBehavior({ openPanelOnActionClick: true })`.
 *
 * With that behaviour Chromium toggles the panel *before* it grants activeTab
 * (`ExtensionActionRunner::RunAction`, crbug.com/40904917), so the click would not let Assay
 * read the page, and release builds have no other way in (no host permissions). Listening to
 * `action.onClicked` instead gets both: Chromium grants activeTab on the clicked tab, then
 * dispatches the event, and the listener opens the panel while the click still counts as a
 * user gesture (`sidePanel.open` must be called synchronously, before any `await`).
 */
import type { Browser } from 'wxt/browser';

/** The subset of the extension API this wiring uses. */
export interface SidePanelApi {
  action: { onClicked: { addListener(listener: (tab: Browser.tabs.Tab) => void): void } };
  sidePanel: {
    setPanelBehavior(behavior: { openPanelOnActionClick: boolean }): Promise<void>;
    open(options: { windowId: number }): Promise<void>;
  };
}

/**
 * Make a click on the toolbar button open the side panel in that window. The behaviour flag is
 * reset explicitly because Chrome persists it in the profile across extension updates.
 */
export function openSidePanelOnActionClick(api: SidePanelApi): void {
  void api.sidePanel.setPanelBehavior({ openPanelOnActionClick: false });
  api.action.onClicked.addListener((tab) => {
    // One panel per window (not per tab), so it stays open while the reader switches tabs;
    // a capture in another tab then asks for one more click on the button (activeTab).
    void api.sidePanel
      .open({ windowId: tab.windowId })
      .catch((error: unknown) => console.warn('Assay: could not open the side panel', error));
  });
}
