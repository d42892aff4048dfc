/**
 * Moves files as scripts/house/moves.json says and rewrites every reference to them (issue 32).
 *
 *   npx tsx scripts/house/move.ts             # check, move, rewrite, format the changed files
 *   npx tsx scripts/house/move.ts --dry-run   # say what would change, change nothing
 *   npx tsx scripts/house/move.ts --check     # exit 1 if a move is pending or a file is unplaced
 *
 * Re-runnable: a move already made (old path gone, new path there) is skipped, and references
 * to an old path anywhere (imports, vi.mock, import(), path mentions in strings, comments,
 * configs and docs) are rewritten on every run, so work merged after a move is caught up too.
 * Imports are found with the TypeScript parser, not by pattern; an alias import (`~/...`)
 * stays an alias while its target stays in app/, else it becomes relative.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

type Mapping = { flat: string[]; keep: string[]; moves: Record<string, string> };

const args = new Set(process.argv.slice(2));
const dryRun = args.has("--dry-run") || args.has("--check");
const checkOnly = args.has("--check");
const includeAdrs = args.has("--include-adrs");
const mappingFile = path.join("scripts", "house", "moves.json");
const posix = path.posix;

function git(...argv: string[]): string {
  return execFileSync("git", argv, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

/** Every file of the work tree git would commit: tracked, plus new files not ignored. */
function repoFiles(): string[] {
  const listed = git("ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0").filter(Boolean);
  return [...new Set(listed)].filter((file) => existsSync(file));
}

const TEST_OF = /^(.*?)(\.(?:ts|tsx))$/;

/** The co-located test of a source file: a.server.ts → a.server.test.ts. */
function testOf(file: string): string | undefined {
  const match = TEST_OF.exec(file);
  if (!match || /\.test\.(ts|tsx)$/.test(file)) return undefined;
  return `${match[1]}.test${match[2]}`;
}

/** Folder moves become file moves, and each moved file's co-located test follows it. */
function expand(mapping: Mapping, files: string[]): Map<string, string> {
  const moves = new Map<string, string>();
  const add = (from: string, to: string) => {
    const before = moves.get(from);
    if (before !== undefined && before !== to) throw new Error(`${from} is mapped twice: ${before} and ${to}`);
    moves.set(from, to);
  };
  for (const [from, to] of Object.entries(mapping.moves)) {
    if (from.endsWith("/") !== to.endsWith("/")) throw new Error(`${from} → ${to}: a folder moves to a folder`);
    if (!from.endsWith("/")) {
      add(from, to);
      continue;
    }
    for (const file of files.filter((f) => f.startsWith(from))) add(file, to + file.slice(from.length));
    // After a first run the old folder is empty: keep its place in the map for stale references.
    moves.set(from.slice(0, -1), to.slice(0, -1));
  }
  for (const [from, to] of [...moves]) {
    const [test, movedTest] = [testOf(from), testOf(to)];
    if (test && movedTest && !moves.has(test) && (files.includes(test) || files.includes(movedTest))) add(test, movedTest);
  }
  const targets = new Map<string, string>();
  for (const [from, to] of moves) {
    if (targets.has(to)) throw new Error(`${targets.get(to)} and ${from} both move to ${to}`);
    targets.set(to, from);
  }
  return moves;
}

/** Files directly in a flat folder that the mapping neither moves nor keeps. */
function unplaced(mapping: Mapping, moves: Map<string, string>, files: string[]): string[] {
  return files.filter((file) => {
    const folder = posix.dirname(file);
    return mapping.flat.includes(folder) && !moves.has(file) && !mapping.keep.includes(file);
  });
}

const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const TEXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|json|md|yml|yaml|toml|sql|sh|txt)$|(^|\/)(Dockerfile|run|\.dockerignore|\.prettierignore|\.gitignore)$/;

/** The files whose references are rewritten. */
function inScope(file: string): boolean {
  if (file === mappingFile || file === path.join("scripts", "house", "move.ts")) return false;
  if (file.startsWith("app/generated/") || file === "package-lock.json") return false;
  // Migrations are checksummed once applied, and enter_raffles.sql must not change (issue 32).
  if (file.startsWith("prisma/")) return false;
  if (file.startsWith("docs/decisions/") && !includeAdrs) return false;
  return TEXT.test(file);
}

const MOCKERS = new Set(["mock", "doMock", "unmock", "doUnmock", "importActual", "importMock"]);

