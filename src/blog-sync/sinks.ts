// Where a run's decisions go. The preview sink (dry runs) writes nothing and reports what would happen;
// the real sink asks the workspace coordinator before each write and each queue message.

import type { PublishPostMessage } from "../contracts/queue-messages";
import type { SyncConfigRow } from "../db/blog-sync-configs";
import {
  getSyncedPost,
  insertSyncedPost,
  type SyncedContent,
  type SyncedPostRow,
  type SyncedPostState,
  transitionSyncedPost,
  updateSyncedContent,
} from "../db/blog-sync-posts";
import type { WorkspaceDb } from "../db/client";
import type { WorkspaceCoordinator } from "../durable/workspace-coordinator";
import type { Env } from "../env";

export interface PlannedWrite {
  action: "create" | "update" | "unchanged";
  /** The state the post ends in: `queued` when the run queues it for publishing. */
  to: SyncedPostState;
}

export interface WriteRequest extends PlannedWrite {
  url: string;
  existing: SyncedPostRow | undefined;
  content: SyncedContent;
}

/** `config_changed`: the config was updated. `lease_lost`: the run's claim expired (it went silent too long). */
export type AbortReason = "config_changed" | "lease_lost";

export type WriteOutcome =
  | { kind: "written"; id: number | null; state: SyncedPostState }
  /** The config changed: nothing (further) was written. `draftId`: the post was written, but not queued. */
  | { kind: "aborted"; reason: AbortReason; draftId?: number }
  /** The post left the state the run planned from, or a person edited it (someone else changed it meanwhile). */
  | { kind: "moved"; state: SyncedPostState | null; edited: boolean };

export interface Sink {
  /** Queue messages sent (or, in a preview, that would be sent). */
  readonly queued: number;
  write(request: WriteRequest): Promise<WriteOutcome>;
  /**
   * Asked before each source post and once at the end, so a run that writes nothing still shows it is alive
   * (a real run's claim on the config is extended) and still learns that the config changed. Null: go on.
   */
  checkpoint(): Promise<AbortReason | null>;
}

export class PreviewSink implements Sink {
  queued = 0;

  constructor(
    private readonly coordinator: DurableObjectStub<WorkspaceCoordinator>,
    private readonly configId: number,
    private readonly token: string,
  ) {}

  async write(request: WriteRequest): Promise<WriteOutcome> {
    if (request.to === "queued") this.queued++;
    // A preview names no stored rows (docs/blog-sync.md: synced_post_id is null in a dry run).
    return { kind: "written", id: null, state: request.to };
  }

  /** A sign of life that keeps the preview's claim on the config; a preview has nothing to abort. */
  async checkpoint(): Promise<null> {
    await this.coordinator.renewPreview(this.configId, this.token);
    return null;
  }
}

export class RealSink implements Sink {
  queued = 0;

  constructor(
    private readonly env: Env,
    private readonly w: WorkspaceDb,
    private readonly config: SyncConfigRow,
    private readonly coordinator: DurableObjectStub<WorkspaceCoordinator>,
    private readonly token: string,
  ) {}

  /** The coordinator's answer (a live answer extends the run's claim): null to go on, else why the run must stop. */
  async checkpoint(): Promise<AbortReason | null> {
    const answer = await this.coordinator.checkRun(this.config.id, this.token);
    return answer.ok ? null : answer.reason;
  }

  private async store(request: WriteRequest): Promise<SyncedPostRow | undefined> {
    const { w, config } = this;
    if (!request.existing) return insertSyncedPost(w, config.id, request.content, request.to);
    if (request.action === "update")
      return updateSyncedContent(w, request.existing.id, request.content, "draft", request.to);
    const moved = await transitionSyncedPost(w, request.existing.id, "draft", request.to);
    return moved ? { ...request.existing, state: request.to } : undefined;
  }

  async write(request: WriteRequest): Promise<WriteOutcome> {
    const before = await this.checkpoint();
    if (before) return { kind: "aborted", reason: before };
    const row = await this.store(request);
    if (!row) {
      const now = request.existing ? await getSyncedPost(this.w, request.existing.id) : undefined;
      return { kind: "moved", state: now?.state ?? null, edited: Boolean(now?.editedAt) };
    }
    if (request.to !== "queued") return { kind: "written", id: row.id, state: row.state };
    const beforeQueueing = await this.checkpoint();
    if (beforeQueueing) {
      // Queued without a task would wait forever: put it back. This undoes the post just written; no
      // further post is written.
      await transitionSyncedPost(this.w, row.id, "queued", "draft");
      return { kind: "aborted", reason: beforeQueueing, draftId: row.id };
    }
    const message: PublishPostMessage = {
      type: "publish.post",
      workspace_id: this.w.workspaceId,
      config_id: this.config.id,
      synced_post_id: row.id,
      fingerprint: this.config.fingerprint,
    };
    await this.env.PUBLISH_QUEUE.send(message);
    this.queued++;
    return { kind: "written", id: row.id, state: "queued" };
  }
}
