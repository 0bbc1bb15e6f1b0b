/**
 * The clock a paid request resolves its clock-dependent defaults against (the changes window
 * without `since`): the issue time of the challenge its credential answers, not the moment the
 * request arrives. The default then binds the same request however late the credential is re-sent
 * (a lost answer is fetched again under its key for 24 h, across 00:00 UTC). The expiry is not
 * verified here: a wrong one only names another request, which the challenge id then refuses.
 */
export function defaultsClock(echoedExpires: unknown, challengeTtlMs: number, now: number): number {
  if (typeof echoedExpires !== 'string') return now
  const issuedAt = Date.parse(echoedExpires) - challengeTtlMs
  // Never ahead of the request: a forged expiry could otherwise move the window into the future.
  return Number.isNaN(issuedAt) ? now : Math.min(issuedAt, now)
}
