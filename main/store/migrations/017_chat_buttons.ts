import type { Migration } from './migration';

/**
 * Chat apps' buttons (main/remote/chat-buttons.ts):
 * - `chat_buttons`: one row per button posted. A button's callback data is the row's short id
 *   and a MAC of it (Telegram allows 64 bytes); the row binds it to one request and one
 *   decision, holds the signed decision token it redeems, when it expires and when and by whom
 *   it was used.
 * - `chat_messages`: the message posted for a request in each app, so it can be edited once
 *   the request is decided (from any surface).
 * - `chat_cursors`: where each app's update stream resumes (Telegram's `getUpdates` offset).
 */
export const migration017: Migration = {
  version: 17,
  name: 'chat-buttons',
  up(db) {
    db.exec(`
      CREATE TABLE chat_buttons (
        id          TEXT PRIMARY KEY,
        app         TEXT NOT NULL,
        request_id  TEXT NOT NULL,
        decision    TEXT NOT NULL,
        token       TEXT NOT NULL,
        expires_at  INTEGER NOT NULL,
        used_at     INTEGER,
        used_by     TEXT
      ) WITHOUT ROWID;
      CREATE INDEX chat_buttons_expiry ON chat_buttons(expires_at);
      CREATE TABLE chat_messages (
        app         TEXT NOT NULL,
        request_id  TEXT NOT NULL,
        chat_id     TEXT NOT NULL,
        message_id  TEXT NOT NULL,
        text        TEXT NOT NULL,
        posted_at   INTEGER NOT NULL,
        PRIMARY KEY (app, request_id)
      ) WITHOUT ROWID;
      CREATE TABLE chat_cursors (
        app         TEXT PRIMARY KEY,
        cursor      TEXT NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};
