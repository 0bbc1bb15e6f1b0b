/**
 * Whom failed payments and submissions count against: address prefixes, the Workers egress
 * address named by its calling zone, and CF-Worker ignored from anywhere else.
 */
import { describe, expect, it } from 'vitest'
import { ipPrefix } from '../../gateway/http/ip-prefix.js'
import { clientKey, WORKERS_EGRESS_ADDRESS } from '../../gateway/payment/client-key.js'

describe('ipPrefix', () => {
  it('behavior: every spelling of one IPv6 network gives one prefix', () => {
    const spellings = [
      '2001:db8:0:1::5',
      '2001:0db8:0000:0001:0:0:0:9',
      '[2001:db8:0:1:ffff::2]',
      '2001:DB8:0:1:a:b:c:d',
    ]
    expect(new Set(spellings.map((a) => ipPrefix(a, 24, 64)))).toEqual(new Set(['2001:db8:0:1::/64']))
    expect(ipPrefix('2001:db8:77:4::1', 24, 48)).toBe(ipPrefix('2001:db8:77:1::1', 24, 48))
    expect(ipPrefix('2001:db8:78:1::1', 24, 48)).not.toBe(ipPrefix('2001:db8:77:1::1', 24, 48))
  })

  it('behavior: IPv4, and IPv4 mapped into IPv6, cut to the IPv4 prefix', () => {
    expect(ipPrefix('198.51.100.7', 24, 48)).toBe('198.51.100/24')
    expect(ipPrefix('::ffff:198.51.100.9', 24, 48)).toBe('198.51.100/24')
    expect(ipPrefix('198.51.100.7', 32, 64)).toBe('198.51.100.7/32')
  })

  it('error: what is not an address has no prefix', () => {
    for (const junk of ['', 'local', '1.2.3', '256.1.1.1', '1::2::3', '2001:db8::g', '1:2:3:4:5:6:7:8:9'])
      expect(ipPrefix(junk, 24, 48), junk).toBeNull()
  })
})

describe('clientKey', () => {
  it('behavior: the Workers egress address is counted by the calling zone Cloudflare names', () => {
    expect(clientKey(WORKERS_EGRESS_ADDRESS, 'agents.example')).toBe('worker:agents.example')
    expect(clientKey('2a06:98c0:3600:0:0:0:0:103', 'Agents.Example')).toBe('worker:agents.example')
    expect(clientKey(WORKERS_EGRESS_ADDRESS, 'a.example')).not.toBe(
      clientKey(WORKERS_EGRESS_ADDRESS, 'b.example'),
    )
  })

  it('behavior: from any other address CF-Worker is ignored, and a /64 is one client', () => {
    expect(clientKey('198.51.100.7', 'a.example')).toBe(clientKey('198.51.100.7', 'b.example'))
    expect(clientKey('2001:db8:5:6::1', 'x')).toBe(clientKey('2001:db8:5:6::ffff', null))
    expect(clientKey('2001:db8:5:6::1', null)).not.toBe(clientKey('2001:db8:5:7::1', null))
    expect(clientKey(null, null)).toBe('unknown')
  })
})
