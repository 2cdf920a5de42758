// The debate map, loaded only when opened (it carries d3-hierarchy): the whole
// response tree from the local store (so it works offline), colour and icon by type, size by
// score, Δ marked; a node opens its response in the thread. The picture fits its frame, labels
// each node with the start of its text and has a legend; nodes are thumb-sized targets.
// "Outline" is the same tree as nested links, the accessible alternative to the picture.
// The strongest case on each side is ringed and starred, and named in each label.
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { RESPONSE_TYPES } from '../../../../shared/constants';
import { blockedHidden } from '../../../../shared/messages';
import { authorName } from '../../../../shared/rules/author-name';
import { truncate } from '../../../../shared/rules/truncate';
import { useBlockedUids } from '../../hooks/useBlocks';
import type { ResponseView } from '../../hooks/useReplies';
import { useTopicResponses } from '../../hooks/useTopicResponses';
import { useDebateStanding } from '../../hooks/useStance';
import { useRankedCase } from '../../hooks/useStrongestCase';
import type { CaseSide } from '../../../../shared/rules/strongest-case';
import { useTopicTree } from '../../hooks/useTopicTree';
import { usePlainText } from '../FormattedText/useMarkdown';
import { deltaCountLabel } from '../DeltaCredit/DeltaCredit';
import { STANCE } from '../Stance/Stance';
import {
  fitScale,
  HIT_PX,
  LABEL_PX,
  labelsAt,
  layoutDebate,
  linkPath,
  nodeRadius,
  outlineOf,
  type MapNode,
  type OutlineItem,
} from './debate-tree';
import './DebateMap.css';

/** How much of a response's text the map reads: its labels and names show at most 80 characters. */
const MAP_TEXT_READ = 400;
export const MAP_EMPTY = 'No responses yet: the map fills in as people respond.';
const NO_SIDES = { agree: 0, disagree: 0 };
const MIN_ZOOM = 0.25;
const MAX_ZOOM = 3;
const ZOOM_STEP = 1.25;
/** The frame's tallest (as DebateMap.css: min(420px, 60vh)) and shortest heights. */
const FRAME_MAX_PX = 420;
const FRAME_MAX_VIEWPORT = 0.6;
const FRAME_MIN_PX = 120;

type View = 'map' | 'outline';

/** A response's place in the strongest case on its side: 1 to 3. */
export interface StrongestMark {
  side: CaseSide;
  rank: number;
}

/** "strongest case for, no. 1". */
export function strongestLabel(mark: StrongestMark): string {
  return `strongest case ${mark.side}, no. ${mark.rank}`;
}

/** What a node or outline link says: "✔ Agrees: text… (score 3, 2 people credited…, strongest case for, no. 1)". */
export function responseSummary(r: ResponseView, mark?: StrongestMark): string {
  const extras = [`score ${r.score}`];
  if (r.delta_count > 0) extras.push(deltaCountLabel(r.delta_count));
  if (mark) extras.push(strongestLabel(mark));
  return `${STANCE[r.type].label}: ${truncate(r.content, 80)} (${extras.join(', ')})`;
}

