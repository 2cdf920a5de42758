// A short explanation a touch or keyboard user can open (issue 24 #1): a small "?" button
// (aria-expanded, aria-controls) that shows or hides the text, which stays in the page's flow.
// The words come from explanations.ts, the same as the `title` tooltips beside them.
// <Explain> puts both together; useExplain + ExplainButton + ExplainText let a page put the text
// elsewhere than the button (under a table whose header holds the button).
import { useId, useState } from 'react';
import './Explain.css';

export interface ExplainState {
  id: string;
  open: boolean;
  toggle: () => void;
  text: string;
}

export function useExplain(text: string): ExplainState {
  const id = `explain-${useId().replace(/:/g, '')}`;
  const [open, setOpen] = useState(false);
  return { id, open, text, toggle: () => setOpen((o) => !o) };
}

/** "What is {topic}?" is the button's name (the "?" is its face). */
export const explainLabel = (topic: string) => `What is ${topic}?`;

export function ExplainButton({ explain, topic }: { explain: ExplainState; topic: string }) {
  return (
    <button
      type="button"
      className="explain-toggle"
      aria-label={explainLabel(topic)}
      aria-expanded={explain.open}
      aria-controls={explain.id}
      onClick={explain.toggle}
    >
      <span className="explain-mark" aria-hidden="true">
        ?
      </span>
    </button>
  );
}

export function ExplainText({ explain, className }: { explain: ExplainState; className?: string }) {
  return (
    <span id={explain.id} className={`explain-text${className ? ` ${className}` : ''}`} hidden={!explain.open}>
      {explain.text}
    </span>
  );
}

/** The button and, when open, its text right after it (a whole line of a wrapping row). */
export function Explain({ topic, text }: { topic: string; text: string }) {
  const explain = useExplain(text);
  return (
    <>
      <ExplainButton explain={explain} topic={topic} />
      <ExplainText explain={explain} />
    </>
  );
}
