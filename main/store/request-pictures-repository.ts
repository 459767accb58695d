import type Database from 'better-sqlite3';
import type { PicturesStore } from '../engine/picture/pictures-store';
import { RequestPicture } from '../../shared/request-picture/picture-schema';

/** Request pictures, one JSON row per request (migration 015). */
export class RequestPicturesRepository implements PicturesStore {
  private readonly saveStmt;
  private readonly getStmt;

  constructor(db: Database.Database) {
    this.saveStmt = db.prepare(
      `INSERT INTO request_pictures (request_id, created_at, picture) VALUES (?, ?, ?)
       ON CONFLICT (request_id) DO UPDATE SET created_at = excluded.created_at, picture = excluded.picture`,
    );
    this.getStmt = db.prepare('SELECT picture FROM request_pictures WHERE request_id = ?').pluck();
  }

  savePicture(requestId: string, picture: RequestPicture, at: number): void {
    this.saveStmt.run(requestId, at, JSON.stringify(picture));
  }

  /** The stored picture, checked against its schema (a row that does not parse is not shown). */
  getPicture(requestId: string): RequestPicture | undefined {
    const raw = this.getStmt.get(requestId) as string | undefined;
    if (raw === undefined) return undefined;
    const parsed = RequestPicture.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  }
}
