// Lists exports that no other file imports, by the compiler's own module resolution over
// every import, export-from, dynamic import and import type of the project (both tsconfigs).
// Usage: node scripts/unused-exports.mjs. Each line: file, name, and how often the name occurs
// in its own file (1: only where it is declared, so nothing uses it: dead code; more: used
// inside its file only, so the `export` is what is unused).
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const files = new Set();
const options = {};
for (const config of ['tsconfig.node.json', 'tsconfig.web.json']) {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(root, config),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    },
  );
  for (const f of parsed?.fileNames ?? []) files.add(f);
  Object.assign(options, parsed?.options);
}
const program = ts.createProgram([...files], options);
const checker = program.getTypeChecker();

/** For each module: the names other files take from it (`*`: all of them). */
const taken = new Map();
const take = (file, name) => {
  if (!taken.has(file)) taken.set(file, new Set());
  taken.get(file).add(name);
};
const target = (from, specifier) =>
  ts.resolveModuleName(specifier, from, options, ts.sys).resolvedModule?.resolvedFileName;

for (const sf of program.getSourceFiles()) {
  if (sf.fileName.includes('node_modules')) continue;
  const visit = (node) => {
    const spec = node.moduleSpecifier;
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      spec &&
      ts.isStringLiteral(spec)
    ) {
      const to = target(sf.fileName, spec.text);
      const clause = ts.isImportDeclaration(node) ? node.importClause : node.exportClause;
      const named = ts.isImportDeclaration(node) ? clause?.namedBindings : clause;
      if (to && ts.isImportDeclaration(node) && clause?.name) take(to, 'default');
      if (to && named && (ts.isNamedImports(named) || ts.isNamedExports(named)))
        for (const e of named.elements) take(to, (e.propertyName ?? e.name).text);
      else if (to && (!clause || named)) take(to, '*');
    }
    const isDynamic =
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'));
    if (isDynamic && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      const to = target(sf.fileName, node.arguments[0].text);
      if (to) take(to, '*');
    }
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const to = target(sf.fileName, node.argument.literal.text);
      if (to)
        take(to, node.qualifier && ts.isIdentifier(node.qualifier) ? node.qualifier.text : '*');
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

const source = /^(shared|main|clients|renderer|preload)\//;
for (const sf of program.getSourceFiles()) {
  const rel = relative(root, sf.fileName);
  const names = taken.get(sf.fileName) ?? new Set();
  const module = checker.getSymbolAtLocation(sf);
  if (!source.test(rel) || names.has('*') || !module) continue;
  for (const e of checker.getExportsOfModule(module)) {
    if (names.has(e.name)) continue;
    const uses = sf.text.match(new RegExp(`\\b${e.name.replace(/\$/g, '\\$')}\\b`, 'g'))?.length;
    console.log(`${rel}\t${e.name}\t${uses ?? 0}`);
  }
}
