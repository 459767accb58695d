// Finds every conditional spread (`...(x ? { x } : {})`, `...(x !== undefined ? { k: x } : {})`,
// `...(x && { x })`, and the same in JSX attributes) in main/ shared/ clients/ preload/
// renderer/ and says, for each, whether it earns its place under exactOptionalPropertyTypes:
//
//   types      load-bearing for types: the plain property (`k: cond ? v : undefined`, which is
//              `k: v` once the test is about undefined) fails typecheck, because the property
//              it fills is `k?: T` without `| undefined`.
//   behaviour  load-bearing for behaviour: a truthiness test over a value whose type admits
//              '' / 0 / false / null / NaN, so the plain property would carry a present key (or
//              a falsy value) where the key is absent today.
//   removable  the test is `!== undefined` (or `!= null` over a type without null, or a
//              truthiness test over a type whose only falsy value is undefined), the value is
//              the tested expression, and the target accepts `| undefined`: write `k: v`.
//   guarded    the value is not the tested expression (it is computed from it, or the test is
//              about something else): the plain property would need a ternary of its own.
//
// Usage: node scripts/conditional-spreads.mjs [--cheap] [--json] [--list] [--class NAME]
//   default  the type test for real: a LanguageService over both tsconfigs, each site
//            rewritten to its plain property (a whole file at once, then one site at a time
//            where the file no longer typechecks), asking for that file's semantic diagnostics.
//   --cheap  the type test from the checker alone, without rewriting: the contextual type of
//            the object the spread sits in must have the property, and that property's type
//            must hold undefined itself (not only by being optional). It never calls a site
//            removable that the full test would not (where it cannot tell it says "types"), so
//            test/unit/lint/conditional-spreads.test.ts can run it in seconds.
//   --list   one line per site: class, file:line, the spread.  --json: the sites as JSON.
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const FOLDERS = ['main', 'shared', 'clients', 'preload', 'renderer'];
const CONFIGS = ['tsconfig.node.json', 'tsconfig.web.json'];

const inScope = (file) => {
  const rel = relative(root, file);
  return FOLDERS.some((f) => rel.startsWith(`${f}/`)) && !rel.endsWith('.d.ts');
};

function readConfig(config) {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(root, config),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!parsed) throw new Error(`cannot read ${config}`);
  return parsed;
}

