import type {
  CommandPart,
  PushPicture,
  RequestPicture,
} from '../../../shared/request-picture/picture-schema';

/** The tool call a filed request stands for, as its picture is computed from it. */
export interface PictureCall {
  tool: string;
  input: Record<string, unknown>;
  cwd?: string;
  command?: string;
  /**
   * The call's size when it was larger than Gatehouse reads: its input arrived clipped, so
   * nothing is computed from its content (a diff of the clipped text would hide the rest).
   */
  oversize?: number;
  /**
   * Why the file on disk must not be read for the diff (the call names Gatehouse's own files
   * or a secret): the picture then shows only what the call itself carries.
   */
  diskClosed?: string;
  /** Every action of the call as the classifier read it. */
  actions: CommandPart[];
}

/**
 * Computes a request's picture (main/picture/ on the Node side: it reads files and runs git).
 * Read-only and bounded; it may take a while, so the engine never waits for it to answer.
 */
export interface PictureSource {
  compute(call: PictureCall): Promise<RequestPicture>;
  /** The full diff of a stored push picture (its `base`…`head`), bounded, secrets masked. */
  fullDiff(push: PushPicture): Promise<{ diff?: string; omitted?: string }>;
}
