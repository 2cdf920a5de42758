// The response tree of a topic laid out for the debate map: d3-hierarchy's tidy tree,
// depth left to right. Pure: responses in, positioned nodes and links out (tested without a DOM).
import { stratify, tree, type HierarchyPointNode } from 'd3-hierarchy';
import type { ResponseView } from '../../hooks/useReplies';
import { truncate } from '../../../../shared/rules/truncate';

/** The topic itself: the root every root response hangs from. */
export const TOPIC_NODE = '__topic__';

/**
 * Vertical distance between siblings and horizontal distance between levels, in layout units (px at
 * scale 1). A level leaves room after each circle for its label.
 */
export const ROW_GAP = 44;
export const LEVEL_GAP = 220;
/** The topic's square has no label: its roots sit closer to it than the levels after them. */
const TOPIC_GAP = 60;
/** Room around the drawing for the largest circle and its Δ mark. */
export const MAP_MARGIN = 28;
/** A label's most characters (at a scale that leaves it the room). */
export const LABEL_MAX_CHARS = 40;
/** A label's size on screen, in CSS px, whatever the map's scale. */
export const LABEL_PX = 12;
/** Below this many screen px between rows, only the best-scored responses keep their labels. */
const LABEL_ROW_PX = LABEL_PX + 3;
/** How many responses keep a label when rows are too close for all of them. */
export const LABELS_TOP_N = 6;
/** The least size of a node's hit area on screen (CSS px): a thumb's. */
export const HIT_PX = 44;

export interface MapNode {
  response: ResponseView | null;
  id: string;
  /** Position in the drawing (px at zoom 1, margin included). */
  x: number;
  y: number;
  depth: number;
}

export interface MapLink {
  id: string;
  from: { x: number; y: number };
  to: { x: number; y: number };
}

export interface DebateLayout {
  nodes: MapNode[];
  links: MapLink[];
  width: number;
  height: number;
}

type Item = { id: string; parentId: string | null; response: ResponseView | null };

/** Circle radius by score: bigger for better-liked responses, within bounds so no node hides another. */
export function nodeRadius(score: number): number {
  return 7 + Math.min(8, Math.sqrt(Math.max(0, score)) * 2.5);
}

/** A level's distance from the topic's square. */
const depthX = (depth: number) => (depth === 0 ? 0 : TOPIC_GAP + (depth - 1) * LEVEL_GAP);

export function layoutDebate(responses: readonly ResponseView[]): DebateLayout {
  const known = new Set(responses.map((r) => r.id));
  const items: Item[] = [
    { id: TOPIC_NODE, parentId: null, response: null },
    // A reply whose parent is not on this device (yet) hangs from the topic rather than vanishing.
    ...responses.map((r) => ({
      id: r.id,
      parentId: r.parent_response_id && known.has(r.parent_response_id) ? r.parent_response_id : TOPIC_NODE,
      response: r,
    })),
  ];
  const root = stratify<Item>()
    .id((d) => d.id)
    .parentId((d) => d.parentId)(items);
  const laidOut = tree<Item>().nodeSize([ROW_GAP, LEVEL_GAP])(root);

  let top = Infinity;
  let bottom = -Infinity;
  let right = 0;
  laidOut.each((n) => {
    top = Math.min(top, n.x);
    bottom = Math.max(bottom, n.x);
    right = Math.max(right, depthX(n.depth));
  });
  // d3 puts breadth on x and depth on y; the map reads left to right, so they swap here.
  const place = (n: HierarchyPointNode<Item>) => ({ x: depthX(n.depth) + MAP_MARGIN, y: n.x - top + MAP_MARGIN });

  const nodes: MapNode[] = laidOut.descendants().map((n) => ({ id: n.data.id, response: n.data.response, depth: n.depth, ...place(n) }));
  const links: MapLink[] = laidOut.links().map((l) => ({ id: l.target.data.id, from: place(l.source), to: place(l.target) }));
  // The deepest level's labels need their room too.
  return { nodes, links, width: right + 2 * MAP_MARGIN + LEVEL_GAP, height: bottom - top + 2 * MAP_MARGIN };
}

/**
 * The scale that fits the whole layout in a frame (its width and height), never above `max`
 * (a small debate does not blow up to giant circles); 1 when the frame is not measured yet.
 */
export function fitScale(layout: Pick<DebateLayout, 'width' | 'height'>, frame: { width: number; height: number }, max = 1.5): number {
  if (frame.width <= 0 || frame.height <= 0) return 1;
  return Math.min(max, frame.width / layout.width, frame.height / layout.height);
}

/**
 * Each response's label at a scale: its first characters, as many as fit before the next level on
 * screen (at most LABEL_MAX_CHARS), or none. When rows sit closer than a label's height, only the
 * LABELS_TOP_N best-scored responses keep one, so labels never pile on each other.
 */
export function labelsAt(responses: readonly ResponseView[], scale: number): Map<string, string> {
  const labels = new Map<string, string>();
  // An average character is about 0.5 em; the circle and a gap take the level's first ~30 units.
  const chars = Math.min(LABEL_MAX_CHARS, Math.floor(((LEVEL_GAP - 30) * scale) / (LABEL_PX * 0.5)));
  if (chars < 6) return labels;
  const labelled = ROW_GAP * scale >= LABEL_ROW_PX ? responses : [...responses].sort((a, b) => b.score - a.score).slice(0, LABELS_TOP_N);
  for (const r of labelled) labels.set(r.id, truncate(r.content.replace(/\s+/g, ' ').trim(), chars - 1));
  return labels;
}

/** A smooth S-shaped link from a parent to a child. */
export function linkPath(link: MapLink): string {
  const midX = (link.from.x + link.to.x) / 2;
  return `M${link.from.x},${link.from.y}C${midX},${link.from.y} ${midX},${link.to.y} ${link.to.x},${link.to.y}`;
}

export interface OutlineItem {
  response: ResponseView;
  children: OutlineItem[];
}

/** The same tree as nested lists (the map's accessible alternative), in the order the layout reads it. */
export function outlineOf(responses: readonly ResponseView[]): OutlineItem[] {
  const byParent = new Map<string, ResponseView[]>();
  const known = new Set(responses.map((r) => r.id));
  for (const r of responses) {
    const parent = r.parent_response_id && known.has(r.parent_response_id) ? r.parent_response_id : TOPIC_NODE;
    const siblings = byParent.get(parent);
    if (siblings) siblings.push(r);
    else byParent.set(parent, [r]);
  }
  const build = (parent: string): OutlineItem[] =>
    (byParent.get(parent) ?? []).map((response) => ({ response, children: build(response.id) }));
  return build(TOPIC_NODE);
}
