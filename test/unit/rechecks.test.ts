/**
 * Issue 43, a query that cannot be right: when the change's own words contradict the emergency fact
 * sent (a deadline within the hour told as routine, a maintenance window told as an emergency), the
 * answer says to re-check it and what answering it would change. Words that agree say nothing.
 */
import { describe, expect, it } from 'vitest'
import { EMERGENCY_DEADLINE_MINUTES, rechecks } from '../../gateway/datasets/rechecks.js'

describe('re-checking a fact the change contradicts', () => {
  it('behavior: a deadline within the limit, told as routine or unanswered, asks to re-check emergency', () => {
    for (const facts of [{ emergency: false }, {}]) {
      const [note] = rechecks(
        facts,
        `swap the certificate, it expires in ${EMERGENCY_DEADLINE_MINUTES - 80} minutes`,
      )
      expect(note).toContain('re-check emergency')
      expect(note).toContain(`in ${EMERGENCY_DEADLINE_MINUTES - 80} minutes`)
      expect(note).toContain('emergency=true')
    }
    expect(rechecks({ emergency: false }, 'rotate the key, sev1 open')[0]).toContain('"sev1"')
    // A certificate expired or due today is a deadline although no minutes are given.
    for (const said of ['expired', 'today', 'deadline', 'outage'])
      expect(rechecks({ emergency: false }, `renew the certificate: ${said}`)[0], said).toContain(`"${said}"`)
    expect(rechecks({ emergency: false }, `within ${EMERGENCY_DEADLINE_MINUTES / 60}h`)).toHaveLength(1)
  })

  it('behavior: a deadline past the limit, an emergency told as one, or no change says nothing', () => {
    expect(rechecks({ emergency: false }, `within ${EMERGENCY_DEADLINE_MINUTES + 1} minutes`)).toEqual([])
    expect(rechecks({ emergency: false }, 'renew the certificate in 3 months')).toEqual([])
    // A hotfix, or a secret expiring in days, is often routine: its deadline decides, not the word.
    expect(rechecks({ emergency: false }, 'roll out the hotfix image')).toEqual([])
    expect(rechecks({ emergency: false }, 'rotate the secret expiring in 9 days')).toEqual([])
    expect(rechecks({ emergency: true }, 'swap the certificate, it expires in 40 minutes')).toEqual([])
    expect(rechecks({ emergency: false }, undefined)).toEqual([])
  })

  it('behavior: a planned window told as an emergency asks to re-check it the other way', () => {
    const [note] = rechecks({ emergency: true }, 'engine upgrade in the weekly maintenance window')
    expect(note).toContain('re-check emergency')
    expect(note).toContain('emergency=false')
  })

  it('behavior: removes_objects told yes for a change whose words take nothing away asks to re-check it', () => {
    const [note] = rechecks(
      { removes_objects: true },
      'enable uniform bucket-level access on the media bucket',
    )
    expect(note).toContain('re-check removes_objects')
    expect(note).toContain('removes_objects=false')
    expect(rechecks({ removes_objects: true }, 'drop the legacy orders column')).toEqual([])
    // Lowering a retention deletes what falls outside it: nothing to re-check.
    expect(rechecks({ removes_objects: true }, 'lower retention.ms on clickstream to 2 days')).toEqual([])
    expect(rechecks({ removes_objects: false }, 'enable uniform bucket-level access')).toEqual([])
    // A move may take the old copy away without saying so: nothing to re-check.
    expect(rechecks({ removes_objects: true }, 'move the production secrets into an environment')).toEqual([])
    // Taking access away, or putting one thing instead of another, removes what others used.
    expect(
      rechecks({ removes_objects: true }, 'turn on s3 block public access for the whole account'),
    ).toEqual([])
    expect(
      rechecks({ removes_objects: true }, 'use entra groups for admin access instead of a hard-coded list'),
    ).toEqual([])
    // Stopping the use of one thing and relying on another moves off the first.
    expect(
      rechecks({ removes_objects: true }, 'stop using aws-auth and rely on access entries only'),
    ).toEqual([])
    // A swap replaces the old column or table with the new one.
    expect(
      rechecks({ removes_objects: true }, 'widen orders.id to bigint using add-column-and-swap'),
    ).toEqual([])
  })
  it('behavior: removes_objects told no for a change that deletes or makes something again asks to re-check it', () => {
    const [note] = rechecks({ removes_objects: false }, 'recreate the local kind cluster on 1.31')
    expect(note).toContain('"recreate"')
    expect(note).toContain('removes_objects=true')
    expect(rechecks({ removes_objects: false }, 'drop the legacy orders column')[0]).toContain('a deletion')
    // Unanswered, or a change that neither deletes nor remakes: nothing to re-check.
    expect(rechecks({}, 'recreate the local kind cluster')).toEqual([])
    expect(rechecks({ removes_objects: false }, 'raise the pool size')).toEqual([])
    // A deletion the change prevents or waits for is none it makes.
    expect(
      rechecks({ removes_objects: false }, 'raise retention.ms to 48h before unread segments are deleted'),
    ).toEqual([])
    expect(rechecks({ removes_objects: false }, 'add the column without dropping the old one')).toEqual([])
  })
})
