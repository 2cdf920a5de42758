// The Markdown renderer (shared/markdown.ts and marked), loaded on first use in its own chunk: it is
// kept off the first load, and a text shows plain (line breaks kept) the moment before it arrives.
// The chunk is precached with the app, so it loads offline too.
import { useCallback, useEffect, useState } from 'react';

type Markdown = typeof import('../../../../shared/markdown');

let loaded: Markdown | null = null;
let loading: Promise<Markdown> | null = null;

/** Starts loading the renderer (once); resolves with it. */
export function loadMarkdown(): Promise<Markdown> {
  loading ??= import('../../../../shared/markdown').then((module) => (loaded = module));
  return loading;
}

/** The renderer once loaded (null until then: show the text plain). */
export function useMarkdown(): Markdown | null {
  const [markdown, setMarkdown] = useState<Markdown | null>(loaded);
  useEffect(() => {
    if (markdown) return;
    let live = true;
    loadMarkdown().then(
      (module) => live && setMarkdown(module),
      // A failed load (an old chunk gone after an update): the text stays plain.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [markdown]);
  return markdown;
}

/**
 * Plain texts already worked out, by text: every row of a long topic asks for its own (and for its
 * quote's) at each render, and each is a whole Markdown render. Emptied when full (a page's worth).
 */
const plainTexts = new Map<string, string>();
const PLAIN_TEXTS_KEPT = 2_000;

/**
 * For excerpts (a quoted block, the strongest case, a hint): a text's words without their Markdown
 * marks, on one line, through the same renderer; the text as written until it has loaded.
 */
export function usePlainText(): (text: string) => string {
  const markdown = useMarkdown();
  return useCallback(
    (text: string) => {
      if (!markdown) return text;
      let plain = plainTexts.get(text);
      if (plain === undefined) {
        if (plainTexts.size >= PLAIN_TEXTS_KEPT) plainTexts.clear();
        plain = markdown.markdownPlainText(text);
        plainTexts.set(text, plain);
      }
      return plain;
    },
    [markdown],
  );
}
