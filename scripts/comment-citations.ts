// What `npm run check:comments` looks for in a file's comments: a citation of an issue number (the
// word and a number, as the tracker names them: the reader needs the why, not the tracker), and a
// citation of a file the repository does not have (a reader cannot open it). Pure: the command
// (check-comments.ts) hands it each file's text and the repository's paths.
import { dirname, extname, join, normalize } from 'node:path';
import ts from 'typescript';

export interface CommentHit {
  line: number;
  kind: 'issue' | 'missing-file';
  /** The words that matched: the issue citation or the path. */
  text: string;
}

/** "issue" or "issues", then a number ("#" optional), in any case. */
const ISSUE = /\bissues?\s+#?\d+/gi;
/** A path or file name with an extension a repository file has; URLs are taken out first. */
const PATH =
  /(?<![\w/.@-])(?:\.{1,2}\/|\/)?(?:[\w@.-]+\/)*[\w.-]*[\w-]\.(?:tsx?|mts|mjs|cjs|js|json|md|sql|css|html|sh|ya?ml|toml|txt|webmanifest)\b(?![/\w-])/g;
const URL_TEXT = /\b[a-z][a-z+.-]*:\/\/\S+/gi;
/** Where the build, the installed packages or a run write: cited on purpose, not in a clone. */
const OUTSIDE_THE_CLONE = /^(?:node_modules|dist|dev-dist|build|coverage|data|reports|\.tmp)\//;
/** Files the build writes or the server serves under their own name. */
const BUILT_OR_SERVED = new Set(['sw.js', 'robots.txt', 'sitemap.xml', 'index.html', 'manifest.webmanifest']);
/** A pattern of names, not a name: migrations/NNN-name.sql, crux-my-data-YYYY-MM-DD.json. */
const PLACEHOLDER = /NNN|YYYY/;

/** The comments of a file, each with the line it starts on. */
export function commentsOf(path: string, text: string): { line: number; text: string }[] {
  const extension = extname(path);
  if (['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.jsx'].includes(extension)) return scriptComments(path, text);
  const pattern =
    extension === '.sql'
      ? /--[^\n]*/g
      : extension === '.css'
        ? /\/\*[\s\S]*?\*\//g
        : extension === '.html'
          ? /<!--[\s\S]*?-->/g
          : ['.sh', '.yml', '.yaml', '.toml', ''].includes(extension)
            ? /(?:^|\s)#[^\n]*/g
            : null;
  if (!pattern) return [];
  return [...text.matchAll(pattern)].map((match) => ({ line: lineAt(text, match.index), text: match[0] }));
}

function scriptComments(path: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const seen = new Map<number, { line: number; text: string }>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (!seen.has(range.pos)) seen.set(range.pos, { line: lineAt(text, range.pos), text: text.slice(range.pos, range.end) });
    }
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(text, node.getEnd()));
    // JSX text and template pieces hold no comments; every other token's trivia belongs to a node.
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  return [...seen.values()].sort((a, b) => a.line - b.line);
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/**
 * Whether `cited` (as a comment of `from` writes it) names a file of the repository: itself, from
 * the commenting file's folder, as the end of a path (`store/sql.ts`), or as a file name.
 */
export function citesExisting(cited: string, from: string, paths: ReadonlySet<string>, names: ReadonlySet<string>): boolean {
  if (cited.startsWith('./') || cited.startsWith('../')) return paths.has(normalize(join(dirname(from), cited)));
  // A path from the root is a URL path (/robots.txt, /api/openapi.json) unless it is this machine's.
  if (cited.startsWith('/')) return !/^\/(?:work|home|tmp|usr|etc|var)\//.test(cited);
  if (OUTSIDE_THE_CLONE.test(cited) || PLACEHOLDER.test(cited)) return true;
  if (!cited.includes('/')) {
    if (names.has(cited) || BUILT_OR_SERVED.has(cited)) return true;
    // Node.js is not a file; c.json and v1.ts (after profile.schema.v0.ts) are a call and a shorthand.
    return /^[A-Z]\w*\.js$/.test(cited) || cited.slice(0, cited.lastIndexOf('.')).length < 3;
  }
  if (paths.has(cited) || paths.has(normalize(join(dirname(from), cited)))) return true;
  for (const path of paths) if (path.endsWith(`/${cited}`)) return true;
  return false;
}

/** The issue citations and the citations of missing files in one file's comments. */
export function commentHits(path: string, text: string, paths: ReadonlySet<string>, names: ReadonlySet<string>): CommentHit[] {
  const hits: CommentHit[] = [];
  for (const comment of commentsOf(path, text)) {
    const lines = comment.text.split('\n');
    lines.forEach((line, offset) => {
      for (const match of line.matchAll(ISSUE)) hits.push({ line: comment.line + offset, kind: 'issue', text: match[0] });
      for (const match of line.replace(URL_TEXT, ' ').matchAll(PATH)) {
        if (!citesExisting(match[0], path, paths, names)) hits.push({ line: comment.line + offset, kind: 'missing-file', text: match[0] });
      }
    });
  }
  return hits;
}