/** A LanguageService over one tsconfig whose files can be overridden in memory. */
function languageService(parsed, files = {}) {
  const overrides = new Map(Object.entries(files));
  const versions = new Map();
  const host = {
    getCompilationSettings: () => parsed.options,
    getScriptFileNames: () => parsed.fileNames,
    getScriptVersion: (f) => String(versions.get(f) ?? 0),
    getScriptSnapshot: (f) => {
      const text = overrides.get(f) ?? ts.sys.readFile(f);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (f) => overrides.has(f) || ts.sys.fileExists(f),
    readFile: (f) => overrides.get(f) ?? ts.sys.readFile(f),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  const roots = new Set(parsed.fileNames.map((f) => ts.sys.resolvePath(f)));
  return {
    service,
    has: (file) => roots.has(file),
    /** Semantic diagnostics of `file` with its text replaced by `text` (undefined: as given). */
    diagnostics(file, text) {
      if (text !== undefined) overrides.set(file, text);
      else if (file in files) overrides.set(file, files[file]);
      else overrides.delete(file);
      versions.set(file, (versions.get(file) ?? 0) + 1);
      return service.getSemanticDiagnostics(file);
    },
  };
}

const strip = (e) => ts.skipOuterExpressions(e, ts.OuterExpressionKinds.Parentheses);
const isEmptyObject = (e) => ts.isObjectLiteralExpression(e) && e.properties.length === 0;
const isUndefined = (e) => ts.isIdentifier(e) && e.text === 'undefined';
const isNull = (e) => e.kind === ts.SyntaxKind.NullKeyword;
/** `a?.b` and `a.b` name the same value once `a` is known to be there. */
const sameValue = (a, b) =>
  a.getText().replaceAll('?.', '.').replace(/\s+/g, '') ===
  b.getText().replaceAll('?.', '.').replace(/\s+/g, '');

/**
 * What a condition tests, read as "the object is spread when …": `defined` (E !== undefined,
 * E != null, typeof E !== 'undefined'), `truthy` (E, !!E, Boolean(E)), or `other`.
 */
function testOf(condition, negated) {
  const c = strip(condition);
  if (ts.isPrefixUnaryExpression(c) && c.operator === ts.SyntaxKind.ExclamationToken)
    return testOf(c.operand, !negated);
  if (ts.isBinaryExpression(c)) {
    const op = c.operatorToken.kind;
    const K = ts.SyntaxKind;
    const positive = [K.ExclamationEqualsEqualsToken, K.ExclamationEqualsToken].includes(op);
    const negative = [K.EqualsEqualsEqualsToken, K.EqualsEqualsToken].includes(op);
    if (positive || negative) {
      const loose = op === K.ExclamationEqualsToken || op === K.EqualsEqualsToken;
      const [l, r] = [strip(c.left), strip(c.right)];
      const pick = (subject, other) => {
        if (isUndefined(other) || (loose && isNull(other)))
          return { kind: 'defined', subject, nullToo: loose };
        if (isNull(other)) return { kind: 'notNull', subject };
        if (
          ts.isTypeOfExpression(subject) &&
          ts.isStringLiteral(other) &&
          other.text === 'undefined'
        )
          return { kind: 'defined', subject: strip(subject.expression), nullToo: false };
        return undefined;
      };
      const t = pick(l, r) ?? pick(r, l);
      if (t && positive !== negated) return t;
      return { kind: 'other' };
    }
    return { kind: 'other' };
  }
  if (negated) return { kind: 'other' };
  if (
    ts.isCallExpression(c) &&
    ts.isIdentifier(c.expression) &&
    c.expression.text === 'Boolean' &&
    c.arguments.length === 1
  )
    return { kind: 'truthy', subject: strip(c.arguments[0]) };
  return { kind: 'truthy', subject: c };
}

/** The conditional spreads of one file: each with its condition, properties and text span. */
function sitesOf(sf) {
  const sites = [];
  const visit = (node) => {
    const spread =
      ts.isSpreadAssignment(node) || ts.isJsxSpreadAttribute(node) ? strip(node.expression) : null;
    let site;
    if (spread && ts.isConditionalExpression(spread)) {
      const [t, f] = [strip(spread.whenTrue), strip(spread.whenFalse)];
      if (isEmptyObject(f) && ts.isObjectLiteralExpression(t))
        site = { condition: spread.condition, negated: false, object: t };
      else if (isEmptyObject(t) && ts.isObjectLiteralExpression(f))
        site = { condition: spread.condition, negated: true, object: f };
    } else if (
      spread &&
      ts.isBinaryExpression(spread) &&
      spread.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken &&
      ts.isObjectLiteralExpression(strip(spread.right))
    ) {
      site = { condition: spread.left, negated: false, object: strip(spread.right) };
    }
    if (site && site.object.properties.length > 0) sites.push({ node, sf, ...site });
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return sites;
}

/**
 * Each property the spread adds, with the expression the plain property would hold:
 * `plain` is exact (`k: v`) when the value is the tested expression under a test about
 * undefined; otherwise it keeps the test (`k: cond ? v : undefined`).
 */
function propertiesOf(site) {
  const test = testOf(site.condition, site.negated);
  const props = [];
  for (const p of site.object.properties) {
    let name;
    let value;
    if (ts.isShorthandPropertyAssignment(p)) [name, value] = [p.name.getText(), p.name];
    else if (ts.isPropertyAssignment(p) && !ts.isComputedPropertyName(p.name))
      [name, value] = [p.name.getText(), strip(p.initializer)];
    else return undefined;
    const isSubject = test.subject !== undefined && sameValue(test.subject, value);
    props.push({ name, value, isSubject });
  }
  return { test, props };
}

/** Whether a type holds a falsy value other than undefined: '', 0, 0n, NaN, false, null. */
function admitsOtherFalsy(checker, type) {
  const F = ts.TypeFlags;
  for (const t of type.isUnion() ? type.types : [type]) {
    if (t.flags & (F.Undefined | F.Void | F.Never)) continue;
    if (t.flags & (F.Any | F.Unknown | F.Null | F.TypeParameter | F.Index | F.IndexedAccess))
      return true;
    if (t.flags & (F.String | F.Number | F.BigInt | F.Boolean | F.TemplateLiteral)) return true;
    if (t.flags & F.BooleanLiteral && checker.typeToString(t) === 'false') return true;
    if (t.isStringLiteral() && t.value === '') return true;
    if (t.isNumberLiteral() && t.value === 0) return true;
    if (t.flags & F.BigIntLiteral && t.value.base10Value === '0') return true;
    if (t.flags & F.EnumLike) return true;
    if (t.flags & F.Conditional || t.flags & F.Substitution) return true;
    if (t.isIntersection() && t.types.some((x) => admitsOtherFalsy(checker, x))) return true;
  }
  return false;
}

/** The plain property's source text, and where it goes (replacing the whole spread). */
function plainText(site, info) {
  const jsx = ts.isJsxSpreadAttribute(site.node);
  const cond = site.condition.getText();
  return info.props
    .map((p) => {
      const exact = p.isSubject && info.test.kind === 'defined' && !info.test.nullToo;
      const v = exact
        ? info.test.subject.getText()
        : site.negated
          ? `(${cond}) ? undefined : (${p.value.getText()})`
          : `(${cond}) ? (${p.value.getText()}) : undefined`;
      return jsx ? `${p.name}={${v}}` : `${p.name}: ${v}`;
    })
    .join(jsx ? ' ' : ', ');
}

/**
 * The cheap type test: the property the spread fills, looked up in the contextual type of
 * the object literal around it, holds undefined itself. Unknown (no contextual type, no such
 * property, a JSX attribute) counts as "might not", which keeps the site out of `removable`.
 */
function targetTakesUndefined(checker, site, name) {
  if (ts.isJsxSpreadAttribute(site.node)) return false;
  const context = checker.getContextualType(site.node.parent);
  if (!context) return false;
  const prop = checker.getPropertyOfType(checker.getApparentType(context), name);
  if (!prop) return false;
  const type = checker.getTypeOfSymbol(prop);
  const undef = checker.getUndefinedType();
  const F = ts.TypeFlags;
  return (type.isUnion() ? type.types : [type]).some(
    (t) => t === undef || t.flags & (F.Any | F.Unknown),
  );
}

/** Text of `sf` with each site in `sites` replaced by its plain property. */
function rewrite(sf, sites) {
  let text = sf.text;
  for (const s of [...sites].sort((a, b) => b.node.getStart() - a.node.getStart()))
    text = text.slice(0, s.node.getStart()) + s.plain + text.slice(s.node.getEnd());
  return text;
}

const key = (d) => `${d.code}:${d.start}:${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;

/**
 * For each site: does the plain property fail typecheck? The whole file is rewritten at once
 * first; only where that adds a diagnostic is each site tried alone. Sites that contain
 * other sites are tried alone.
 */
function typeFailures(services, byFile) {
  const failing = new Set();
  for (const [file, sites] of byFile) {
    const owners = services.filter((s) => s.has(file));
    const base = owners.map((s) => new Set(s.diagnostics(file).map(key)));
    const fails = (text) => {
      const out = owners.some((s, i) => {
        const after = s.diagnostics(file, text);
        // Positions move with the rewrite: compare counts of new codes and messages.
        return after.length > base[i].size;
      });
      return out;
    };
    const nested = (s) =>
      sites.some((o) => o !== s && o.node.pos <= s.node.pos && s.node.end <= o.node.end);
    const outer = sites.filter(
      (s) => !sites.some((o) => o !== s && s.node.pos <= o.node.pos && o.node.end <= s.node.end),
    );
    const flat = outer.filter((s) => !nested(s));
    const alone = sites.filter((s) => !flat.includes(s));
    const toTry =
      flat.length > 0 && fails(rewrite(sites[0].sf, flat)) ? [...flat, ...alone] : alone;
    for (const s of toTry) if (fails(rewrite(s.sf, [s]))) failing.add(s);
    for (const s of owners) s.diagnostics(file);
  }
  return failing;
}

/**
 * Finds and classifies every conditional spread of the project, or of `files` (absolute path
 * → text, under the project's compiler options) when given.
 */
export function classify({ cheap = false, files } = {}) {
  // Only the folders looked at are roots (what they import comes in anyway): no tests, no
  // benches, and the web config only for what the node config does not hold.
  const parsed = files
    ? [{ options: readConfig(CONFIGS[0]).options, fileNames: Object.keys(files) }]
    : CONFIGS.map(readConfig);
  const covered = new Set();
  for (const p of parsed) {
    p.fileNames = p.fileNames.filter((f) => inScope(f) && !covered.has(f));
    for (const f of p.fileNames) covered.add(f);
  }
  const services = parsed.map((p) => languageService(p, files));
  const sites = [];
  const seen = new Set();
  for (const [i, { service }] of services.entries()) {
    const program = service.getProgram();
    const checker = program.getTypeChecker();
    for (const sf of program.getSourceFiles()) {
      if (!inScope(sf.fileName) || seen.has(sf.fileName)) continue;
      if (!parsed[i].fileNames.includes(sf.fileName)) continue;
      seen.add(sf.fileName);
      for (const site of sitesOf(sf)) {
        const info = propertiesOf(site);
        const entry = {
          site,
          file: relative(root, sf.fileName),
          line: sf.getLineAndCharacterOfPosition(site.node.getStart()).line + 1,
          text: site.node.getText().replace(/\s+/g, ' '),
        };
        if (!info) {
          sites.push({ ...entry, class: 'guarded', why: 'the object is not plain properties' });
          continue;
        }
        site.plain = plainText(site, info);
        const valueIsTested = info.props.every((p) => p.isSubject);
        let falsy = false;
        if (info.test.kind === 'truthy' && valueIsTested)
          falsy = admitsOtherFalsy(checker, checker.getTypeAtLocation(info.test.subject));
        const nullTest =
          info.test.kind === 'notNull' || (info.test.kind === 'defined' && info.test.nullToo);
        if (nullTest && valueIsTested) {
          const t = checker.getTypeAtLocation(info.test.subject);
          falsy = (t.isUnion() ? t.types : [t]).some((x) => x.flags & ts.TypeFlags.Null);
        }
        const cheapTypes = !info.props.every((p) => targetTakesUndefined(checker, site, p.name));
        sites.push({
          ...entry,
          plainText: site.plain,
          test: info.test.kind,
          valueIsTested,
          falsy,
          cheapTypes,
        });
      }
    }
  }
  let failing = new Set();
  if (!cheap) {
    const byFile = new Map();
    for (const s of sites)
      if (s.plainText !== undefined) {
        const f = s.site.sf.fileName;
        if (!byFile.has(f)) byFile.set(f, []);
        byFile.get(f).push(s.site);
      }
    failing = typeFailures(services, byFile);
  }
  for (const s of sites) {
    if (s.class) continue;
    const types = cheap ? s.cheapTypes : failing.has(s.site);
    if (types)
      [s.class, s.why] = [
        'types',
        cheap ? 'the target may not take undefined' : 'the plain property fails typecheck',
      ];
    else if (s.falsy)
      [s.class, s.why] = ['behaviour', 'a truthiness test over a type with other falsy values'];
    else if (s.valueIsTested && s.test !== 'other')
      [s.class, s.why] = ['removable', 'write the plain property'];
    else
      [s.class, s.why] = [
        'guarded',
        s.valueIsTested ? 'the test is not about the value' : 'the value is computed',
      ];
  }
  return sites.map(({ site: _site, ...rest }) => rest);
}

const CLASSES = ['types', 'behaviour', 'removable', 'guarded'];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const only = args.includes('--class') ? args[args.indexOf('--class') + 1] : undefined;
  const sites = classify({ cheap: args.includes('--cheap') }).filter(
    (s) => only === undefined || s.class === only,
  );
  if (args.includes('--json')) {
    process.stdout.write(`${JSON.stringify(sites, null, 1)}\n`);
  } else {
    if (args.includes('--list'))
      for (const s of sites) console.log(`${s.class.padEnd(9)} ${s.file}:${s.line}  ${s.text}`);
    const counts = CLASSES.map((c) => `${c} ${sites.filter((s) => s.class === c).length}`);
    console.log(`${sites.length} conditional spreads: ${counts.join(', ')}`);
  }
}
