/**
 * A build for a public address must carry real contact details: the `.invalid` placeholders exist
 * for local runs and can never receive mail or resolve.
 */
import type { ServiceUrls } from '../../schema/config.js'
import type { BuildIssue } from '../stages/issues.js'

const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/

export function addressBreaks(urls: ServiceUrls): BuildIssue[] {
  if (LOOPBACK.test(urls.base_url)) return []
  const placeholder = (value: string) => /\.invalid(\/|$|:)/.test(value.replace(/^[^@]*@/, 'https://'))
  const issues: BuildIssue[] = []
  if (placeholder(urls.contact))
    issues.push({
      file: '(configuration)',
      field: 'CONTACT',
      problem: `the corrections contact ${urls.contact} is a placeholder, but BASE_URL ${urls.base_url} is public`,
      allowed: 'a mailbox that reads corrections, set in the CONTACT environment variable',
    })
  if (placeholder(urls.site_url))
    issues.push({
      file: '(configuration)',
      field: 'SITE_URL',
      problem: `the site address ${urls.site_url} is a placeholder, but BASE_URL ${urls.base_url} is public`,
      allowed: 'the public address of the pricing page, set in the SITE_URL environment variable',
    })
  return issues
}
