import type { Socket } from 'node:net';
import type { Clock, TimerHandle } from '../../shared/clock';
import { LineSplitter } from './ndjson';
import type { LineSource } from './line-scheduler';
import type { ByteBudget } from './socket-limits';

/** Why a channel stopped taking input from its client; the receiver says so on the wire. */
export type ChannelBreach =
  /** One line grew past the largest frame allowed. */
  | { kind: 'line-too-long'; maxBytes: number }
  /** Unfinished lines of all connections together would pass the shared byte budget. */
  | { kind: 'input-budget-spent' }
  /** A line stayed unfinished for longer than allowed (a slow sender holds memory). */
  | { kind: 'line-timeout'; ms: number };

/** What a channel hands its lines and its troubles to (the RPC session). */
export interface LineReceiver {
  /** One complete, non-blank line, in order, when the scheduler gives this channel its turn. */
  line(text: string): void;
  /** The client broke a limit; the receiver answers it with {@link LineChannel.closeWith}. */
  breach(breach: ChannelBreach): void;
  /** The socket closed (either side); nothing more comes or goes. */
  closed(): void;
}

export interface LineChannelDeps {
  clock: Clock;
  /** The largest line accepted, in bytes. */
  maxLineBytes: number;
  /** How long a line may stay unfinished. */
  lineTimeoutMs: number;
  /** Unsent replies above which reading stops until they drain (socket-limits.ts). */
  outputHighWaterBytes: number;
  /** Bytes of unfinished lines held for all connections together. */
  buffered: ByteBudget;
  /** Shares handling time among connections. */
  scheduler: { wake(source: LineSource): void };
  /**
   * Runs `fn` once the writes made so far are committed or rolled back (at once when none
   * are open). Output ready while writes are open waits for them, so that it leaves with the
   * answers that wait for the same commit; absent, output leaves at the end of each tick.
   */
  afterOpenWrites?: ((fn: () => void) => void) | undefined;
}

/**
 * One client's byte stream as lines: NDJSON framing, the share of the input byte budget its
 * unfinished line holds, the unfinished-line timeout, output backpressure and its place in the
 * scheduler's rounds. It knows nothing of JSON-RPC: lines go to its {@link LineReceiver}, and
 * the receiver's replies come back as text through {@link send}.
 *
 * Reading pauses while lines wait for the scheduler or replies are stuck above the high-water
 * mark, so a client that pipelines without reading is held back by its own socket, not by our
 * memory or the other clients' time.
 */
export class LineChannel implements LineSource {
  /** Set once we close the channel or stop reading: later input is ignored. */
  private closing = false;
  private receiver?: LineReceiver;
  private readonly splitter: LineSplitter;
  /** Complete lines read but not yet handled (at most one read's worth: see `pump`). */
  private lines: string[] = [];
  private nextLine = 0;
  /** Our unsent replies passed the high-water mark: reading stops until they drain. */
  private outputBlocked = false;
  private heldBytes = 0;
  private lineTimer?: TimerHandle | undefined;
  /** Replies finishing in the same tick (a committed batch) leave in one write. */
  private outbox = '';
  /** A write of the outbox is on its way (see {@link send}). */
  private flushQueued = false;

  constructor(
    readonly socket: Socket,
    private readonly d: LineChannelDeps,
  ) {
    this.splitter = new LineSplitter(d.maxLineBytes, (line) => this.lines.push(line));
  }

  /** Starts reading, handing lines to `receiver`. */
  open(receiver: LineReceiver): void {
    this.receiver = receiver;
    const socket = this.socket;
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('drain', () => {
      if (!this.outputBlocked || socket.writableLength > this.d.outputHighWaterBytes) return;
      this.outputBlocked = false;
      this.pump();
    });
    socket.on('close', () => {
      this.closing = true;
      this.lineTimer?.cancel();
      this.lineTimer = undefined;
      this.d.buffered.release(this.heldBytes);
      this.heldBytes = 0;
      receiver.closed();
    });
    socket.on('error', () => {
      /* A client that vanished mid-write; 'close' follows. */
    });
  }

  /** Whether the channel is being closed (or no longer reads): lines are no longer handled. */
  get isClosing(): boolean {
    return this.closing;
  }

  /** Complete lines read and not yet handled. */
  get waitingLines(): number {
    return this.lines.length - this.nextLine;
  }