export default function DebateMap({ topicId }: { topicId: string }) {
  const { responses: all, error, loading } = useTopicResponses(topicId);
  // A blocked author's responses keep their place, saying only that they are hidden.
  const blocked = useBlockedUids();
  // Labels, node names and the outline read each text's words without their Markdown marks. They
  // show at most 80 characters, so only a text's start is read (a big topic's map stays quick).
  const plain = usePlainText();
  const responses = useMemo(
    () =>
      all.map((r) => ({
        ...r,
        content: blocked.has(r.creator_uid) ? blockedHidden(authorName(r.username)) : plain(r.content.slice(0, MAP_TEXT_READ)),
      })),
    [all, blocked, plain],
  );
  const tree = useTopicTree();
  const participants = useDebateStanding()?.participants ?? NO_SIDES;
  const best = useRankedCase(all, participants);
  const marks = useMemo(() => {
    const found = new Map<string, StrongestMark>();
    for (const side of ['for', 'against'] as const) best[side].forEach((a, i) => found.set(a.response.id, { side, rank: i + 1 }));
    return found;
  }, [best]);
  const [view, setView] = useState<View>('map');
  const open = (id: string) => void tree.goToResponse(id);

  let body;
  if (error)
    body = (
      <p className="error-text" role="alert">
        Error: {error instanceof Error ? error.message : 'the responses could not be read.'}
      </p>
    );
  else if (loading)
    body = (
      <p className="status-text" role="status">
        Loading map...
      </p>
    );
  else if (responses.length === 0) body = <p className="status-text">{MAP_EMPTY}</p>;
  else if (view === 'map') body = <MapPicture responses={responses} marks={marks} onOpen={open} />;
  else body = <Outline responses={responses} marks={marks} onOpen={open} />;

  return (
    <div className="debate-map">
      <div className="debate-map-views" role="group" aria-label="Map view">
        <button type="button" className="btn btn-small" aria-pressed={view === 'map'} onClick={() => setView('map')}>
          Map
        </button>
        <button type="button" className="btn btn-small" aria-pressed={view === 'outline'} onClick={() => setView('outline')}>
          Outline
        </button>
      </div>
      {body}
    </div>
  );
}

function MapPicture({
  responses,
  marks,
  onOpen,
}: {
  responses: ResponseView[];
  marks: ReadonlyMap<string, StrongestMark>;
  onOpen: (id: string) => void;
}) {
  const layout = useMemo(() => layoutDebate(responses), [responses]);
  const frameRef = useRef<HTMLDivElement>(null);
  const frame = useFrameSize(frameRef);
  // Zoom is relative to the fit: at 100% the whole map fills the frame.
  const [zoom, setZoom] = useState(1);
  const zoomBy = useCallback((factor: number) => setZoom((z) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, z * factor))), []);
  useWheelZoom(frameRef, zoomBy);
  const drag = useDragToPan(frameRef);
  // A pixel short of the frame: a rounded-up size must never bring scrollbars (and a re-fit) at 100%.
  // The drawing keeps HIT_PX / 2 of screen around it, so an edge node's hit area is not cut off.
  const fit = fitScale(layout, { width: frame.width - HIT_PX - 1, height: frame.height - HIT_PX - 1 });
  const scale = fit * zoom;
  const pad = HIT_PX / 2 / scale;
  // The frame is as tall as the fitted map (a wide, shallow debate leaves no empty band under it) and
  // keeps that height at every zoom, so zooming never moves the page.
  const frameHeight = frame.width > 0 ? Math.max(FRAME_MIN_PX, Math.ceil(layout.height * fit) + HIT_PX + 2) : undefined;
  const labels = useMemo(() => labelsAt(responses, scale), [responses, scale]);

  return (
    <>
      <div className="debate-map-zoom" role="group" aria-label="Zoom">
        <button type="button" className="btn btn-small" onClick={() => zoomBy(ZOOM_STEP)} disabled={zoom >= MAX_ZOOM} aria-label="Zoom in">
          +
        </button>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => zoomBy(1 / ZOOM_STEP)}
          disabled={zoom <= MIN_ZOOM}
          aria-label="Zoom out"
        >
          −
        </button>
        <button type="button" className="btn btn-small" onClick={() => setZoom(1)}>
          Reset zoom
        </button>
        <span className="muted debate-map-zoom-level" aria-live="polite">
          {Math.round(zoom * 100)}%
        </span>
      </div>
      <MapLegend />
      {/* A fixed-height frame: zooming scrolls inside it, the page never moves. */}
      <div className="debate-map-frame" ref={frameRef} style={{ height: frameHeight }} {...drag}>
        <svg
          className="debate-map-svg"
          width={layout.width * scale + HIT_PX}
          height={layout.height * scale + HIT_PX}
          viewBox={`${-pad} ${-pad} ${layout.width + 2 * pad} ${layout.height + 2 * pad}`}
          role="group"
          aria-label={`Debate map: ${responses.length} ${responses.length === 1 ? 'response' : 'responses'}`}
        >
          {layout.links.map((link) => (
            <path key={link.id} className="debate-map-link" d={linkPath(link)} />
          ))}
          {layout.nodes.map((node) =>
            node.response ? (
              <ResponseNode
                key={node.id}
                node={node}
                response={node.response}
                label={labels.get(node.id) ?? null}
                mark={marks.get(node.id)}
                scale={scale}
                onOpen={onOpen}
              />
            ) : (
              <TopicNode key={node.id} node={node} />
            ),
          )}
        </svg>
      </div>
    </>
  );
}

