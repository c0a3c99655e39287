/**
 * The shape limits the codebase keeps (see docs/resources.md, "Code shape"): no source file over
 * 600 lines (migrations aside), no function over 300 lines, and a budget of `as` type assertions
 * per package, with no `as unknown as` at all. Read with the TypeScript compiler, so a long
 * string or a comment is not mistaken for code. Run `npx tsx scripts/code-shape.ts` for the figures.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export const root = new URL('..', import.meta.url).pathname;
export const limits = { fileLines: 600, functionLines: 300 };
/** `as` assertions (not `as const`) allowed outside tests, per package. */
export const assertionBudget = { server: 10, web: 30, contract: 10 } as const;
const sourceRoots = {
  server: 'apps/server/src',
  web: 'apps/web/src',
  contract: 'packages/contract/src',
} as const;

const isTest = (file: string) => /\.test\.tsx?$|[/\\]test[/\\]|test-setup\.ts$/.test(file);

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'migrations') yield* sourceFiles(path);
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

export interface Shape {
  longFiles: { file: string; lines: number }[];
  longFunctions: { file: string; name: string; lines: number }[];
  assertions: Record<keyof typeof sourceRoots, { file: string; line: number; text: string }[]>;
  unknownCasts: { file: string; line: number }[];
}

export function measure(): Shape {
  const shape: Shape = {
    longFiles: [],
    longFunctions: [],
    assertions: { server: [], web: [], contract: [] },
    unknownCasts: [],
  };
  for (const [pkg, dir] of Object.entries(sourceRoots) as [keyof typeof sourceRoots, string][]) {
    for (const path of sourceFiles(join(root, dir))) {
      const file = relative(root, path);
      const text = readFileSync(path, 'utf8');
      const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      if (lines > limits.fileLines) shape.longFiles.push({ file, lines });
      const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
      const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
      const visit = (node: ts.Node) => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body) {
          const span = lineOf(node.getEnd()) - lineOf(node.getStart()) + 1;
          if (span > limits.functionLines)
            shape.longFunctions.push({ file, name: functionName(node), lines: span });
        }
        if (ts.isAsExpression(node) && !isConstAssertion(node)) {
          if (
            ts.isAsExpression(node.expression) &&
            node.expression.type.kind === ts.SyntaxKind.UnknownKeyword
          ) {
            shape.unknownCasts.push({ file, line: lineOf(node.getStart()) });
          }
          if (!isTest(file)) {
            shape.assertions[pkg].push({
              file,
              line: lineOf(node.getStart()),
              text: node.type.getText().slice(0, 60),
            });
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  }
  return shape;
}

const isConstAssertion = (node: ts.AsExpression) =>
  ts.isTypeReferenceNode(node.type) && node.type.typeName.getText() === 'const';

function functionName(node: ts.Node): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText();
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText();
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (parent && ts.isCallExpression(parent)) return `callback of ${parent.expression.getText().slice(0, 40)}`;
  return '(anonymous)';
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*[/\\]/, ''))) {
  const shape = measure();
  console.log('Files over', limits.fileLines, 'lines:');
  for (const f of shape.longFiles.sort((a, b) => b.lines - a.lines)) console.log(`  ${f.lines}  ${f.file}`);
  console.log('Functions over', limits.functionLines, 'lines:');
  for (const f of shape.longFunctions.sort((a, b) => b.lines - a.lines))
    console.log(`  ${f.lines}  ${f.file} ${f.name}`);
  for (const [pkg, list] of Object.entries(shape.assertions)) {
    console.log(
      `as assertions in ${pkg}: ${list.length} (budget ${assertionBudget[pkg as keyof typeof assertionBudget]})`,
    );
    if (process.argv.includes('--verbose'))
      for (const a of list) console.log(`  ${a.file}:${a.line}  as ${a.text}`);
  }
  console.log('as unknown as:', shape.unknownCasts.map((c) => `${c.file}:${c.line}`).join(', ') || 'none');
}
