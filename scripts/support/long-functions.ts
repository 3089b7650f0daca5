// Lists the functions longer than a limit (issue 22: "no function over 120 lines"), so a long one is
// found by a test rather than by a reader. Every function counts: declarations, methods,
// constructors, accessors, function expressions and arrows, each measured from its first line to
// its closing brace, the lines of the functions inside it included.
//
// One kind is passed over: the callbacks of `describe`, `it` and `test` (and their `.each`, `.skip`,
// `.only`… forms). A suite's body is a list of cases, not a function anyone reads as one; its
// helpers and any other function written in a test file are measured like the rest.
//
//   node --import tsx scripts/support/long-functions.ts [--over N] [folder or file…]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { REPO_ROOT } from './repo-root';

/** The limit of the issue: a function longer than this many lines is split. */
export const MAX_FUNCTION_LINES = 120;

export interface LongFunction {
  /** Path from the repository root, with `/`. */
  file: string;
  /** The function's name as a reader finds it (`Class.method`, `name`, or `<arrow>` where none). */
  name: string;
  /** First and last line, from 1. */
  startLine: number;
  endLine: number;
  lines: number;
}

const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.tsbuild', 'coverage', 'test-results', '.git']);
const TEST_CALLBACK_CALLEES = new Set(['describe', 'it', 'test', 'suite']);

/** Every `.ts`/`.tsx` file below `folder` (declaration files and build output left out), or the file. */
export function sourceFiles(folder: string): string[] {
  if (statSync(folder).isFile()) return [folder];
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (SKIPPED_FOLDERS.has(entry.name)) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(path);
  }
  return found.sort();
}

/** `describe(...)`, `it.each(...)(...)`, `test.skip(...)`: the callee's leftmost name. */
function calleeRoot(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return calleeRoot(expression.expression);
  if (ts.isCallExpression(expression)) return calleeRoot(expression.expression);
  return undefined;
}

function isTestCallback(node: ts.Node): boolean {
  const parent = node.parent;
  if (!parent || !ts.isCallExpression(parent) || !parent.arguments.includes(node as ts.Expression))
    return false;
  const root = calleeRoot(parent.expression);
  return root !== undefined && TEST_CALLBACK_CALLEES.has(root);
}

function functionName(node: ts.FunctionLikeDeclaration): string {
  const own =
    node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) ? node.name.text : undefined;
  const parent = node.parent;
  let name = own;
  if (ts.isConstructorDeclaration(node)) name = 'constructor';
  else if (!name && parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name))
    name = parent.name.text;
  else if (!name && parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name))
    name = parent.name.text;
  else if (!name && parent && ts.isCallExpression(parent))
    name = `<callback of ${calleeRoot(parent.expression) ?? '?'}>`;
  const owner = ts.isClassLike(parent) && parent.name ? `${parent.name.text}.` : '';
  return `${owner}${name ?? '<anonymous>'}`;
}

/** The functions of one file's text longer than `over` lines. */
export function longFunctionsInText(file: string, text: string, over = MAX_FUNCTION_LINES): LongFunction[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body && !isTestCallback(node)) {
      const startLine = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      const endLine = source.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
      const lines = endLine - startLine + 1;
      if (lines > over)
        found.push({
          file,
          name: functionName(node as ts.FunctionLikeDeclaration),
          startLine,
          endLine,
          lines,
        });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The functions longer than `over` lines in the given folders (paths from the repository root). */
export function longFunctions(folders: readonly string[], over = MAX_FUNCTION_LINES): LongFunction[] {
  return folders.flatMap((folder) =>
    sourceFiles(join(REPO_ROOT, folder)).flatMap((path) =>
      longFunctionsInText(relative(REPO_ROOT, path).split('\\').join('/'), readFileSync(path, 'utf8'), over),
    ),
  );
}

export const describeLongFunction = (f: LongFunction) =>
  `${f.file}:${f.startLine}-${f.endLine} ${f.name} (${f.lines} lines)`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const overAt = args.indexOf('--over');
  const over = overAt >= 0 ? Number(args.splice(overAt, 2)[1]) : MAX_FUNCTION_LINES;
  const folders = args.length > 0 ? args : ['protocol', 'cloud', 'edge-bridge', 'web', 'scripts'];
  const found = longFunctions(folders, over).sort((a, b) => b.lines - a.lines);
  for (const f of found) console.log(describeLongFunction(f));
  console.log(`${found.length} function(s) over ${over} lines in ${folders.join(', ')}`);
}