/** What the colours, icons, sizes and Δ mean, shown with the picture (the outline says it in words). */
function MapLegend() {
  return (
    <ul className="debate-map-legend" aria-label="Map legend">
      {RESPONSE_TYPES.map((type) => (
        <li key={type}>
          <span className={`debate-map-swatch debate-map-${type}`} aria-hidden="true">
            {STANCE[type].icon}
          </span>
          {STANCE[type].action}
        </li>
      ))}
      <li>Bigger circle: higher score</li>
      <li>Δ: changed someone’s view</li>
      <li>
        <span aria-hidden="true">★ </span>Ringed: strongest case on its side
      </li>
    </ul>
  );
}

function TopicNode({ node }: { node: MapNode }) {
  return (
    <g transform={`translate(${node.x},${node.y})`} aria-hidden="true">
      <rect className="debate-map-topic" x={-9} y={-9} width={18} height={18} rx={3} />
    </g>
  );
}

function ResponseNode({
  node,
  response,
  label,
  mark,
  scale,
  onOpen,
}: {
  node: MapNode;
  response: ResponseView;
  label: string | null;
  mark: StrongestMark | undefined;
  scale: number;
  onOpen: (id: string) => void;
}) {
  const r = nodeRadius(response.score);
  const summary = responseSummary(response, mark);
  function onKey(event: KeyboardEvent) {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    onOpen(response.id);
  }
  // Layout units for a size on screen: labels stay readable and hit areas thumb-sized at any scale.
  const px = (screenPx: number) => screenPx / scale;
  return (
    <g
      className={`debate-map-node debate-map-${response.type}${mark ? ' is-strongest' : ''}`}
      transform={`translate(${node.x},${node.y})`}
      role="button"
      tabIndex={0}
      aria-label={`Open response: ${summary}`}
      data-response-id={response.id}
      onClick={() => onOpen(response.id)}
      onKeyDown={onKey}
    >
      <title>{summary}</title>
      {mark && <circle className="debate-map-strongest-ring" r={r + 4} />}
      <circle r={r} />
      <text className="debate-map-icon" textAnchor="middle" dominantBaseline="central" fontSize={Math.max(9, r)}>
        {STANCE[response.type].icon}
      </text>
      {mark && (
        <text className="debate-map-star" x={-r - 4} y={-r + 2} textAnchor="end" fontSize={12}>
          ★
        </text>
      )}
      {response.delta_count > 0 && (
        <text className="debate-map-delta" x={r + 2} y={-r + 2} fontSize={11}>
          Δ{response.delta_count}
        </text>
      )}
      {label && (
        // Read without hovering: the start of the text, beside its circle.
        <text className="debate-map-label" x={r + px(6)} dominantBaseline="central" fontSize={px(LABEL_PX)} aria-hidden="true">
          {label}
        </text>
      )}
      {/* Invisible and on top: a thumb-sized target however small the circle is drawn. */}
      <circle className="debate-map-hit" r={Math.max(r, px(HIT_PX / 2))} />
    </g>
  );
}

