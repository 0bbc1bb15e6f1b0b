/**
 * Reads {base_url}, {site_url}, {register_url} and the contact (BASE_URL, SITE_URL, REGISTER_URL,
 * CONTACT) from the environment, with local defaults.
 */
import { LOCAL_URLS, type ServiceUrls } from '../../schema/config.js'

export function serviceUrlsFromEnv(env: NodeJS.ProcessEnv = process.env): ServiceUrls {
  const port = env.PORT ?? '8787'
  const base = env.BASE_URL ?? `http://127.0.0.1:${port}`
  return {
    base_url: base,
    site_url: env.SITE_URL ?? `${base}/pricing/`,
    register_url: env.REGISTER_URL ?? LOCAL_URLS.register_url,
    contact: env.CONTACT ?? LOCAL_URLS.contact,
  }
}
