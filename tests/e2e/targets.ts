// The 44 px rule, measured in Chromium: every control on a phone is at least 44 x 44
// CSS px, or has that much target area around its middle that is its own (an ::after hit area counts
// as its element). Shared by the topic page's test and the panels' own tests (opinion groups).
import type { Page } from 'playwright-core';

/**
 * What a thumb can press: links, buttons, fields, and the ARIA widgets that are pressed (a menu's
 * items, a listbox's options such as the @mention suggestions, radios, tabs).
 */
const INTERACTIVE =
  'button, a, input, select, textarea, [role=button], summary, [tabindex="0"], [role=option], [role=menuitem], [role=radio], [role=tab]';

/**
 * Every visible interactive element smaller than 44 x 44 whose 44 x 44 square around its middle is
 * not all its own: a point of the square's corners and edges that elementFromPoint gives to something
 * else (an ::after hit area counts as its element). Returns "what (w x h)" for each offender.
 */
export async function smallTargets(page: Page, root = 'body'): Promise<string[]> {
  return page.evaluate(
    ([rootSelector, selector]) => {
      const offenders: string[] = [];
      const HALF = 21.5; // inside a 44 px square by half a pixel: no rounding at its very edge
      for (const el of document.querySelector(rootSelector)!.querySelectorAll<HTMLElement>(selector)) {
        if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: false })) continue;
        // The debate map's nodes have round hit areas (a square's corners miss a circle by design):
        // debate-map.test.ts measures each node's hit circle and taps at its edge.
        if (el.closest('svg')) continue;
        let box = el.getBoundingClientRect();
        if (box.width === 0 || box.height === 0 || box.right <= 0 || box.left >= innerWidth + scrollX) continue;
        if (box.width >= 44 && box.height >= 44) continue;
        el.scrollIntoView({ block: 'center', inline: 'nearest' });
        box = el.getBoundingClientRect();
        // The square around the middle, kept on the screen (a hit area cannot reach past its edge).
        const cx = Math.min(Math.max(box.left + box.width / 2, HALF + 0.5), innerWidth - HALF - 0.5);
        const cy = box.top + box.height / 2;
        const points = [-HALF, 0, HALF].flatMap((dx) => [-HALF, 0, HALF].map((dy) => [cx + dx, cy + dy] as const));
        // A field's own <label> is its target too: the browser hands the label's click to the field.
        const labels = 'labels' in el && el.labels ? [...(el.labels as NodeListOf<HTMLLabelElement>)] : [];
        const lost = points.filter(([x, y]) => {
          const hit = document.elementFromPoint(x, y);
          return !hit || !(hit === el || el.contains(hit) || labels.some((label) => label.contains(hit)));
        });
        if (lost.length > 0) {
          const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
          const first = lost[0]!;
          const thief = document.elementFromPoint(first[0], first[1]);
          offenders.push(
            `${el.tagName.toLowerCase()}${el.className ? '.' + String(el.className).split(' ')[0] : ''} "${name}" ` +
              `(${Math.round(box.width)}x${Math.round(box.height)}; point ${Math.round(first[0] - cx)},${Math.round(first[1] - cy)} ` +
              `goes to ${thief ? thief.tagName.toLowerCase() + (thief.className ? '.' + String(thief.className).split(' ')[0] : '') : 'nothing'})`,
          );
        }
      }
      return offenders;
    },
    [root, INTERACTIVE] as const,
  );
}
