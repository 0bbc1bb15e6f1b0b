/**
 * Debian's Chromium for the browser tests (scripts/ci/install-chromium.sh installs it): where it is and
 * the flags known to work headless as root on these machines.
 */
import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'

export const CHROMIUM = '/usr/bin/chromium'

// Without the background-networking flags Chromium tries to reach Google's hosts at start.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Starts Chromium; a missing browser is a broken test machine, not a reason to skip: says how to fix it. */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: run scripts/ci/install-chromium.sh (as root) before the tests`)
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS })
}
