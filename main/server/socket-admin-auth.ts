import { AuthParams } from '../../shared/protocol/admin-methods';
import { ErrorCode, GatehouseError } from '../../shared/protocol/errors';
import { parseParams } from '../../shared/protocol/validate';
import { secretsEqual } from '../../shared/node/secrets-equal';
import type { AuthAdmission, AuthAttempt, PeerAuthThrottle } from './peer-auth-throttle';

/** Failed `auth` attempts after which a connection is closed (docs/protocol.md "Errors"). */
export const MAX_AUTH_FAILURES = 5;

export interface SocketAdminAuthDeps {
  throttle: PeerAuthThrottle;
  adminToken: () => string;
  /** This connection, as the throttle tells peers apart. */
  attempt: AuthAttempt;
  /** Audits a failed or throttled attempt (the session adds whose connection it is). */
  audit(type: 'auth.failed' | 'auth.throttled', data: Record<string, unknown>): void;
  /** The last failure allowed was counted: stop reading this connection's lines now. */
  stopReading(): void;
  /** Close the connection once the answer to the current call has gone out. */
  closeAfterAnswer(): void;
}

/**
 * One connection's `auth` calls. A wrong token is audited and counts against this connection
 * (closed after {@link MAX_AUTH_FAILURES}) and against the throttle, which during a flood judges
 * each attempt by its own peer process (peer-auth-throttle.ts), so one client's guesses never
 * lock out another.
 */
export class SocketAdminAuth {
  private failures = 0;

  constructor(private readonly d: SocketAdminAuthDeps) {}

  /** Returns when the token is the admin token; throws (or rejects with) the call's error. */
  authenticate(params: unknown): true | Promise<true> {
    const admission = this.d.throttle.admit(this.d.attempt);
    return admission instanceof Promise
      ? admission.then((a) => this.admitted(a, params))
      : this.admitted(admission, params);
  }

  private admitted(admission: AuthAdmission, params: unknown): true | Promise<never> {
    const throttle = this.d.throttle;
    if (!admission.compare) {
      const report = throttle.throttledAttempt();
      if (report) this.audit('auth.throttled', { attempts: report });
      this.countFailure();
      throw new GatehouseError(
        ErrorCode.RateLimited,
        `rate limited: too many failed auth attempts from this process; try again in ${admission.retryAfterSeconds} s`,
      );
    }
    // A failure is answered once it has counted against its peer (see PeerAuthThrottle.failed).
    const fail = (reason: string, error: unknown): Promise<never> => {
      this.audit('auth.failed', { reason });
      // Counted now, so that the lines after the last allowed failure are not read; closed
      // once the answer is out.
      const last = this.countFailure(false);
      return throttle.failed(this.d.attempt).then(() => {
        if (last) this.d.closeAfterAnswer();
        throw error;
      });
    };
    let token: string;
    try {
      token = parseParams(AuthParams, params).token;
    } catch (error) {
      return fail('invalid_params', error);
    }
    if (!secretsEqual(token, this.d.adminToken()))
      return fail(
        'wrong_token',
        new GatehouseError(ErrorCode.Unauthorized, 'unauthorized: wrong admin token'),
      );
    return true;
  }

  private audit(type: 'auth.failed' | 'auth.throttled', data: Record<string, unknown>): void {
    this.d.audit(type, {
      ...data,
      connection: this.d.attempt.connectionId,
      failures: this.failures + 1,
    });
  }

  /** Counts a failed `auth`; at the last one allowed, stops reading (and closes, unless not `now`). */
  private countFailure(now = true): boolean {
    if (++this.failures < MAX_AUTH_FAILURES) return false;
    this.d.stopReading();
    if (now) this.d.closeAfterAnswer();
    return true;
  }
}
