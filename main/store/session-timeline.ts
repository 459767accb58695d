import type { Page } from '../engine/kernel/page';
import type { RequestRow } from '../engine/requests/requests-store';
import type { TimelineItem, TimelinePage } from '../engine/sessions/sessions-store';
import type { TranscriptRepository } from './misc-repositories';
import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';
import { decodeCursor, encodeCursor, pageOf } from './paging';
import type { RequestsRepository } from './requests-repository';

const NONE_YET = Number.MAX_SAFE_INTEGER;

/** A session's timeline: its transcript rows and the requests it filed, merged by time. */
export class SessionTimeline {
  constructor(
    private readonly transcript: TranscriptRepository,
    private readonly requests: RequestsRepository,
  ) {}

  /**
   * A page of a session's timeline, newest first: its transcript rows and the requests it
   * filed, merged by time. At the same instant the transcript row comes first here: read in
   * time order, a request comes before what followed from it. Each source is read through its session index from where
   * the last page stopped, at most a page of each, so a page costs the same however long the
   * session. The cursor is where each source stopped: `transcriptId:requestKey`.
   */
  pageSessionTimeline(sessionId: string, q: { limit: number; cursor?: string }): TimelinePage {
    const after = decodeCursor(q.cursor, 2);
    if (after && after.length !== 2)
      throw new GatehouseError(ErrorCode.InvalidParams, `invalid cursor "${q.cursor}"`);
    let rowsBefore = after?.[0] ?? NONE_YET;
    let requestsBefore = after?.[1] ?? NONE_YET;
    // One more of each than a page: whether anything is left shows without another read.
    const rows = this.transcript.pageBefore(sessionId, q.limit + 1, rowsBefore);
    const filed = this.requests.pageForSession(sessionId, q.limit + 1, requestsBefore);
    const items: TimelinePage['items'] = [];
    let i = 0;
    let j = 0;
    while (items.length < q.limit && (i < rows.length || j < filed.length)) {
      const row = rows[i];
      const request: { key: number; row: RequestRow } | undefined = filed[j];
      if (row && (!request || row.atMs >= request.row.createdAt)) {
        items.push({ transcript: row.entry });
        rowsBefore = row.id;
        i++;
      } else if (request) {
        items.push({ request: request.row });
        requestsBefore = request.key;
        j++;
      }
    }
    const more = i < rows.length || j < filed.length;
    const requestsTotal = this.requests.countForSession(sessionId);
    return {
      items,
      total: this.transcript.countTranscriptRows(sessionId) + requestsTotal,
      requestsTotal,
      ...(more ? { nextCursor: encodeCursor(rowsBefore, requestsBefore) } : {}),
    };
  }

  /**
   * The first `limit` items of a session's timeline, oldest first: the same merge read from
   * the start (a request before a transcript row of the same instant).
   */
  firstOfSessionTimeline(sessionId: string, limit: number): TimelineItem[] {
    return this.pageSessionTimelineOldestFirst(sessionId, { limit }).items;
  }

  /**
   * A page of a session's timeline, oldest first (the transcript archive walks the whole
   * session this way, a page per turn). The merge of {@link pageSessionTimeline} read the
   * other way: at the same instant a request comes before the transcript row. Each source is
   * read through its session index after where the last page stopped (cursor
   * `transcriptId:requestKey`), at most a page of each, so every page costs the same.
   */
  pageSessionTimelineOldestFirst(
    sessionId: string,
    q: { limit: number; cursor?: string },
  ): Page<TimelineItem> {
    const after = decodeCursor(q.cursor, 2);
    if (after && after.length !== 2)
      throw new GatehouseError(ErrorCode.InvalidParams, `invalid cursor "${q.cursor}"`);
    let rowsAfter = after?.[0] ?? 0;
    let requestsAfter = after?.[1] ?? Number.MIN_SAFE_INTEGER;
    const rows = this.transcript.pageAfter(sessionId, q.limit + 1, rowsAfter);
    const filed = this.requests.pageForSessionAfter(sessionId, q.limit + 1, requestsAfter);
    const items: TimelineItem[] = [];
    let i = 0;
    let j = 0;
    while (items.length < q.limit && (i < rows.length || j < filed.length)) {
      const row = rows[i];
      const request = filed[j];
      if (request && (!row || request.row.createdAt <= row.atMs)) {
        items.push({ request: request.row });
        requestsAfter = request.key;
        j++;
      } else if (row) {
        items.push({ transcript: row.entry });
        rowsAfter = row.id;
        i++;
      }
    }
    const more = i < rows.length || j < filed.length;
    return { items, ...(more ? { nextCursor: encodeCursor(rowsAfter, requestsAfter) } : {}) };
  }

  /** A page of a session's requests, oldest first, after the request key in `cursor`. */
  pageSessionRequestsOldestFirst(
    sessionId: string,
    q: { limit: number; cursor?: string },
  ): Page<RequestRow> {
    const after = decodeCursor(q.cursor, 1)?.[0];
    const rows = this.requests.pageForSessionAfter(sessionId, q.limit + 1, after);
    const { items, nextCursor } = pageOf(
      rows,
      q.limit,
      (r) => r.row,
      (r) => [r.key],
      rows.length,
    );
    return { items, ...(nextCursor ? { nextCursor } : {}) };
  }
}