/** `__dirname`, `import.meta.dirname` or `import.meta.url`: the module's own folder. */
function isOwnFolder(node: ts.Node | undefined, names: string[]): boolean {
  if (!node) return false;
  if (ts.isIdentifier(node)) return names.includes(node.text);
  return ts.isPropertyAccessExpression(node) && ts.isMetaProperty(node.expression) && names.includes(`import.meta.${node.name.text}`);
}

type Found = { node: ts.StringLiteralLike; folderRelative: boolean };

/**
 * The string literals of a module that name other modules, with their places in the text;
 * and paths relative to the module's own folder (`path.resolve(__dirname, "../..")`,
 * `new URL("./x", import.meta.url)`), which change when the module moves.
 */
function specifiers(file: string, text: string): Found[] {
  const kind = /\.tsx$/.test(file) ? ts.ScriptKind.TSX : /\.(m|c)?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: Found[] = [];
  const literal = (node: ts.Node | undefined, folderRelative = false) => {
    if (node && ts.isStringLiteralLike(node)) found.push({ node, folderRelative });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const named =
        callee.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(callee) && callee.text === "require") ||
        (ts.isPropertyAccessExpression(callee) && MOCKERS.has(callee.name.text));
      if (named) literal(node.arguments[0]);
      const joins = ts.isPropertyAccessExpression(callee) && ["resolve", "join"].includes(callee.name.text);
      if (joins && isOwnFolder(node.arguments[0], ["__dirname", "import.meta.dirname"])) literal(node.arguments[1], true);
    } else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "URL") {
      if (isOwnFolder(node.arguments?.[1], ["import.meta.url"])) literal(node.arguments?.[0], true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The same place named from the module's new folder. */
function refolder(relative: string, oldFile: string, newFile: string): string | undefined {
  if (oldFile === newFile || !relative.startsWith(".")) return undefined;
  const target = posix.normalize(posix.join(posix.dirname(oldFile), relative));
  let next = posix.relative(posix.dirname(newFile), target) || ".";
  if (relative.endsWith("/") && !next.endsWith("/")) next += "/";
  if (relative.startsWith("./") && !next.startsWith(".")) next = `./${next}`;
  return next === relative ? undefined : next;
}

const EXTENSIONS = ["", ".ts", ".tsx", ".mjs", ".js", "/index.ts", "/index.tsx"];

/** The specifier that names, from the file's new place, what `spec` named from its old one. */
function respecify(spec: string, oldFile: string, newFile: string, moves: Map<string, string>): string | undefined {
  const query = spec.indexOf("?");
  const [bare, suffix] = query < 0 ? [spec, ""] : [spec.slice(0, query), spec.slice(query)];
  const alias = bare.startsWith("~/");
  if (!alias && !bare.startsWith(".")) return undefined;
  const target = alias ? `app/${bare.slice(2)}` : posix.normalize(posix.join(posix.dirname(oldFile), bare));
  let moved: string | undefined;
  let added = "";
  for (const extension of EXTENSIONS) {
    moved = moves.get(target + extension);
    if (moved !== undefined) {
      added = extension;
      break;
    }
  }
  if (moved === undefined && (alias || oldFile === newFile)) return undefined;
  let to = moved ?? target;
  if (added && to.endsWith(added)) to = to.slice(0, -added.length);
  else if (added) to = to.replace(/\.(ts|tsx|mjs|js)$/, "");
  // Across app's folders the code base writes `~/`, within one folder a relative path.
  const layer = (file: string) => (file.startsWith("app/") ? file.split("/").slice(0, 2).join("/") : undefined);
  const crosses = layer(to) !== undefined && layer(newFile) !== undefined && layer(to) !== layer(newFile);
  let next: string;
  if ((alias || crosses) && to.startsWith("app/")) next = `~/${to.slice(4)}`;
  else {
    next = posix.relative(posix.dirname(newFile), to);
    if (!next.startsWith(".")) next = `./${next}`;
  }
  next += suffix;
  return next === spec ? undefined : next;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Mentions of a moved path in any text: `app/x/y.server.ts`, `app/x/y.server`, `~/x/y.server`
 * (for targets still in app/), and moved folders. One pass, so a → b then b → c cannot chain.
 */
function mentionRewriter(moves: Map<string, string>): (text: string) => string {
  const table = new Map<string, string>();
  for (const [from, to] of moves) {
    table.set(from, to);
    const fromBare = from.replace(/\.(ts|tsx|mjs|js)$/, "");
    const toBare = to.replace(/\.(ts|tsx|mjs|js)$/, "");
    if (fromBare !== from) table.set(fromBare, toBare);
    if (fromBare.startsWith("app/") && toBare.startsWith("app/")) table.set(`~/${fromBare.slice(4)}`, `~/${toBare.slice(4)}`);
  }
  if (table.size === 0) return (text) => text;
  const keys = [...table.keys()].sort((a, b) => b.length - a.length).map(escape);
  // Not inside a longer path (…/app/x), and not the front of a longer name (y.server.test.ts).
  const pattern = new RegExp(`(?<![\\w./~-])(${keys.join("|")})(?![\\w-]|\\.\\w|/\\w)`, "g");
  const folders = new RegExp(`(?<![\\w./~-])(${keys.join("|")})(?=/\\w)`, "g");
  return (text) =>
    text
      .replace(pattern, (match) => table.get(match) ?? match)
      // A folder that moved, followed by a file in it that the map does not name (a new file).
      .replace(folders, (match) => table.get(match) ?? match);
}

function rewrite(file: string, text: string, newFile: string, moves: Map<string, string>, mentions: (t: string) => string): string {
  let result = text;
  if (CODE.test(file)) {
    const edits = specifiers(file, text)
      .map(({ node, folderRelative }) => ({
        node,
        next: folderRelative ? refolder(node.text, file, newFile) : respecify(node.text, file, newFile, moves),
      }))
      .filter((edit): edit is { node: ts.StringLiteralLike; next: string } => edit.next !== undefined)
      .sort((a, b) => b.node.getStart() - a.node.getStart());
    for (const { node, next } of edits) result = result.slice(0, node.getStart() + 1) + next + result.slice(node.end - 1);
  }
  return mentions(result);
}

function removeEmptyFolders(folder: string): void {
  if (!existsSync(folder)) return;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) removeEmptyFolders(path.join(folder, entry.name));
  }
  if (readdirSync(folder).length === 0) rmdirSync(folder);
}

function main(): void {
  const mapping = JSON.parse(readFileSync(mappingFile, "utf8")) as Mapping;
  const files = repoFiles();
  const moves = expand(mapping, files);
  const present = new Set(files);

  const lost = unplaced(mapping, moves, files);
  if (lost.length > 0) {
    console.error(`These files are in a flat folder (${mapping.flat.join(", ")}) and ${mappingFile} does not place them:`);
    for (const file of lost) console.error(`  ${file}`);
    console.error('Add each to "moves" (or to "keep"), then run again. Nothing was changed.');
    process.exit(1);
  }

  const pending = new Map<string, string>();
  const gone: string[] = [];
  for (const [from, to] of moves) {
    if (!present.has(from)) {
      if (!present.has(to) && posix.extname(from) !== "") gone.push(from);
      continue;
    }
    if (present.has(to)) throw new Error(`${from} and ${to} both exist: move or delete one by hand`);
    pending.set(from, to);
  }
  for (const from of gone) console.warn(`note: ${from} is in the map but neither it nor ${moves.get(from)} exists`);

  const mentions = mentionRewriter(moves);
  const changed = new Map<string, string>();
  for (const file of files.filter(inScope)) {
    const text = readFileSync(file, "utf8");
    const next = rewrite(file, text, pending.get(file) ?? file, moves, mentions);
    if (next !== text) changed.set(file, next);
  }

  console.log(`${pending.size} file(s) to move, ${changed.size} file(s) with references to rewrite.`);
  if (dryRun) {
    for (const [from, to] of pending) console.log(`  move ${from} → ${to}`);
    for (const file of changed.keys()) console.log(`  rewrite ${file}`);
    if (checkOnly && (pending.size > 0 || changed.size > 0)) process.exit(1);
    return;
  }

  for (const [file, text] of changed) writeFileSync(file, text);
  const tracked = new Set(git("ls-files", "-z").split("\0").filter(Boolean));
  for (const [from, to] of pending) {
    mkdirSync(path.dirname(to), { recursive: true });
    if (tracked.has(from)) git("mv", from, to);
    else renameSync(from, to);
  }
  for (const root of new Set([...pending.keys()].map((from) => from.split("/").slice(0, 2).join("/")))) removeEmptyFolders(root);

  const touched = [...new Set([...changed.keys()].map((file) => pending.get(file) ?? file).concat([...pending.values()]))];
  const formattable = touched.filter((file) => existsSync(file) && /\.(ts|tsx|js|mjs|json|md)$/.test(file));
  if (formattable.length > 0) execFileSync("npx", ["prettier", "--log-level", "warn", "--write", ...formattable], { stdio: "inherit" });
  console.log("Done. Now: npm run typecheck && npm run lint, then commit.");
}

main();
