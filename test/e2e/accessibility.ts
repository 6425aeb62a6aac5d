/**
 * The automated accessibility check of issue 17: axe-core (through `@axe-core/playwright`) on an
 * extension page, in the light or dark theme the browser asks for.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** The impacts the "done when" forbids: axe's two highest. */
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

/** One rule axe found broken, with the CSS targets of the first few nodes, for a readable test failure. */
export interface AxeProblem {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Run axe-core's WCAG 2.0/2.1 A and AA rules and best practices on `page` as it stands and return
 * the serious and critical violations (`[]` when there are none). The page's colour scheme is
 * whatever the caller emulated (`setColorScheme`), so contrast is checked in that theme.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeProblem[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations
    .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''))
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? '',
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    }));
}

/** Ask `page` for the light or dark theme, as the browser's setting would (`prefers-color-scheme`). */
export async function setColorScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
}
