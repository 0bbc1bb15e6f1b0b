/**
 * The editor's loop (`npm run dev`, or `npm start -- --watch`): a save under the content folder
 * rebuilds and the running service serves the new bytes, no restart. Saves that come while a
 * rebuild runs are gathered into one more rebuild after it, so the last save is always the one served.
 */
import { readdirSync, watch } from 'node:fs'
import { join, relative } from 'node:path'

/** Editors write a file in a few steps (temp file, rename, chmod): one rebuild for all of them. */
const SETTLE_MS = 150

/**
 * Watches `dir` and every folder in it. One watcher per folder, all in place before this returns:
 * Node's recursive watch on Linux starts its watchers later, and a save made meanwhile is lost.
 */
export function watchContent(dir: string, rebuild: (changed: string) => Promise<void>): { close(): void } {
  let timer: NodeJS.Timeout | undefined
  let busy = false
  let changed: string | undefined
  const run = async () => {
    busy = true
    try {
      while (changed !== undefined) {
        const file = changed
        changed = undefined
        await rebuild(file)
      }
    } finally {
      busy = false
    }
  }
  const folders = [
    dir,
    ...readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(entry.parentPath, entry.name)),
  ]
  const watchers = folders.map((folder) =>
    watch(folder, (_event, file) => {
      changed = relative(dir, join(folder, file ?? ''))
      clearTimeout(timer)
      timer = setTimeout(() => {
        if (!busy) void run()
      }, SETTLE_MS)
    }),
  )
  return {
    close: () => {
      clearTimeout(timer)
      for (const watcher of watchers) watcher.close()
    },
  }
}
