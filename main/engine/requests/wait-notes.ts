/**
 * Notes for the answer a waiting agent gets when its wait ends before anyone decided: what
 * it waits on elsewhere (the hub's team quorum: "1 of 2 approvals"). Kept in memory: a note
 * only adds words to a timeout's answer, and a restart loses at most those words.
 */
export class WaitNotes {
  private readonly notes = new Map<string, string>();

  set(requestId: string, note: string): void {
    this.notes.set(requestId, note);
  }

  get(requestId: string): string | undefined {
    return this.notes.get(requestId);
  }

  delete(requestId: string): void {
    this.notes.delete(requestId);
  }
}
