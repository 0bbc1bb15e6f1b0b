/**
 * The network an address belongs to, as a canonical string: an IPv4 address cut to its first
 * `v4Bits` (a multiple of 8), an IPv6 address to its first `v6Bits` (a multiple of 16). One host
 * commonly holds a whole IPv6 /64 (and a site a /48), so counting per address counts one party many
 * times. IPv4-mapped IPv6 addresses count as IPv4. `null` for anything that is not an address.
 */
export function ipPrefix(address: string, v4Bits: number, v6Bits: number): string | null {
  const v4 = ipv4Octets(address)
  if (v4) return `${v4.slice(0, v4Bits / 8).join('.')}/${v4Bits}`
  const v6 = ipv6Hextets(address)
  if (!v6) return null
  const mapped = v6.slice(0, 5).every((h) => h === 0) && v6[5] === 0xffff
  if (mapped) {
    const octets = [v6[6] ?? 0, v6[7] ?? 0].flatMap((h) => [h >> 8, h & 0xff])
    return `${octets.slice(0, v4Bits / 8).join('.')}/${v4Bits}`
  }
  return `${v6
    .slice(0, v6Bits / 16)
    .map((h) => h.toString(16))
    .join(':')}::/${v6Bits}`
}

/** The same address spelt any legal way gives the same string; null for anything else. */
export function canonicalAddress(address: string): string | null {
  return ipPrefix(address, 32, 128)
}

function ipv4Octets(address: string): number[] | null {
  const parts = address.split('.')
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null
  return parts.map(Number)
}

function ipv6Hextets(address: string): number[] | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  if (!bare.includes(':')) return null
  const halves = bare.split('::')
  if (halves.length > 2) return null
  const groups = (half: string | undefined) => (half ? half.split(':') : [])
  const expand = (parts: string[]): number[] | null => {
    const out: number[] = []
    for (const [i, part] of parts.entries()) {
      if (i === parts.length - 1 && part.includes('.')) {
        const v4 = ipv4Octets(part)
        if (!v4) return null
        out.push(((v4[0] as number) << 8) | (v4[1] as number), ((v4[2] as number) << 8) | (v4[3] as number))
      } else if (/^[0-9a-fA-F]{1,4}$/.test(part)) out.push(Number.parseInt(part, 16))
      else return null
    }
    return out
  }
  const head = expand(groups(halves[0]))
  const tail = expand(groups(halves[1]))
  if (!head || !tail) return null
  const missing = 8 - head.length - tail.length
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null
  return [...head, ...Array<number>(missing).fill(0), ...tail]
}