interface OutlineProps {
  marks: ReadonlyMap<string, StrongestMark>;
  onOpen: (id: string) => void;
}

function Outline({ responses, marks, onOpen }: OutlineProps & { responses: ResponseView[] }) {
  const items = useMemo(() => outlineOf(responses), [responses]);
  return (
    <nav className="debate-outline" aria-label="Outline of the debate">
      <OutlineList items={items} marks={marks} onOpen={onOpen} />
    </nav>
  );
}

function OutlineList({ items, marks, onOpen }: OutlineProps & { items: OutlineItem[] }) {
  return (
    <ul>
      {items.map(({ response, children }) => (
        <li key={response.id}>
          <a
            href={`#response-${encodeURIComponent(response.id)}`}
            className={`debate-outline-link debate-outline-${response.type}`}
            onClick={(event) => {
              event.preventDefault();
              onOpen(response.id);
            }}
          >
            <span aria-hidden="true">
              {STANCE[response.type].icon} {marks.has(response.id) ? '★ ' : ''}
            </span>
            {responseSummary(response, marks.get(response.id))}
          </a>
          {children.length > 0 && <OutlineList items={children} marks={marks} onOpen={onOpen} />}
        </li>
      ))}
    </ul>
  );
}

/**
 * Ctrl (or ⌘) + wheel, and a trackpad pinch (which browsers send as a wheel with ctrlKey), zoom the
 * map; a plain wheel keeps scrolling the page, so the map never traps someone reading past it. A
 * native listener, because React's onWheel is passive and cannot stop the browser's own zoom.
 * `zoomBy` must be stable.
 */
function useWheelZoom(frameRef: React.RefObject<HTMLDivElement | null>, zoomBy: (factor: number) => void) {
  useEffect(() => {
    const frame = frameRef.current;
    if (!frame) return;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      zoomBy(event.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP);
    };
    frame.addEventListener('wheel', onWheel, { passive: false });
    return () => frame.removeEventListener('wheel', onWheel);
  }, [frameRef, zoomBy]);
}

/**
 * The room the map may fill, kept current (a phone turned, the window resized): the frame's inner
 * width, and the tallest the frame may be (not its height now, which follows the fitted map).
 * 0 × 0 until measured (and where there is no layout, as in jsdom), which fitScale reads as 1.
 */
function useFrameSize(frameRef: React.RefObject<HTMLDivElement | null>) {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const frame = frameRef.current;
    if (!frame) return;
    const measure = () => {
      const width = frame.clientWidth;
      // Less the frame's borders (1 px each).
      const height = width > 0 ? Math.min(FRAME_MAX_PX, window.innerHeight * FRAME_MAX_VIEWPORT) - 2 : 0;
      setSize((old) => (old.width === width && old.height === height ? old : { width, height }));
    };
    measure();
    // The window's height bounds the frame's (60vh) without changing the frame's width.
    window.addEventListener('resize', measure);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(frame);
    return () => {
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, [frameRef]);
  return size;
}

/** Dragging the background pans the frame (its scroll position); a click on a node still opens it. */
function useDragToPan(frameRef: React.RefObject<HTMLDivElement | null>) {
  const start = useRef<{ x: number; y: number; left: number; top: number } | null>(null);
  return {
    onPointerDown(event: PointerEvent) {
      const frame = frameRef.current;
      if (!frame || event.button !== 0 || (event.target as Element).closest('.debate-map-node')) return;
      start.current = { x: event.clientX, y: event.clientY, left: frame.scrollLeft, top: frame.scrollTop };
    },
    onPointerMove(event: PointerEvent) {
      const frame = frameRef.current;
      if (!frame || !start.current) return;
      frame.scrollLeft = start.current.left - (event.clientX - start.current.x);
      frame.scrollTop = start.current.top - (event.clientY - start.current.y);
    },
    onPointerUp() {
      start.current = null;
    },
    onPointerLeave() {
      start.current = null;
    },
  };
}
