// The axe scan every browser test of a screen runs: WCAG 2.0/2.1 A and AA, and every finding
// counts (minor and moderate too), each given as "rule (impact): where" so a failure says what to fix.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return violations.map((v) => `${v.id} (${v.impact ?? 'unknown'}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The four screens a changed page is scanned on: light and dark, phone (390 × 844) and desktop (1280 × 800). */
export const AXE_SCREENS = [
  { colorScheme: 'light', viewport: { width: 390, height: 844 } },
  { colorScheme: 'dark', viewport: { width: 390, height: 844 } },
  { colorScheme: 'light', viewport: { width: 1280, height: 800 } },
  { colorScheme: 'dark', viewport: { width: 1280, height: 800 } },
] as const;
