/**
 * The contact and the site's own addresses are configuration: a deployed build names the ones it is
 * given everywhere, and refuses the local placeholders once its address is public.
 */
import { describe, expect, it } from 'vitest'
import { build } from '../../build/index.js'
import { LOCAL_URLS, type ServiceUrls } from '../../schema/config.js'
import { tempDir } from '../support/content-copy.js'

const PUBLIC: ServiceUrls = {
  base_url: 'https://rules.example.org',
  site_url: 'https://www.example.org/pricing/',
  register_url: 'https://register.example.org/warn-notices.csv',
  contact: 'corrections@example.org',
}

describe('configured addresses', () => {
  it('behavior: the configured contact and site address appear in the discovery files and the page', async () => {
    const { files } = await build({ contentDir: 'content', outDir: await tempDir(), urls: PUBLIC })
    const agents = JSON.parse(files.get('public/agents.json') as string)
    expect(agents.contact).toBe(PUBLIC.contact)
    expect(agents.links.human_readable).toBe(PUBLIC.site_url)
    const page = files.get('public/pricing/index.html') as string
    expect(page).toContain(`mailto:${PUBLIC.contact}`)
    for (const [path, text] of files)
      if (path.startsWith('public/')) expect(text, path).not.toContain(LOCAL_URLS.contact)
  })

  it('error: a public build with the placeholder contact is refused, naming the variable to set', async () => {
    const outDir = await tempDir()
    const error = await build({
      contentDir: 'content',
      outDir,
      urls: { ...PUBLIC, contact: LOCAL_URLS.contact },
    }).catch((e: unknown) => e)
    expect(String((error as Error).message)).toMatch(/CONTACT: the corrections contact .* is a placeholder/)
  })

  it('behavior: a local build keeps the placeholder, which can never receive mail', async () => {
    const { files } = await build({ contentDir: 'content', outDir: await tempDir(), urls: LOCAL_URLS })
    expect(JSON.parse(files.get('public/agents.json') as string).contact).toMatch(/\.invalid$/)
  })
})
