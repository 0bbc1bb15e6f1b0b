/**
 * A build for a public address must carry real contact details: the `.invalid` placeholders exist
 * for local runs and can never receive mail or resolve.
 */
import type { ServiceUrls } from '../../schema/config.js'
import type { BuildIssue } from '../stages/issues.js'

const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/

/** Each address a public build publishes, the variable that sets it and what it must be. */
const PUBLISHED: { key: 'contact' | 'site_url'; variable: string; what: string; allowed: string }[] = [
  {
    key: 'contact',
    variable: 'CONTACT',
    what: 'the corrections contact',
    allowed: 'a mailbox that reads corrections, set in the CONTACT environment variable',
  },
  {
    key: 'site_url',
    variable: 'SITE_URL',
    what: 'the site address',
    allowed: 'the public address of the pricing page, set in the SITE_URL environment variable',
  },
]

export function addressBreaks(urls: ServiceUrls): BuildIssue[] {
  if (LOOPBACK.test(urls.base_url)) return []
  const placeholder = (value: string) => /\.invalid(\/|$|:)/.test(value.replace(/^[^@]*@/, 'https://'))
  return PUBLISHED.filter(({ key }) => placeholder(urls[key])).map(({ key, variable, what, allowed }) => ({
    file: '(configuration)',
    field: variable,
    problem: `${what} ${urls[key]} is a placeholder, but BASE_URL ${urls.base_url} is public`,
    allowed,
  }))
}
