import { describe, expect, it } from 'vitest';
import { readMigrations, splitStatements } from '../../../../main/hub/store/migrate';
import {
  HubDatabaseError,
  parseDatabaseUrl,
  redactedUrl,
} from '../../../../main/hub/store/open-database';

describe('the hub migrations', () => {
  it('are numbered from 001 without gaps, each with statements', () => {
    const migrations = readMigrations();
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1));
    for (const m of migrations) expect(splitStatements(m.sql).length).toBeGreaterThan(0);
  });

  it('splits at semicolons that end a line, dropping comment lines', () => {
    expect(
      splitStatements(`-- a comment; with a semicolon;
CREATE TABLE a (x INT);
CREATE INDEX b ON a (x) WHERE x > 0;   
-- trailing
`),
    ).toEqual(['CREATE TABLE a (x INT)', 'CREATE INDEX b ON a (x) WHERE x > 0']);
  });
});

describe('the hub database URL', () => {
  it('takes postgres:// and postgresql:// URLs with a host', () => {
    expect(parseDatabaseUrl('postgres://u@db:5432/hub').hostname).toBe('db');
    expect(parseDatabaseUrl('postgresql://u@db/hub').hostname).toBe('db');
  });

  it('refuses what is not one, saying why', () => {
    expect(() => parseDatabaseUrl('db:5432')).toThrow(HubDatabaseError);
    expect(() => parseDatabaseUrl('not a url')).toThrow(/not a URL/);
    expect(() => parseDatabaseUrl('mysql://u@db/hub')).toThrow(/must start with postgres:\/\//);
  });

  it('never prints the password', () => {
    expect(redactedUrl(parseDatabaseUrl('postgres://u:hunter2@db/hub'))).toBe(
      'postgres://u:***@db/hub',
    );
  });
});
