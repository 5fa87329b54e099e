import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** A regular file of a work directory: its path under it ('/'-separated), size and last change. */
export interface TreeEntry {
  path: string;
  bytes: number;
  mtimeMs: number;
}

/**
 * The regular files under `dir`, in path order. Symbolic links and other
 * special files are left out, never followed: a link the code made must not
 * let the gateway read a host file through it.
 */
export async function treeOf(dir: string, prefix = ''): Promise<TreeEntry[]> {
  const out: TreeEntry[] = [];
  for (const name of (await readdir(join(dir, prefix))).sort()) {
    const path = prefix === '' ? name : `${prefix}/${name}`;
    const info = await lstat(join(dir, path));
    if (info.isDirectory()) out.push(...(await treeOf(dir, path)));
    else if (info.isFile()) out.push({ path, bytes: info.size, mtimeMs: info.mtimeMs });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

const total = (tree: readonly TreeEntry[]) => tree.reduce((sum, f) => sum + f.bytes, 0);

/** The files of `after` a run wrote: new ones, and those whose size or time changed since `before`. */
export function writtenFiles(before: readonly TreeEntry[], after: readonly TreeEntry[]): TreeEntry[] {
  const old = new Map(before.map((f) => [f.path, f]));
  return after.filter((f) => {
    const was = old.get(f.path);
    return !was || was.bytes !== f.bytes || was.mtimeMs !== f.mtimeMs;
  });
}

/**
 * Keeps a work directory within `capBytes`: when the run left more, the
 * files it wrote are removed (one file never passes the cap, RLIMIT_FSIZE
 * sees to that, but many may) and the tree left is returned; undefined when
 * it is within the cap.
 */
export async function sweepOverCap(
  dir: string,
  before: readonly TreeEntry[],
  after: readonly TreeEntry[],
  capBytes: number,
): Promise<TreeEntry[] | undefined> {
  if (total(after) <= capBytes) return undefined;
  for (const file of writtenFiles(before, after)) await rm(join(dir, file.path), { force: true });
  return treeOf(dir);
}
