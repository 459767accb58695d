import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { exportSignedText } from '../../../shared/export-format';
import { verifyText } from '../../../shared/node/hub-keys';
import { AuditExportSignature } from '../../../shared/protocol/audit-chain-methods';
import { AdminClient } from '../admin-client';
import { Exit, UsageError, reportError } from '../run-admin';

/** Where `export --sign` puts a file's signature. */
export const signaturePath = (file: string): string => `${file}.sig`;

/** A key's short form for people: SHA-256 of its DER bytes, as ssh prints keys. */
export const keyFingerprint = (publicKey: string): string =>
  `SHA256:${createHash('sha256').update(Buffer.from(publicKey, 'base64')).digest('base64').replace(/=+$/, '')}`;

interface VerifyOptions {
  sig?: string;
  key?: string;
}

/** This Gatehouse's audit key, when its daemon answers (undefined when it is not running). */
async function localKey(): Promise<string | undefined> {
  let client: AdminClient | undefined;
  try {
    client = await AdminClient.connect();
    return (await client.call('audit.key', {})).publicKey;
  } catch {
    return undefined;
  } finally {
    client?.close();
  }
}

/**
 * Checks a signed export: the file's bytes against the signed digest, the signature against
 * the key, and the key against the one the person trusts (`--key`, or this Gatehouse's own).
 * Exit 0 only when all three hold.
 */
async function verifyExport(file: string, o: VerifyOptions): Promise<number> {
  const sigFile = o.sig ?? signaturePath(file);
  let sig: AuditExportSignature;
  try {
    sig = AuditExportSignature.parse(JSON.parse(readFileSync(sigFile, 'utf8')));
  } catch (error) {
    throw new UsageError(
      `${sigFile}: not a Gatehouse export signature (${(error as Error).message.split('\n')[0]})`,
    );
  }
  const bytes = readFileSync(file);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const problems: string[] = [];
  if (bytes.length !== sig.bytes || sha256 !== sig.sha256)
    problems.push(
      `the file was changed after it was signed (${bytes.length} bytes, signed ${sig.bytes})`,
    );
  if (!verifyText(sig.publicKey, exportSignedText(sig), sig.signature))
    problems.push('the signature does not match what it claims to sign');
  const trusted = o.key ?? (await localKey());
  const who = keyFingerprint(sig.publicKey);
  if (trusted === undefined)
    problems.push(
      `signed by ${who}, and there is no key to check it against (pass --key, or run this where that Gatehouse runs)`,
    );
  else if (trusted !== sig.publicKey)
    problems.push(
      `signed by ${who}, not by ${o.key ? 'the key given' : "this Gatehouse's key"} (${keyFingerprint(trusted)})`,
    );
  if (problems.length) {
    console.log(`NOT VERIFIED: ${file}`);
    for (const p of problems) console.log(`  ${p}`);
    return Exit.error;
  }
  console.log(
    `Verified: ${file}: ${sig.entries} audit entries (${sig.format}${sig.since ? ` from ${sig.since}` : ''} until ${sig.until}), signed ${sig.signedAt} by ${who}.`,
  );
  return Exit.ok;
}

/** `gatehouse export verify FILE [--sig F] [--key K]`. */
export function registerExportVerifyCommand(exportCommand: Command): void {
  exportCommand
    .command('verify <file>')
    .description(
      "Check a signed export (written with --sign): the file unchanged, the signature valid, and made by this Gatehouse's key (or --key)",
    )
    .option('--sig <file>', 'the signature file (default: FILE.sig)')
    .option('--key <publicKey>', 'the signing key to trust (base64, from `gatehouse audit verify`)')
    .action(async (file: string, o: VerifyOptions) => {
      try {
        process.exitCode = await verifyExport(file, o);
      } catch (error) {
        process.exitCode = reportError(error);
      }
    });
}
