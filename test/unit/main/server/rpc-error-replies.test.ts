import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { storageFailure, toRpcError } from '../../../../main/server/rpc-error-replies';
import { GatehouseError, notFound } from '../../../../shared/protocol/errors';

const sqliteError = (code: string) => new Database.SqliteError('failed', code);

describe('failed writes on the wire', () => {
  it('a full disk is -32603 DISK_FULL with a message that says nothing was recorded', () => {
    expect(toRpcError(sqliteError('SQLITE_FULL'))).toEqual({
      code: -32603,
      message: expect.stringMatching(/disk is full.*nothing was recorded/) as string,
      data: { reason: 'DISK_FULL' },
    });
  });

  it('every I/O error is -32603 IO_ERROR, naming SQLite’s code', () => {
    for (const code of ['SQLITE_IOERR', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_FSYNC']) {
      expect(toRpcError(sqliteError(code))).toEqual({
        code: -32603,
        message: expect.stringContaining(code) as string,
        data: { reason: 'IO_ERROR', sqlite: code },
      });
    }
  });

  it('anything else keeps its own answer', () => {
    expect(storageFailure(sqliteError('SQLITE_CONSTRAINT'))).toBeUndefined();
    expect(storageFailure(Object.assign(new Error('x'), { code: 'ENOSPC' }))).toBeUndefined();
    expect(storageFailure(null)).toBeUndefined();
    expect(toRpcError(notFound('request r1'))).toEqual({
      code: -32002,
      message: 'request r1 not found',
    });
    const own = new GatehouseError(-32602, 'bad', { reason: 'SQLITE_FULL' });
    expect(toRpcError(own)).toMatchObject({ code: -32602, message: 'bad' });
  });
});