  /**
   * Queues one line of output (without its newline). Lines of one tick leave in one write;
   * while writes are open, lines wait for their commit and leave with the answers that waited
   * for it: a command hook's hello (answered at once) and its call (answered after the commit
   * of what the call wrote) cost one write, not two.
   */
  send(text: string): void {
    const socket = this.socket;
    if (socket.destroyed || !socket.writable) return;
    this.outbox += `${text}\n`;
    if (this.flushQueued) return;
    this.flushQueued = true;
    process.nextTick(this.flushAfterOpenWrites);
  }

  /** Stops handling input now; what is queued or still to be answered is still sent. */
  stopReading(): void {
    this.closing = true;
  }

  /** Sends `text` as the last line, then closes (nothing, when already closing). */
  closeWith(text: string): void {
    if (this.closing) return;
    this.send(text);
    this.close();
  }

  /** Sends what is queued, then closes. */
  close(): void {
    this.closing = true;
    this.flush();
    this.socket.end();
    this.socket.destroySoon?.();
  }

  /** Drops the connection at once (the server is stopping). */
  destroy(): void {
    this.socket.destroy();
  }

  /** Called by the scheduler: handles one waiting line. */
  handleOne(): boolean {
    if (this.closing || this.outputBlocked || this.nextLine >= this.lines.length) return false;
    const line = this.lines[this.nextLine]!;
    this.lines[this.nextLine++] = '';
    this.receiver!.line(line);
    if (this.nextLine >= this.lines.length) {
      this.lines = [];
      this.nextLine = 0;
      this.pump();
      return false;
    }
    return !this.closing && !this.outputBlocked;
  }

  private onData(chunk: Buffer): void {
    if (this.closing) return;
    if (!this.splitter.push(chunk))
      return this.receiver!.breach({ kind: 'line-too-long', maxBytes: this.d.maxLineBytes });
    // Unfinished lines count against one budget for all connections.
    const held = this.splitter.pendingBytes;
    const grew = held - this.heldBytes;
    this.heldBytes = held;
    if (grew > 0 && !this.d.buffered.take(grew)) {
      this.heldBytes -= grew;
      return this.receiver!.breach({ kind: 'input-budget-spent' });
    }
    if (grew < 0) this.d.buffered.release(-grew);
    this.watchUnfinishedLine(held > 0);
    this.pump();
  }

  /** A line may stay unfinished for `lineTimeoutMs` at most (a slow sender holds memory). */
  private watchUnfinishedLine(unfinished: boolean): void {
    if (!unfinished) {
      if (!this.lineTimer) return;
      this.lineTimer.cancel();
      this.lineTimer = undefined;
    } else if (!this.lineTimer) {
      const ms = this.d.lineTimeoutMs;
      this.lineTimer = this.d.clock.setTimer(ms, () =>
        this.receiver!.breach({ kind: 'line-timeout', ms }),
      );
    }
  }

  /** Lines wait for the shared scheduler; reading resumes once none wait and output drained. */
  private pump(): void {
    if (this.closing) return;
    if (this.nextLine < this.lines.length) {
      this.socket.pause();
      if (!this.outputBlocked) this.d.scheduler.wake(this);
    } else if (!this.outputBlocked && this.socket.isPaused()) {
      this.socket.resume();
    }
  }

  /**
   * At the end of the tick that queued output (bound: handed to `process.nextTick`). The
   * answers waiting for a commit are told before this: the commit runs them in order, and the
   * write follows in the tick after, with all of them.
   */
  private readonly flushAfterOpenWrites = (): void => {
    const after = this.d.afterOpenWrites;
    if (after) after(this.flushAtTickEnd);
    else this.flushAtTickEnd();
  };

  private readonly flushAtTickEnd = (): void => {
    process.nextTick(this.flush);
  };

  /** Writes the queued lines (bound: handed to `process.nextTick`). */
  private readonly flush = (): void => {
    this.flushQueued = false;
    const text = this.outbox;
    this.outbox = '';
    const socket = this.socket;
    if (text === '' || socket.destroyed || !socket.writable) return;
    socket.write(text);
    // Only once the socket itself wants a drain, so that a 'drain' surely comes to unblock us.
    if (
      !this.outputBlocked &&
      socket.writableNeedDrain &&
      socket.writableLength > this.d.outputHighWaterBytes
    ) {
      this.outputBlocked = true;
      socket.pause();
    }
  };
}
