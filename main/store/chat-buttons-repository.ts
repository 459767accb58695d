import type Database from 'better-sqlite3';

/** One posted button (table `chat_buttons` of migration 015). */
export interface ChatButtonRow {
  id: string;
  app: string;
  requestId: string;
  decision: string;
  token: string;
  expiresAt: number;
  usedAt?: number;
  usedBy?: string;
}

/** The message a chat app shows for a request, to edit once it is decided. */
export interface ChatMessageRow {
  app: string;
  requestId: string;
  chatId: string;
  messageId: string;
  text: string;
}

interface ButtonSqlRow {
  id: string;
  app: string;
  request_id: string;
  decision: string;
  token: string;
  expires_at: number;
  used_at: number | null;
  used_by: string | null;
}

/**
 * The store side of chat buttons, their messages and the apps' update cursors (migration 015).
 * Synchronous: `markUsed` runs in the same unit of work as the decision it allowed.
 */
export class ChatButtonsRepository {
  private readonly insertButton: Database.Statement<
    [string, string, string, string, string, number]
  >;
  private readonly getButton: Database.Statement<[string], ButtonSqlRow>;
  private readonly useButton: Database.Statement<[number, string, string]>;
  private readonly pruneButtons: Database.Statement<[number]>;
  private readonly putMessage: Database.Statement<[string, string, string, string, string, number]>;
  private readonly getMessage: Database.Statement<
    [string, string],
    { chat_id: string; message_id: string; text: string }
  >;
  private readonly dropMessage: Database.Statement<[string, string]>;
  private readonly getCursor: Database.Statement<[string], { cursor: string }>;
  private readonly putCursor: Database.Statement<[string, string]>;

  constructor(db: Database.Database) {
    this.insertButton = db.prepare(
      `INSERT INTO chat_buttons (id, app, request_id, decision, token, expires_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.getButton = db.prepare('SELECT * FROM chat_buttons WHERE id = ?');
    this.useButton = db.prepare(
      'UPDATE chat_buttons SET used_at = ?, used_by = ? WHERE id = ? AND used_at IS NULL',
    );
    this.pruneButtons = db.prepare('DELETE FROM chat_buttons WHERE expires_at <= ?');
    this.putMessage = db.prepare(
      `INSERT INTO chat_messages (app, request_id, chat_id, message_id, text, posted_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(app, request_id) DO UPDATE SET chat_id = excluded.chat_id,
         message_id = excluded.message_id, text = excluded.text, posted_at = excluded.posted_at`,
    );
    this.getMessage = db.prepare(
      'SELECT chat_id, message_id, text FROM chat_messages WHERE app = ? AND request_id = ?',
    );
    this.dropMessage = db.prepare('DELETE FROM chat_messages WHERE app = ? AND request_id = ?');
    this.getCursor = db.prepare('SELECT cursor FROM chat_cursors WHERE app = ?');
    this.putCursor = db.prepare(
      `INSERT INTO chat_cursors (app, cursor) VALUES (?, ?)
       ON CONFLICT(app) DO UPDATE SET cursor = excluded.cursor`,
    );
  }

  addButton(b: Omit<ChatButtonRow, 'usedAt' | 'usedBy'>): void {
    this.insertButton.run(b.id, b.app, b.requestId, b.decision, b.token, b.expiresAt);
  }

  button(id: string): ChatButtonRow | undefined {
    const r = this.getButton.get(id);
    if (!r) return undefined;
    return {
      id: r.id,
      app: r.app,
      requestId: r.request_id,
      decision: r.decision,
      token: r.token,
      expiresAt: r.expires_at,
      ...(r.used_at !== null ? { usedAt: r.used_at } : {}),
      ...(r.used_by !== null ? { usedBy: r.used_by } : {}),
    };
  }

  /** Marks the button used by `by`; false when it already was. */
  markUsed(id: string, now: number, by: string): boolean {
    return this.useButton.run(now, by, id).changes === 1;
  }

  /** Forgets buttons past their expiry (their token is refused on expiry anyway). */
  pruneExpired(now: number): number {
    return this.pruneButtons.run(now).changes;
  }

  saveMessage(m: ChatMessageRow, now: number): void {
    this.putMessage.run(m.app, m.requestId, m.chatId, m.messageId, m.text, now);
  }

  message(app: string, requestId: string): ChatMessageRow | undefined {
    const r = this.getMessage.get(app, requestId);
    return r
      ? { app, requestId, chatId: r.chat_id, messageId: r.message_id, text: r.text }
      : undefined;
  }

  forgetMessage(app: string, requestId: string): void {
    this.dropMessage.run(app, requestId);
  }

  cursor(app: string): string | undefined {
    return this.getCursor.get(app)?.cursor;
  }

  saveCursor(app: string, cursor: string): void {
    this.putCursor.run(app, cursor);
  }
}
