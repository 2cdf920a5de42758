// A short explanation a touch or keyboard user can open: a small "?" button
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

/** `question` ("What is Δ (delta)?") is the button's name; the "?" is its face. */
export function ExplainButton({ explain, question }: { explain: ExplainState; question: string }) {
  return (
    <button
      type="button"
      className="explain-toggle"
      aria-label={question}
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

/** `lead` ("Persuasion") names the idea when the text is away from its button. */
export function ExplainText({ explain, className, lead }: { explain: ExplainState; className?: string; lead?: string }) {
  return (
    <span id={explain.id} className={`explain-text${className ? ` ${className}` : ''}`} hidden={!explain.open}>
      {lead && <strong>{lead}: </strong>}
      {explain.text}
    </span>
  );
}

/** The button and, when open, its text right after it (a whole line of a wrapping row). */
export function Explain({ question, text }: { question: string; text: string }) {
  const explain = useExplain(text);
  return (
    <>
      <ExplainButton explain={explain} question={question} />
      <ExplainText explain={explain} />
    </>
  );
}
