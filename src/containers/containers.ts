import { createHash } from 'node:crypto';
import { constants, type ReadStream } from 'node:fs';
import { chown, mkdir, open, realpath, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import type { FileStorage } from '../files/storage/file-storage.js';
import { Errors } from '../http/errors.js';
import {
  type ContainerFileRow,
  type ContainerRow,
  containerBytes,
  deleteContainerById,
  findContainer,
  idleContainers,
  insertContainer,
  listContainerFiles,
  syncContainerFiles,
} from '../store/repositories/containers.js';
import { type FileRow, findFile, workspaceStorageUsed } from '../store/repositories/files.js';
import type { Database } from '../store/schema.js';
import type { Clock } from '../util/clock.js';
import { newContainerId } from '../util/ids.js';
import { CONTAINER_IDLE_DAYS } from './container-settings.js';
import type { Sandbox, SandboxRun } from './sandbox/run-in-sandbox.js';
import type { SandboxLimits } from './sandbox/sandbox-limits.js';
import { treeOf } from './sandbox/work-tree.js';

/** The host users containers run as when the gateway is root: one per container, drawn from this range. */
const SANDBOX_UID_BASE = 200_000;
const SANDBOX_UID_SPAN = 65_536;
const EXPIRED_PER_PASS = 100;

export interface ContainersOptions {
  db: Kysely<Database>;
  clock: Clock;
  sandbox: Sandbox;
  /** CONTAINERS_DIR. */
  directory: string;
  /** FILES_WORKSPACE_QUOTA_BYTES: a workspace's files and containers' files together. */
  workspaceQuotaBytes: number;
  /** The files API's storage: a request's `file_ids` are copied from it into its container. */
  fileStorage: FileStorage;
}

/** The name a copied file has in the work directory: its own, without any directory; its id when that leaves nothing. */
const copiedName = (file: FileRow) => {
  const name = basename(file.filename);
  return name === '' || name === '.' || name === '..' ? file.id : name;
};

const isRoot = () => process.getuid?.() === 0;

/**
 * A workspace's containers: a row and a work directory each, code run in
 * one through the sandbox (one run at a time per container), the files it
 * leaves recorded as the container's (their bytes count toward the
 * workspace's storage quota, so a run's disk cap is what the quota leaves).
 */
export class Containers {
  private readonly busy = new Map<string, Promise<unknown>>();
  private availability: Promise<string | undefined> | undefined;
  /** unavailable()'s answer once it came, for checks that cannot wait (a server tool's, before the upstream call). */
  private known: string | undefined;

  constructor(private readonly options: ContainersOptions) {}

  /** Why code cannot run here (bubblewrap missing, say), or undefined; asked once. */
  unavailable(): Promise<string | undefined> {
    this.availability ??= this.options.sandbox.unavailable(this.options.directory).then((why) => {
      this.known = why;
      return why;
    });
    return this.availability;
  }

  /** Why code cannot run here, as far as unavailable() has found (it is asked when the server starts). */
  knownUnavailable(): string | undefined {
    return this.known;
  }

  /** The caps of each run. */
  get limits(): SandboxLimits {
    return this.options.sandbox.limits;
  }

  find(workspaceId: string, id: string): Promise<ContainerRow | undefined> {
    return findContainer(this.options.db, workspaceId, id);
  }

  /** The container's first `limit` files in path order. */
  async listedFiles(id: string, limit: number): Promise<ContainerFileRow[]> {
    return (await listContainerFiles(this.options.db, id, { limit, order: 'asc' })).slice(0, limit);
  }

  /** 503 when code cannot run here: never unsandboxed. */
  async requireAvailable(): Promise<void> {
    const why = await this.unavailable();
    if (why !== undefined) throw Errors.containersUnavailable(why);
  }

  workDir(id: string): string {
    return join(this.options.directory, id);
  }

  /** The host user a container's runs are, when the gateway is root: RLIMIT_NPROC then counts its processes alone. */
  private uidOf(id: string): number | undefined {
    if (!isRoot()) return undefined;
    return SANDBOX_UID_BASE + (createHash('sha256').update(id).digest().readUInt32BE(0) % SANDBOX_UID_SPAN);
  }

  /** A new container of the workspace, starting with the workspace's files `fileIds` names (copyIn); none is left when they cannot be copied. */
  async create(
    owner: { organizationId: string; workspaceId: string; keyHash: string | null },
    name?: string,
    fileIds: readonly string[] = [],
  ): Promise<ContainerRow> {
    await this.requireAvailable();
    const now = this.options.clock().toISOString();
    const id = newContainerId();
    const dir = this.workDir(id);
    // The root is searchable by the sandbox's users (bubblewrap opens the work directory as one), never listable.
    await mkdir(this.options.directory, { recursive: true, mode: 0o711 });
    await mkdir(dir, { mode: 0o700 });
    const uid = this.uidOf(id);
    if (uid !== undefined) await chown(dir, uid, uid);
    const row: ContainerRow = {
      id,
      organization_id: owner.organizationId,
      workspace_id: owner.workspaceId,
      name: name ?? `Container ${id}`,
      api_key_hash: owner.keyHash,
      created_at: now,
      last_active_at: now,
    };
    try {
      await insertContainer(this.options.db, row);
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
    try {
      if (fileIds.length > 0) await this.copyIn(row, fileIds);
    } catch (error) {
      await deleteContainerById(this.options.db, id);
      await this.discard(id);
      throw error;
    }
    return row;
  }

  /**
   * Copies files of the container's workspace (the files API's, by id) into
   * its work directory, where its code finds them, recorded as the user's
   * (`source: user`); their bytes count toward the workspace's quota, past
   * which nothing is copied (413). A file of another workspace is as absent
   * as a missing one (404). A link the code made is never followed.
   */
  private async copyIn(container: ContainerRow, fileIds: readonly string[]): Promise<void> {
    const { db, workspaceQuotaBytes: quota } = this.options;
    const files: FileRow[] = [];
    for (const id of fileIds) {
      const file = await findFile(db, container.workspace_id, id);
      if (!file) throw Errors.notFound(`File ${id}`);
      files.push(file);
    }
    const used = await workspaceStorageUsed(db, container.workspace_id);
    if (used + files.reduce((sum, file) => sum + file.size_bytes, 0) > quota)
      throw Errors.storageQuotaExceeded({ quota_bytes: quota, used_bytes: used }, quota, used);
    const dir = this.workDir(container.id);
    const uid = this.uidOf(container.id);
    for (const file of files) {
      const path = join(dir, copiedName(file));
      const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
      await pipeline(this.options.fileStorage.read(file.id), handle.createWriteStream());
      if (uid !== undefined) await chown(path, uid, uid);
    }
    await syncContainerFiles(db, container, await treeOf(dir), this.options.clock().toISOString(), 'user');
  }

  /** Forgets a container whose row is gone: its work directory goes. */
  async discard(id: string): Promise<void> {
    await rm(this.workDir(id), { recursive: true, force: true });
  }

  /**
   * Runs code in the container, after any run of it in progress; its files
   * are recorded and the container marked used. The disk cap is the
   * sandbox's, or what the workspace's quota leaves when that is less.
   */
  run(container: ContainerRow, code: string, signal?: AbortSignal): Promise<SandboxRun> {
    const previous = this.busy.get(container.id) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.runNow(container, code, signal));
    this.busy.set(container.id, next);
    void next
      .catch(() => undefined)
      .finally(() => {
        if (this.busy.get(container.id) === next) this.busy.delete(container.id);
      });
    return next;
  }

  private async runNow(container: ContainerRow, code: string, signal?: AbortSignal): Promise<SandboxRun> {
    await this.requireAvailable();
    const { db } = this.options;
    const others =
      (await workspaceStorageUsed(db, container.workspace_id)) -
      (await containerBytes(db, {
        workspaceId: container.workspace_id,
        containerId: container.id,
      }));
    const uid = this.uidOf(container.id);
    const result = await this.options.sandbox.run({
      workDir: this.workDir(container.id),
      code,
      diskBytes: Math.max(0, this.options.workspaceQuotaBytes - others),
      ...(uid !== undefined ? { uid } : {}),
      ...(signal ? { signal } : {}),
    });
    await syncContainerFiles(db, container, result.files, this.options.clock().toISOString());
    return result;
  }

  /**
   * A container file's bytes. Only a regular file inside the work directory
   * is read: a link the code made (to a host file) never is followed.
   */
  async openFile(file: ContainerFileRow): Promise<ReadStream> {
    const root = await realpath(this.workDir(file.container_id));
    const path = join(root, file.path);
    const gone = Errors.notFound(`Container file ${file.id}`);
    const parent = await realpath(dirname(path)).catch(() => undefined);
    if (parent === undefined || (parent !== root && !parent.startsWith(`${root}/`))) throw gone;
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
    if (!handle) throw gone;
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      throw gone;
    }
    return handle.createReadStream();
  }

  /** Deletes the containers unused for CONTAINER_IDLE_DAYS, with their files; how many went. */
  async expire(signal?: AbortSignal): Promise<number> {
    const before = new Date(this.options.clock().getTime() - CONTAINER_IDLE_DAYS * 86_400_000).toISOString();
    let gone = 0;
    for (;;) {
      const idle = await idleContainers(this.options.db, before, EXPIRED_PER_PASS);
      for (const container of idle) {
        await deleteContainerById(this.options.db, container.id);
        await this.discard(container.id);
        gone++;
      }
      if (idle.length < EXPIRED_PER_PASS || signal?.aborted) return gone;
    }
  }
}
